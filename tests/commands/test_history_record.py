"""``dicetable history`` reads a table's record and leaves its folder as it found it: no
``NAME-wal`` or ``NAME-shm`` beside a closed record, while a running table's records are read
from its log and its log stays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.store import Store
from controller.table.table import Table

from tests.table.conftest import play

ROOT = Path(__file__).resolve().parents[2]


def _history(db: Path, *args: str) -> str:
    """``dicetable history --db DB ARGS`` as its own process, as a person runs it beside a table."""
    done = subprocess.run([sys.executable, "-m", "controller.cli", "history", "--db", str(db),
                           *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def _folder(db: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in db.parent.iterdir()}


def test_history_of_a_closed_record_leaves_nothing_beside_it(tmp_path: Path) -> None:
    # a read-only SQLite connection made table.db-wal and table.db-shm and never removed them:
    # files the record's owner did not have (a copied record, a USB stick)
    db = tmp_path / "table.db"
    table = Table(Store(db))
    table.new_game("tao", ["Ana", "Ben"], {})
    play(table, 6)
    table.store.close()
    before = _folder(db)
    assert json.loads(_history(db, "--json"))["inputs"] == 6
    assert _history(db, "--game", "1").startswith("# seats: Ana, Ben\n")
    assert _folder(db) == before


def test_history_beside_a_running_table_reads_its_log_and_leaves_it(tmp_path: Path) -> None:
    # the table's newest records are in its -wal until a checkpoint: a reader that skipped the
    # log, or removed it, would lose what players saw accepted
    db = tmp_path / "table.db"
    table = Table(Store(db))
    try:
        table.new_game("tao", ["Ana", "Ben"], {})
        play(table, 6)
        log = [db.with_name("table.db-wal"), db.with_name("table.db-shm")]
        assert all(side.exists() for side in log)
        assert json.loads(_history(db, "--json"))["inputs"] == 6
        assert all(side.exists() for side in log)
        play(table, 2, seed=2)  # the table goes on, on the same log
        assert json.loads(_history(db, "--json"))["inputs"] == 8
    finally:
        table.store.close()
    assert json.loads(_history(db, "--json"))["inputs"] == 8
    assert sorted(_folder(db)) == ["table.db", "table.db.lock"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions")
@pytest.mark.parametrize("folder_mode", [0o555, 0o777], ids=["read-only stick", "shared folder"])
def test_history_reads_a_record_it_cannot_write_and_leaves_nothing(
        tmp_path: Path, folder_mode: int) -> None:
    # on a read-only stick SQLite could not make the -shm and `history` said "cannot write or
    # create table.db" of a file it only reads; in a folder others write, it left a -wal and a
    # -shm of its user's beside another user's record
    db = tmp_path / "stick" / "table.db"
    db.parent.mkdir()
    table = Table(Store(db))
    table.new_game("tao", ["Ana", "Ben"], {})
    play(table, 6)
    table.store.close()
    before = _folder(db)
    db.chmod(0o444)
    db.parent.chmod(folder_mode)
    try:
        assert json.loads(_history(db, "--json"))["inputs"] == 6
        assert _folder(db) == before
    finally:
        db.parent.chmod(0o755)
