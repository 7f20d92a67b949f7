"""What the web app keeps beside the table: settings, the PIN gate, and how it waits for changes."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from flask import Flask, current_app

from controller.table.records import Place, Subscription, TableHandle, TableState, Update
from web.delay import DelayedSubscription, SpectatorDelay
from web.feed import DirectFeed, Fanout, Feed, FanoutFeed
from web.payload import Payloads
from web.security import PinGate

T = TypeVar("T")


def direct(call: Callable[..., T], *args: Any) -> T:
    """Run a blocking call in the calling thread (the default; the test client and threads)."""
    return call(*args)


@dataclass
class WebTable:
    """The table and the web's own collaborators, in ``app.extensions["dicetable"]``.

    ``blocking`` runs a call that may block (a subscription's ``next``); :func:`web.server.serve`
    replaces it with gevent's thread pool so that a waiting stream never stalls the others.
    ``run`` names this run of the table: a table that restarts is served by a new app (the web
    runs in the table's process), and its ``TableState.told`` counts again from 0, so the same
    record, game and ``told`` of two runs are not the same table (the console's place, ``at``).
    """

    table: TableHandle
    settings: dict[str, Any]
    gate: PinGate
    payloads: Payloads
    delay: SpectatorDelay
    blocking: Callable[..., Any] = field(default=direct)
    fanout: Fanout | None = None  # set by the gevent server: one subscription for every stream
    run: str = field(default_factory=lambda: secrets.token_hex(8))

    def document(self, state: TableState, kind: str = "state", text: str = "") -> dict[str, Any]:
        """The public document of ``state`` (see :meth:`web.payload.Payloads.document`)."""
        return self.payloads.document(self.table, state, kind, text, self.delay.late)

    def event(self, update: Update) -> bytes:
        """``update``'s event as the stream sends it (encoded once for every stream)."""
        return self.payloads.event(self.table, update, self.delay.late)

    @classmethod
    def build(cls, table: TableHandle, settings: dict[str, Any], clear_pin: str | None) -> WebTable:
        """The collaborators for ``table`` (the clear PIN is hashed here and then forgotten)."""
        gate = PinGate.from_settings(settings, clear_pin)
        delay = SpectatorDelay(float(settings["delay_seconds"]),
                               one_hand=bool(settings["delay_one_hand"]))
        if delay.active:
            delay.follow(table)
        return cls(table, settings, gate, Payloads(), delay)

    def public_state(self) -> TableState:
        """The state the scoreboard shows: the table's now, or the delayed one."""
        return self.delay.state() if self.delay.active else self.table.state()

    def public_subscribe(self, after: Place) -> Subscription:
        """Changes after place ``after`` as the scoreboard gets them (delayed when the delay is
        on; the table's own subscription goes by the record, the changes told since it come live)."""
        if self.delay.active:
            return DelayedSubscription(self.delay, after)
        return self.table.subscribe(after=after[0])

    def feed(self, after: Place) -> Feed:
        """Where one event stream gets the changes after place ``after``."""
        if self.fanout is not None:
            return FanoutFeed(self.fanout, after, self.public_subscribe, self.blocking)
        return DirectFeed(self.blocking(self.public_subscribe, after), self.blocking)


def web_table(app: Flask | None = None) -> WebTable:
    """The :class:`WebTable` of ``app`` (the current app by default)."""
    found: WebTable = (app or current_app).extensions["dicetable"]
    return found
