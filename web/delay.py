"""The spectator delay: the public view shown some seconds late, for a table that is streamed.

When the delay is on, one thread follows the table and stamps every change with the time it came;
the scoreboard's state and stream then come from that timeline, each change released only once it
is ``seconds`` old, so a viewer of the stream learns nothing the room did not see that long ago.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import Callable

from controller.table.records import TableHandle, TableState, Update

KEEP = 10_000  # changes kept for streams that resume from an older sequence number


class SpectatorDelay:
    """A delayed public view of a table (``seconds`` 0: off, the table itself is used)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._ready = threading.Condition()
        self._timeline: deque[tuple[float, Update]] = deque(maxlen=KEEP)
        self._first: TableState | None = None
        self._thread: threading.Thread | None = None

    @property
    def active(self) -> bool:
        """Whether a delay is set."""
        return self.seconds > 0

    def follow(self, table: TableHandle) -> None:
        """Start following ``table`` (once); changes from now on are stamped as they come."""
        with self._ready:
            if self._thread is not None:
                return
            self._first = table.state()
            self._thread = threading.Thread(target=self._pump, args=(table, self._first.seq),
                                            name="spectator-delay", daemon=True)
            self._thread.start()

    def _pump(self, table: TableHandle, after: int) -> None:
        subscription = table.subscribe(after=after)
        while True:
            update = subscription.next(timeout=1.0)
            if update is not None:
                with self._ready:
                    self._timeline.append((self._clock(), update))
                    self._ready.notify_all()

    def state(self) -> TableState:
        """The latest state that is at least ``seconds`` old."""
        with self._ready:
            due = self._clock() - self.seconds
            released = [update.state for at, update in self._timeline if at <= due]
            assert self._first is not None, "follow() first"
            return released[-1] if released else self._first

    def next_after(self, after: int, timeout: float) -> Update | None:
        """The first released change above ``after``, waiting up to ``timeout`` real seconds
        (the clock decides what is released, the wait is always in real time)."""
        end = time.monotonic() + timeout
        with self._ready:
            while True:
                waiting = next((item for item in self._timeline if item[1].seq > after), None)
                hold = waiting[0] + self.seconds - self._clock() if waiting else timeout
                if waiting is not None and hold <= 0:
                    return waiting[1]
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._ready.wait(min(left, hold))


class DelayedSubscription:
    """A subscription to the delayed timeline (the :class:`Subscription` protocol)."""

    def __init__(self, delay: SpectatorDelay, after: int) -> None:
        self._delay, self._after = delay, after

    def next(self, timeout: float) -> Update | None:
        """The next released change, or None within ``timeout`` seconds."""
        update = self._delay.next_after(self._after, timeout)
        if update is not None:
            self._after = update.seq
        return update

    def close(self) -> None:
        """Nothing to release: the timeline is shared."""
