"""The spectator delay: the public view shown some seconds or one hand late, for a streamed table.

When a delay is on, one thread follows the table and stamps every change with the time it came
and its hand; the scoreboard's state and stream then come from that timeline, each change
released only once it is ``seconds`` old and, with ``one_hand``, once its hand is over: a change
is held until the next hand begins, and the first change of the new hand (the previous hand's
end: its result on screen, no die of the new hand yet) is then released with everything before
it. So a viewer of the stream learns nothing the room did not see that long ago, and with
``one_hand`` no die of the hand in play.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import replace
from typing import Callable

from controller.games.view import Awaited, SeatView
from controller.table.records import Place, TableHandle, TableState, Update

KEEP = 10_000  # changes kept for streams that resume from an older sequence number
LATE = "The scoreboard runs one hand late: it shows this hand when it is over"


class SpectatorDelay:
    """A delayed public view of a table (``seconds`` 0 and not ``one_hand``: off, the table
    itself is used)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic,
                 one_hand: bool = False) -> None:
        self.seconds, self.one_hand = seconds, one_hand
        self._clock = clock
        self._ready = threading.Condition()
        # (position, time it came, the change); positions count up from 1
        self._timeline: deque[tuple[int, float, Update]] = deque(maxlen=KEEP)
        self._count = 0
        self._released = 0  # one_hand: the last position whose hand is over
        self._hand: tuple[int, int] | None = None
        self._first: TableState | None = None
        self._thread: threading.Thread | None = None

    @property
    def late(self) -> str:
        """How late the public view runs, for the scoreboard ("" when live).

        >>> SpectatorDelay(30, one_hand=True).late
        'one hand and 30 s late'
        """
        parts = [*(["one hand"] if self.one_hand else []),
                 *([f"{self.seconds:g} s"] if self.seconds > 0 else [])]
        return f"{' and '.join(parts)} late" if parts else ""

    @property
    def active(self) -> bool:
        """Whether a delay is set."""
        return self.seconds > 0 or self.one_hand

    def follow(self, table: TableHandle) -> None:
        """Start following ``table`` (once); changes from now on are stamped as they come."""
        with self._ready:
            if self._thread is not None:
                return
            now = table.state()
            self._hand = _hand(now)
            self._first = without_hand(now) if self.one_hand else now
            self._thread = threading.Thread(target=self._pump, args=(table, now.seq),
                                            name="spectator-delay", daemon=True)
            self._thread.start()

    def _pump(self, table: TableHandle, after: int) -> None:
        subscription = table.subscribe(after=after)
        while True:
            update = subscription.next(timeout=1.0)
            if update is not None:
                self._take(update)

    def _take(self, update: Update) -> None:
        with self._ready:
            self._count += 1
            self._timeline.append((self._count, self._clock(), update))
            hand = _hand(update.state)
            if hand != self._hand:  # a new hand: the one before is over, all of it may be seen
                self._hand, self._released = hand, self._count
            self._ready.notify_all()

    def _hold(self, position: int, at: float) -> float | None:
        """Seconds until the change at ``position`` is released (0 or less: it is), or None
        while its hand is in play."""
        if self.one_hand and position > self._released:
            return None
        return at + self.seconds - self._clock()

    def state(self) -> TableState:
        """The latest released state (before any: the table without the hand in play)."""
        with self._ready:
            assert self._first is not None, "follow() first"
            released = [update.state for position, at, update in self._timeline
                        if _due(self._hold(position, at))]
            return released[-1] if released else self._first

    def next_after(self, after: Place, timeout: float) -> Update | None:
        """The first released change after place ``after``, waiting up to ``timeout`` real seconds
        (the clock decides what is released, the wait is always in real time)."""
        end = time.monotonic() + timeout
        with self._ready:
            while True:
                waiting = next((item for item in self._timeline if item[2].place > after), None)
                hold = self._hold(waiting[0], waiting[1]) if waiting else None
                if waiting is not None and _due(hold):
                    return waiting[2]
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._ready.wait(min(left, hold) if hold is not None else left)


def _due(hold: float | None) -> bool:
    return hold is not None and hold <= 0


def _hand(state: TableState) -> tuple[int, int]:
    return state.game_no, state.view.number


def without_hand(state: TableState) -> TableState:
    """``state`` with nothing of the hand in play: the seats by name, no dice, stakes, pots,
    result or log (what a one-hand-late scoreboard shows before the first hand it may show)."""
    view = state.view
    seats = tuple(SeatView(seat.seat, seat.name, seat.status, ()) for seat in view.seats)
    shown = replace(view, seats=seats, pots=(), community=(), awaited=Awaited(text=LATE),
                    result=None, facts=(), over=False, winner=None)
    return replace(state, view=shown, question=None, log=(), problem="", fix="")


class DelayedSubscription:
    """A subscription to the delayed timeline (the :class:`Subscription` protocol)."""

    def __init__(self, delay: SpectatorDelay, after: Place) -> None:
        self._delay, self._after = delay, after

    def next(self, timeout: float) -> Update | None:
        """The next released change, or None within ``timeout`` seconds."""
        update = self._delay.next_after(self._after, timeout)
        if update is not None:
            self._after = update.place
        return update

    def close(self) -> None:
        """Nothing to release: the timeline is shared."""
