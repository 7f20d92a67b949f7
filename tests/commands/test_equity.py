"""``dicetable equity``: exact win/tie/equity per hand, readable and as JSON."""

import json

import pytest

from controller.cli import main


def test_equity_table_on_the_flop(capsys):
    assert main(["equity", "--game", "tauren", "--board", "2", "3", "4",
                 "--hand", "S", "S", "--hand", "6", "W"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Tauren Hold'em (shaman=ace, wrap), board 2 3 4: "
        "64 equally likely rolls of the unknown dice",
        "hand           win       tie    equity",
        "S S         67.19%     3.12%    68.75%",
        "6 W         29.69%     3.12%    31.25%",
    ]


def test_equity_json_with_hidden_dice_before_the_flop(capsys):
    assert main(["equity", "--game", "diceholdem", "--hand", "H", "H", "--hand", "?", "?",
                 "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["outcomes"] == 6 ** 7 and result["board"] == []
    assert sum(hand["equity"] for hand in result["hands"]) == pytest.approx(1)
    assert result["hands"][1]["hand"] == ["?", "?"]


def test_equity_needs_two_hands(capsys):
    assert main(["equity", "--game", "tauren", "--hand", "S", "S"]) == 2
    assert capsys.readouterr().err == "dicetable: equity needs 2 to 10 hands, not 1\n"


@pytest.mark.parametrize("hidden", ["x", "X", "_"])
def test_a_hidden_die_is_written_x_as_the_help_says(capsys, hidden):
    assert main(["equity", "--game", "diceholdem", "--hand", "H", "H", "--hand", hidden, "O",
                 "--board", "x", "L", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hands"][1]["hand"] == ["?", "O"]


def test_a_hand_short_of_a_die_is_told_to_write_x_as_the_help_says(capsys):
    assert main(["equity", "--game", "diceholdem", "--hand", "", "", "--hand", "H", "H"]) == 2
    assert capsys.readouterr().err == "dicetable: a hand is 2 dice (x or ? for a hidden one), not ''\n"
    with pytest.raises(SystemExit):
        main(["equity", "--help"])
    assert "x for a hidden one" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(("typed", "quoted"), [("x", "'x'"), ("s", "'s'"), ("_", "'_'")])
def test_a_short_hand_is_quoted_as_the_user_typed_it(capsys, typed, quoted):
    assert main(["equity", "--game", "tauren", "--hand", typed, "--hand", "S", "S"]) == 2
    assert capsys.readouterr().err == (
        f"dicetable: a hand is 2 dice (x or ? for a hidden one), not {quoted}\n")
