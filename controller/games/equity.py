"""Exact probabilities for the dice hold'em games: showdown equity and category frequencies.

Dice are rolled independently (unlike cards, two players may hold the same faces), so the unknown
dice are enumerated as multisets, each weighted by the number of rolls that produce it, and every
hand is looked up by adding multiset codes (``hands.Evaluator.code``). Counts stay integers, so
every figure is exact.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import accumulate, combinations_with_replacement
from math import factorial, lcm, prod
from typing import Iterable, Mapping, Sequence

from controller.games.errors import InvalidInput
from controller.games.hand_rules import Category, HandRules, face_codes, parse_face
from controller.games.hands import evaluator

UNKNOWN = "?"
HIDDEN = (UNKNOWN, "x", "X", "_")
"""Ways to write a die nobody knows: ``?``, or ``x`` (or ``_``) where a shell would expand ``?``;
no game has such a face."""
BOARD_DICE = 5
HAND_DICE = 2
MAX_HANDS = 10


@dataclass(frozen=True)
class HandEquity:
    """How one hand fares over every outcome: won alone, split, and its expected pot share."""

    hand: tuple[str, ...]
    wins: int
    ties: int
    share: Fraction
    outcomes: int

    @property
    def win(self) -> Fraction:
        """Probability of winning the whole pot."""
        return Fraction(self.wins, self.outcomes)

    @property
    def tie(self) -> Fraction:
        """Probability of splitting the pot with one or more other hands."""
        return Fraction(self.ties, self.outcomes)

    @property
    def equity(self) -> Fraction:
        """Expected share of the pot: wins plus the shares of split pots."""
        return self.share / self.outcomes


@dataclass(frozen=True)
class Equity:
    """The equity of every hand; ``outcomes`` equally likely rolls of the unknown dice."""

    board: tuple[str, ...]
    hands: tuple[HandEquity, ...]
    outcomes: int
    boards: int


@dataclass(frozen=True)
class CategoryOdds:
    """How many of ``outcomes`` equally likely rolls make ``category``; ``rarity`` 1 is rarest."""

    category: Category
    rolls: int
    outcomes: int
    rarity: int | None

    @property
    def probability(self) -> Fraction:
        """The exact probability of the category."""
        return Fraction(self.rolls, self.outcomes)


@cache
def weighted_multisets(rules: HandRules, size: int) -> tuple[tuple[int, int], ...]:
    """``(code, rolls)`` for every multiset of ``size`` dice; ``rolls`` ordered rolls give it."""
    codes = face_codes(rules)
    return tuple((sum(codes[face] for face in dice), _arrangements(Counter(dice).values()))
                 for dice in combinations_with_replacement(rules.faces, size))


def _arrangements(counts: Iterable[int]) -> int:
    """The number of orders of a multiset with these face counts (multinomial coefficient)."""
    values = list(counts)
    return factorial(sum(values)) // prod(factorial(count) for count in values)


def equity(rules: HandRules, board: Sequence[str], hands: Sequence[Sequence[str]]) -> Equity:
    """Exact win, tie and equity of ``hands`` (two dice each, ``?`` for a hidden die).

    ``board`` holds the known community dice (up to five; ``?`` for one not known yet).

    >>> result = equity(HandRules("tauren"), "2 3 4".split(), ["5 6".split(), "5 6".split()])
    >>> [str(hand.equity) for hand in result.hands]
    ['1/2', '1/2']

    :raises InvalidInput: for a bad face, too many board dice, or a hand that is not two dice.
    """
    board_dice = _canonical(rules, board, BOARD_DICE, "the board")
    seats = _hands(rules, hands)
    boards = _completions(rules, board_dice, BOARD_DICE)
    hand_options = [_completions(rules, hand, HAND_DICE) for hand in seats]
    tally = _Tally(len(seats))
    strengths = evaluator(rules).strengths
    if all(len(options) == 1 for options in hand_options):
        _showdown_known(strengths, boards, [options[0][0] for options in hand_options], tally)
    else:
        _showdown_hidden(strengths, boards, hand_options, tally)
    outcomes = prod(sum(rolls for _, rolls in options) for options in (boards, *hand_options))
    return Equity(board_dice, tally.results(seats, outcomes), outcomes, len(boards))


def _canonical(rules: HandRules, dice: Sequence[str], most: int, what: str) -> tuple[str, ...]:
    """Canonical faces of ``dice``, ``?`` for unknown ones (any of :data:`HIDDEN`).

    :raises InvalidInput: for a bad face or more than ``most`` dice.
    """
    if len(dice) > most:
        raise InvalidInput(f"{what} has at most {most} dice, not {len(dice)}: {' '.join(dice)!r}")
    return tuple(UNKNOWN if die.strip() in HIDDEN else parse_face(rules, die) for die in dice)


def _hands(rules: HandRules, hands: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """Canonical hands of exactly two dice each, 2 to 10 of them.

    :raises InvalidInput: for a bad face, a hand that is not two dice, or too few or many hands.
    """
    if not 2 <= len(hands) <= MAX_HANDS:
        raise InvalidInput(f"equity needs 2 to {MAX_HANDS} hands, not {len(hands)}")
    seats = [_canonical(rules, hand, HAND_DICE, "a hand") for hand in hands]
    for given, hand in zip(hands, seats):
        if len(hand) != HAND_DICE:
            # Quote the dice as given: the canonical ones would show a typed x as '?'.
            raise InvalidInput(f"a hand is {HAND_DICE} dice (x or ? for a hidden one), "
                               f"not {' '.join(given)!r}")
    return seats


def _completions(rules: HandRules, dice: tuple[str, ...], size: int) -> tuple[tuple[int, int], ...]:
    """``(code, rolls)`` of every way to complete ``dice`` to ``size`` known dice."""
    codes = face_codes(rules)
    known = [die for die in dice if die != UNKNOWN]
    known_code = sum(codes[face] for face in known)
    return tuple((known_code + code, rolls)
                 for code, rolls in weighted_multisets(rules, size - len(known)))


class _Tally:
    """Integer counts of wins, ties and pot shares per hand (shares in units of 1/lcm(1..n))."""

    def __init__(self, players: int) -> None:
        self.unit = lcm(*range(1, players + 1))
        self.wins = [0] * players
        self.ties = [0] * players
        self.shares = [0] * players

    def results(self, hands: Sequence[tuple[str, ...]], outcomes: int) -> tuple[HandEquity, ...]:
        """The tallies as records."""
        return tuple(HandEquity(hand, wins, ties, Fraction(share, self.unit), outcomes)
                     for hand, wins, ties, share in zip(hands, self.wins, self.ties, self.shares))


def _showdown_known(strengths: Mapping[int, int], boards: tuple[tuple[int, int], ...],
                    hand_codes: list[int], tally: _Tally) -> None:
    """Tally every board when all hands are known: one comparison per board."""
    players = range(len(hand_codes))
    for board_code, rolls in boards:
        ranks = [strengths[board_code + code] for code in hand_codes]
        best = max(ranks)
        winners = [seat for seat in players if ranks[seat] == best]
        if len(winners) == 1:
            tally.wins[winners[0]] += rolls
            tally.shares[winners[0]] += rolls * tally.unit
            continue
        for seat in winners:
            tally.ties[seat] += rolls
            tally.shares[seat] += rolls * tally.unit // len(winners)


def _showdown_hidden(strengths: Mapping[int, int], boards: tuple[tuple[int, int], ...],
                     hand_options: list[tuple[tuple[int, int], ...]], tally: _Tally) -> None:
    """Tally every board when some hands hide dice: hands are independent given the board."""
    for board_code, rolls in boards:
        spreads = [_Spread(strengths, board_code, options) for options in hand_options]
        for seat, spread in enumerate(spreads):
            others = spreads[:seat] + spreads[seat + 1:]
            for rank, ways in spread.ways.items():
                _tally_rank(tally, seat, rolls * ways, [other.split(rank) for other in others])


class _Spread:
    """The distribution of one hand's strength on one board: strength -> rolls of its dice."""

    def __init__(self, strengths: Mapping[int, int], board_code: int,
                 options: tuple[tuple[int, int], ...]) -> None:
        ways: dict[int, int] = {}
        for code, rolls in options:
            rank = strengths[board_code + code]
            ways[rank] = ways.get(rank, 0) + rolls
        self.ways = ways
        self.ranks = sorted(ways)
        self.below = [0, *accumulate(ways[rank] for rank in self.ranks)]

    def split(self, rank: int) -> tuple[int, int]:
        """Rolls of this hand that lose to ``rank`` and that tie it."""
        return self.below[bisect_left(self.ranks, rank)], self.ways.get(rank, 0)


def _tally_rank(tally: _Tally, seat: int, weight: int, others: list[tuple[int, int]]) -> None:
    """Credit ``seat`` holding one strength: the others lose or tie independently."""
    if len(others) == 1:  # heads-up: the common case, without the polynomial
        (lose, tie), = others
        tally.wins[seat] += weight * lose
        tally.ties[seat] += weight * tie
        tally.shares[seat] += weight * (lose * tally.unit + tie * tally.unit // 2)
        return
    ties_by_count = [1]  # coefficients of prod(lose + tie * x): ways with k others tying
    for lose, tie in others:
        ties_by_count = [lose * (ties_by_count[k] if k < len(ties_by_count) else 0)
                         + tie * (ties_by_count[k - 1] if k else 0)
                         for k in range(len(ties_by_count) + 1)]
    tally.wins[seat] += weight * ties_by_count[0]
    tally.ties[seat] += weight * sum(ties_by_count[1:])
    tally.shares[seat] += weight * sum(ways * tally.unit // (tied + 1)
                                       for tied, ways in enumerate(ties_by_count))


def category_odds(rules: HandRules, size: int = 7) -> tuple[CategoryOdds, ...]:
    """The exact frequency of each category among all rolls of ``size`` dice, best first."""
    table = evaluator(rules)
    rolls: Counter[Category] = Counter()
    for code, ways in weighted_multisets(rules, size):
        rolls[table.rank_of_code(code).category] += ways
    categories = [category for category in Category
                  if rules.game == "diceholdem" or category is not Category.HOLDEM]
    possible = sorted((category for category in categories if rolls[category]),
                      key=rolls.__getitem__)
    rarity = {category: place for place, category in enumerate(possible, start=1)}
    outcomes = len(rules.faces) ** size
    return tuple(CategoryOdds(category, rolls[category], outcomes, rarity.get(category))
                 for category in categories)
