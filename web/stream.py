"""Server-Sent Events: the scoreboard's live feed, one event per change, resumable.

Each change is an ``update`` event whose ``id`` is its record sequence number; a browser that
reconnects sends the last id it saw (``Last-Event-ID``) and gets every change after that record,
so a restart of the server loses nothing recorded. A change told without a record (a notice)
carries the last record's number; an open stream sends it in its turn, a resumed one goes on after
those told before it resumed (their lines are in the next change's log) and sends those told from
then on (:func:`resumed_at`). A stream opened fresh starts with a ``state`` event.
Comments keep an idle connection open through proxies.
"""

from __future__ import annotations

import json
from typing import Generator

from controller.table.records import AFTER_ALL_TOLD, Place
from web.context import WebTable
from web.payload import sse


def whole_number(text: str | None) -> int | None:
    """``text`` as a whole number of at most 18 ASCII digits (a sequence number, a count), else
    None: ``str.isdigit`` also takes "²", which ``int`` refuses, and ``int`` refuses more than
    4300 digits.

    >>> whole_number(" 12 "), whole_number("²"), whole_number("-1"), whole_number("9" * 5000)
    (12, None, None, None)
    """
    digits = (text or "").strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        return None
    return int(digits)


def resume_point(header: str | None, query: str | None) -> int | None:
    """The sequence number to resume after: ``Last-Event-ID`` or ``?after=``; None when absent
    or not a :func:`whole_number`.

    >>> resume_point("12", None), resume_point(None, "3"), resume_point("junk", "²")
    (12, 3, None)
    """
    for text in (header, query):
        if (number := whole_number(text)) is not None:
            return number
    return None


def resumed_at(after: int, now: Place) -> Place:
    """Where a stream resumed after record ``after`` goes on, the table standing at ``now``: after
    every change told of that record (the id names the record, not the changes told after it),
    but no further than ``now``, so that what is told from now on is sent. Past ``now``, a stream
    resumed at the table's last record sent nothing told without a record (a new game, a notice)
    until the next record, nor a restarted table's, whose count of them starts again from 0.

    >>> resumed_at(7, (7, 2)), resumed_at(7, (9, 0)) == (7, AFTER_ALL_TOLD)
    ((7, 2), True)
    """
    return min((after, AFTER_ALL_TOLD), now)


def events(ctx: WebTable, after: int | None) -> Generator[bytes, None, None]:
    """The stream's text: ``retry``, then a ``state`` (fresh) and every change after ``after``."""
    yield f"retry: {int(ctx.settings['retry_ms'])}\n\n".encode()
    state = ctx.public_state()
    if after is None:
        yield sse("state", json.dumps(ctx.document(state), separators=(",", ":")),
                  state.seq).encode()
    place = state.place if after is None else resumed_at(after, state.place)
    feed = ctx.feed(place)
    keepalive = float(ctx.settings["keepalive"])
    try:
        while True:
            updates = feed.wait(keepalive)
            if not updates:
                yield b": keep-alive\n\n"
                continue
            yield b"".join(ctx.event(update) for update in updates)  # encoded once, for all
    finally:
        feed.close()
