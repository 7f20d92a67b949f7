"""Acceptance 1 of the table: a demo killed with SIGKILL at random moments, again and again, ends
exactly as an uninterrupted run with the same seed, and loses no input it acknowledged."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from controller.store import Store
from controller.table.records import TableStatus
from controller.table.table import Table
from tests.table.crashes import ROOT, kill_until_done, outcome, run_once
from tests.table.cut_child import OPTIONS

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


def test_a_table_killed_between_a_games_last_input_and_its_result_records_it_on_restart(
        tmp_path: Path) -> None:
    # the record's current game was one already over: the restarted table could not go on with
    # it, and the store refused every new game ("game 1 (tao) is not finished")
    with _restarted_after(tmp_path / "t.db", "finish") as (store, table):
        assert table.state().status == TableStatus.OVER and store.current_game() is None
        assert table.ledger is not None
        assert store.game(1).final == json.loads(json.dumps(table.ledger.game.final()))
        table.new_game("tao", ["Ana", "Ben"], OPTIONS)
        assert table.game_no == 2


def test_a_table_killed_as_an_undo_reopens_a_game_keeps_neither_the_undo_nor_the_reopening(
        tmp_path: Path) -> None:
    # the undo's line and the game back in play are one transaction: a record with the one and
    # not the other was a game the table played on while the record held it finished
    with _restarted_after(tmp_path / "t.db", "reopen") as (store, table):
        assert "undo" not in [record.kind for record in store.records(1)]
        assert store.game(1).over and store.current_game() is None
        assert table.state().status == TableStatus.OVER


def test_a_table_killed_as_a_new_game_starts_keeps_the_game_in_play_as_it_was(
        tmp_path: Path) -> None:
    # the game in play was marked finished in one transaction and the new game recorded in
    # another: a kill between them left game 1 finished, with its result so far, and no game
    # begun (the restarted table played game 1 on while the record held it over)
    with _restarted_after(tmp_path / "t.db", "new_game") as (store, table):
        current = store.current_game()
        assert current is not None and (current.game_no, current.over, current.final) == (1, False, {})
        assert [game.game_no for game in store.games()] == [1]
        assert [record.kind for record in store.records(1)] == ["input"] * 4
        assert (table.game_no, table.state().status) == (1, TableStatus.RUNNING)


@contextmanager
def _restarted_after(db: Path, moment: str) -> Iterator[tuple[Store, Table]]:
    """The table restarted on ``db`` once tests/table/cut_child.py killed itself at ``moment``."""
    _killed_at(db, moment)
    store = Store(db)
    try:
        yield store, Table(store)
    finally:
        store.close()


def _killed_at(db: Path, moment: str) -> None:
    """Run tests/table/cut_child.py on ``db`` until it kills itself at ``moment``."""
    child = subprocess.run([sys.executable, str(Path(__file__).with_name("cut_child.py")), str(db),
                            moment], env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True)
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()[-2000:]
