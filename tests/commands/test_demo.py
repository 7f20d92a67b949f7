"""``dicetable demo``: bots play Tao Dice told round by round."""

from __future__ import annotations

import io

from controller.cli import main
from controller.commands.demo import watch
from controller.simulation import BotTable


def test_demo_tells_every_round_with_a_table(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["demo", "--fast", "--rounds", "3", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tao Dice demo: 4 bots (heuristic), seed 3")
    assert out.count("== Match") == 3 and out.count("seat  stones (b+w)") == 3
    assert "rolls their hidden dice" in out


def test_demo_never_shows_hidden_dice_before_the_showdown(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["demo", "--fast", "--rounds", "5", "--seed", "8"]) == 0
    for line in capsys.readouterr().out.splitlines():
        assert not (line.strip().startswith("Seat") and " d6" in line)


def test_demo_stops_when_a_game_ends_if_no_round_count_is_given() -> None:
    out = io.StringIO()
    table = BotTable("tao", 2, 1, options={"length": "single", "black": "1", "white": "0"})
    watch(table, None, out, lambda: None)
    assert "Game 1 is over: seat" in out.getvalue()


def test_demo_ends_cleanly_on_ctrl_c(capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    calls = []

    def interrupt(seconds: float) -> None:
        calls.append(seconds)
        if len(calls) == 10:
            raise KeyboardInterrupt

    monkeypatch.setattr("controller.commands.demo.time.sleep", interrupt)
    assert main(["demo", "--seed", "1", "--delay", "0.5"]) == 0
    assert "demo stopped after 0 rounds" in capsys.readouterr().out
    assert calls[0] == 0.5
