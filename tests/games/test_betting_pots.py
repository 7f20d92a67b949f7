"""The pure pot arithmetic of the betting core: side pots, splits, odd chips."""

from __future__ import annotations

import doctest

from hypothesis import given
from hypothesis import strategies as st

from controller.games import betting
from controller.games.betting import Pot, side_pots, split


def test_module_examples_hold() -> None:
    assert doctest.testmod(betting).failed == 0


def test_equal_contributions_make_one_pot() -> None:
    assert side_pots([4, 4, 4], [False, False, False]) == [Pot(12, (0, 1, 2))]


def test_folded_chips_count_in_every_layer_they_reach() -> None:
    assert side_pots([5, 8, 20, 20], [False, True, False, False]) == \
        [Pot(20, (0, 2, 3)), Pot(33, (2, 3))]


def test_dead_chips_join_the_main_pot() -> None:
    assert side_pots([5, 20, 20], [False, False, False], dead=4) == \
        [Pot(19, (0, 1, 2)), Pot(30, (1, 2))]


def test_odd_chips_go_one_each_clockwise_from_the_button() -> None:
    assert split(8, [0, 1, 3], button=1, seats=4) == {3: 3, 0: 3, 1: 2}


@given(st.lists(st.integers(0, 50), min_size=2, max_size=10),
       st.lists(st.booleans(), min_size=10, max_size=10), st.integers(0, 9))
def test_side_pots_hold_every_chip_and_only_live_seats(totals: list[int], folded: list[bool],
                                                       dead: int) -> None:
    folded = folded[:len(totals)]
    if all(folded):
        folded[0] = False
    pots = side_pots(totals, folded, dead)
    assert sum(p.amount for p in pots) == sum(totals) + dead
    assert all(not folded[s] for p in pots for s in p.eligible)


@given(st.integers(0, 1000), st.sets(st.integers(0, 9), min_size=1), st.integers(0, 9))
def test_split_pays_out_the_whole_pot_within_one_chip(amount: int, winners: set[int],
                                                      button: int) -> None:
    shares = split(amount, sorted(winners), button, 10)
    assert sum(shares.values()) == amount
    assert max(shares.values()) - min(shares.values()) <= 1
