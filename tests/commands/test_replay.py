"""``dicetable replay``: a history replayed input by input; bad files named by line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.games import history
from controller.games.tao import create

HEADER = "dicetable-history 1\ngame tao\nseats 2\noption black=1\noption white=0\n\n"


def test_replay_prints_the_final_state_of_a_hand_written_history(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "h.txt"
    path.write_text(HEADER + "ante 0 black=1 white=0\nante 1 black=1 white=0\n"
                    "roll 0 d6 6 6\nroll 1 d6 1 2\n# both hold no stone: no betting\n"
                    "roll 0 d12 3\nroll 1 d12 11\n")
    assert main(["replay", str(path), "--json"]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["matches_won"] == [1, 0] and final["match"] == 2
    assert final["stacks"] == [1, 1]  # the next match starts with everyone's stones reset
    assert final["token"] == {"holder": 0, "side": "silver"} and final["hands"] == 1


def test_replay_without_json_prints_a_readable_final_state(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "h.txt"
    path.write_text(history.dumps(create(3, {})))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 game, 0 hands, 0 inputs replayed" in out
    assert "seat  games won  matches won  stacks  black  white" in out
    assert "     2          0            0       6      4      2" in out


@pytest.mark.parametrize("body, message", [
    ("ante 0 black=1 white=0\nraise 1 black=1 white=0\n", "line 8: 'raise 1 black=1 white=0': Seat 1 cannot raise now"),
    ("ante 0 black=1 white=0\nshout 1\n", "line 8: 'shout 1': unknown Tao Dice input 'shout'"),
    ("ante 0 black=1 white=0\nroll 1 d6 9 9\n", "line 8"),
])
def test_replay_names_the_line_of_a_bad_input(capsys, tmp_path: Path, body: str, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.txt"
    path.write_text(HEADER + body)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_replay_counts_lines_over_the_whole_file_of_several_games(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "two.txt"
    path.write_text(HEADER + "\n" + HEADER + "fold 0\n")
    assert main(["replay", str(path)]) == 2
    assert "line 14: 'fold 0'" in capsys.readouterr().err


@pytest.mark.parametrize("text, message", [
    ("hello\n", "not a dicetable history"),
    ("junk\n" + HEADER, "not a dicetable history"),
    ("dicetable-history 1\ngame chess\nseats 2\n", "unknown game 'chess'"),
    ("dicetable-history 1\ngame tao\nseats 2\noption colour=red\n", "unknown Tao Dice option"),
])
def test_replay_refuses_a_file_that_is_not_a_history(capsys, tmp_path: Path, text: str,
                                                     message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_replay_of_a_missing_file_says_so(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", str(tmp_path / "nope.txt")]) == 2
    assert "no such history file" in capsys.readouterr().err
