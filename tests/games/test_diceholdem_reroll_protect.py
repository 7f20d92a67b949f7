"""Standard DiceHoldem's Reroll/Protect bets on community dice (RULES.md section 3).

Three seats: button 0, small blind 1, big blind 2; after the flop seat 1 acts first. The hand
ranking is a stand-in (first private die, H high) since these tests are about the betting.
"""

from __future__ import annotations

import pytest

from controller.games.diceholdem import create
from controller.games.diceholdem_basic import BasicDiceHoldem
from controller.games.diceholdem_standard import StandardDiceHoldem
from controller.games.errors import IllegalAction
from controller.games.holdem import Phase
from controller.games.holdem_inputs import Check, Pass, Protect, Reroll

LETTERS = ("M", "E", "D", "L", "O", "H")


def by_first_die(dice: object) -> tuple[int, ...]:
    """Stand-in ranking: the first private die decides."""
    return (LETTERS.index(list(dice)[0]),)  # type: ignore[call-overload]


def table(seats: int = 3, **options: object) -> StandardDiceHoldem:
    return StandardDiceHoldem(seats, {k: str(v) for k, v in options.items()}, key=by_first_die)


def play(game: StandardDiceHoldem, *lines: str) -> None:
    for line in lines:
        game.apply(game.parse_input(line))


def to_flop(game: StandardDiceHoldem) -> None:
    """Deal, limp in, roll the flop H O L."""
    for seat in range(game.seats):
        play(game, f"roll {seat} letters {LETTERS[-1 - seat]} M")
    play(game, "call 0", "call 1", "check 2", "roll table letters H O L")


def test_variant_option_picks_the_variant_module() -> None:
    assert isinstance(create(2, {}), StandardDiceHoldem)
    assert isinstance(create(2, {"variant": "basic"}), BasicDiceHoldem)


def test_first_reroll_or_protect_bet_is_at_least_the_minimum_bet() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1")
    with pytest.raises(IllegalAction, match="the minimum is 2"):
        game.reroll(1, 0, 1)
    game.reroll(1, 0, 2)
    assert game.die_bets == {0: ("reroll", 2)}


def test_turning_a_die_needs_the_last_bet_plus_a_minimum_raise() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1", "reroll 1 die=0 amount=2", "check 2")
    with pytest.raises(IllegalAction, match="the minimum is 4"):
        game.protect(2, 0, 3)
    with pytest.raises(IllegalAction, match="already in reroll state"):
        game.reroll(2, 0, 4)
    game.protect(2, 0, 4)
    assert game.die_bets == {0: ("protect", 4)}


def test_turning_a_die_after_a_raise_needs_the_raised_increment() -> None:
    game = table()
    to_flop(game)
    play(game, "bet 1 amount=2", "reroll 1 die=0 amount=2", "raise 2 to=8")
    with pytest.raises(IllegalAction, match="the minimum is 8"):
        game.protect(2, 0, 7)
    game.protect(2, 0, 8)


def test_reroll_or_protect_chips_do_not_change_the_amount_to_call() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1", "reroll 1 die=0 amount=2")
    assert game.can_check(2)
    assert game.pots()[0].amount == 8


def test_rerolled_die_is_rolled_with_the_next_street() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1", "reroll 1 die=1 amount=2", "check 2", "pass 2", "check 0", "pass 0")
    assert game.pending().dice[0].count == 2
    play(game, "roll table letters E M")
    assert game.board == ["H", "E", "L", "M"]
    assert game.fresh == (1, 3)


def test_extra_round_after_the_river_when_a_die_is_in_reroll_state() -> None:
    game = table()
    to_flop(game)
    for street in ("O", "L"):
        play(game, "check 1", "pass 1", "check 2", "pass 2", "check 0", "pass 0",
             f"roll table letters {street}")
    play(game, "check 1", "protect 1 die=4 amount=2", "check 2", "reroll 2 die=4 amount=4",
         "check 0", "pass 0", "check 1", "pass 1")
    assert game.pending().dice[0].count == 1
    play(game, "roll table letters H")
    assert game.board[4] == "H" and game.phase is Phase.BETTING
    play(game, "check 1")
    assert game.phase is Phase.BETTING and game.legal_inputs(1) == []
    play(game, "check 2", "check 0")
    assert game.hands_played == 1


def test_no_extra_round_when_no_die_is_in_reroll_state() -> None:
    game = table()
    to_flop(game)
    for street in ("O", "L"):
        play(game, "check 1", "pass 1", "check 2", "pass 2", "check 0", "pass 0",
             f"roll table letters {street}")
    play(game, "check 1", "protect 1 die=4 amount=2", "check 2", "pass 2", "check 0", "pass 0")
    assert game.hands_played == 1


def test_no_reroll_or_protect_on_the_river_without_extra_rounds() -> None:
    game = table(extra_rounds=0)
    to_flop(game)
    for street in ("O", "L"):
        play(game, "check 1", "pass 1", "check 2", "pass 2", "check 0", "pass 0",
             f"roll table letters {street}")
    play(game, "check 1")
    assert game.phase is Phase.BETTING and game.pending().prompt == 2


def test_no_reroll_or_protect_once_anyone_is_all_in() -> None:
    game = table(stack="20,20,10")
    to_flop(game)
    play(game, "bet 1 amount=2", "pass 1", "allin 2", "call 0")
    assert game.phase is Phase.BETTING and game.pending().prompt == 1
    with pytest.raises(IllegalAction):
        game.reroll(0, 0, 2)


def test_all_in_is_never_combined_with_a_reroll_or_protect_bet() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1", "pass 1", "allin 2")
    assert game.phase is Phase.BETTING and game.pending().prompt == 0
    with pytest.raises(IllegalAction):
        game.reroll(2, 0, 2)


def test_reroll_or_protect_bet_can_never_put_a_player_all_in() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1")
    with pytest.raises(IllegalAction, match="never put you all-in"):
        game.reroll(1, 0, 18)


def test_reroll_or_protect_bet_reopens_the_action() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1", "pass 1", "check 2", "pass 2", "check 0", "reroll 0 die=2 amount=2")
    assert game.pending().prompt == 1
    assert game.can_bet(1, 4)


def test_die_states_are_cleared_at_the_end_of_each_street() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1", "protect 1 die=0 amount=2", "check 2", "pass 2", "check 0", "pass 0")
    play(game, "roll table letters D")
    assert game.die_bets == {} and game.public_view()["die_states"] == {}


def test_reroll_or_protect_only_after_the_players_ordinary_action() -> None:
    game = table()
    to_flop(game)
    with pytest.raises(IllegalAction, match="only right after your own"):
        game.reroll(1, 0, 2)
    play(game, "check 1")
    assert Reroll(1, 0, 2) in game.legal_inputs(1) and Pass(1) in game.legal_inputs(1)


def test_reroll_or_protect_only_on_dice_rolled_this_street() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1", "pass 1", "check 2", "pass 2", "check 0", "pass 0",
         "roll table letters D", "check 1")
    with pytest.raises(IllegalAction, match="only dice rolled this street"):
        game.protect(1, 0, 2)
    assert game.legal_inputs(1) == [Pass(1), Reroll(1, 3, 2), Protect(1, 3, 2)]


def test_no_reroll_or_protect_before_the_flop() -> None:
    game = table()
    for seat in range(3):
        play(game, f"roll {seat} letters H M")
    play(game, "call 0")
    assert game.phase is Phase.BETTING and game.pending().prompt == 1


def test_basic_variant_has_no_reroll_or_protect_bets() -> None:
    game = BasicDiceHoldem(3, {}, key=by_first_die)
    for seat in range(3):
        game.apply(game.parse_input(f"roll {seat} letters H M"))
    for line in ("call 0", "call 1", "check 2", "roll table letters H O L", "check 1"):
        game.apply(game.parse_input(line))
    assert game.pending().prompt == 2
    assert not game.can(Reroll(1, 0, 2)) and Check(2) in game.legal_inputs(2)


def test_two_extra_rounds_allow_reroll_or_protect_in_the_first_one() -> None:
    game = table(extra_rounds=2)
    to_flop(game)
    for street in ("O", "L"):
        play(game, "check 1", "pass 1", "check 2", "pass 2", "check 0", "pass 0",
             f"roll table letters {street}")
    play(game, "check 1", "reroll 1 die=4 amount=2", "check 2", "pass 2", "check 0", "pass 0",
         "roll table letters E", "check 1")
    assert game.phase is Phase.SIDE_BET
    play(game, "reroll 1 die=4 amount=2", "check 2", "pass 2", "check 0", "pass 0",
         "roll table letters M", "check 1")
    assert game.phase is Phase.BETTING and game.pending().prompt == 2


def test_dice_in_reroll_state_are_rolled_again_when_everyone_is_all_in() -> None:
    game = table()
    to_flop(game)
    play(game, "check 1", "reroll 1 die=2 amount=2", "allin 2", "call 0", "call 1")
    assert [d.count for d in game.pending().dice] == [2]
    play(game, "roll table letters E M", "roll table letters D")
    assert game.last_hand["board"] == ["H", "O", "E", "M", "D"] and game.hands_played == 1
