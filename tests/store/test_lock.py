"""The lock file beside the record: one table writes it at a time, and the file outlives it,
even beside a file refused as the record."""

import fcntl
import os
import sqlite3
from pathlib import Path

import pytest

from controller.store import Store, StoreError, schema


def test_the_lock_file_stays_after_the_table_closes_and_locks_nothing(tmp_path: Path) -> None:
    # removing it on closing would let a table that opened it just before lock a file no longer
    # there while another made and locked a new one: two writers (store._lock_writer)
    db = tmp_path / "table.db"
    Store(db).close()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["table.db", "table.db.lock"]
    with Store(db):
        with pytest.raises(StoreError, match="open in another table"):
            Store(db)


def test_a_refused_file_keeps_its_lock_file_so_no_two_tables_write_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a table refused the file (a damaged one, which only opening it tells: its header is
    # SQLite's, its schema page is not readable) and removed the lock file it had just made; a
    # second table had opened that lock file meanwhile and locked it once the first let go, a
    # third then made a new lock file and locked that: the second and the third both wrote it
    db = tmp_path / "table.db"
    with sqlite3.connect(db) as other:
        other.execute("CREATE TABLE contacts (name TEXT)")
    other.close()
    damaged = bytearray(db.read_bytes())
    damaged[schema.HEADER_BYTES] = 0xFF  # the schema page's type: no page has it
    db.write_bytes(bytes(damaged))
    lock = tmp_path / "table.db.lock"
    second: list[int] = []
    connect = schema.connect

    def opened_meanwhile(path: Path, *, readonly: bool) -> sqlite3.Connection:
        second.append(os.open(lock, os.O_RDWR))  # the second table opens the lock file, to lock it
        return connect(path, readonly=readonly)

    monkeypatch.setattr(schema, "connect", opened_meanwhile)
    with pytest.raises(StoreError, match="malformed"):
        Store(db)
    monkeypatch.undo()
    try:
        fcntl.flock(second[0], fcntl.LOCK_EX | fcntl.LOCK_NB)  # the first let go: the second holds it
        db.unlink()  # the damaged file moved away: the second table makes the record
        with pytest.raises(StoreError, match="open in another table"):
            Store(db)  # the third finds the lock file the second holds
    finally:
        os.close(second[0])
    Store(db).close()  # and once the second is gone, it opens the record


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_table_that_fails_as_it_opens_lets_go_of_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # bounding the evidence, the last step of opening, failed: the lock and the connection stayed
    # open, so the same table could not open its record again until the process ended
    db = tmp_path / "table.db"
    Store(db).close()
    before = _open_descriptors()

    def fails(store: Store) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(Store, "_bound_evidence", fails)
    with pytest.raises(StoreError, match="disk I/O"):  # the store's one line, as connect() says it
        Store(db)
    assert _open_descriptors() == before
    monkeypatch.undo()
    Store(db).close()


@pytest.mark.parametrize("stop", [KeyboardInterrupt, RuntimeError])
def test_a_table_stopped_as_it_migrates_the_record_lets_go_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: type[BaseException]) -> None:
    # Ctrl-C (or a bug) in a migration: connect() closed its connection only when SQLite or the
    # store refused the file, so this one stayed open for as long as the process lived
    db = tmp_path / "table.db"
    Store(db).close()
    before = _open_descriptors()

    def stopped(conn: sqlite3.Connection) -> None:
        raise stop("stopped while migrating")

    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS + ((stopped,),))
    with pytest.raises(stop):
        Store(db)
    assert _open_descriptors() == before
    monkeypatch.undo()
    with Store(db) as store:  # the record as it was: at the last version, opened again
        assert schema.user_version(store._conn) == len(schema.MIGRATIONS)
