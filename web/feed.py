"""How an event stream waits for the table's changes: alone, or through one shared fan-out.

A :class:`DirectFeed` holds its own subscription (the test client, a threaded server). Under the
gevent server every stream reads one :class:`Fanout` instead: a single thread follows the table
and hands each change to the event loop, whose streams all wake on one gevent event, so two
hundred spectators cost one subscription and no thread each. A stream resuming from before what
the fan-out keeps catches up from the table's record first. A stream's place is a change's
:attr:`~controller.table.records.Update.place`, not its record number: a notice keeps the last
record's number, and a stream that went by the number alone never sent it.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any, Callable, Protocol

from controller.table.records import Place, Subscription, Update

KEPT = 2000  # changes the fan-out keeps for streams that fall behind or resume


class Feed(Protocol):
    """The changes one stream has not sent yet."""

    def wait(self, timeout: float) -> list[Update]:
        """The next changes (oldest first), or none within ``timeout`` seconds."""
        ...

    def close(self) -> None:
        """Let go of what the feed holds."""
        ...


class DirectFeed:
    """A stream's own subscription; ``blocking`` runs its waits (see ``WebTable.blocking``)."""

    def __init__(self, subscription: Subscription, blocking: Callable[..., Any]) -> None:
        self._subscription, self._blocking = subscription, blocking

    def wait(self, timeout: float) -> list[Update]:
        """The next change and every one already waiting behind it."""
        first = self._blocking(self._subscription.next, timeout)
        if first is None:
            return []
        found = [first]
        while (more := self._subscription.next(0)) is not None:
            found.append(more)
        return found

    def close(self) -> None:
        """Close the subscription."""
        self._subscription.close()


class Fanout:
    """One subscription shared by every stream of a gevent server (build it in that thread).

    ``subscribe(after)`` opens a subscription of the public changes after place ``after``;
    ``prepare(update)``, run in the fan-out's own thread, serialises a change before the event
    loop sees it (so the loop, which writes to every stream, never stops for a ``json.dumps``);
    ``floor`` is the place at and below which changes are no longer kept here.
    """

    def __init__(self, subscribe: Callable[[Place], Subscription], after: Place,
                 prepare: Callable[[Update], object] = lambda update: None) -> None:
        from gevent.event import Event
        from gevent.hub import get_hub
        self._subscribe, self._event_type, self._prepare = subscribe, Event, prepare
        self.floor = after
        self._kept: deque[Update] = deque()
        self._incoming: list[Update] = []
        self._lock = threading.Lock()
        self.changed = Event()
        self._wake = get_hub().loop.async_()
        self._wake.start(self._take)
        self._running = True
        threading.Thread(target=self._pump, args=(after,), name="web-fanout", daemon=True).start()

    def _pump(self, after: Place) -> None:
        subscription = self._subscribe(after)
        try:
            while self._running:
                update = subscription.next(1.0)
                if update is not None:
                    self._prepare(update)
                    with self._lock:
                        self._incoming.append(update)
                    self._wake.send()  # thread-safe: the event loop runs _take
        finally:
            subscription.close()

    def _take(self) -> None:
        with self._lock:
            incoming, self._incoming = self._incoming, []
        self._kept.extend(incoming)
        while len(self._kept) > KEPT:
            self.floor = self._kept.popleft().place
        changed, self.changed = self.changed, self._event_type()
        changed.set()

    def since(self, after: Place) -> list[Update]:
        """The kept changes above ``after``, read from the newest back: every stream asks at
        every change, and a live one is a change or two behind, so this costs what it returns,
        not the length of what is kept (200 streams scanning 2000 kept changes each took most
        of the fan-out's time)."""
        found: list[Update] = []
        for update in reversed(self._kept):
            if update.place <= after:
                break
            found.append(update)
        found.reverse()
        return found

    def close(self) -> None:
        """Stop following the table (the thread ends within a second)."""
        self._running = False
        self._wake.stop()


class FanoutFeed:
    """One stream's place in a :class:`Fanout`."""

    def __init__(self, fanout: Fanout, after: Place, subscribe: Callable[[Place], Subscription],
                 blocking: Callable[..., Any]) -> None:
        self._fanout, self._after = fanout, after
        self._subscribe, self._blocking = subscribe, blocking

    def wait(self, timeout: float) -> list[Update]:
        """The next changes: caught up from the record first if this stream is behind."""
        if self._after < self._fanout.floor:
            return self._advance(self._blocking(self._catch_up))
        changed = self._fanout.changed
        found = self._fanout.since(self._after)
        if not found:
            changed.wait(timeout)
            found = self._fanout.since(self._after)
        return self._advance(found)

    def _catch_up(self) -> list[Update]:
        subscription = self._subscribe(self._after)
        found: list[Update] = []
        try:
            while (update := subscription.next(0)) is not None:
                found.append(update)
                if update.place >= self._fanout.floor:
                    break
        finally:
            subscription.close()
        if not found:
            self._after = self._fanout.floor  # the record has nothing older to give
        return found

    def _advance(self, found: list[Update]) -> list[Update]:
        if found:
            self._after = found[-1].place
        return found

    def close(self) -> None:
        """Nothing to release: the fan-out is shared."""
