"""``dicetable simulate``: figures, determinism, the record that replay reads back."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from controller.cli import main


def simulate_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert main(["simulate", "--json", *args]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    return json.loads(out[0])


def test_simulate_json_reports_hands_speed_conservation_and_final(capsys) -> None:  # type: ignore[no-untyped-def]
    report = simulate_json(capsys, "--game", "tao", "--players", "6", "--hands", "300", "--seed", "1")
    assert report["hands"] == 300 and report["conserved"] is True
    assert report["seconds"] > 0 and report["hands_per_second"] > 0
    final = report["final"]
    assert {"stacks", "matches_won", "token", "winner", "games", "game_winners"} <= set(final)
    assert sum(final["stacks"]) + final["pot"] == 36


def test_simulate_twice_with_the_same_seed_gives_the_same_final(capsys) -> None:  # type: ignore[no-untyped-def]
    args = ("--players", "6", "--hands", "400", "--seed", "1", "--bots", "random,heuristic")
    assert simulate_json(capsys, *args)["final"] == simulate_json(capsys, *args)["final"]


def test_replay_of_the_record_prints_the_same_final(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "games.txt"
    report = simulate_json(capsys, "--players", "6", "--hands", "600", "--seed", "1",
                           "--record", str(record))
    assert record.read_text().startswith("dicetable-history 1\ngame tao\nseats 6\n")
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == report["final"]


def test_several_games_are_recorded_one_after_the_other(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "games.txt"
    report = simulate_json(capsys, "--players", "2", "--hands", "60", "--option", "length=single",
                           "--option", "black=1", "--record", str(record))
    assert report["final"]["games"] > 1
    assert record.read_text().count("dicetable-history 1") == report["final"]["games"]
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == report["final"]


def test_simulate_without_json_prints_a_readable_summary(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--players", "3", "--hands", "50"]) == 0
    out = capsys.readouterr().out
    assert "tao: 50 hands by 3 bots" in out and "conserved after every input: yes" in out
    assert "seat  games won  matches won  stacks  black  white" in out
    assert "[" not in out and "{" not in out  # no Python objects for a person to decode


@pytest.mark.parametrize("args, message", [
    (["--bots", "genius"], "unknown bot 'genius'"),
    (["--players", "9"], "tao is for 2 to 6 players"),
    (["--option", "colour=red"], "unknown Tao Dice option 'colour'"),
    (["--option", "nonsense"], "--option needs KEY=VALUE"),
    (["--hands", "-1"], "--hands must be at least 1"),
    (["--hands", "0"], "--hands must be at least 1"),
])
def test_simulate_refuses_bad_arguments_in_one_line(capsys, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_holdem_summary_has_standings_and_the_hands_shown_by_category(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["simulate", "--game", "tauren", "--players", "3", "--hands", "40"]) == 0
    out = capsys.readouterr().out
    assert "  seat  games won  stacks  rebuys" in out
    assert re.search(r"hands shown at [\d,]+ showdowns, by category:\n  (holdem|five of a kind|"
                     r"four of a kind|full house|straight|three of a kind|two pair|one pair)", out)


def test_json_keeps_every_field_and_adds_the_hands_by_category(capsys) -> None:  # type: ignore[no-untyped-def]
    report = simulate_json(capsys, "--game", "diceholdem", "--players", "3", "--hands", "40")
    assert {"hands", "seconds", "hands_per_second", "conserved", "final"} <= set(report)
    categories = report["hands_by_category"]
    assert categories and set(categories) <= {"holdem", "five_of_a_kind", "four_of_a_kind",
                                              "full_house", "straight", "three_of_a_kind",
                                              "two_pair", "one_pair", "high_die"}
    assert sum(categories.values()) >= 2  # a showdown shows at least two hands


def test_the_record_is_written_before_the_summary_and_equals_the_games_played(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    record = tmp_path / "games.txt"
    report = simulate_json(capsys, "--game", "tauren", "--players", "3", "--hands", "30",
                           "--record", str(record))
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == report["final"]
