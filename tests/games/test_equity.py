"""Exact equity and category odds, checked against brute force over every ordered roll."""

from fractions import Fraction
from itertools import product
from math import comb, factorial

import pytest

from controller.games.equity import category_odds, equity, weighted_multisets
from controller.games.errors import InvalidInput
from controller.games.hand_reference import reference_rank
from controller.games.hand_rules import Category, HandRules

TAUREN = HandRules("tauren")
DICEHOLDEM = HandRules("diceholdem")


def brute_force(rules, board, hands):
    """Win, tie and equity per hand over every ordered roll of the '?' and missing dice."""
    board = list(board) + ["?"] * (5 - len(board))
    slots = [(None, index) for index, die in enumerate(board) if die == "?"]
    slots += [(seat, index) for seat, hand in enumerate(hands)
              for index, die in enumerate(hand) if die == "?"]
    wins, ties, shares = [0] * len(hands), [0] * len(hands), [Fraction(0)] * len(hands)
    rolls = list(product(rules.faces, repeat=len(slots)))
    for roll in rolls:
        dice = {None: list(board), **{seat: list(hand) for seat, hand in enumerate(hands)}}
        for (owner, index), face in zip(slots, roll):
            dice[owner][index] = face
        keys = [reference_rank(rules, dice[None] + dice[seat]).key for seat in range(len(hands))]
        winners = [seat for seat, key in enumerate(keys) if key == max(keys)]
        for seat in winners:
            if len(winners) == 1:
                wins[seat] += 1
            else:
                ties[seat] += 1
            shares[seat] += Fraction(1, len(winners))
    return [(Fraction(w, len(rolls)), Fraction(t, len(rolls)), s / len(rolls))
            for w, t, s in zip(wins, ties, shares)]


def exact(result):
    return [(hand.win, hand.tie, hand.equity) for hand in result.hands]


@pytest.mark.parametrize("rules, board, hands", [
    (TAUREN, "2 3 4", ["S S", "6 W"]),
    (TAUREN, "2 3 4 S", ["S ?", "6 W", "? ?"]),
    (HandRules("tauren", "low", wrap=False), "2 3 C 5", ["S ?", "? ?"]),
    (HandRules("tauren", "wild"), "S 3 W", ["S 2", "C C"]),
    (DICEHOLDEM, "H O L D", ["E ?", "M M", "? ?"]),
    (DICEHOLDEM, "H H O", ["L D", "E M"]),
])
def test_equity_equals_brute_force_over_every_roll(rules, board, hands):
    result = equity(rules, board.split(), [hand.split() for hand in hands])
    assert exact(result) == brute_force(rules, board.split(), [hand.split() for hand in hands])


def test_equities_add_up_to_one_pot():
    result = equity(TAUREN, [], [["S", "?"], ["?", "?"], ["6", "W"]])
    assert sum(hand.equity for hand in result.hands) == 1


def test_identical_hands_split_every_pot():
    result = equity(DICEHOLDEM, [], [["H", "O"], ["H", "O"]])
    assert [hand.equity for hand in result.hands] == [Fraction(1, 2)] * 2
    assert all(hand.wins == 0 for hand in result.hands)


def test_a_complete_board_has_one_outcome():
    result = equity(TAUREN, "2 3 4 5 6".split(), [["W", "C"], ["2", "2"]])
    assert (result.outcomes, exact(result)) == (1, [(1, 0, 1), (0, 0, 0)])


def test_outcomes_count_every_ordered_roll_of_unknown_dice():
    result = equity(TAUREN, ["2", "3", "4"], [["S", "?"], ["?", "?"]])
    assert (result.outcomes, result.boards) == (8 ** 5, 36)


def test_a_hand_of_three_dice_is_invalid():
    with pytest.raises(InvalidInput, match="at most 2 dice"):
        equity(TAUREN, [], [["S", "S", "S"], ["2", "2"]])


def test_a_hand_of_one_die_is_invalid():
    with pytest.raises(InvalidInput, match="2 dice"):
        equity(TAUREN, [], [["S"], ["2", "2"]])


def test_equity_needs_two_hands():
    with pytest.raises(InvalidInput, match="2 to 10 hands"):
        equity(TAUREN, [], [["S", "S"]])


def test_weighted_multisets_cover_every_roll():
    assert sum(rolls for _, rolls in weighted_multisets(TAUREN, 5)) == 8 ** 5
    assert len(weighted_multisets(TAUREN, 5)) == comb(12, 5)


def test_category_odds_count_every_roll_of_seven_dice():
    assert sum(row.rolls for row in category_odds(TAUREN)) == 8 ** 7


def test_five_of_a_kind_frequency_matches_the_formula():
    five = next(row for row in category_odds(TAUREN) if row.category is Category.FIVE_OF_A_KIND)
    assert five.rolls == 8 * (comb(7, 5) * 7 ** 2 + comb(7, 6) * 7 + 1)


def test_holdem_frequency_matches_the_formula():
    holdem = next(row for row in category_odds(DICEHOLDEM) if row.category is Category.HOLDEM)
    assert holdem.rolls == 6 * factorial(7) // 2


def test_seven_tauren_dice_with_wrap_never_bust():
    bust = next(row for row in category_odds(TAUREN) if row.category is Category.HIGH_DIE)
    assert (bust.rolls, bust.rarity) == (0, None)


def test_tauren_ranking_is_not_in_order_of_rarity():
    rarity = [row.rarity for row in category_odds(TAUREN) if row.rarity is not None]
    assert rarity != sorted(rarity)
