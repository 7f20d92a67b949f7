"""``dicetable play``: a person at the terminal, fed through stdin."""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys

import pytest

from controller.commands.play import play


def args(**overrides: object) -> argparse.Namespace:
    values: dict[str, object] = {"game": "tao", "players": 3, "seat": 0, "seed": 2,
                                 "bots": "heuristic", "option": []}
    values.update(overrides)
    return argparse.Namespace(**values)


def run(typed: str, **overrides: object) -> str:
    out = io.StringIO()
    assert play(args(**overrides), io.StringIO(typed), out) == 0
    return out.getvalue()


def test_play_lists_the_legal_choices_and_takes_a_number() -> None:
    out = run("1\nquit\n")
    assert "Your choices: 1) ante with 1 black  2) ante with 1 white" in out
    assert "You ante with 1 black" in out


def test_play_shows_the_player_their_own_hidden_dice_only() -> None:
    out = run("1\nquit\n")
    assert "(hidden from the others)" in out and "your 2d6:" in out
    assert "Seat 1 rolls their hidden dice" in out


def test_play_refuses_an_illegal_choice_with_the_engines_reason() -> None:
    out = run("fold\nraise\n7\nsing\n1\nquit\n")
    assert "Refused: You cannot fold now: the table waits for antes" in out
    assert "Refused: You cannot raise now" in out
    assert "Refused: there is no choice 7 (1-2)" in out
    assert "Refused: 'sing' is not a choice" in out


def test_play_help_explains_the_commands() -> None:
    out = run("help\nquit\n")
    assert "Type the number of a choice" in out and "fold" in out


def test_play_accepts_words_for_the_colour_of_stones() -> None:
    out = run("ante white\nquit\n")
    assert "You ante with 1 white" in out


def test_quit_and_end_of_input_leave_the_table_cleanly() -> None:
    assert "You left the table. Stones: you 6" in run("quit\n")
    assert "You left the table." in run("")


def test_a_whole_game_can_be_played_to_its_end() -> None:
    out = run("1\n" * 400, players=2, option=["length=single", "black=1", "white=0"])
    assert "wins the game" in out or "You win the game!" in out


def test_play_refuses_a_seat_that_does_not_exist() -> None:
    result = subprocess.run([sys.executable, "-m", "controller", "play", "--seat", "5"],
                            capture_output=True, text=True, input="", timeout=60)
    assert result.returncode == 2 and "--seat 5 is not a seat (0-2)" in result.stderr


def test_play_seats_the_named_bots_in_turn_at_the_seats_but_yours() -> None:
    # at --seat 1, "random,heuristic" sat random at seats 0 and 2: heuristic sat nowhere
    from controller.commands.play import bots_around
    assert bots_around(["random", "heuristic"], 3, 1) == ["random", "random", "heuristic"]
    assert bots_around(["random", "heuristic"], 3, 0) == ["random", "random", "heuristic"]


def test_play_runs_from_the_command_line_fed_by_stdin() -> None:
    result = subprocess.run([sys.executable, "-m", "controller", "play", "--seed", "4",
                             "--players", "2"], capture_output=True, text=True,
                            input="1\npass\nquit\n", timeout=60)
    assert result.returncode == 0, result.stderr
    assert "you are seat 0 of 2" in result.stdout and "You left the table" in result.stdout


# --- the hold'em games ------------------------------------------------------------------------

HOLDEM = ["tauren", "diceholdem"]


def heads_up(game: str, typed: str, **overrides: object) -> str:
    """Seat 0 is the button and posts the small blind: the first prompt has 1 to call."""
    return run(typed, game=game, players=2, seed=3, **overrides)


@pytest.mark.parametrize("game", HOLDEM)
def test_holdem_prompt_shows_dice_board_pot_and_to_call_compactly(game: str) -> None:
    out = heads_up(game, "quit\n")
    assert re.search(r"-- hand 1, preflop betting \| your dice: \S+ \S+ \| board: - \| pot 3 "
                     r"\| to call 1\n   you 19 chips \(button\), bet 1 \| seat 1 18 chips, bet 2",
                     out)
    assert "'seats'" not in out and "stones" not in out


@pytest.mark.parametrize("game", HOLDEM)
def test_holdem_typed_commands_are_accepted(game: str) -> None:
    out = heads_up(game, "raise 6\nall-in\nquit\n")
    assert "Your choices: 1) fold  2) call 1  3) raise to 4" in out
    assert "  You raise to 6\n" in out and "  You go all-in\n" in out


@pytest.mark.parametrize("game", HOLDEM)
def test_holdem_illegal_amount_is_refused_with_the_reason_and_asked_again(game: str) -> None:
    out = heads_up(game, "raise 100\nbet 6\nraise\ncall\nquit\n")
    assert "Refused: You cannot raise to 100: only 20 in chips" in out
    assert "Refused: You cannot bet: there is already a bet of 2 (raise instead)" in out
    assert "Refused: raise takes 1 number, not 0: type 'raise TO'" in out
    assert "  You call 1\n" in out  # how much: the menu said "call 1", the line said "You call"


@pytest.mark.parametrize("game", HOLDEM)
def test_holdem_help_explains_the_typed_commands_in_chips(game: str) -> None:
    out = heads_up(game, "help\nquit\n")
    assert "raise N                 raise to N chips in total this round" in out
    assert "reroll DIE N" in out and "stones" not in out


@pytest.mark.parametrize("game", HOLDEM)
def test_holdem_quit_and_end_of_input_leave_the_table_counting_chips(game: str) -> None:
    assert "You left the table. Chips: you 19, seat 1 18" in heads_up(game, "quit\n")
    assert "You left the table. Chips:" in heads_up(game, "")


def test_diceholdem_reroll_and_protect_are_typed_with_die_and_amount() -> None:
    out = run("call\ncheck\nreroll 0\nprotect 9 2\nreroll 0 2\nquit\n", game="diceholdem",
              seed=3)
    assert "| board: 0:L 1:H 2:O | pot 6\n" in out
    assert "Refused: reroll takes 2 numbers, not 1: type 'reroll DIE AMOUNT'" in out
    assert "Refused: You cannot protect die 9 for 2: only dice rolled this street" in out
    assert "  You bet 2 to reroll die 0\n" in out and "board: 0:L(reroll 2) 1:H 2:O" in out


def test_holdem_bots_actions_are_told_in_words() -> None:
    out = run("call\nbet 6\npass\nquit\n", game="diceholdem", seed=3)
    assert "  Seat 1 calls 6\n  Seat 1 passes on reroll/protect\n  Seat 2 raises to 12\n" in out


def test_a_whole_holdem_game_can_be_played_to_its_end() -> None:
    out = heads_up("diceholdem", "1\n" * 400, option=["rebuy=off"])
    assert "== hand 1: board" in out and "\n   chips: you " in out
    assert out.rstrip().endswith("Seat 1 wins the game.")


@pytest.mark.parametrize("game", HOLDEM)
def test_holdem_a_negative_amount_is_refused_as_below_zero(game: str) -> None:
    # "raise -5" answered "'-5' is not a number"
    out = heads_up(game, "raise -5\nraise five\nquit\n")
    assert "Refused: '-5' is below zero: type 'raise TO' with whole numbers of 0 or more" in out
    assert "Refused: 'five' is not a number: type 'raise TO' with whole numbers" in out
    assert "You raise" not in out


def test_tao_a_negative_number_is_refused_not_played_as_a_bare_raise() -> None:
    # "raise -5" raised with the fewest whites, the -5 dropped without a word
    out = run("1\nraise -5\nraise 3\nquit\n")
    assert "Your choices: 1) pass  2) raise with 1 black" in out  # a raise was open to the person
    assert "Refused: raise takes 2 numbers, not 1: type 'raise BLACK WHITE'" in out
    assert "Refused: '-5' is below zero: type 'raise BLACK WHITE' with whole numbers of 0 or more" in out
    assert "You raise" not in out


def test_tao_a_word_after_raise_is_refused_not_dropped_for_a_bare_raise() -> None:
    # "raise five" raised with the fewest whites, "five" dropped without a word
    out = run("1\nraise five\nraise 1 white=2\nquit\n")
    assert "Your choices: 1) pass  2) raise with 1 black" in out
    assert "Refused: 'five' is not a number: type 'raise BLACK WHITE' with whole numbers" in out
    assert "Refused: raise: give every number bare or every one as NAME=N: type 'raise BLACK WHITE'" in out
    assert "You raise" not in out
