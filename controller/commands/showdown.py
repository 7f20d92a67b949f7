"""The hands shown at a hold'em showdown, named, and tallied by category over many hands.

Until every engine gives the typed :class:`~controller.games.view.TableView` (whose ``Result``
names the shown hands), this reads the last hand's board and shown dice from the public view and
ranks them with the game's own hand rules; a game without poker hands (Tao Dice) shows none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from controller.games.base import Game
from controller.games.hand_rules import GAMES as HAND_GAMES
from controller.games.hand_rules import Category, HandRank, HandRules
from controller.games.hands import evaluator


def hand_rules_of(game: Game) -> HandRules | None:
    """The hand ranking ``game`` plays by, with its options; None for a game without hands."""
    if game.name not in HAND_GAMES:
        return None
    options = game.options_text()
    return HandRules(game.name, options.get("shaman", "ace"), options.get("wrap", "on") != "off")


@dataclass(frozen=True)
class ShownHand:
    """One seat's hand at a showdown: its own dice and the hand they make with the board."""

    seat: int
    dice: tuple[str, ...]
    rank: HandRank


def showdown(game: Game) -> tuple[ShownHand, ...]:
    """The hands shown when ``game``'s last hand ended (none when it ended by folds)."""
    rules = hand_rules_of(game)
    last: dict[str, Any] = game.public_view().get("last_hand") or {}
    if rules is None or not last:
        return ()
    board = list(last.get("board", []))
    return tuple(ShownHand(int(seat), tuple(dice), evaluator(rules).rank([*board, *dice]))
                 for seat, dice in last.get("shown", {}).items()
                 if 5 <= len(board) + len(dice) <= 7)


@dataclass
class HandTally:
    """How often each category was shown down, over every hand :meth:`add` saw."""

    counts: Counter[Category] = field(default_factory=Counter)
    showdowns: int = 0

    def add(self, game: Game) -> None:
        """Count the hands shown at the end of ``game``'s last hand."""
        shown = showdown(game)
        self.showdowns += bool(shown)
        self.counts.update(hand.rank.category for hand in shown)

    def as_json(self) -> dict[str, int]:
        """``{"full_house": 12, ...}`` in ranking order, best first."""
        return {category.value: self.counts[category] for category in Category
                if self.counts[category]}

    def lines(self) -> list[str]:
        """The tally as lines a person reads (none when nothing was shown down)."""
        total = sum(self.counts.values())
        if not total:
            return []
        lines = [f"hands shown at {self.showdowns:,} showdowns, by category:"]
        lines += [f"  {category.label:<16}{self.counts[category]:>8,}"
                  f"{self.counts[category] / total:>8.1%}"
                  for category in Category if self.counts[category]]
        return lines
