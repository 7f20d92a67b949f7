"""Tao Dice, RULES.md section 1, one rule per test; the games are driven by history lines."""

from __future__ import annotations

from typing import Iterable, Mapping

import pytest

from controller.games.dice import DieKind
from controller.games.errors import IllegalAction, InvalidInput
from controller.games.rolls import Roll
from controller.games.tao import Ante, Call, Fold, Pass, Phase, Raise, TaoDice, create

# read only, so a literal such as ``{0: (3, 4)}`` is one (a dict's values would be invariant)
Dice = Mapping[int, tuple[int, ...]]


def new(seats: int = 3, **options: object) -> TaoDice:
    return create(seats, {key: str(value) for key, value in options.items()})


def play(game: TaoDice, *lines: str) -> None:
    for line in lines:
        game.apply(game.parse_input(line))


def ante_all(game: TaoDice) -> None:
    """Everyone antes, black stones first."""
    while game.phase is Phase.ANTE:
        seat = game.pending().actors[0]
        game.apply(game.legal_inputs(seat)[0])


def roll(game: TaoDice, dice: Dice) -> None:
    """Feed the dice the table waits for, from ``dice[seat]``."""
    for needed in game.pending().dice:
        assert needed.seat is not None, "Tao Dice has no table dice"
        game.roll(needed.seat, needed.kind, [str(face) for face in dice[needed.seat]])


def pass_all(game: TaoDice) -> None:
    """Everyone still to pass passes (the open phase ends)."""
    while game.phase in (Phase.BET_ONE, Phase.BET_TWO) and game.public_view()["raiser"] is None:
        prompt = game.pending().prompt
        assert prompt is not None, "the open phase always prompts a seat"
        game.pass_(prompt)


def to_part_one(game: TaoDice, d6: Dice) -> None:
    if game.phase is Phase.ANTE:
        ante_all(game)
    roll(game, d6)


def to_part_two(game: TaoDice, d6: Dice, d12: Dice, one: Iterable[str] = (),
                reroll: Dice | None = None) -> None:
    to_part_one(game, d6)
    play(game, *one)
    pass_all(game)
    if game.phase is Phase.REROLL_D6:
        roll(game, reroll or {})
    roll(game, d12)


def play_round(game: TaoDice, d6: Dice, d12: Dice, one: Iterable[str] = (),
               two: Iterable[str] = (), reroll6: Dice | None = None,
               reroll12: Dice | None = None) -> None:
    """A whole round: antes (black first), dice, the given bets, everyone else passing."""
    to_part_two(game, d6, d12, one, reroll6)
    play(game, *two)
    pass_all(game)
    if game.phase is Phase.REROLL_D12:
        roll(game, reroll12 or {})


def stones(game: TaoDice) -> list[int]:
    return game.final()["stacks"]


LOW = {s: (1, 1) for s in range(6)}
MID = {s: (6,) for s in range(6)}


def d6_win(winner: int) -> Dice:
    return {s: ((6, 6) if s == winner else (1, 1)) for s in range(6)}


def win_match(game: TaoDice, winner: int) -> None:
    """With one stone each (black=1 white=0), one round is one whole match."""
    play_round(game, d6_win(winner), MID)


def gratis_table() -> TaoDice:
    """Four players, two knocked out: m = 2; seat 0 holds 5 stones, seat 3 holds 11."""
    game = new(4, black=4, white=0)
    play_round(game, d6_win(3), MID, ["raise 0 black=1 white=0", "call 1 black=1 white=0",
                                      "call 2 black=1 white=0", "call 3 black=1 white=0"],
               ["raise 0 black=1 white=0", "call 1 black=1 white=0",
                "call 2 black=1 white=0", "call 3 black=1 white=0"])
    assert stones(game) == [1, 1, 1, 13]
    play_round(game, d6_win(0), MID, ["raise 3 black=1 white=0"])
    assert stones(game) == [5, 0, 0, 11]
    return game


def gratis_round(d6: Dice | None = None) -> TaoDice:
    """From :func:`gratis_table`: seat 0 antes its last stone (m = 2) and plays on with none."""
    game = gratis_table()
    play(game, "ante 0 black=2 white=0", "ante 3 black=2 white=0")
    roll(game, d6_win(3))
    play(game, "raise 3 black=2 white=0", "call 0 black=2 white=0")
    roll(game, MID)
    pass_all(game)
    assert stones(game) == [1, 0, 0, 15]
    play(game, "ante 0 black=1 white=0", "ante 3 black=2 white=0")
    roll(game, d6 or d6_win(0))
    return game


# --- ante ------------------------------------------------------------------------------------------

def test_ante_every_player_with_stones_antes_the_bid() -> None:
    game = new(3)
    assert game.pending().actors == (0, 1, 2)
    ante_all(game)
    assert game.final()["pot"] == 3 and stones(game) == [5, 5, 5]


def test_ante_of_the_wrong_size_is_refused() -> None:
    game = new(3)
    with pytest.raises(IllegalAction, match="Seat 1 cannot ante with 2 black and 0 white"):
        game.ante(1, 2, 0)


def test_ante_colour_is_the_players_choice_and_white_ante_forces_no_reroll() -> None:
    game = new(2)
    assert game.legal_inputs(0) == [Ante(0, 1, 0), Ante(0, 0, 1)]
    play(game, "ante 0 black=0 white=1", "ante 1 black=0 white=1")
    roll(game, LOW)
    pass_all(game)
    assert game.phase is Phase.ROLL_D12


def test_gratis_ante_puts_in_all_a_short_player_holds() -> None:
    game = gratis_round()
    assert game.final()["pot"] == 3 and stones(game) == [0, 0, 0, 13]
    short = gratis_table()
    play(short, "ante 0 black=2 white=0", "ante 3 black=2 white=0")
    roll(short, d6_win(3))
    play(short, "raise 3 black=2 white=0", "call 0 black=2 white=0")
    roll(short, MID)
    pass_all(short)
    assert short.legal_inputs(0) == [Ante(0, 1, 0)]
    with pytest.raises(IllegalAction, match="they hold only 1, so all 1"):
        short.ante(0, 2, 0)


# --- hidden roll and passing -----------------------------------------------------------------------

def test_hidden_roll_asks_every_active_player_for_2d6_hidden() -> None:
    game = new(3)
    ante_all(game)
    needed = game.pending().dice
    assert [(d.seat, d.kind, d.count, d.hidden) for d in needed] == [
        (s, DieKind.D6, 2, True) for s in range(3)]


def test_first_round_passing_starts_at_the_starting_seat() -> None:
    game = new(4, start_seat=2)
    to_part_one(game, LOW)
    assert game.pending().prompt == 2


def test_passing_starts_with_the_token_holder() -> None:
    game = new(3, black=2, white=0)
    play_round(game, d6_win(1), MID, ["raise 0 black=1 white=0", "call 1 black=1 white=0",
                                       "call 2 black=1 white=0"])
    play_round(game, d6_win(1), MID)
    assert game.final()["token"]["holder"] == 1
    to_part_one(game, LOW)
    assert game.pending().prompt == 1


def test_passing_goes_clockwise_and_an_out_of_turn_pass_is_refused() -> None:
    game = new(3)
    to_part_one(game, LOW)
    with pytest.raises(IllegalAction, match="Seat 2 cannot pass yet: it is seat 0's turn"):
        game.pass_(2)
    game.pass_(0)
    assert game.pending().prompt == 1


def test_everyone_passing_ends_the_part() -> None:
    game = new(3)
    to_part_one(game, LOW)
    for seat in (0, 1, 2):
        game.pass_(seat)
    assert game.phase is Phase.ROLL_D12


# --- raising and responding ------------------------------------------------------------------------

def test_raise_out_of_turn_is_allowed_in_the_open_phase() -> None:
    game = new(3)
    to_part_one(game, LOW)
    assert game.pending().actors == (0, 1, 2)
    game.raise_(2, 1, 0)
    assert game.public_view()["raiser"] == 2


def test_only_one_raise_per_part_refuses_a_re_raise() -> None:
    game = new(3)
    to_part_one(game, LOW)
    game.raise_(0, 1, 0)
    with pytest.raises(IllegalAction, match="Seat 1 cannot raise: seat 0 already raised in this part"):
        game.raise_(1, 1, 0)


def test_a_player_who_passed_cannot_raise_in_that_part() -> None:
    game = new(3)
    to_part_one(game, LOW)
    game.pass_(0)
    with pytest.raises(IllegalAction, match="already passed"):
        game.raise_(0, 1, 0)
    game.raise_(2, 1, 0)


def test_raising_again_in_part_two_is_allowed() -> None:
    game = new(3)
    to_part_two(game, LOW, MID, ["raise 0 black=1 white=0", "call 1 black=1 white=0",
                                 "call 2 black=1 white=0"])
    game.raise_(1, 1, 0)
    assert game.final()["pot"] == 7


def test_responses_may_come_in_any_order() -> None:
    game = new(4)
    to_part_one(game, LOW)
    game.raise_(1, 1, 0)
    assert game.pending().actors == (2, 3, 0)
    game.call(0, 1, 0)
    game.fold(3)
    game.call(2, 1, 0)
    assert game.phase is Phase.ROLL_D12


def test_table_prompts_responses_clockwise_from_the_raiser() -> None:
    game = new(4)
    to_part_one(game, LOW)
    game.raise_(2, 1, 0)
    assert game.pending().prompt == 3
    game.call(3, 1, 0)
    assert game.pending().prompt == 0


def test_fold_only_in_answer_to_a_raise() -> None:
    game = new(3)
    to_part_one(game, LOW)
    with pytest.raises(IllegalAction, match="Seat 0 cannot fold: nobody has raised"):
        game.fold(0)


def test_a_player_answers_a_raise_only_once() -> None:
    game = new(3)
    to_part_one(game, LOW)
    game.raise_(0, 1, 0)
    game.call(1, 1, 0)
    with pytest.raises(IllegalAction, match="Seat 1 cannot fold: they already answered"):
        game.fold(1)


def test_short_player_calls_with_all_it_holds() -> None:
    game = gratis_table()
    play(game, "ante 0 black=2 white=0", "ante 3 black=2 white=0")
    roll(game, LOW)
    play(game, "raise 3 black=2 white=0", "call 0 black=2 white=0")
    roll(game, MID)
    game.raise_(3, 2, 0)
    assert game.legal_inputs(0) == [Call(0, 1, 0), Fold(0)]
    game.call(0, 1, 0)
    assert stones(game) == [0, 0, 0, 5]


def test_short_player_raises_with_all_it_holds() -> None:
    game = gratis_table()
    play(game, "ante 0 black=2 white=0", "ante 3 black=2 white=0")
    roll(game, LOW)
    play(game, "raise 3 black=2 white=0", "call 0 black=2 white=0")
    roll(game, MID)
    assert game.legal_inputs(0) == [Pass(0), Raise(0, 1, 0)]
    game.raise_(0, 1, 0)
    assert game.pending().actors == (3,)


def test_gratis_player_stays_in_without_calling() -> None:
    game = gratis_round()
    game.raise_(3, 2, 0)
    roll(game, MID)
    game.raise_(3, 2, 0)
    assert game.status[0].value == "active"
    assert [row["seat"] for row in game.public_view()["last_round"]["reveal"]] == [0, 3]


def test_gratis_player_is_not_asked_to_pass_or_call_and_cannot_raise() -> None:
    game = gratis_round()
    assert game.pending().actors == (3,)
    with pytest.raises(IllegalAction, match="Seat 0 cannot raise: they hold no stones"):
        game.raise_(0, 0, 0)
    game.raise_(3, 2, 0)
    assert game.phase is Phase.ROLL_D12  # nobody could answer: the part is over
    assert game.status[0].value == "active"


def test_gratis_player_can_win_the_whole_pot() -> None:
    game = gratis_round()
    game.raise_(3, 2, 0)
    roll(game, MID)
    pass_all(game)
    assert stones(game) == [5, 0, 0, 11]  # no side pots: the raise seat 0 never matched is won too
    assert game.public_view()["last_round"]["winners"] == [0]


# --- white stones ----------------------------------------------------------------------------------

def test_white_raise_in_part_one_forces_a_2d6_reroll_after_the_betting() -> None:
    game = new(3)
    to_part_one(game, LOW)
    play(game, "raise 1 black=0 white=1", "call 2 black=1 white=0")
    assert game.phase is Phase.BET_ONE  # rerolls wait until every answer is in
    game.call(0, 1, 0)
    assert [(d.seat, d.kind, d.count, d.hidden) for d in game.pending().dice] == [
        (1, DieKind.D6, 2, True)]
    game.roll(1, DieKind.D6, ["6", "5"])
    assert game.d6[1] == (6, 5) and game.phase is Phase.ROLL_D12


def test_white_call_in_part_two_forces_a_d12_reroll() -> None:
    game = new(3)
    to_part_two(game, LOW, MID)
    play(game, "raise 0 black=1 white=0", "call 1 black=1 white=0", "call 2 black=0 white=1")
    assert [(d.seat, d.kind, d.count, d.hidden) for d in game.pending().dice] == [
        (2, DieKind.D12, 1, False)]
    with pytest.raises(IllegalAction, match="must roll 1d12, not 2d6"):
        game.roll(2, DieKind.D6, ["1", "2"])
    game.roll(2, DieKind.D12, ["12"])
    assert game.public_view()["last_round"]["winners"] == [2]


def white_table() -> TaoDice:
    """Four players with 2 black + 2 white each, two knocked out: m = 2, seat 0 holds 3 whites."""
    game = new(4, black=2, white=2)
    play(game, *[f"ante {s} black=0 white=1" for s in range(4)])
    play_round(game, d6_win(3), MID, ["raise 0 black=1 white=0"] + [
        f"call {s} black=1 white=0" for s in (1, 2, 3)], ["raise 0 black=1 white=0"] + [
        f"call {s} black=1 white=0" for s in (1, 2, 3)])
    play(game, *[f"ante {s} black=0 white=1" for s in range(3)], "ante 3 black=1 white=0")
    play_round(game, d6_win(0), MID, ["raise 3 black=1 white=0"])
    assert game.final()["black"] == [2, 0, 0, 6] and game.final()["white"] == [3, 0, 0, 5]
    return game


def test_several_white_stones_in_one_bid_force_one_reroll() -> None:
    game = white_table()
    assert game.multiplier == 2
    play(game, "ante 0 black=2 white=0", "ante 3 black=2 white=0")
    roll(game, LOW)
    play(game, "raise 0 black=0 white=2", "call 3 black=1 white=1")
    assert [(d.seat, d.kind, d.count) for d in game.pending().dice] == [
        (0, DieKind.D6, 2), (3, DieKind.D6, 2)]
    roll(game, {0: (6, 6), 3: (2, 2)})
    assert game.phase is Phase.ROLL_D12


def test_white_stones_used_in_the_ante_or_by_a_folded_player_force_no_reroll() -> None:
    game = new(3)
    play(game, "ante 0 black=0 white=1", "ante 1 black=1 white=0", "ante 2 black=1 white=0")
    roll(game, LOW)
    play(game, "raise 1 black=1 white=0", "call 2 black=1 white=0", "call 0 black=1 white=0")
    assert game.phase is Phase.ROLL_D12


# --- folding out, the d12, the showdown --------------------------------------------------------------

def test_everyone_folds_the_last_player_takes_the_pot_at_once_without_reveal() -> None:
    game = new(3)
    to_part_one(game, LOW)
    play(game, "raise 1 black=0 white=1", "fold 2", "fold 0")
    assert stones(game) == [5, 8, 5]
    last = game.public_view()["last_round"]
    assert last["winners"] == [1] and last["folded_out"] and last["reveal"] == []
    assert game.phase is Phase.ANTE  # no reroll for the white raise: the round is over


def test_d12_is_rolled_into_the_centre_where_everyone_sees_it() -> None:
    game = new(3)
    to_part_one(game, LOW)
    pass_all(game)
    assert all(not d.hidden and d.kind is DieKind.D12 for d in game.pending().dice)
    game.roll(0, DieKind.D12, ["9"])
    assert game.public_view()["players"][0]["d12"] == 9


def test_showdown_score_is_the_two_d6_plus_the_d12_and_the_best_takes_the_pot() -> None:
    game = new(3)
    play_round(game, {0: (6, 6), 1: (1, 2), 2: (3, 3)}, {0: (1,), 1: (12,), 2: (5,)})
    reveal = game.public_view()["last_round"]["reveal"]
    assert [(r["seat"], r["score"]) for r in reveal] == [(0, 13), (1, 15), (2, 11)]
    assert stones(game) == [5, 8, 5]


def test_showdown_reveals_only_players_still_in() -> None:
    game = new(3)
    play_round(game, d6_win(0), MID, ["raise 0 black=1 white=0", "fold 1", "call 2 black=1 white=0"])
    assert [r["seat"] for r in game.public_view()["last_round"]["reveal"]] == [0, 2]
    assert game.public_view()["players"][1]["d12"] is None


# --- ties ----------------------------------------------------------------------------------------

def test_tie_starts_a_tiebreak_of_the_tied_only_with_the_pot_as_ante() -> None:
    game = new(3)
    play_round(game, {0: (6, 6), 1: (6, 6), 2: (1, 1)}, MID)
    assert game.public_view()["last_round"]["winners"] == [0, 1]
    assert game.tiebreak and game.final()["pot"] == 3 and stones(game) == [5, 5, 5]
    assert [d.seat for d in game.pending().dice] == [0, 1]  # no ante: straight to the hidden roll
    assert game.public_view()["players"][2]["status"] == "sitting-out"
    with pytest.raises(IllegalAction, match="Seat 2 cannot ante: they sit out this tiebreak"):
        game.ante(2, 1, 0)
    play_round(game, d6_win(1), MID, ["raise 0 black=1 white=0", "call 1 black=1 white=0"])
    assert stones(game) == [4, 9, 5] and not game.tiebreak


def test_gratis_status_carries_into_the_tiebreak() -> None:
    game = gratis_round({0: (6, 6), 3: (6, 6)})
    pass_all(game)
    roll(game, MID)
    pass_all(game)
    assert game.tiebreak and stones(game)[0] == 0
    assert game.public_view()["players"][0]["status"] == "active"  # in the tiebreak with no stones
    assert [d.seat for d in game.pending().dice] == [0, 3]


def test_a_player_with_no_stones_after_the_round_is_out_of_the_match() -> None:
    game = gratis_table()
    assert [p["status"] for p in game.public_view()["players"]] == ["active", "out", "out", "active"]
    with pytest.raises(IllegalAction, match="Seat 1 cannot ante: they are out of this match"):
        game.ante(1, 1, 0)


# --- the bid multiplier ----------------------------------------------------------------------------

def test_bid_multiplier_is_two_once_two_of_four_are_out() -> None:
    game = gratis_table()
    assert game.multiplier == 2
    assert game.legal_inputs(3) == [Ante(3, 2, 0)]


def test_bid_multiplier_needs_four_starting_players() -> None:
    game = new(3, black=2, white=0)
    play_round(game, d6_win(0), MID, ["raise 0 black=1 white=0", "call 1 black=1 white=0",
                                      "fold 2"])
    assert game.public_view()["players"][1]["status"] == "out" and game.multiplier == 1


def test_bid_multiplier_off_keeps_the_bid_at_one() -> None:
    game = new(4, black=4, white=0, bid_multiplier="off")
    play_round(game, d6_win(3), MID, ["raise 0 black=1 white=0", "call 1 black=1 white=0",
                                      "call 2 black=1 white=0", "call 3 black=1 white=0"],
               ["raise 0 black=1 white=0", "call 1 black=1 white=0",
                "call 2 black=1 white=0", "call 3 black=1 white=0"])
    play_round(game, d6_win(0), MID, ["raise 3 black=1 white=0"])
    assert stones(game) == [5, 0, 0, 11] and game.multiplier == 1


def test_bid_multiplier_with_six_players_is_two_then_three_recomputed_between_rounds() -> None:
    game = new(6, black=2, white=0)
    play_round(game, d6_win(0), MID, ["raise 0 black=1 white=0", "call 1 black=1 white=0",
                                      "call 2 black=1 white=0", "call 3 black=1 white=0",
                                      "fold 4", "fold 5"])
    assert stones(game) == [10, 0, 0, 0, 1, 1] and game.multiplier == 2
    ante_all(game)
    assert game.multiplier == 2  # not during the round, whatever happens in it
    play_round(game, d6_win(4), MID)
    assert stones(game) == [8, 0, 0, 0, 4, 0] and game.multiplier == 3


# --- matches, the token, the game --------------------------------------------------------------------

def test_match_ends_when_one_player_holds_every_stone() -> None:
    game = new(3, black=1, white=0)
    win_match(game, 2)
    assert game.final()["matches_won"] == [0, 0, 1] and game.match == 2


def test_new_match_resets_everyones_stones() -> None:
    game = new(3, black=1, white=0)
    win_match(game, 2)
    assert stones(game) == [1, 1, 1]
    assert [p["status"] for p in game.public_view()["players"]] == ["active"] * 3
    assert game.phase is Phase.ANTE


def test_two_players_the_winner_takes_the_token_then_wins_the_game_holding_it() -> None:
    game = new(2, black=1, white=0)
    win_match(game, 0)
    assert game.final()["token"]["holder"] == 0 and game.winner is None
    win_match(game, 1)
    assert game.final()["token"]["holder"] == 1 and game.winner is None
    win_match(game, 1)
    assert game.winner == 1 and game.pending().over


def test_three_players_token_silver_then_gold_then_the_game() -> None:
    game = new(3, black=1, white=0)
    win_match(game, 2)
    assert game.final()["token"] == {"holder": 2, "side": "silver"}
    win_match(game, 2)
    assert game.final()["token"] == {"holder": 2, "side": "gold"}
    win_match(game, 2)
    assert game.winner == 2 and game.final()["over"]


def test_a_new_match_winner_takes_the_token_silver_side_up() -> None:
    game = new(3, black=1, white=0)
    win_match(game, 2)
    win_match(game, 2)
    win_match(game, 0)
    assert game.final()["token"] == {"holder": 0, "side": "silver"}


def test_game_length_single_match() -> None:
    game = new(3, black=1, white=0, length="single")
    win_match(game, 1)
    assert game.winner == 1 and game.pending().over


def test_game_length_first_to_two_matches() -> None:
    game = new(3, black=1, white=0, length="first-to-2")
    for winner in (0, 1, 2, 1):
        assert game.winner is None
        win_match(game, winner)
    assert game.winner == 1 and game.final()["matches_won"] == [1, 2, 1]


def test_a_game_that_is_over_refuses_every_input() -> None:
    game = new(2, black=1, white=0, length="single")
    win_match(game, 0)
    with pytest.raises(IllegalAction, match="the game is over: seat 0 won it"):
        game.ante(0, 1, 0)


# --- options ---------------------------------------------------------------------------------------

def test_stones_per_colour_option() -> None:
    game = new(2, black=3, white=1)
    assert game.final()["black"] == [3, 3] and game.final()["white"] == [1, 1]
    assert game.chips_expected() == 8


def test_options_round_trip_through_their_text() -> None:
    game = new(4, black=3, white=0, start_seat=1, length="first-to-3", bid_multiplier="off")
    assert create(4, game.options_text()).options == game.options


@pytest.mark.parametrize("options, word", [
    ({"colour": "red"}, "unknown Tao Dice option 'colour'"),
    ({"black": "many"}, "black='many'"),
    ({"start_seat": "5"}, "start_seat=5 is not a seat"),
    ({"length": "forever"}, "length='forever'"),
    ({"length": "first-to-0"}, "length='first-to-0'"),
    ({"bid_multiplier": "maybe"}, "bid_multiplier='maybe'"),
    ({"black": "0", "white": "0"}, "cannot both be 0"),
])
def test_bad_options_are_refused_naming_them(options: dict[str, str], word: str) -> None:
    with pytest.raises(InvalidInput, match=word.replace("(", r"\(")):
        create(4, options)


@pytest.mark.parametrize("seats", [1, 7])
def test_two_to_six_players(seats: int) -> None:
    with pytest.raises(InvalidInput, match="2 to 6 players"):
        create(seats, {})


# --- refusals and corrections ----------------------------------------------------------------------

def test_illegal_action_names_the_seat_and_changes_nothing() -> None:
    game = new(3)
    to_part_one(game, LOW)
    game.raise_(0, 1, 0)
    before = (game.public_view(), game.seat_view(1), game.pending(), len(game.inputs))
    with pytest.raises(IllegalAction, match="Seat 1 cannot raise"):
        game.raise_(1, 1, 0)
    assert not game.can_raise(1, 1, 0) and game.can_call(1, 1, 0)
    assert (game.public_view(), game.seat_view(1), game.pending(), len(game.inputs)) == before


def test_dice_nobody_asked_for_are_refused() -> None:
    game = new(3)
    with pytest.raises(IllegalAction, match="does not need seat 0's dice now"):
        game.roll(0, DieKind.D6, ["1", "2"])
    ante_all(game)
    with pytest.raises(IllegalAction, match="'7' is not a face of a d6"):
        game.apply(Roll(0, DieKind.D6, ("7", "1")))


def test_seats_that_do_not_exist_are_refused() -> None:
    game = new(3)
    with pytest.raises(IllegalAction, match="there is no seat 5"):
        game.ante(5, 1, 0)



def test_a_seat_view_shows_that_players_own_hidden_dice_only() -> None:
    game = new(2)
    to_part_one(game, {0: (2, 5), 1: (6, 6)})
    assert game.seat_view(0)["my_d6"] == [2, 5] and game.seat_view(1)["my_d6"] == [6, 6]
    assert "my_d6" not in game.public_view()
    with pytest.raises(IllegalAction, match="there is no seat 2"):
        game.seat_view(2)


def test_the_table_names_one_awaited_seat_in_the_singular_and_several_in_the_plural() -> None:
    game = new(2)
    assert game.pending().note == "the table waits for antes from seats 0, 1"
    first = game.pending().actors[0]
    game.apply(game.legal_inputs(first)[0])
    assert game.pending().note == f"the table waits for antes from seat {1 - first}"


def test_the_room_sees_the_awaited_seats_by_name() -> None:
    game = new(3)
    assert game.view(["Ana", "Ben", "Cleo"]).awaited.text == "the table waits for antes from Ana, Ben, Cleo"
    ante_all(game)
    waiting = game.view(["Ana", "Ben", "Cleo"]).awaited.text
    assert waiting == "the table waits for dice (hidden roll) from Ana, Ben, Cleo", waiting
    assert "seats 0, 1, 2" in game.pending().note  # refusals and the dealer keep the numbers
