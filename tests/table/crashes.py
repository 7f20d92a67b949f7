"""The demo crash harness shared by ``test_crash.py`` and ``bench/table.py``.

A demo with ``--speed max --no-web`` is killed with SIGKILL at random moments and started again
on the same record, again and again, until it ends by itself. Every input it printed
(``[SEQ] ...``, printed only once durable) must be in the final record, and the game must end
exactly as an uninterrupted run with the same seed does.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from controller.store import Store
from controller.table.replay import effective_lines, replay_game

ROOT = Path(__file__).resolve().parents[2]
PRINTED = re.compile(rb"^\[(\d+)\] ", re.M)


@dataclass
class Series:
    """A demo killed again and again: kills, seqs printed, seconds from start to resumed play."""

    kills: int = 0
    printed: set[int] = field(default_factory=set)
    resume_s: list[float] = field(default_factory=list)


def demo_command(db: Path, args: list[str]) -> list[str]:
    """The demo command line on ``db``."""
    return [sys.executable, "-m", "controller.cli", "demo", "--speed", "max", "--no-web",
            "--db", str(db), *args]


def run_once(db: Path, args: list[str], kill_after: float | None,
             early: bool = False) -> tuple[bool, bytes, float]:
    """Run the demo; SIGKILL it ``kill_after`` s after its first printed input (after its start
    when ``early``). Returns whether it ended by itself, what it printed, and the seconds from
    start to its first printed input (inf when none came)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    child = subprocess.Popen(demo_command(db, args), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=ROOT)
    assert child.stdout is not None
    head, first = b"", float("inf")
    if kill_after is not None and not early:
        while not PRINTED.search(head):
            line = child.stdout.readline()
            if not line:
                break
            head += line
        first = time.perf_counter() - start
    if kill_after is not None:
        time.sleep(kill_after)
        child.send_signal(signal.SIGKILL)
    out, err = child.communicate()
    if child.returncode not in (0, -signal.SIGKILL):
        raise AssertionError(f"the demo failed ({child.returncode}): {err.decode()[-2000:]}")
    return child.returncode == 0, head + out, first


def kill_until_done(db: Path, args: list[str], kills: int, rng: random.Random,
                    most_delay: float = 0.3) -> Series:
    """Kill the demo at least ``kills`` times at random moments, then let it finish."""
    series = Series()
    while True:
        kill = series.kills < kills
        early = kill and rng.random() < 0.25
        delay = rng.uniform(0.0, 1.2 if early else most_delay) if kill else None
        done, out, first = run_once(db, args, delay, early)
        series.printed |= {int(seq) for seq in PRINTED.findall(out)}
        if first != float("inf"):
            series.resume_s.append(first)
        if done:
            return series
        series.kills += 1


def outcome(db: Path) -> tuple[list[str], dict[str, object], set[int]]:
    """The record's inputs in effect, the game's results and every seq in the record."""
    reader = Store.open_readonly(db)
    try:
        game = reader.games(1)[0].game_no
        seqs = {record.seq for record in reader.after(0, limit=10**9)}
        return effective_lines(reader, game), dict(replay_game(reader, game).game.final()), seqs
    finally:
        reader.close()
