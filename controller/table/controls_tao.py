"""Tao Dice seat controls: raise / call / pass / fold, stones on the bet spot.

The ante is the call button in the ante phase (every seat must ante, so it needs no button of
its own). A bet is exactly the stones due (the bid, or all a seat holds under the Gratis rule);
with a reader, the colours of the stones on the spot decide black or white (a white stone in a
raise or call forces a reroll); without one, the ``white`` button sets how many of the stones
are white, cycling 0, 1, ... and back, and the bet is the rest in black.
"""

from __future__ import annotations

from controller.games.base import Game, Input
from controller.games.tao import Ante, Call, Fold, Pass, Raise, stones_text
from controller.table.controls_common import (Gesture, NoGesture, Press, Refusal, SeatControls,
                                              Setting, Stake, checked, clear_refusal, kinds,
                                              pick_stones, sim_purse, spot_refusal)
from hardware.rfid import TagRecord

StoneBet = Ante | Call | Raise
_MEANS: dict[str, tuple[type[StoneBet], ...]] = {"raise": (Raise,), "call": (Ante, Call)}
_BUTTON = {Ante: "call", Call: "call", Raise: "raise", Pass: "pass", Fold: "fold"}


class TaoControls(SeatControls):
    """The panel of a Tao Dice seat; see the module docstring."""

    title = "Tao Dice"
    buttons = ("raise", "call", "pass", "fold", "white")
    labels = {"raise": "raise", "call": "call / ante", "pass": "pass", "fold": "fold",
              "white": "white stones +1"}
    dial_buttons = ("white",)

    def sim_purse(self, game: Game, seat: int, owner: str) -> tuple[TagRecord, ...]:
        """Every stone of the game in each colour (a seat may win them all)."""
        stones = game.chips_expected()
        return sim_purse(seat, owner, stones=(stones, stones))

    def _press_raise(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        return self._bet(game, seat, button, stake)

    def _press_call(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        return self._bet(game, seat, button, stake)

    def _press_pass(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        why = clear_refusal(stake, "raise to bet them")
        return Refusal(seat, button, why) if why else checked(game, button, Pass(seat))

    def _press_fold(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        return checked(game, button, Fold(seat))  # what lies on the spot goes back to the seat

    def _press_white(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        whites = _whites(game, seat)
        if not whites:
            return Refusal(seat, button, "you have no stones to bet now")
        dial = self.dials.get(game, seat)
        dial.value = (dial.value + 1) % len(whites)
        self.dials.keep(game, seat, dial)
        due = _due(game, seat)
        return Setting(seat, button,
                       f"your next bet: {stones_text(due - whites[dial.value], whites[dial.value])}")

    def _bet(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        legal = game.legal_inputs(seat)
        cls = next((c for c in _MEANS[button] if c in kinds(legal)), _MEANS[button][-1])
        due = _due(game, seat)
        if stake is None:
            whites = _whites(game, seat) or [0]
            white = whites[min(self.dials.get(game, seat).value, len(whites) - 1)]
            return checked(game, button, cls(seat, due - white, white))
        why = _stake_refusal(stake, due)
        return Refusal(seat, button, why) if why else checked(
            game, button, cls(seat, stake.black, stake.white))

    def _gesture(self, game: Game, inp: Input, seat: int,
                 purse: tuple[TagRecord, ...] | None) -> Gesture:
        button = _BUTTON.get(type(inp))
        if button is None:
            raise NoGesture(f"{inp} is not a Tao Dice action")
        if not isinstance(inp, StoneBet):
            return Gesture(seat, None if purse is None else frozenset(), (button,))
        if purse is not None:
            return Gesture(seat, pick_stones(purse, inp.black, inp.white), (button,))
        whites = _whites(game, seat)
        if inp.white not in whites:
            raise NoGesture(f"{inp}: seat {seat} cannot bet {inp.white} white now")
        turns = (whites.index(inp.white) - self.dials.get(game, seat).value) % len(whites)
        return Gesture(seat, None, ("white",) * turns + (button,))


def _stone_bets(game: Game, seat: int) -> list[StoneBet]:
    return [inp for inp in game.legal_inputs(seat) if isinstance(inp, StoneBet)]


def _due(game: Game, seat: int) -> int:
    """The stones a bet of ``seat``'s takes now (every legal mix has that many), 0 if none."""
    bets = _stone_bets(game, seat)
    return bets[0].black + bets[0].white if bets else 0


def _whites(game: Game, seat: int) -> list[int]:
    """How many of the stones due may be white, fewest first (what ``seat`` holds allows)."""
    return sorted({inp.white for inp in _stone_bets(game, seat)})


def _stake_refusal(stake: Stake, due: int) -> str | None:
    """Why the spot does not hold a bet of ``due`` stones (None when it does)."""
    why = spot_refusal(stake)
    if why:
        return why
    if stake.chips:
        return "take the chips off your spot: Tao Dice is played with stones"
    if due and stake.stones != due:
        return f"put exactly {due} stone{'s' * (due != 1)} on your spot ({stake.stones} there)"
    return None
