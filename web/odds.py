"""The hand chart and live win odds the scoreboard shows, from the public view alone.

The games package says whether a game ranks hands (``HandRules`` refuses one that does not), so
the web never names a game: a view whose game has hand rules gets a chart, and live odds once every
hand still in is revealed before the last community die (an all-in).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from controller.games.equity import BOARD_DICE, category_odds, equity
from controller.games.errors import InvalidInput
from controller.games.hand_rules import HandRules
from controller.games.holdem_options import switch
from controller.games.view import SeatStatus, TableView

IN_HAND = (SeatStatus.ACTIVE, SeatStatus.ALL_IN)


def rules_for(game: str, options: Mapping[str, str]) -> HandRules | None:
    """The hand rules of ``game`` with its ``options``, or None for a game without hands."""
    try:
        return HandRules(game, shaman=options.get("shaman", "ace"),
                         wrap=switch(options, "wrap", True))
    except InvalidInput:
        return None


@lru_cache(maxsize=16)
def chart(rules: HandRules) -> tuple[dict[str, Any], ...]:
    """Every hand of seven dice with its exact probability, best hand first."""
    return tuple({"hand": odds.category.label, "rolls": odds.rolls, "outcomes": odds.outcomes,
                  "probability": float(odds.probability), "rarity": odds.rarity}
                 for odds in category_odds(rules))


def live_odds(view: TableView, rules: HandRules) -> list[dict[str, Any]]:
    """Each seat's exact chance to win, once every hand still in is revealed and the board is not
    complete; empty otherwise (nothing to say, or a hidden hand would be guessed at)."""
    seats = [seat for seat in view.seats if seat.status in IN_HAND]
    board = [die.face for die in view.community if die.face is not None]
    hands = [[die.face for die in seat.dice] for seat in seats]
    if len(seats) < 2 or len(board) >= BOARD_DICE or \
            any(len(hand) != 2 or None in hand for hand in hands):
        return []
    return _odds(rules, tuple(board), tuple(tuple(hand) for hand in hands),
                 tuple(seat.seat for seat in seats))


@lru_cache(maxsize=64)
def _odds(rules: HandRules, board: tuple[str, ...], hands: tuple[tuple[str, ...], ...],
          seats: tuple[int, ...]) -> list[dict[str, Any]]:
    try:
        result = equity(rules, board, hands)
    except InvalidInput:
        return []
    return [{"seat": seat, "win": float(hand.win), "tie": float(hand.tie),
             "equity": float(hand.equity)} for seat, hand in zip(seats, result.hands)]
