"""The reference evaluator: the best five of the dice found by trying every five, for clarity.

Nothing at the table calls this: ``hand_table`` builds the lookup tables another way (from face
counts) and a test checks the two agree on every multiset of dice, for every rule option.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Sequence

from controller.games.errors import InvalidInput
from controller.games.hand_rules import (HOLDEM_LETTERS, PATTERNS, Category, Geometry, HandRank,
                                         HandRules, geometry)


def reference_rank(rules: HandRules, dice: Sequence[str]) -> HandRank:
    """The hand 5 to 7 canonical ``dice`` make: the best over every choice of five dice.

    >>> reference_rank(HandRules("tauren"), "W W W 5 5 C 2".split()).category.label
    'full house'

    :raises InvalidInput: for fewer than five or more than seven dice.
    """
    if not 5 <= len(dice) <= 7:
        raise InvalidInput(f"a hand has 5 to 7 dice, not {len(dice)}: {' '.join(dice)!r}")
    ordered = tuple(sorted(dice, key=rules.faces.index))
    if rules.game == "diceholdem" and set(HOLDEM_LETTERS) <= set(ordered):
        return HandRank(Category.HOLDEM, HOLDEM_LETTERS, (Category.HOLDEM.order,), HOLDEM_LETTERS)
    fives = dict.fromkeys(combinations(ordered, 5))
    return max((rank_five(rules, five) for five in fives), key=lambda rank: rank.key)


@cache
def rank_five(rules: HandRules, five: tuple[str, ...]) -> HandRank:
    """The hand exactly these five dice make; a wild Shaman tries every face it can stand for."""
    geo = geometry(rules)
    if geo.joker is None:
        return _natural_rank(geo, five, five)
    naturals = tuple(face for face in five if face != geo.joker)
    stand_ins = combinations_with_replacement(tuple(geo.values), len(five) - len(naturals))
    return max((_natural_rank(geo, naturals + extra, five) for extra in stand_ins),
               key=lambda rank: rank.key)


def _natural_rank(geo: Geometry, played: tuple[str, ...], dice: tuple[str, ...]) -> HandRank:
    """The hand of five ``played`` faces, written with the ``dice`` that play them."""
    counts = Counter(played)
    straight = next((run for run in geo.straights if set(run.faces) == set(counts)), None)
    if straight is not None:
        order = straight.faces
        category = Category.STRAIGHT
        key: tuple[int, ...] = (Category.STRAIGHT.order, straight.top)
    else:
        groups = sorted(counts.items(), key=lambda item: (item[1], geo.values[item[0]]),
                        reverse=True)
        sizes = tuple(size for _, size in groups)
        category = next(kind for kind, pattern in PATTERNS.items() if pattern == sizes)
        order = tuple(face for face, size in groups for _ in range(size))
        key = (category.order,) + tuple(geo.values[face] for face, _ in groups)
    return HandRank(category, _written(order, dice, geo.joker), key, order)


def _written(played: tuple[str, ...], dice: tuple[str, ...], joker: str | None) -> tuple[str, ...]:
    """The dice as written that play ``played``: a natural face if there is one, else the joker."""
    spare = Counter(face for face in dice if face != joker)
    written = []
    for face in played:
        if spare[face]:
            spare[face] -= 1
            written.append(face)
        else:
            written.append(joker or face)
    return tuple(written)
