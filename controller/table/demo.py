"""The simulated table of ``dicetable demo``, stepped beat by beat.

A :class:`Demo` is a :class:`~controller.table.table.Table` over simulated devices with
:class:`~controller.table.sim_seats.SimSeats` at the seats (built by
:func:`controller.table.build.build_demo`). :meth:`Demo.step` is one beat: the table polls its
devices; when nothing happened and the players have thought long enough, the next person acts.
Time is the simulated clock's; ``speed`` only sets how fast it follows real time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from controller.table.sim_seats import SimSeats
from controller.table.table import Table

BEAT = 0.05
"""Seconds of simulated time per beat of the table loop (a camera frame, a button poll)."""

THINK = 1.2
"""Seconds of simulated time a simulated player takes before acting (at speed 1)."""


@dataclass
class Demo:
    """A simulated table and its simulated people."""

    table: Table
    seats: SimSeats
    clock: Any
    speed: float | None  # None: as fast as the machine goes
    seed: int = 0
    parts: Any = None  # what to close: the record, the devices, the registry
    think: float = THINK
    _idle_since: float = field(default=0.0)

    def step(self) -> bool:
        """One beat; False once the game is over."""
        ledger = self.table.ledger
        if ledger is None or ledger.game.pending().over:
            return False
        if self.table.tick():
            self._idle_since = self.clock.now()
        elif self.clock.now() - self._idle_since >= (0.0 if self.speed is None else self.think):
            if self.seats.act():
                self._idle_since = self.clock.now()
        self._advance(BEAT)
        return True

    def _advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        if self.speed is not None:
            time.sleep(seconds / self.speed)

    def close(self) -> None:
        """Close the devices, the registry and the record."""
        if self.parts is not None:
            self.parts.close()


def play_out(demo: Demo, hands: int | None, on_beat: Callable[[], None] = lambda: None) -> None:
    """Step ``demo`` until ``hands`` hands are complete or its game is over."""
    while not _enough(demo, hands) and demo.step():
        on_beat()


def _enough(demo: Demo, hands: int | None) -> bool:
    ledger = demo.table.ledger
    return hands is not None and ledger is not None and ledger.game.hands_played >= hands
