"""Opening the record: a new file, an older one migrated, and every file that is refused."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from controller.store import TABLE, Store, StoreError
from controller.store import schema

# The schema as version 1 shipped it, frozen here: migrations must keep reading such files.
VERSION_1 = """
PRAGMA application_id = 1145652037;
CREATE TABLE games (game_no INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL,
    seats INTEGER NOT NULL, options TEXT NOT NULL, names TEXT NOT NULL, started REAL NOT NULL,
    finished REAL, final TEXT);
CREATE TABLE records (seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_no INTEGER NOT NULL REFERENCES games(game_no), kind TEXT NOT NULL, line TEXT NOT NULL,
    who TEXT NOT NULL DEFAULT '', why TEXT NOT NULL DEFAULT '', origin TEXT NOT NULL DEFAULT '',
    at REAL NOT NULL);
CREATE INDEX records_game ON records(game_no, seq);
INSERT INTO games (game, seats, options, names, started, finished, final)
    VALUES ('tao', 2, '{"length": "single"}', '["Ann", "Bob"]', 1796160000.0, NULL, NULL);
INSERT INTO records (game_no, kind, line, who, origin, at)
    VALUES (1, 'input', 'ante 0 black=1 white=0', 'Ann', 'panel', 1796160001.0);
INSERT INTO records (game_no, kind, line, who, why, at)
    VALUES (1, 'pause', '', 'dealer', 'a drink on the tray', 1796160002.0);
PRAGMA user_version = 1;
"""


def _version_1_file(path):
    with sqlite3.connect(path) as conn:
        conn.executescript(VERSION_1)
    conn.close()


def _refusal(path, open_=Store):
    with pytest.raises(StoreError) as caught:
        open_(path)
    message = str(caught.value)
    assert str(path) in message and "\n" not in message
    return message


def test_a_new_file_gets_the_last_schema_in_wal_with_full_sync(tmp_path):
    with Store(tmp_path / "table.db") as store:
        conn = store._conn
        assert schema.user_version(conn) == len(schema.MIGRATIONS)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
        assert conn.execute("PRAGMA foreign_keys").fetchone() == (1,)


def test_a_file_name_that_is_not_utf8_is_the_file_opened(tmp_path):
    # a name in the bytes of another encoding (Latin-1 "tablé.db"): it crashed building the URI
    path = Path(os.fsdecode(bytes(tmp_path) + b"/tabl\xe9.db"))
    with Store(path) as store:
        store.start_game("tao", 2, {}, ["Ann", "Bob"])
    assert os.listdir(bytes(tmp_path)).count(b"tabl\xe9.db") == 1
    with Store.open_readonly(path) as reader:
        assert [game.game for game in reader.games()] == ["tao"]


def test_a_version_1_file_is_migrated_and_keeps_its_records(tmp_path):
    path = tmp_path / "old.db"
    _version_1_file(path)
    with Store(path) as store:
        assert schema.user_version(store._conn) == len(schema.MIGRATIONS)
        game = store.current_game()
        assert (game.game_no, game.names, game.options) == (1, ("Ann", "Bob"), {"length": "single"})
        assert game.colours == ()  # a game recorded before seat colours: the defaults apply
        old = store.records(1)
        assert [(r.seq, r.kind, r.who, r.why, r.picture) for r in old] == [
            (1, "input", "Ann", "", None), (2, "pause", "dealer", "a drink on the tray", None)]
        # what the later versions added works on the migrated file
        seq = store.append(1, "input", "roll 2 d6 3 4", device_event=("seatnode:0", 1, 1),
                           evidence=b"\xff\xd8\xff\xe0 frame")
        assert seq == 3 and store.seen("seatnode:0", 1, 1)
        assert store.evidence(store.records(1)[-1].picture) == b"\xff\xd8\xff\xe0 frame"
        assert [game.game_no for game in store.games()] == [1] and store.records(TABLE) == []
        assert store.append(TABLE, "fault", "camera: stopped sending frames") == 4
        store.finish_game(1, {})
        assert store.start_game("tao", 2, {}, ["Ann", "Bob"]) == 2
    with Store.open_readonly(path) as reader:
        assert [game.game_no for game in reader.games()] == [2, 1]
        assert [r.seq for r in reader.records(TABLE)] == [4]


def test_a_record_at_the_oldest_schema_a_reader_takes_is_read_without_the_table(tmp_path):
    # schema 5 only adds game 0 (the table's own records): `history` read every record written
    # before it only after the table had opened it once
    path = tmp_path / "table.db"
    with Store(path) as store:
        store.start_game("tao", 2, {}, ["Ana", "Ben"])
        store.append(1, "fault", "camera: unplugged", who="camera")
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM games WHERE game_no = ?", (TABLE,))
        conn.execute(f"PRAGMA user_version = {schema.READ_FROM}")
    conn.close()
    with Store.open_readonly(path) as reader:
        assert [game.game_no for game in reader.games()] == [1]
        assert [r.kind for r in reader.records(1)] == ["fault"] and reader.records(TABLE) == []
    with sqlite3.connect(path) as conn:
        assert schema.user_version(conn) == schema.READ_FROM  # read, not written
    conn.close()


def test_a_failing_migration_leaves_the_file_at_its_older_version(tmp_path, monkeypatch):
    path = tmp_path / "table.db"
    Store(path).close()
    broken = (("CREATE TABLE seat_lights (seat INTEGER)", "CREATE TABLE oops ("),)
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS + broken)
    _refusal(path)
    with sqlite3.connect(path) as conn:
        assert schema.user_version(conn) == len(schema.MIGRATIONS) - 1
        assert conn.execute("SELECT name FROM sqlite_schema WHERE name = 'seat_lights'").fetchall() == []
    conn.close()


def test_a_folder_is_refused(tmp_path):
    assert "is a folder" in _refusal(tmp_path)


def test_a_missing_folder_is_refused(tmp_path):
    assert "does not exist" in _refusal(tmp_path / "nowhere" / "table.db")


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"the high rollers' table, Tuesday\n" * 200)
    assert "not an SQLite file" in _refusal(path)
    assert path.read_bytes() == b"the high rollers' table, Tuesday\n" * 200
    # refused from its header, before a lock file is made beside it: nothing is left there
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_short_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "pin.txt"
    path.write_bytes(b"2468\n")
    assert "not an SQLite file" in _refusal(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pin.txt"]


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_another_programs_sqlite_file_is_refused_and_left_as_it_was(tmp_path, journal):
    # its header says user_version 0, as a new record's does: only its tables tell it, which the
    # writer reads before it makes its lock file, so nothing is left beside it
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA journal_mode = {journal}")
        conn.execute("CREATE TABLE contacts (name TEXT)")
        conn.execute("INSERT INTO contacts VALUES ('Ann')")
    conn.close()
    os.utime(path, (1_700_000_000, 1_700_000_000))
    before = path.read_bytes()
    assert "another program" in _refusal(path)
    assert path.read_bytes() == before and path.stat().st_mtime == 1_700_000_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_a_new_record_migrated_after_its_header_was_read_is_not_another_programs(tmp_path):
    # the writer reads the header (user_version 0: a new record), then the schema; a table that
    # migrated the record in between has put its tables and version 1 there together: the lock
    # file, not "another program", tells the second table
    path = tmp_path / "table.db"
    Store(path).close()
    assert schema._schema_rows(path) == 0
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 0")
    conn.close()
    assert schema._schema_rows(path) > 0


def test_a_file_from_a_newer_dicetable_is_refused(tmp_path):
    path = tmp_path / "table.db"
    Store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    assert "newer dicetable" in _refusal(path)
    (tmp_path / "table.db.lock").unlink()  # the first Store's: a lock file is never removed
    assert "newer dicetable" in _refusal(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.db"]  # refused from its header


def test_another_dicetable_application_s_file_is_refused_from_its_header(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA application_id = 1234")
        conn.execute("PRAGMA user_version = 3")
    conn.close()
    assert "another program" in _refusal(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_a_place_nobody_can_write_is_refused():
    # /proc takes no new files, not even root's (the suite may run as root, for whom
    # file permissions do not make a place read-only)
    assert "cannot write or create" in _refusal(Path("/proc/dicetable-test.db"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions")
def test_a_read_only_file_is_refused(tmp_path):
    path = tmp_path / "table.db"
    Store(path).close()
    path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        assert "writable" in _refusal(path)
    finally:
        tmp_path.chmod(0o755)


def test_a_second_writer_is_refused_until_the_first_closes(tmp_path):
    path = tmp_path / "table.db"
    with Store(path):
        assert "open in another table" in _refusal(path)
    Store(path).close()


@pytest.mark.parametrize("schema_of", ["last", "version 1"])
def test_a_record_another_program_is_writing_to_is_refused_until_it_is_done(tmp_path, monkeypatch,
                                                                            schema_of):
    # an sqlite3 shell (or a backup) holding the file's write lock: opening's first write, the
    # evidence bound, failed with SQLite's bare "database is locked", a traceback at the command
    # line; a file to migrate said "cannot use ... as the table's record", not why
    path = tmp_path / "table.db"
    if schema_of == "last":
        Store(path).close()
    else:
        _version_1_file(path)
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.1)  # how long opening waits for the lock
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert "locked by another program" in _refusal(path)
    finally:
        other.close()
    with Store(path) as store:  # once it is done, the table opens the record
        assert schema.user_version(store._conn) == len(schema.MIGRATIONS)


def test_a_record_locked_as_it_is_migrated_keeps_the_other_programs_wal_files(tmp_path, monkeypatch):
    # another program opened the file just after opening looked for NAME-wal and NAME-shm: taken
    # for opening's own, they were removed with the refusal, and what that program committed next
    # was lost to every other reader
    path = tmp_path / "table.db"
    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:-1])
    Store(path).close()  # a record in WAL mode that the table migrates as it opens
    monkeypatch.undo()
    monkeypatch.setattr(schema, "BUSY_TIMEOUT_S", 0.1)
    other, opened = sqlite3.connect(path, isolation_level=None), schema._open

    def other_program_first(*args):
        other.execute("BEGIN IMMEDIATE")  # makes NAME-wal and NAME-shm
        return opened(*args)

    monkeypatch.setattr(schema, "_open", other_program_first)
    try:
        assert "locked by another program" in _refusal(path)
        other.execute("CREATE TABLE backup_marks (at REAL)")
        other.execute("COMMIT")
        with sqlite3.connect(path) as reader:
            assert reader.execute("SELECT name FROM sqlite_schema WHERE name = 'backup_marks'").fetchone()
        reader.close()
    finally:
        other.close()


@pytest.mark.parametrize("open_", [Store, Store.open_readonly], ids=["table", "reader"])
def test_a_file_another_program_fills_as_it_is_opened_keeps_that_programs_wal_files(
        tmp_path, monkeypatch, open_):
    # an empty file, which another program opened and filled in WAL mode just after opening
    # looked for NAME-wal and NAME-shm: refused as that program's file (no lock in the way), its
    # WAL files were taken for opening's own and removed, and what it committed next was lost
    path = tmp_path / "table.db"
    path.write_bytes(b"")
    other, opened = sqlite3.connect(path, isolation_level=None), schema._open

    def other_program_first(*args):
        other.execute("PRAGMA journal_mode = WAL")
        other.execute("CREATE TABLE songs (title TEXT)")
        return opened(*args)

    monkeypatch.setattr(schema, "_open", other_program_first)
    try:
        assert "SQLite file of another program" in _refusal(path, open_)
        other.execute("INSERT INTO songs VALUES ('Blue Moon')")
        with sqlite3.connect(path) as reader:
            assert reader.execute("SELECT title FROM songs").fetchall() == [("Blue Moon",)]
        reader.close()
    finally:
        other.close()


def _left_behind(path):
    """A WAL file at ``path`` with ``NAME-wal`` and ``NAME-shm`` beside it that no connection
    holds: a program opened it, committed a row, and ended without closing it."""
    with Store(path):
        pass
    program = ("import os, sqlite3, sys\n"
               "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
               "conn.execute('CREATE TABLE songs (title TEXT)')\n"
               "conn.execute(\"INSERT INTO songs VALUES ('Blue Moon')\")\n"
               "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", program, str(path)], check=True, timeout=60)
    return schema._sidecars(path)


def test_wal_files_no_connection_holds_are_dropped_and_what_they_held_kept(tmp_path):
    path = tmp_path / "table.db"
    sides = _left_behind(path)
    assert all(side.exists() for side in sides)
    schema._drop(path, sides)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.db", "table.db.lock"]
    with sqlite3.connect(path) as reader:  # the committed row was put into the file first
        assert reader.execute("SELECT title FROM songs").fetchall() == [("Blue Moon",)]
    reader.close()


def test_wal_files_another_connection_holds_are_kept(tmp_path):
    path = tmp_path / "table.db"
    sides = _left_behind(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("SELECT count(*) FROM songs").fetchone()
        schema._drop(path, sides)
        assert all(side.exists() for side in sides)
        other.execute("INSERT INTO songs VALUES ('Moon River')")
        with sqlite3.connect(path) as reader:
            assert len(reader.execute("SELECT title FROM songs").fetchall()) == 2
        reader.close()
    finally:
        other.close()


def test_a_reader_refuses_a_missing_or_older_file(tmp_path):
    assert "does not exist" in _refusal(tmp_path / "table.db", Store.open_readonly)
    old = tmp_path / "old.db"
    _version_1_file(old)
    assert "older schema" in _refusal(old, Store.open_readonly)


def test_a_damaged_record_refused_for_reading_leaves_no_wal_files_beside_it(tmp_path):
    # a record cut short, read by `history`, left NAME-wal and NAME-shm behind
    whole = tmp_path / "whole.db"
    with Store(whole) as store:
        store.start_game("tao", 2, {}, ["Ana", "Ben"])
    cut = tmp_path / "cut" / "table.db"
    cut.parent.mkdir()
    cut.write_bytes(whole.read_bytes()[:whole.stat().st_size // 2])
    _refusal(cut, Store.open_readonly)
    assert sorted(p.name for p in cut.parent.iterdir()) == ["table.db"]
