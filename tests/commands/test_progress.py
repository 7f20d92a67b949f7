"""Progress on long commands: a count with the rate and the time left, on a terminal only."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from controller.cli import main
from controller.commands import common
from controller.commands.common import Progress


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_shows_the_count_rate_and_time_left_once_work_is_slow() -> None:
    terminal, clock = Terminal(), Clock()
    progress = Progress("simulate", 1000, "hands", stream=terminal, clock=clock)
    progress.update(10)
    assert terminal.getvalue() == ""  # within the first second: nothing
    clock.now = 2.0
    progress.update(250)
    assert "simulate: 250/1,000 hands (25%), 125 hands/s, 0:06 left" in terminal.getvalue()
    progress.close()
    assert terminal.getvalue().endswith("\r\x1b[K")


def test_progress_is_silent_off_a_terminal_and_when_disabled() -> None:
    clock = Clock()
    pipe, terminal = io.StringIO(), Terminal()
    quiet = [Progress("x", 10, "hands", stream=pipe, clock=clock),
             Progress("x", 10, "hands", stream=terminal, clock=clock, enabled=False)]
    clock.now = 5.0
    for progress in quiet:
        progress.update(5)
        progress.close()
    assert pipe.getvalue() == terminal.getvalue() == ""


def on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """stderr is a terminal and every command counts as slow (called in the test itself: pytest
    puts its own stderr back between a fixture and the test)."""
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(common, "SHOW_AFTER", 0.0)
    return terminal


def test_simulate_and_replay_show_progress_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    terminal = on_a_terminal(monkeypatch)
    record = tmp_path / "games.txt"
    assert main(["simulate", "--hands", "200", "--record", str(record)]) == 0
    assert "simulate: " in terminal.getvalue() and "hands/s" in terminal.getvalue()
    assert main(["replay", str(record)]) == 0
    assert "replay: " in terminal.getvalue() and "lines/s" in terminal.getvalue()


def test_json_output_never_has_progress(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    terminal = on_a_terminal(monkeypatch)
    record = tmp_path / "games.txt"
    assert main(["simulate", "--hands", "200", "--record", str(record), "--json"]) == 0
    assert main(["replay", str(record), "--json"]) == 0
    assert terminal.getvalue() == ""
