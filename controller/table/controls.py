"""The seat controls of each game: what a button pressed at a seat means, given what lies on the
seat's bet spot, and how a bot's chosen input is pressed and placed.

The table looks a game's controls up once by its registry name (:data:`CONTROLS`, the only place
here that names games) and then only calls :meth:`Controls.press` and :meth:`Controls.gesture`:

>>> from controller.games.registry import create_game
>>> game = create_game("tao", 2)
>>> controls = find_controls("tao")
>>> controls.press(game, 0, "call", Stake(black=1))
Ante(seat=0, black=1, white=0)
>>> controls.press(game, 1, "call", Stake(black=1, white=1)).text
'put exactly 1 stone on your spot (2 there)'

The panels, the buttons each game needs and how stakes are read are written down in
``hardware/README.md`` ("Seat controls per game").
"""

from __future__ import annotations

from typing import Callable, Mapping, Protocol, Sequence

from controller.games.base import Game, Input
from controller.games.registry import find_game
from controller.table.controls_common import (Gesture, NoGesture, Press, Refusal, Setting,
                                              Stake, purse_of, sim_purse)
from controller.table.controls_holdem import DiceHoldemControls, HoldemControls
from controller.table.controls_tao import TaoControls
from hardware.rfid import TagRecord

__all__ = ["CONTROLS", "Controls", "Gesture", "NoGesture", "Press", "Refusal", "Setting",
           "Stake", "find_controls", "purse_of", "sim_purse"]

Purses = Mapping[int, Sequence[TagRecord]]


class Controls(Protocol):
    """A game's seat controls (one object per table: it keeps the dials of seats without RFID)."""

    @property
    def title(self) -> str:
        """The game's name for people."""
        ...

    @property
    def buttons(self) -> tuple[str, ...]:
        """Every button of the game's panels, in panel order."""
        ...

    @property
    def labels(self) -> Mapping[str, str]:
        """A short label per button, for the docs and the scoreboard."""
        ...

    def panel(self, rfid: bool) -> tuple[str, ...]:
        """The buttons a seat with (``rfid``) or without a reader needs, in panel order."""
        ...

    def sim_purse(self, game: Game, seat: int, owner: str) -> tuple[TagRecord, ...]:
        """Tags enough for any one bet of ``seat``'s, for a simulated table to enrol."""
        ...

    def press(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        """The verified input ``button`` means now, a :class:`Setting`, or a :class:`Refusal`;
        ``stake`` None for a seat without a reader."""
        ...

    def gesture(self, game: Game, inp: Input) -> Gesture:
        """The tags and presses that make :meth:`press` give exactly ``inp``.

        :raises NoGesture: dice, or an input the seat's panel cannot give.
        """
        ...


CONTROLS: dict[str, Callable[[Purses | None], Controls]] = {
    "tao": TaoControls,
    "tauren": HoldemControls,
    "diceholdem": DiceHoldemControls,
}


def find_controls(game: str, purses: Purses | None = None) -> Controls:
    """New controls for a table of ``game``; ``purses`` are the enrolled tags of each seat that
    has a reader (the tags a bot's gestures put on its spot).

    :raises UnknownGame: ``game`` is not registered.
    """
    return CONTROLS[find_game(game).name](purses)
