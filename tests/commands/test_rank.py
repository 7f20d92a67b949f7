"""``dicetable rank``: readable lines, JSON per hand, standard input, clean errors."""

import io
import json

from controller.cli import main


def test_rank_prints_the_hand_in_words(capsys):
    assert main(["rank", "--game", "tauren", "W", "W", "W", "5", "5", "C", "2"]) == 0
    assert capsys.readouterr().out == "W W W 5 5 C 2 -> full house: W W W 5 5\n"


def test_rank_json_has_dice_category_best_and_key(capsys):
    assert main(["rank", "--game", "tauren", "WWW55C2", "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line == {"dice": ["W", "W", "W", "5", "5", "C", "2"], "category": "full_house",
                    "best": ["W", "W", "W", "5", "5"], "played_as": ["W", "W", "W", "5", "5"],
                    "key": [6, 7, 5]}


def test_rank_says_what_a_wild_shaman_stands_for(capsys):
    assert main(["rank", "--game", "tauren", "--shaman", "wild", "W W W S S 2 3"]) == 0
    assert capsys.readouterr().out == (
        "W W W S S 2 3 -> five of a kind: W W W S S (as W W W W W)\n")


def test_rank_reads_one_hand_per_line_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("HOLDEMM\n\n6 6 5 5 4 4 1\n"))
    assert main(["rank", "--game", "diceholdem", "-", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["category"] for line in lines] == ["holdem", "two_pair"]
    assert lines[1]["dice"] == ["H", "H", "O", "O", "L", "L", "M"]


def test_rank_no_wrap_refuses_around_the_horn(capsys):
    assert main(["rank", "--game", "tauren", "--no-wrap", "C", "S", "2", "3", "4"]) == 0
    assert "high die" in capsys.readouterr().out


def test_rank_bad_face_fails_with_one_line(capsys):
    assert main(["rank", "--game", "tauren", "2", "3", "4", "X", "5"]) == 2
    assert capsys.readouterr().err == (
        "dicetable: 'X' is not a face of a d8-tauren die (faces: 2 3 4 5 6 W C S)\n")


def test_rank_tauren_options_are_refused_for_diceholdem(capsys):
    assert main(["rank", "--game", "diceholdem", "--shaman", "wild", "HOLDE"]) == 2
    assert "Tauren Hold'em options" in capsys.readouterr().err
