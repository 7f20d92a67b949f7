"""The betting edge cases of issue 4, played through Tauren Hold'em (both games share the core).

Showdowns here use a stand-in ranking: the higher first private die wins, so each test decides
its winners by the private dice it rolls.
"""

from __future__ import annotations

import pytest

from controller.games.betting import Pot, side_pots
from controller.games.errors import IllegalAction
from controller.games.holdem import Phase
from controller.games.holdem_inputs import Call, Check, Fold
from controller.games.tauren import TaurenHoldem

FACES = ("2", "3", "4", "5", "6", "W", "C", "S")


def by_first_die(dice: object) -> tuple[int, ...]:
    """Stand-in ranking: the first private die decides."""
    return (FACES.index(list(dice)[0]),)  # type: ignore[call-overload]


def table(seats: int, **options: object) -> TaurenHoldem:
    return TaurenHoldem(seats, {k: str(v) for k, v in options.items()}, key=by_first_die)


def play(game: TaurenHoldem, *lines: str) -> None:
    for line in lines:
        game.apply(game.parse_input(line))


def deal(game: TaurenHoldem, firsts: str) -> None:
    """Roll the private dice: seat n's first die is ``firsts[n]``."""
    for seat in range(game.seats):
        if seat in game._unrolled():
            play(game, f"roll {seat} d8-tauren {firsts[seat]} 2")


def roll_board(game: TaurenHoldem) -> None:
    """Roll every community die the game waits for until it asks for something else."""
    while game.phase is Phase.BOARD:
        play(game, "roll table d8-tauren " + " ".join(["3"] * game.need_dice))


def check_down(game: TaurenHoldem) -> None:
    """Finish the hand in play: check (or call) every turn, roll every die."""
    hand = game.hands_played
    while game.hands_played == hand and game.phase is not Phase.OVER:
        roll_board(game)
        if game.phase is Phase.BETTING:
            seat = game.pending().prompt
            assert seat is not None
            game.apply(Check(seat) if game.can(Check(seat)) else Call(seat))


def test_layered_side_pots_from_several_all_ins_of_different_sizes() -> None:
    game = table(4, stack="40,5,10,20")
    deal(game, "2SCW")
    play(game, "allin 3", "call 0", "allin 1", "allin 2")
    assert game.pots() == [Pot(20, (0, 1, 2, 3)), Pot(15, (0, 2, 3)), Pot(20, (0, 3))]
    check_down(game)
    assert game.last_hand["won"] == {"1": 20, "2": 15, "3": 20}


def test_ties_inside_side_pots() -> None:
    game = table(3, stack="5,20,20")
    deal(game, "SCC")
    play(game, "allin 0", "raise 1 to=15", "call 2")
    check_down(game)
    assert game.last_hand["won"] == {"0": 15, "1": 10, "2": 10}


def test_odd_chip_goes_to_the_first_winner_clockwise_from_the_button() -> None:
    game = table(3)
    deal(game, "CSC")
    play(game, "call 0", "fold 1", "check 2")
    check_down(game)
    assert game.last_hand["won"] == {"0": 2, "2": 3}


def test_folded_player_never_wins_or_stays_eligible() -> None:
    game = table(3)
    deal(game, "CSW")
    play(game, "call 0", "call 1", "check 2", "roll table d8-tauren 2 3 4",
         "check 1", "bet 2 amount=2", "call 0", "fold 1")
    assert all(1 not in pot.eligible for pot in game.pots())
    check_down(game)
    assert game.last_hand["won"] == {"0": 10}
    assert "1" not in game.last_hand["shown"]


def test_pot_layer_whose_contributors_all_folded_merges_down() -> None:
    assert side_pots([5, 20, 20], [False, True, True]) == [Pot(45, (0,))]
    assert side_pots([10, 10, 30, 30], [False, False, True, True]) == [Pot(80, (0, 1))]


def test_uncalled_excess_returned() -> None:
    game = table(2, stack="30,10")
    deal(game, "SC")
    play(game, "allin 0", "call 1")
    assert game.hand is not None and game.hand.total == [10, 10]
    assert game.stacks[0] == 20


def test_uncalled_bet_returned_when_everyone_folds() -> None:
    game = table(3)
    deal(game, "SCW")
    play(game, "raise 0 to=8", "fold 1", "fold 2")
    assert game.last_hand["stacks"] == [23, 19, 18]


def test_short_all_in_does_not_reopen_betting() -> None:
    game = table(3, stack="20,20,7")
    deal(game, "SCW")
    play(game, "call 0", "call 1", "check 2", "roll table d8-tauren 2 3 4",
         "bet 1 amount=4", "allin 2", "call 0")
    with pytest.raises(IllegalAction, match="not reopened"):
        game.raise_(1, 10)
    assert game.legal_inputs(1) == [Fold(1), Call(1)]


def test_two_short_all_ins_that_add_up_to_a_full_raise_reopen_betting() -> None:
    game = table(4, stack="20,20,8,10")
    deal(game, "SCW6")
    play(game, "call 3", "call 0", "call 1", "check 2", "roll table d8-tauren 2 3 4",
         "bet 1 amount=4", "allin 2", "allin 3", "call 0")
    assert game.can_raise(1, 12)


def test_minimum_raise_is_the_last_full_raise_increment() -> None:
    game = table(3)
    deal(game, "SCW")
    play(game, "raise 0 to=7")
    with pytest.raises(IllegalAction, match="Seat 1 cannot raise to 11: the minimum raise is to 12"):
        game.raise_(1, 11)
    game.raise_(1, 12)
    assert game.hand is not None and game.hand.min_raise_to() == 17


def test_all_in_is_always_legal() -> None:
    game = table(3, stack="20,20,3")
    deal(game, "SCW")
    assert game.can_all_in(0)  # facing the big blind
    play(game, "raise 0 to=10")
    assert game.can_all_in(1)  # more than the minimum re-raise
    play(game, "call 1")
    assert game.can_all_in(2)  # less than the call
    play(game, "allin 2", "roll table d8-tauren 2 3 4")
    assert game.can_all_in(1)  # opening the betting
    play(game, "check 1")
    assert game.can_all_in(0)


def test_all_in_for_less_than_the_minimum_bet_is_legal() -> None:
    game = table(2, stack="20,6", min_bet=4)
    deal(game, "SC")
    play(game, "call 0", "check 1", "roll table d8-tauren 2 3 4")
    assert game.can_all_in(1) and not game.can_bet(1, 1)


def test_heads_up_blinds_and_order_of_action() -> None:
    game = table(2, button=1)
    assert (game.button, game.sb_pos, game.bb) == (1, 1, 0)
    assert game.stacks == [18, 19]
    deal(game, "SC")
    assert game.pending().prompt == 1
    play(game, "call 1", "check 0", "roll table d8-tauren 2 3 4")
    assert game.pending().prompt == 0


def test_three_players_becoming_two_switches_to_heads_up_rules() -> None:
    game = table(3, stack="20,20,3", rebuy="off")
    deal(game, "S2C")
    play(game, "raise 0 to=6", "fold 1", "allin 2")
    check_down(game)
    assert game.out == [False, False, True]
    assert (game.button, game.sb_pos, game.bb) == (1, 1, 0)
    assert game.stacks[1] == 18 and game.hand is not None and game.hand.street[0] == 2
    deal(game, "SC2")
    assert game.pending().prompt == 1
    play(game, "call 1", "check 0", "roll table d8-tauren 2 3 4")
    assert game.pending().prompt == 0


def test_big_blinds_option_when_everyone_limps() -> None:
    game = table(3)
    deal(game, "SCW")
    play(game, "call 0", "call 1")
    assert game.pending().prompt == 2
    assert Check(2) in game.legal_inputs(2)
    play(game, "raise 2 to=6")
    assert game.pending().prompt == 0


def test_everyone_all_in_runs_the_board_out() -> None:
    game = table(2)
    deal(game, "SC")
    play(game, "allin 0", "call 1")
    needed = []
    while game.phase is Phase.BOARD:
        needed.append(game.need_dice)
        play(game, "roll table d8-tauren " + " ".join(["3"] * game.need_dice))
    assert needed == [3, 1, 1]
    assert game.last_hand["won"] == {"0": 40}


def test_blind_that_puts_a_player_all_in() -> None:
    game = table(3, stack="20,20,1")
    assert game.hand is not None
    assert game.hand.allin[2] and game.hand.total[2] == 1
    deal(game, "SCW")
    assert game.hand.to_call(0) == 2


def test_dead_button_rule() -> None:
    game = table(4, stack="20,20,2,20", rebuy="off")
    deal(game, "SC2W")
    check_down(game)
    assert game.out[2]
    view = game.public_view()
    assert (view["button"], view["small_blind"], view["big_blind"]) == (1, None, 3)
    assert game.hand is not None and game.hand.total == [0, 0, 0, 2]
    deal(game, "SC2W")
    check_down(game)
    view = game.public_view()
    assert (view["button"], view["small_blind"], view["big_blind"]) == (2, 3, 0)


def test_limit_bets_are_the_minimum_bet_then_twice_it() -> None:
    game = table(2, structure="limit")
    deal(game, "SC")
    with pytest.raises(IllegalAction, match="the limit maximum is to 4"):
        game.raise_(0, 6)
    play(game, "call 0", "check 1", "roll table d8-tauren 2 3 4", "check 1", "check 0",
         "roll table d8-tauren 5")
    assert not game.can_bet(1, 2) and game.can_bet(1, 4)


def test_limit_betting_is_capped_at_four_bets() -> None:
    game = table(2, structure="limit", stack=100)
    deal(game, "SC")
    play(game, "raise 0 to=4", "raise 1 to=6", "raise 0 to=8")
    with pytest.raises(IllegalAction, match="capped"):
        game.raise_(1, 10)


def test_pot_limit_raise_is_at_most_the_pot_after_calling() -> None:
    game = table(3, structure="pot-limit")
    deal(game, "SCW")
    with pytest.raises(IllegalAction, match="pot-limit maximum is to 7"):
        game.raise_(0, 8)
    assert game.can_raise(0, 7)


def test_antes_instead_of_blinds() -> None:
    game = table(3, blinds="off")
    assert game.stacks == [18, 18, 18]
    deal(game, "SCW")
    assert game.pending().prompt == 1
    assert Check(1) in game.legal_inputs(1)


def test_busted_player_rebuys_between_hands() -> None:
    game = table(2)
    deal(game, "SC")
    play(game, "allin 0", "call 1")
    roll_board(game)
    assert game.phase is Phase.REBUY and game.pending().actors == (1,)
    assert game.legal_inputs(1) == [game.parse_input("rebuy 1"), game.parse_input("leave 1")]
    play(game, "rebuy 1")
    assert game.rebuys == [0, 1]
    assert game.chips_total() == game.chips_expected() == 60
    assert game.phase is Phase.PRIVATE


def test_busted_player_who_leaves_ends_the_game() -> None:
    game = table(2)
    deal(game, "SC")
    play(game, "allin 0", "call 1")
    roll_board(game)
    play(game, "leave 1")
    assert game.pending().over and game.final()["winner"] == 0


def test_no_raise_when_nobody_left_can_call_it() -> None:
    game = table(2, stack="20,5", button=1)
    deal(game, "SC")
    play(game, "allin 1")
    with pytest.raises(IllegalAction, match="nobody left can call"):
        game.raise_(0, 10)
    assert game.legal_inputs(0) == [Fold(0), Call(0)]
