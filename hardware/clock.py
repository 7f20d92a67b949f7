"""Time for devices: the real monotonic clock, and a simulated clock that tests advance.

Every device takes its :class:`Clock` from the factory, so the simulated table never sleeps on
real time: a test calls :meth:`SimClock.advance` and every timer that falls due runs, in order,
with ``now()`` reading the timer's due time.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, runtime_checkable


@runtime_checkable
class Clock(Protocol):
    """Monotonic time in seconds and a way to wait."""

    def now(self) -> float:
        """Seconds since an arbitrary start; never goes backwards."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (a simulated clock advances instead of waiting)."""
        ...


class RealClock:
    """The machine's monotonic clock."""

    def now(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """``time.sleep`` (negative waits return at once)."""
        time.sleep(max(0.0, seconds))


@dataclass(order=True)
class Timer:
    """A callback due at ``due`` on a :class:`SimClock`; :meth:`cancel` stops it running."""

    due: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        """Do not run the callback (harmless when it already ran)."""
        self.cancelled = True


class SimClock:
    """A clock that moves only when told to, running timers that fall due.

    >>> clock = SimClock()
    >>> fired = []
    >>> _ = clock.call_later(0.5, lambda: fired.append(clock.now()))
    >>> clock.advance(1.0)
    >>> fired, clock.now()
    ([0.5], 1.0)
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._timers: list[Timer] = []
        self._order = itertools.count()
        self._lock = threading.RLock()

    def now(self) -> float:
        """The simulated time."""
        return self._now

    def sleep(self, seconds: float) -> None:
        """Advance the clock by ``seconds`` (running the timers that fall due)."""
        self.advance(max(0.0, seconds))

    def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, running due timers in order at their due times.

        :raises ValueError: ``seconds`` is negative (time never goes back).
        """
        if seconds < 0:
            raise ValueError(f"cannot advance a clock by {seconds!r} seconds")
        with self._lock:
            end = self._now + seconds
            while self._timers and self._timers[0].due <= end:
                timer = heapq.heappop(self._timers)
                if not timer.cancelled:
                    self._now = max(self._now, timer.due)
                    timer.callback()
            self._now = end

    def call_at(self, due: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` when the clock reaches ``due`` (at the next advance if already past)."""
        with self._lock:
            timer = Timer(due, next(self._order), callback)
            heapq.heappush(self._timers, timer)
            return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` ``delay`` seconds from now."""
        return self.call_at(self._now + delay, callback)

    def pending(self) -> int:
        """How many timers wait to run (cancelled ones excluded)."""
        return sum(1 for timer in self._timers if not timer.cancelled)
