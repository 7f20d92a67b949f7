"""The record's SQLite schema: ordered migrations, and opening a file safely (or refusing it).

``PRAGMA user_version`` is the number of migrations applied; each migration (SQL statements, or a
function that puts an older table's rows right) runs in its own transaction with the version
bump, so a file killed mid-migration stays at the older version.
Migrations are only ever appended: a released one is never edited (old files already ran it).
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Callable
from urllib.parse import quote

from controller.games.errors import DiceTableError
from controller.paths import shown
from controller.store.errors import StoreError

APPLICATION_ID = 0x44494345  # "DICE": tells a dicetable record from another program's SQLite file

Step = str | Callable[[sqlite3.Connection], None]
"""One step of a migration: an SQL statement, or a function that puts the file's rows right."""


def reopen_taken_back(conn: sqlite3.Connection) -> None:
    """Put the table's last game back in play when the record holds it finished while its
    records say it is not over: an Undo or a Void of the input that ended it, recorded before
    f46b237 made such a correction reopen the game with it (``Store.append``'s ``reopen``). The
    table played it on, but `history` said it was won and `demo --db` started game 2, abandoning
    it. Decided as ``reopen`` is, by the engine: the game replayed from its records is not over.
    Only the last game: an older one was followed by another, and starting a game ends the one in
    play (``Table.new_game``), so it is finished by right. A game this dicetable cannot replay (a
    game it does not know, a record it refuses) is left as it is.

    The table's ledger (and through it a game's engine) is imported here, for the one file this
    migration runs on: whatever reads the record (``history``, the web, a venue) imports the
    store without the rules of every game."""
    from controller.table.ledger import Ledger

    row = conn.execute("SELECT game_no, game, seats, options, finished FROM games WHERE game_no > 0 "
                       "ORDER BY game_no DESC LIMIT 1").fetchone()
    if row is None or row[4] is None:
        return
    game_no, game, seats, options, _ = row
    try:
        ledger = Ledger(game, seats, json.loads(options))
        for record in conn.execute("SELECT seq, kind, line, origin, who FROM records "
                                   "WHERE game_no = ? ORDER BY seq", (game_no,)):
            ledger.take(*record)
    except DiceTableError:
        return
    if not ledger.game.pending().over:
        conn.execute("UPDATE games SET finished = NULL, final = NULL WHERE game_no = ?", (game_no,))


MIGRATIONS: tuple[tuple[Step, ...], ...] = (
    (  # 1: games and their records
        f"PRAGMA application_id = {APPLICATION_ID}",
        """CREATE TABLE games (
            game_no INTEGER PRIMARY KEY AUTOINCREMENT,
            game TEXT NOT NULL,
            seats INTEGER NOT NULL,
            options TEXT NOT NULL,
            names TEXT NOT NULL,
            started REAL NOT NULL,
            finished REAL,
            final TEXT)""",
        # AUTOINCREMENT: a seq is never reused, even after its game is pruned (streams resume)
        """CREATE TABLE records (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            game_no INTEGER NOT NULL REFERENCES games(game_no),
            kind TEXT NOT NULL,
            line TEXT NOT NULL,
            who TEXT NOT NULL DEFAULT '',
            why TEXT NOT NULL DEFAULT '',
            origin TEXT NOT NULL DEFAULT '',
            at REAL NOT NULL)""",
        "CREATE INDEX records_game ON records(game_no, seq)",
    ),
    (  # 2: device events, so that one repeated after a restart is not applied twice
        """CREATE TABLE device_events (
            origin TEXT NOT NULL,
            session INTEGER NOT NULL,
            sequence INTEGER NOT NULL,
            seq INTEGER NOT NULL REFERENCES records(seq),
            PRIMARY KEY (origin, session, sequence)) WITHOUT ROWID""",
        "CREATE INDEX device_events_seq ON device_events(seq)",
    ),
    (  # 3: evidence pictures; the JPEG lives apart so that dropping it leaves the picture's row
        """CREATE TABLE pictures (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            size INTEGER NOT NULL,
            kept INTEGER NOT NULL DEFAULT 1)""",
        "CREATE INDEX pictures_kept ON pictures(id, size) WHERE kept",
        """CREATE TABLE picture_data (
            id INTEGER PRIMARY KEY REFERENCES pictures(id),
            jpeg BLOB NOT NULL)""",
        "ALTER TABLE records ADD COLUMN picture INTEGER REFERENCES pictures(id)",
    ),
    (  # 4: each seat's colour ("#rrggbb"), which tells the seats' own dice apart on the tray
        "ALTER TABLE games ADD COLUMN colours TEXT NOT NULL DEFAULT '[]'",
    ),
    (  # 5: game 0, the table's own records (a device failing while no game is in play), which
       # belong to no game; games are numbered from 1, so no file holds a game 0 already
        "INSERT INTO games (game_no, game, seats, options, names, started, finished, final) "
        "VALUES (0, '', 0, '{}', '[]', 0, 0, '{}')",
    ),
    (  # 6: a last game whose end a correction took back before f46b237, back in play
        reopen_taken_back,
    ),
)


def connect(path: Path, *, readonly: bool) -> sqlite3.Connection:
    """An autocommit connection to the record at ``path``, checked and (for the writer) migrated
    to the last schema version, in WAL mode with ``synchronous=FULL`` and foreign keys on.

    :raises StoreError: naming the file and what to do, when it cannot be the table's record.
    """
    check_place(path, readonly)
    made = [side for side in _sidecars(path) if not side.exists()]
    try:
        conn = _open(path, readonly)
    except sqlite3.Error as err:
        _drop(path, made)
        raise StoreError(refusal(path, err, readonly)) from None
    try:
        _ready(conn, path, readonly)
    except (sqlite3.Error, StoreError) as err:
        conn.close()
        _drop(path, made)
        if isinstance(err, StoreError):
            raise
        raise StoreError(refusal(path, err, readonly)) from None
    except BaseException:
        conn.close()  # Ctrl-C, a bug: no connection left open, the file as its last commit left it
        raise
    return conn


def _ready(conn: sqlite3.Connection, path: Path, readonly: bool) -> None:
    """Set the connection up, check the file is the record, and (for the writer) migrate it."""
    if readonly:
        conn.execute("PRAGMA query_only = ON")  # a reader opened read-write writes nothing
    conn.execute("PRAGMA foreign_keys = ON")
    _check_version(conn, path, readonly)
    if not readonly:
        _configure(conn, path)
        migrate(conn)


def _drop(path: Path, made: list[Path]) -> None:
    """Remove the WAL files left beside ``path``, a file refused as the record, when they are
    opening's own (a damaged file in WAL mode can leave ``NAME-wal`` and ``NAME-shm`` behind).

    The rule: only files of ``made``, missing before opening (ones there before are the file's
    own), and only when no other connection has the file open. Another program that opened it
    meanwhile (whether it then locked the file or not) made those files or uses them, and a log
    removed from under it loses what it commits next; the last connection to close a sound file
    removes them itself. SQLite tells whether another has it (:func:`_alone`); they are removed
    under its lock, so that no connection opens the file between the asking and the removing,
    and what a log holds that the file lacks is written into the file as that lock's connection
    closes (SQLite's own close, reading the log it still has open)."""
    left = [side for side in made if side.exists()]
    probe = _alone(path) if left else None
    if probe is None:
        return
    try:
        for side in left:
            side.unlink(missing_ok=True)
    finally:
        probe.close()


def _alone(path: Path) -> sqlite3.Connection | None:
    """A connection holding the exclusive lock of the WAL file at ``path``, which SQLite gives
    only when no other connection, in any program, has the file open (each holds a shared lock on
    it while it does); None when another has, or when it could not be asked: without a log
    (``NAME-wal``) the lock is not asked for before a page is read."""
    if not path.with_name(path.name + "-wal").exists():
        return None
    try:
        probe = sqlite3.connect(_uri(path, "mode=rw"), uri=True, timeout=0, isolation_level=None)
    except sqlite3.Error:
        return None
    try:
        given = _lock_given(probe)
    except BaseException:
        probe.close()
        raise
    if not given:
        probe.close()
        return None
    return probe


DAMAGED = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
"""What a read of a file's pages fails with when they are damaged: after the lock was given."""


def _lock_given(probe: sqlite3.Connection) -> bool:
    """Whether ``probe`` got the exclusive lock of its WAL file as it read it. In exclusive
    locking mode a connection takes that lock as it opens the file's log, before it reads a page,
    keeps the log's index in its own memory (not in ``NAME-shm``), and holds the lock until it is
    closed; a damaged page fails the read after that."""
    try:
        probe.execute("PRAGMA locking_mode = EXCLUSIVE")
        probe.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlite3.Error as err:
        return _code(err) in DAMAGED
    return True


def migrate(conn: sqlite3.Connection, upto: int | None = None) -> None:
    """Apply the migrations the file lacks, up to version ``upto`` (the last one by default),
    each in one transaction with its version bump."""
    version = user_version(conn)
    for number in range(version + 1, (len(MIGRATIONS) if upto is None else upto) + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for step in MIGRATIONS[number - 1]:
                if callable(step):
                    step(conn)
                else:
                    conn.execute(step)
            conn.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version of the connected file (0: a new, empty file)."""
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    return version


def check_place(path: Path, readonly: bool) -> None:
    """Refuse a folder, a missing folder, and (for a reader) a missing file.

    :raises StoreError: naming the file and what to do.
    """
    if path.is_dir():
        raise StoreError(f"{shown(path)} is a folder, not a database file: name a file in it, "
                         f"e.g. {shown(path / 'table.db')}")
    if not path.parent.is_dir():
        raise StoreError(f"{shown(path)}: the folder {shown(path.parent)} does not exist: create "
                         "it or choose another place for the table's record")
    if readonly and not path.exists():
        raise StoreError(f"{shown(path)} does not exist: start the table on it first")


BUSY_TIMEOUT_S = 10.0
"""How long a statement waits for a lock another connection holds on the file (another program
writing to it) before it fails with "database is locked"."""


def _open(path: Path, readonly: bool) -> sqlite3.Connection:
    query = _reading(path) if readonly else "mode=rwc"
    # the table serialises its calls under its own lock, from whichever thread (the loop, a web
    # request) holds it, so the connection may be used from more than the thread that made it
    return sqlite3.connect(_uri(path, query), uri=True, isolation_level=None,
                           timeout=BUSY_TIMEOUT_S, check_same_thread=False)


def _uri(path: Path, query: str) -> str:
    """The URI SQLite opens ``path`` by, with ``query``: the name's own bytes, UTF-8 or not."""
    return f"file:{quote(os.fsencode(path.absolute()))}?{query}"


def _reading(path: Path) -> str:
    """How a reader opens the record so that it leaves the folder as it found it.

    A read-only connection to a WAL file makes ``NAME-wal`` and ``NAME-shm`` when they are not
    there and never removes them: only the last connection to close does, holding the file's
    exclusive lock, so never while a table has it open (SQLite's wal.html, walformat.html).
    So: with either there (a table has the file open, or was killed with records in its log)
    read-only, reading the log, nothing made or removed; with neither (the table closed it)
    read-write with ``query_only``, so that closing removes what opening made unless a table
    opened the file meanwhile; and where this user cannot write (a read-only stick, another
    user's record), where SQLite could not make them, ``immutable``: the records as the closed
    file holds them, a table that opens it after that unseen (were it to write its log back
    into the file during the read, the read could fail).
    """
    if _in_use(path) or not _in_wal(path):
        return "mode=ro"
    if os.access(path, os.W_OK) and os.access(path.parent, os.W_OK):
        return "mode=rw"
    return "mode=ro&immutable=1"


def _sidecars(path: Path) -> list[Path]:
    """The files SQLite keeps beside a WAL file while it is open: its log and its index."""
    return [path.with_name(path.name + end) for end in ("-wal", "-shm")]


def _in_use(path: Path) -> bool:
    """A table has the file open, or left its log beside it."""
    return any(side.exists() for side in _sidecars(path))


def _in_wal(path: Path) -> bool:
    """The file's header says WAL (bytes 18 and 19 are 2): only such a file is opened
    read-write to read it, so that no other file (a rollback journal's) is ever written."""
    try:
        with open(path, "rb") as file:
            return file.read(20)[18:20] == b"\x02\x02"
    except OSError:  # unreadable: SQLite says so, read-only
        return False


def _configure(conn: sqlite3.Connection, path: Path) -> None:
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode != "wal":
        raise StoreError(f"{shown(path)}: this file system cannot hold an SQLite write-ahead log "
                         f"(journal mode stays {mode!r}): put the record on a local disk")
    conn.execute("PRAGMA synchronous = FULL")


READ_FROM = 4
"""The oldest schema a reader (``dicetable history``, the web's record) reads without the table
migrating the file first: migration 5 only adds game 0's row (``store.TABLE``), which a file that
never had a table record of its own does not need, and no reader asks for it by number. Every
record written before 10a6254 is at schema 4; refusing them sent everyone who upgraded to "open
it once with the table" before `history` would read their last games."""


SQLITE_MAGIC = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite file
HEADER_BYTES = 100  # SQLite's file header: user_version at offset 60, application_id at 68


def check_header(path: Path) -> None:
    """Refuse, from its header and schema alone, a file that cannot be a dicetable record: not
    SQLite, another program's (its application id says so, or at user_version 0 its tables do),
    or a newer dicetable's. The writer reads them before it makes its lock file beside the record,
    so an ordinary mistake (``--db notes.txt``, ``--db contacts.db``) leaves nothing beside the
    file; :func:`connect` still checks everything. A file missing, empty or unreadable passes
    here: ``connect`` says what it is.

    :raises StoreError: naming the file and what to do.
    """
    try:
        with path.open("rb") as file:
            head = file.read(HEADER_BYTES)
    except OSError:
        return
    if head and not (len(head) == HEADER_BYTES and head.startswith(SQLITE_MAGIC)):
        raise StoreError(_not_sqlite(path))
    version, owner = (int.from_bytes(head[at:at + 4], "big") for at in (60, 68)) if head else (0, 0)
    _check_owner(path, version, owner, tables=_schema_rows(path) if head and not version else 0)


def _schema_rows(path: Path) -> int:
    """How many tables, indexes, views and triggers the SQLite file at ``path`` holds at
    user_version 0, read as ``immutable``: no lock taken, no journal or ``-wal``/``-shm`` made,
    not a byte written (a foreign file in WAL mode too). 0 when it cannot be read so (``connect``
    says why), or is at another version by now (a table migrating a new record meanwhile: the lock
    file tells it). What a program writing the file has not yet put in it is not seen; ``connect``
    sees it."""
    try:
        conn = sqlite3.connect(_uri(path, "mode=ro&immutable=1"), uri=True)
    except sqlite3.Error:
        return 0
    try:
        rows, version = conn.execute("SELECT count(*), (SELECT user_version FROM "
                                     "pragma_user_version) FROM sqlite_schema").fetchone()
        return int(rows) if version == 0 else 0
    except sqlite3.Error:
        return 0
    finally:
        conn.close()


def _check_version(conn: sqlite3.Connection, path: Path, readonly: bool) -> None:
    version = user_version(conn)  # the first read: a file that is not SQLite fails here
    owner = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    _check_owner(path, version, owner, tables)
    if readonly and version == 0 and not tables:
        raise StoreError(f"{shown(path)} is empty, not a dicetable record (a demo's --db, or a "
                         "table's table.db)")
    if readonly and version < READ_FROM:
        raise StoreError(f"{shown(path)} has the older schema {version} (now "
                         f"{len(MIGRATIONS)}): open it once with the table, which migrates it, "
                         "then read it")


def _check_owner(path: Path, version: int, owner: int, tables: int) -> None:
    """Refuse another program's SQLite file, or a newer dicetable's record."""
    if (version == 0 and tables) or (version > 0 and owner != APPLICATION_ID):
        raise StoreError(f"{shown(path)} is an SQLite file of another program, not a dicetable "
                         "record: move it away or choose another file")
    if version > len(MIGRATIONS):
        raise StoreError(f"{shown(path)} was written by a newer dicetable (schema {version}, "
                         f"this one knows up to {len(MIGRATIONS)}): upgrade dicetable or choose "
                         "another file")


def _not_sqlite(path: Path) -> str:
    return (f"{shown(path)} is not a dicetable record (not an SQLite file): move it away or "
            "choose another file")


def _locked(err: Exception) -> bool:
    """SQLite's BUSY or LOCKED (any extended code of them): another connection holds a lock."""
    return _code(err) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _code(err: Exception) -> int:
    """SQLite's primary result code of ``err``, its extended code's low byte (0: an error SQLite
    did not raise itself has no code)."""
    code: int = getattr(err, "sqlite_errorcode", 0)
    return code & 0xFF


def refusal(path: Path, err: sqlite3.Error, readonly: bool) -> str:
    """The one line that says why SQLite would not let ``path`` be opened as the record, and
    what to do."""
    text = str(err)
    if _locked(err):
        return (f"{shown(path)} is locked by another program writing to it ({text}): close "
                "that program (an sqlite3 shell, a backup) and try again")
    if "not a database" in text:
        return _not_sqlite(path)
    if readonly and "unable to open" in text:
        return f"cannot read {shown(path)} ({text}): make it readable by this user"
    if "readonly" in text or "unable to open" in text:
        return (f"cannot write or create {shown(path)} ({text}): make the place writable by this "
                "user or choose another file")
    return f"cannot use {shown(path)} as the table's record: {text}"
