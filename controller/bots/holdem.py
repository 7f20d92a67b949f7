"""A sensible hold'em bot for Tauren Hold'em and DiceHoldem: bets by hand strength.

It sees the game only through ``seat_view``, ``options_text`` and ``legal_inputs``. Strength is
the category of its best hand (a pair or high dice before the flop); strong hands bet and raise,
middling ones call cheap bets, weak ones check or fold. In Standard DiceHoldem it protects a
fresh community die its best hand uses, or bets to reroll one that it does not use.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from controller.games.base import Game, Input
from controller.games.errors import IllegalAction
from controller.games.hands import Category, Evaluator, HandRules, evaluator
from controller.games.holdem_inputs import (AllIn, Bet, Call, Check, Fold, Leave, Pass, Protect,
                                            Raise, Rebuy, Reroll)

# How good each category is, 0 (worst) to 1, for betting decisions.
STRENGTH = {Category.HIGH_DIE: 0.1, Category.ONE_PAIR: 0.35, Category.TWO_PAIR: 0.55,
            Category.THREE_OF_A_KIND: 0.65, Category.STRAIGHT: 0.75, Category.FULL_HOUSE: 0.85,
            Category.FOUR_OF_A_KIND: 0.95, Category.FIVE_OF_A_KIND: 1.0, Category.HOLDEM: 1.0}
MAX_REBUYS = 3


class HoldemHeuristicBot:
    """Plays by hand strength with a little randomness (seeded, so simulations repeat)."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self._hands: Evaluator | None = None

    def choose(self, game: Game) -> Input:
        """A legal input for this seat.

        :raises IllegalAction: when the seat has nothing legal to do now.
        """
        choices = game.legal_inputs(self.seat)
        if not choices:
            raise IllegalAction(f"Seat {self.seat} has nothing to do now")
        view = game.seat_view(self.seat)
        if any(isinstance(c, Rebuy) for c in choices):
            return self._rebuy(view, choices)
        strength, best = self.strength(game, view)
        if any(isinstance(c, Pass) for c in choices):
            return self._side_bet(view, choices, strength, best)
        return self._bet(choices, strength)

    def strength(self, game: Game, view: dict[str, Any]) -> tuple[float, tuple[str, ...]]:
        """How strong this seat's hand is (0-1) and the dice its best hand uses."""
        mine, board = view["my_dice"], view["board"]
        if len(mine) + len(board) < 5:
            pair = len(mine) == 2 and mine[0] == mine[1]
            return (0.6 if pair else 0.3), tuple(mine)
        hands = self._evaluator(game, view["game"])
        hand = hands.rank([*mine, *board])
        strength = STRENGTH[hand.category]
        if len(board) >= 5 and hands.rank(board).category is hand.category:
            strength -= 0.2  # the board plays: everyone has it
        return strength, hand.best

    def _evaluator(self, game: Game, name: str) -> Evaluator:
        if self._hands is None:
            options = game.options_text()
            self._hands = evaluator(HandRules(name, shaman=options.get("shaman", "ace"),
                                              wrap=options.get("wrap", "on") == "on"))
        return self._hands

    def _bet(self, choices: Sequence[Input], strength: float) -> Input:
        raises = [c for c in choices if isinstance(c, (Bet, Raise))]
        passive = next((c for c in choices if isinstance(c, (Check, Call))), None)
        roll = self.rng.random()
        if strength >= 0.9 and roll < 0.3 and any(isinstance(c, AllIn) for c in choices):
            return next(c for c in choices if isinstance(c, AllIn))
        if strength >= 0.6 and raises and roll < 0.7:
            return raises[-1] if strength >= 0.8 else raises[0]
        if strength >= 0.35 and raises and roll < 0.15:
            return raises[0]
        if isinstance(passive, Check):
            return passive
        if passive is not None and (strength >= 0.3 or roll < 0.25):
            return passive
        return next((c for c in choices if isinstance(c, Fold)), passive or choices[0])

    def _side_bet(self, view: dict[str, Any], choices: Sequence[Input], strength: float,
                  best: tuple[str, ...]) -> Input:
        board = view["board"]
        stack = view["seats"][self.seat]["stack"]
        affordable = [c for c in choices if isinstance(c, (Reroll, Protect))
                      and c.amount * 5 <= stack]
        if self.rng.random() < 0.6:
            wanted = [c for c in affordable
                      if (isinstance(c, Protect) and strength >= 0.5 and board[c.die] in best)
                      or (isinstance(c, Reroll) and strength < 0.5 and board[c.die] not in best)]
            if wanted:
                return self.rng.choice(wanted)
        return next(c for c in choices if isinstance(c, Pass))

    def _rebuy(self, view: dict[str, Any], choices: Sequence[Input]) -> Input:
        rebuys = view["seats"][self.seat]["rebuys"]
        wanted = Rebuy if rebuys < MAX_REBUYS else Leave
        return next(c for c in choices if isinstance(c, wanted))
