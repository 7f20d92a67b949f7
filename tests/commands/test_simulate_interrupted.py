"""``simulate --record`` writes the history as it plays: an interrupted run keeps what it played."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.commands.common import Output
from controller.commands.simulate import Recorder
from controller.simulation import BotTable

DICETABLE = Path(sys.executable).with_name("dicetable")


def heeds_ctrl_c() -> None:
    """Ctrl-C's default in a child about to start: a test run started in the background by a shell
    without job control ignores SIGINT, and a child inherits that (Python then installs no handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def ctrl_c_heard() -> Iterator[None]:
    """Python's own Ctrl-C handler in this process for the test (see :func:`heeds_ctrl_c`)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def start_recording(record: Path, game: str) -> subprocess.Popen[str]:
    """A simulation far too long to finish, writing ``record``, once it has written some games."""
    process = subprocess.Popen([str(DICETABLE), "simulate", "--game", game, "--players", "3",
                                "--hands", "10000000", "--record", str(record)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=heeds_ctrl_c)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
            not record.exists() or record.read_text().count("dicetable-history 1") < 2):
        assert process.poll() is None, process.communicate()
        time.sleep(0.1)
    return process


@pytest.fixture
def recordings() -> Iterator[Callable[[Path, str], subprocess.Popen[str]]]:
    """:func:`start_recording` for a test, whose runs still going at its end are killed: a run
    that did not stop on Ctrl-C went on playing (and growing) after its test had failed."""
    started: list[subprocess.Popen[str]] = []

    def start(record: Path, game: str) -> subprocess.Popen[str]:
        started.append(start_recording(record, game))
        return started[-1]

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.communicate()


def replayed(record: Path) -> dict:  # type: ignore[type-arg]
    done = subprocess.run([str(DICETABLE), "replay", str(record), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize("game", ["tao", "diceholdem"])
def test_ctrl_c_keeps_every_hand_played_and_the_history_replays(
        tmp_path: Path, game: str, recordings: Callable[[Path, str], subprocess.Popen[str]]) -> None:
    record = tmp_path / "games.txt"
    process = recordings(record, game)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and err.strip() == "dicetable: interrupted"
    final = replayed(record)
    assert final["games"] >= 2 and final["hands"] > 0


def test_a_killed_run_leaves_whole_hands_that_replay(
        tmp_path: Path, recordings: Callable[[Path, str], subprocess.Popen[str]]) -> None:
    record = tmp_path / "games.txt"
    process = recordings(record, "tauren")
    time.sleep(0.5)
    process.kill()  # SIGKILL: no handler runs, only what was already written is there
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    text = record.read_text()
    assert text.endswith("\n")
    final = replayed(record)
    assert final["games"] == text.count("dicetable-history 1") and final["hands"] > 0


class InterruptedAfterWriting(Output):
    """A history file whose first write is followed at once by a Ctrl-C, the moment CI hit: the
    lines are on disk, and the interrupt comes before the recorder notes them as written."""

    interrupted = False

    def write(self, text: str) -> None:
        super().write(text)
        if not self.interrupted:
            self.interrupted = True
            os.kill(os.getpid(), signal.SIGINT)


def test_a_ctrl_c_just_after_a_write_does_not_write_those_lines_twice(tmp_path: Path, ctrl_c_heard: None) -> None:
    record = tmp_path / "games.txt"
    table = BotTable("tao", 3, seed=1)
    recorder = Recorder(InterruptedAfterWriting(record, force=False))
    table.play(2)
    with pytest.raises(KeyboardInterrupt):
        recorder.catch_up(table.games)
    recorder.catch_up(table.games)  # the interrupted command's last catch-up: nothing new
    recorder.output.close()
    text = record.read_text()
    assert text.count("dicetable-history 1") == 1
    assert replayed(record)["hands"] == table.hands
