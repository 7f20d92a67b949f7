"""``dicetable play``: a person at the terminal, fed through stdin."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys

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
    assert "Refused: Seat 0 cannot fold now: the table waits for antes" in out
    assert "Refused: Seat 0 cannot raise now" in out
    assert "Refused: there is no choice 7 (1-2)" in out
    assert "Refused: 'sing' is not a choice" in out


def test_play_help_explains_the_commands() -> None:
    out = run("help\nquit\n")
    assert "Type the number of a choice" in out and "fold" in out


def test_play_accepts_words_for_the_colour_of_stones() -> None:
    out = run("ante white\nquit\n")
    assert "You ante with 1 white" in out


def test_quit_and_end_of_input_leave_the_table_cleanly() -> None:
    assert "You left the table. Stones: seat 0: 6" in run("quit\n")
    assert "You left the table." in run("")


def test_a_whole_game_can_be_played_to_its_end() -> None:
    out = run("1\n" * 400, players=2, option=["length=single", "black=1", "white=0"])
    assert "wins the game" in out or "You win the game!" in out


def test_play_refuses_a_seat_that_does_not_exist() -> None:
    result = subprocess.run([sys.executable, "-m", "controller", "play", "--seat", "5"],
                            capture_output=True, text=True, input="", timeout=60)
    assert result.returncode == 2 and "--seat 5 is not a seat (0-2)" in result.stderr


def test_play_runs_from_the_command_line_fed_by_stdin() -> None:
    result = subprocess.run([sys.executable, "-m", "controller", "play", "--seed", "4",
                             "--players", "2"], capture_output=True, text=True,
                            input="1\npass\nquit\n", timeout=60)
    assert result.returncode == 0, result.stderr
    assert "you are seat 0 of 2" in result.stdout and "You left the table" in result.stdout
