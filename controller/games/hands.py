"""Hand evaluation for Tauren Hold'em and DiceHoldem by table lookup, in constant time.

Seven dice have only 3,432 (eight faces) or 792 (six faces) distinct multisets, so every best
hand of 5, 6 and 7 dice is computed once per :class:`HandRules` and looked up by the multiset's
code (a perfect, additive hash: see :func:`Evaluator.code`).

>>> hands = evaluator(HandRules("tauren"))
>>> hands.rank("W W W 5 5 C 2".split()).best
('W', 'W', 'W', '5', '5')
>>> hands.key("S 2 3 4 5 C C".split()) < hands.key("2 3 4 5 6 C C".split())
True
"""

from __future__ import annotations

from functools import cache, cached_property
from typing import Mapping, Sequence

from controller.games.errors import InvalidInput
from controller.games.hand_rules import (PIPS_TO_LETTERS, Category, HandRank, HandRules,
                                         face_codes, parse_dice)
from controller.games.hand_table import build_table

__all__ = ["Category", "Evaluator", "HandRank", "HandRules", "evaluator", "hand_name"]

HAND_SIZES = (5, 6, 7)


class Evaluator:
    """Ranks hands of one game and options; get one with :func:`evaluator` (cached)."""

    def __init__(self, rules: HandRules) -> None:
        self.rules = rules
        self._codes = _spellings(rules)

    @cached_property
    def _table(self) -> dict[int, HandRank]:
        """Every hand of 5, 6 and 7 dice by multiset code, built on first use."""
        table: dict[int, HandRank] = {}
        for size in HAND_SIZES:
            table.update(build_table(self.rules, size))
        return table

    @cached_property
    def _strengths(self) -> dict[int, int]:
        """A dense integer per multiset code, ordered as the keys (equal keys, equal strength)."""
        keys = sorted({rank.key for rank in self._table.values()})
        position = {key: index for index, key in enumerate(keys)}
        return {code: position[rank.key] for code, rank in self._table.items()}

    @property
    def strengths(self) -> Mapping[int, int]:
        """Multiset code -> strength, for loops that look up many hands (equity, showdowns)."""
        return self._strengths

    def code(self, dice: Sequence[str]) -> int:
        """The multiset code of ``dice``: the sum of one code per die, so codes add up.

        Faces may be written in any case; DiceHoldem also takes pips 1-6.

        :raises InvalidInput: quoting a text that is not a face.
        """
        try:
            return sum(self._codes[face] for face in dice)
        except KeyError:
            return sum(self._codes[face] for face in parse_dice(self.rules, dice))

    def rank(self, dice: Sequence[str]) -> HandRank:
        """The hand 5 to 7 dice make.

        :raises InvalidInput: for a bad face or a wrong number of dice.
        """
        if not HAND_SIZES[0] <= len(dice) <= HAND_SIZES[-1]:
            raise _wrong_size(dice)
        return self._table[self.code(dice)]

    def key(self, dice: Sequence[str]) -> tuple[int, ...]:
        """The hand's key: comparing keys compares hands; equal keys tie."""
        return self.rank(dice).key

    def strength(self, dice: Sequence[str]) -> int:
        """The hand as one integer, ordered like :meth:`key`."""
        if not HAND_SIZES[0] <= len(dice) <= HAND_SIZES[-1]:
            raise _wrong_size(dice)
        return self._strengths[self.code(dice)]

    def rank_of_code(self, code: int) -> HandRank:
        """The hand of the multiset code of 5 to 7 dice."""
        return self._table[code]

    def strength_of_code(self, code: int) -> int:
        """The strength of the multiset code of 5 to 7 dice."""
        return self._strengths[code]

    def winners(self, board: Sequence[str], hands: Sequence[Sequence[str]]) -> tuple[int, ...]:
        """Indexes of the hands that win (several on a split) with this board.

        >>> evaluator(HandRules("diceholdem")).winners("HOLDE", ["MM", "HH"])
        (0,)

        :raises InvalidInput: for a bad face or a hand and board that are not 5 to 7 dice.
        """
        strengths = [self.strength([*board, *hand]) for hand in hands]
        best = max(strengths)
        return tuple(index for index, strength in enumerate(strengths) if strength == best)


@cache
def evaluator(rules: HandRules) -> Evaluator:
    """The evaluator of ``rules``, built once; its tables are built on first use."""
    return Evaluator(rules)


def hand_name(rank: HandRank) -> str:
    """The hand as the table says it: the category and the faces that rank it.

    >>> hands = evaluator(HandRules("tauren"))
    >>> hand_name(hands.rank("W W W 5 5 C 2".split()))
    'full house, W over 5'
    >>> hand_name(hands.rank("S 2 3 4 5 C C".split()))
    'straight, 5 high'
    """
    faces = rank.played_as or rank.best
    category = rank.category
    if category is Category.HOLDEM:
        return "HOLDEM"
    if category is Category.FULL_HOUSE:
        return f"{category.label}, {faces[0]} over {faces[3]}"
    if category is Category.TWO_PAIR:
        return f"{category.label}, {faces[0]} and {faces[2]}"
    if category is Category.STRAIGHT:
        return f"{category.label}, {faces[0]} high"
    return f"{category.label}, {faces[0]}"


def _spellings(rules: HandRules) -> dict[str, int]:
    """Code of one die for every accepted spelling of each face."""
    codes = face_codes(rules)
    spellings = dict(codes)
    spellings.update({face.lower(): code for face, code in codes.items()})
    if rules.game == "diceholdem":
        spellings.update({pips: codes[letter] for pips, letter in PIPS_TO_LETTERS.items()})
    return spellings


def _wrong_size(dice: Sequence[str]) -> InvalidInput:
    """The error for a number of dice that is not a hand."""
    return InvalidInput(f"a hand has {HAND_SIZES[0]} to {HAND_SIZES[-1]} dice, not {len(dice)}: "
                        f"{' '.join(dice)!r}")
