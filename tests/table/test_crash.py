"""Acceptance 1 of the table: a demo killed with SIGKILL at random moments, again and again, ends
exactly as an uninterrupted run with the same seed, and loses no input it acknowledged."""

from __future__ import annotations

import random
from pathlib import Path

from tests.table.crashes import kill_until_done, outcome, run_once

ARGS = ["--game", "tao", "--players", "2", "--seed", "11", "--hands", "3"]
KILLS = 50


def test_a_demo_killed_50_times_ends_as_an_uninterrupted_one(tmp_path: Path) -> None:
    done, _, _ = run_once(tmp_path / "calm.db", ARGS, kill_after=None)
    assert done
    calm_inputs, calm_final, _ = outcome(tmp_path / "calm.db")
    rng = random.Random(2026)
    kills = series = 0
    while kills < KILLS:  # each series is killed until it ends by itself, then checked
        series += 1
        db = tmp_path / f"killed-{series}.db"
        run = kill_until_done(db, ARGS, KILLS - kills, rng, most_delay=0.12)
        inputs, final, recorded = outcome(db)
        assert run.printed and run.printed <= recorded, \
            f"acknowledged but lost: {sorted(run.printed - recorded)[:10]}"
        assert inputs == calm_inputs
        assert final == calm_final
        kills += run.kills
    assert kills >= KILLS
