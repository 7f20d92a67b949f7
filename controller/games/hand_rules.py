"""What a hand is in each hold'em dice game: categories, rule options, face values, straights.

Shared by the reference evaluator (``hand_reference``) and the lookup-table builder
(``hand_table``): this module states the rules, those two modules compute hands from them in two
independent ways, and a test checks that they agree on every multiset of dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Sequence

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput

GAMES = ("tauren", "diceholdem")
SHAMAN_OPTIONS = ("ace", "high", "low", "wild")
SHAMAN = "S"
HOLDEM_LETTERS = ("H", "O", "L", "D", "E", "M")
# Pip dice may stand in for letter dice: 6 = H ... 1 = M (RULES.md section 3).
PIPS_TO_LETTERS = {"6": "H", "5": "O", "4": "L", "3": "D", "2": "E", "1": "M"}
# Multiset codes count each face in one base-8 digit: seven dice never overflow a digit.
CODE_BASE = 8


class Category(Enum):
    """A kind of hand; the value is its JSON name."""

    HOLDEM = "holdem"
    FIVE_OF_A_KIND = "five_of_a_kind"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_DIE = "high_die"

    @property
    def order(self) -> int:
        """The first element of every key of this category: higher beats lower."""
        return _ORDER[self]

    @property
    def label(self) -> str:
        """The name a player reads: ``full house``."""
        return self.value.replace("_", " ")


_ORDER = {category: 9 - index for index, category in enumerate(Category)}
# Group sizes of the five dice each group-made category uses, biggest group first.
PATTERNS: dict[Category, tuple[int, ...]] = {
    Category.FIVE_OF_A_KIND: (5,),
    Category.FOUR_OF_A_KIND: (4, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.ONE_PAIR: (2, 1, 1, 1),
    Category.HIGH_DIE: (1, 1, 1, 1, 1),
}


@dataclass(frozen=True)
class HandRules:
    """The ranking rules of one game with its options; hashable, so tables are cached per rules.

    ``shaman`` and ``wrap`` are Tauren Hold'em options; DiceHoldem ignores them.

    :raises InvalidInput: for an unknown game or Shaman option.
    """

    game: str
    shaman: str = "ace"
    wrap: bool = True

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise InvalidInput(f"unknown hand game {self.game!r} (known: {', '.join(GAMES)})")
        if self.shaman not in SHAMAN_OPTIONS:
            raise InvalidInput(f"unknown shaman option {self.shaman!r} "
                               f"(known: {', '.join(SHAMAN_OPTIONS)})")

    @property
    def kind(self) -> DieKind:
        """The die the game is played with."""
        return DieKind.D8_TAUREN if self.game == "tauren" else DieKind.LETTERS

    @property
    def faces(self) -> tuple[str, ...]:
        """The die's faces in the die's own order (the order multiset codes use)."""
        return self.kind.faces

    @property
    def wild(self) -> bool:
        """True when the Shaman is wild."""
        return self.game == "tauren" and self.shaman == "wild"

    def describe(self) -> str:
        """The options in words: ``shaman=ace, wrap``."""
        if self.game == "diceholdem":
            return "standard ranking"
        return f"shaman={self.shaman}, {'wrap' if self.wrap else 'no wrap'}"


@dataclass(frozen=True)
class HandRank:
    """The hand some dice make.

    ``best`` holds the dice the hand uses as written (five, or six for HOLDEM), ordered as the
    hand reads: groups by size then rank, kickers high to low, straights from the top end down.
    ``played_as`` is the face each of those dice counts as (differs from ``best`` only where a
    wild Shaman stands for another face). Comparing ``key`` tuples orders any two hands of the
    same rules; equal keys tie.
    """

    category: Category
    best: tuple[str, ...]
    key: tuple[int, ...]
    played_as: tuple[str, ...] = ()


@dataclass(frozen=True)
class Straight:
    """Five faces in a row, top end first, and the value of the top end that ranks it."""

    faces: tuple[str, ...]
    top: int


@dataclass(frozen=True)
class Geometry:
    """The values the rules give the faces.

    ``values`` maps each face to its rank value (a wild Shaman plays as any face, itself included,
    valued as under ``ace``). ``straights`` are best first. ``joker`` is the wild face, if any.
    """

    values: dict[str, int]
    straights: tuple[Straight, ...]
    joker: str | None


@cache
def geometry(rules: HandRules) -> Geometry:
    """The face values and straights of ``rules``."""
    if rules.game == "diceholdem":
        letters = DieKind.LETTERS.faces
        values = {face: index + 1 for index, face in enumerate(letters)}
        return Geometry(values, _straights(letters, values, wrap=False), None)
    values = {face: value for value, face in enumerate(rules.faces, start=2)}
    if rules.shaman == "low":
        values[SHAMAN] = 1
    joker = SHAMAN if rules.wild else None
    if rules.wrap:
        return Geometry(values, _straights(rules.faces, values, wrap=True), joker)
    line = list(rules.faces[:-1])
    if rules.shaman in ("ace", "wild", "low"):
        line.insert(0, SHAMAN)
    if rules.shaman in ("ace", "wild", "high"):
        line.append(SHAMAN)
    return Geometry(values, _straights(tuple(line), values, wrap=False), joker)


def _straights(line: tuple[str, ...], values: dict[str, int], wrap: bool) -> tuple[Straight, ...]:
    """Every run of five faces along ``line`` (around it when ``wrap``), ranked by the top face."""
    starts = range(len(line)) if wrap else range(len(line) - 4)
    runs = [tuple(line[(start + step) % len(line)] for step in range(5)) for start in starts]
    return tuple(sorted((Straight(run[::-1], values[run[-1]]) for run in runs),
                        key=lambda straight: -straight.top))


def parse_face(rules: HandRules, text: str) -> str:
    """The canonical face for ``text``; DiceHoldem accepts pips 1-6 for letters.

    >>> parse_face(HandRules("diceholdem"), "6")
    'H'

    :raises InvalidInput: quoting the text.
    """
    stripped = text.strip()
    if rules.game == "diceholdem" and stripped in PIPS_TO_LETTERS:
        return PIPS_TO_LETTERS[stripped]
    try:
        return rules.kind.parse_face(stripped)
    except InvalidInput:
        if rules.game == "diceholdem":
            raise InvalidInput(f"{text!r} is not a DiceHoldem die (letters H O L D E M, "
                               f"or pips 6 5 4 3 2 1 for them)") from None
        raise


def parse_dice(rules: HandRules, texts: Sequence[str]) -> tuple[str, ...]:
    """Canonical faces for ``texts``, one die per item.

    :raises InvalidInput: quoting the first text that is not a face.
    """
    return tuple(parse_face(rules, text) for text in texts)


def face_codes(rules: HandRules) -> dict[str, int]:
    """The code of one die per face; the code of a multiset is the sum over its dice."""
    return {face: CODE_BASE ** index for index, face in enumerate(rules.faces)}

