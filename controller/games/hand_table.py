"""Lookup tables of best hands, one entry per multiset of dice, built from face counts.

A multiset is identified by its code: the sum of its dice's codes (one base-8 digit per face, see
``hand_rules.face_codes``), a perfect hash that is also additive, so the code of a hand plus a
board is the sum of their codes. Each entry is computed straight from the face counts: the
highest category whose shape the counts (plus any wild Shamans) can fill, groups chosen greedily
with a feasibility check. ``hand_reference`` computes the same hands by brute force; a test
compares the two on every multiset.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from controller.games.hand_rules import (HOLDEM_LETTERS, PATTERNS, SHAMAN, Category, Geometry,
                                         HandRank, HandRules, Straight, face_codes, geometry)

_ABOVE_STRAIGHT = (Category.FIVE_OF_A_KIND, Category.FOUR_OF_A_KIND, Category.FULL_HOUSE)
_BELOW_STRAIGHT = (Category.THREE_OF_A_KIND, Category.TWO_PAIR, Category.ONE_PAIR,
                   Category.HIGH_DIE)


def build_table(rules: HandRules, size: int) -> dict[int, HandRank]:
    """The best hand of every multiset of ``size`` dice, by multiset code."""
    codes = face_codes(rules)
    return {sum(codes[face] for face in dice): best_hand(rules, Counter(dice))
            for dice in combinations_with_replacement(rules.faces, size)}


def best_hand(rules: HandRules, counts: Counter[str]) -> HandRank:
    """The best hand of the dice counted in ``counts`` (at least five dice)."""
    geo = geometry(rules)
    if rules.game == "diceholdem" and all(counts[letter] for letter in HOLDEM_LETTERS):
        return HandRank(Category.HOLDEM, HOLDEM_LETTERS, (Category.HOLDEM.order,), HOLDEM_LETTERS)
    jokers = counts[geo.joker] if geo.joker else 0
    naturals = {face: 0 if face == geo.joker else counts[face] for face in geo.values}
    for category in _ABOVE_STRAIGHT:
        hand = _group_hand(geo, naturals, jokers, category)
        if hand is not None:
            return hand
    straight = next((run for run in geo.straights
                     if sum(1 for face in run.faces if not naturals[face]) <= jokers), None)
    if straight is not None:
        return _straight_hand(geo, naturals, straight)
    for category in _BELOW_STRAIGHT:
        hand = _group_hand(geo, naturals, jokers, category)
        if hand is not None:
            return hand
    raise AssertionError(f"no hand for {dict(counts)}")  # five dice always make a high die


def _group_hand(geo: Geometry, naturals: dict[str, int], jokers: int,
                category: Category) -> HandRank | None:
    """The best hand of ``category`` the counts can make, or None."""
    sizes = PATTERNS[category]
    chosen = _choose_groups(geo, naturals, jokers, sizes)
    if chosen is None:
        return None
    written: list[str] = []
    played: list[str] = []
    for face, size in zip(chosen, sizes):
        real = min(size, naturals[face])
        written += [face] * real + [geo.joker or SHAMAN] * (size - real)
        played += [face] * size
    key = (category.order,) + tuple(geo.values[face] for face in chosen)
    return HandRank(category, tuple(written), key, tuple(played))


def _choose_groups(geo: Geometry, naturals: dict[str, int], jokers: int,
                   sizes: tuple[int, ...]) -> tuple[str, ...] | None:
    """The faces of the groups, lexicographically highest, that the dice can fill, or None.

    Each group in turn takes the highest face that still leaves the remaining groups fillable;
    that greedy choice is the lexicographic maximum because feasibility is checked exactly.
    """
    by_value = sorted(geo.values, key=geo.values.__getitem__, reverse=True)
    chosen: list[str] = []
    spare = jokers
    for index, size in enumerate(sizes):
        for face in by_value:
            if face in chosen:
                continue
            need = max(0, size - naturals[face])
            if need <= spare and _fewest_jokers(
                    sizes[index + 1:], [naturals[other] for other in by_value
                                        if other not in chosen and other != face]) <= spare - need:
                chosen.append(face)
                spare -= need
                break
        else:
            return None
    return tuple(chosen)


def _fewest_jokers(sizes: tuple[int, ...], counts: list[int]) -> int | float:
    """The fewest wild dice that fill groups of ``sizes`` from faces with ``counts`` dice.

    Matching the biggest groups with the most plentiful faces is optimal (the shortfall
    ``max(0, size - count)`` is convex in the difference).
    """
    if len(counts) < len(sizes):
        return float("inf")
    pairs = zip(sorted(sizes, reverse=True), sorted(counts, reverse=True))
    return sum(max(0, size - count) for size, count in pairs)


def _straight_hand(geo: Geometry, naturals: dict[str, int], straight: Straight) -> HandRank:
    """The straight ``straight``, wild Shamans filling the faces the dice lack."""
    written = tuple(face if naturals[face] else geo.joker or SHAMAN for face in straight.faces)
    return HandRank(Category.STRAIGHT, written, (Category.STRAIGHT.order, straight.top),
                    straight.faces)
