"""The table's durable record: games, every record line, device events and evidence pictures.

:class:`Store` is the one writer of a table's SQLite file (a lock file next to it refuses a
second one); each :meth:`Store.append` is its own transaction, committed with ``synchronous=FULL``
in WAL mode before it returns, so a record acknowledged to a player survives a kill or a power
cut. Readers (the web) open their own :class:`Reader` with :meth:`Store.open_readonly`; neither
class is shared between threads (a connection stays in the thread that opened it), so open one
per thread: opening is cheap. No threads run inside.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Collection, Iterator, Mapping, Self, Sequence

from controller.games.errors import InvalidInput
from controller.paths import shown
from controller.store import export, schema
from controller.store.errors import DuplicateEvent, GameInProgress, NoSuchGame, StoreError
from controller.table.records import GameSummary

# the kinds of record the table writes; "question" keeps an open question across a restart, its
# why the doubt's code and the faces read surely it holds the players to ("confidence: H O";
# older records: the faces alone, space-separated, or "")
KINDS = frozenset({"input", "undo", "replace", "void", "answer", "question", "pause", "resume",
                   "fault", "warning", "clear", "note"})
TABLE = 0
"""The game number of the table's own records: a device failing, warning or working again while no
game is in play (the last one's result is in), which belongs to no game's record. Never listed
among the games; its records go when the games before them are pruned, but for each device's
newest fault, warning and clear, which stay, and join them when their own game is pruned: a
fault that began ten games ago and stands still is found standing, since it began, at a restart."""
DEVICE_RECORDS = frozenset({"fault", "warning", "clear"})
"""The records of a device failing, of one warning (a part the game in play does without fails),
and of its working again (once each, however long it fails): in a game or the table's own, they
change nothing a dealer's form acts on. The newest of a device's says how the table last found
it (:meth:`Reader.newest`)."""
TABLE_KINDS = DEVICE_RECORDS | {"note"}
"""The kinds of the table's own records: no input, correction or question is outside a game."""
JPEG_START = b"\xff\xd8\xff"
DEFAULT_MAX_EVIDENCE_BYTES = 200_000_000
ROWID_MAX = 2**63 - 1  # SQLite's largest integer: no row, game or count is greater (a larger one overflows)
DeviceEvent = tuple[str, int, int]  # (origin, session, sequence), e.g. ("seatnode:2", 17, 42)

_LAST_WORDS = ("SELECT max(seq) FROM records WHERE kind IN "
               f"({', '.join(repr(kind) for kind in sorted(DEVICE_RECORDS))}) GROUP BY origin, kind")
"""The seqs of each device's newest fault, warning and clear: what a restarted table reads to know
which of them still stand (:meth:`Reader.newest`), so :meth:`Store.prune` never deletes them."""

_RECORD_COLUMNS = ("SELECT r.seq, r.game_no, r.kind, r.line, r.who, r.why, r.origin, r.at, "
                   "r.picture, coalesce(p.kept, 0) FROM records r "
                   "LEFT JOIN pictures p ON p.id = r.picture")
_GAME_COLUMNS = ("SELECT g.game_no, g.game, g.seats, g.names, g.options, g.finished, g.final, "
                 "g.started, g.colours, (SELECT count(*) FROM records r WHERE r.game_no = g.game_no "
                 "AND r.kind = 'input') FROM games g")


@dataclass(frozen=True)
class Record:
    """One durable record line: its global sequence number, game, kind, text, who did it and
    why, where it came from (``panel``, ``camera``, ...), when (epoch seconds), and its evidence
    picture (``picture_kept`` False once the picture was dropped to bound the storage)."""

    seq: int
    game: int
    kind: str
    line: str
    who: str = ""
    why: str = ""
    origin: str = ""
    at: float = 0.0
    picture: int | None = None
    picture_kept: bool = False


class Reader:
    """Reads a table's record; see :meth:`Store.open_readonly`."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._conn = schema.connect(self.path, readonly=True)

    def close(self) -> None:
        """Close the file."""
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def current_game(self) -> GameSummary | None:
        """The game in progress (the newest not finished), or None."""
        row = self._conn.execute(f"{_GAME_COLUMNS} WHERE g.finished IS NULL AND g.game_no > {TABLE} "
                                 "ORDER BY g.game_no DESC LIMIT 1").fetchone()
        return _summary(row) if row else None

    def game(self, game_no: int) -> GameSummary:
        """Recorded game ``game_no``.

        :raises NoSuchGame: when the record does not hold it (never started, or pruned, or a
            number past SQLite's integers).
        """
        row = self._conn.execute(f"{_GAME_COLUMNS} WHERE g.game_no = ?",
                                 (game_no,)).fetchone() if 0 < game_no <= ROWID_MAX else None
        if row is None:
            raise NoSuchGame(f"{shown(self.path)} holds no game {game_no}")
        return _summary(row)

    def games(self, limit: int = 10) -> list[GameSummary]:
        """The last ``limit`` recorded games, newest first (``inputs``: its ``input`` records,
        before corrections)."""
        rows = self._conn.execute(f"{_GAME_COLUMNS} WHERE g.game_no > {TABLE} "
                                  "ORDER BY g.game_no DESC LIMIT ?",
                                  (min(limit, ROWID_MAX),))  # more than any record holds: every game
        return [_summary(row) for row in rows]

    def records(self, game_no: int) -> list[Record]:
        """Every record of game ``game_no`` (:data:`TABLE`: the table's own), oldest first."""
        rows = self._conn.execute(f"{_RECORD_COLUMNS} WHERE r.game_no = ? ORDER BY r.seq",
                                  (game_no,))
        return [_record(row) for row in rows]

    def record(self, seq: int) -> Record | None:
        """Record ``seq`` (its ``picture`` is the evidence id a question links to), or None."""
        row = self._conn.execute(f"{_RECORD_COLUMNS} WHERE r.seq = ?", (seq,)).fetchone()
        return _record(row) if row else None

    def after(self, seq: int, limit: int = 1000) -> list[Record]:
        """The records with a sequence number above ``seq`` (any game), oldest first, at most
        ``limit`` of them: an event stream resumes from the last ``seq`` it sent."""
        rows = self._conn.execute(f"{_RECORD_COLUMNS} WHERE r.seq > ? ORDER BY r.seq LIMIT ?",
                                  (seq, limit))
        return [_record(row) for row in rows]

    def newest(self, kinds: Collection[str]) -> list[Record]:
        """The newest record of ``kinds`` of each origin, oldest first: one short read where a
        restarted table needs only the last word the record has on each device (its ``fault``,
        ``warning`` or ``clear``: :data:`DEVICE_RECORDS`), however many games ago it was written."""
        marks = ", ".join("?" * len(kinds))
        rows = self._conn.execute(f"{_RECORD_COLUMNS} WHERE r.seq IN (SELECT max(seq) FROM records "
                                  f"WHERE kind IN ({marks}) GROUP BY origin) ORDER BY r.seq",
                                  tuple(kinds))
        return [_record(row) for row in rows]

    def last_seq(self) -> int:
        """The sequence number of the last record ever written (0 before the first)."""
        row = self._conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'records'")
        found = row.fetchone()
        return int(found[0]) if found else 0

    def last_seq_except(self, kinds: Collection[str]) -> int:
        """The sequence number of the last record kept whose kind is none of ``kinds`` (0 when
        there is none): where a restarted table's game last moved, past its devices' records."""
        marks = ", ".join("?" * len(kinds))
        row = self._conn.execute(f"SELECT MAX(seq) FROM records WHERE kind NOT IN ({marks})",
                                 tuple(kinds)).fetchone()
        return int(row[0] or 0)

    def seen(self, origin: str, session: int, sequence: int) -> bool:
        """Whether device event ``(origin, session, sequence)`` is already recorded."""
        return self._event_seq((origin, session, sequence)) is not None

    def evidence(self, picture: int) -> bytes | None:
        """The JPEG of evidence picture ``picture``, or None once dropped (or unknown)."""
        if not 0 < picture <= ROWID_MAX:
            return None
        row = self._conn.execute("SELECT jpeg FROM picture_data WHERE id = ?", (picture,))
        found = row.fetchone()
        return bytes(found[0]) if found else None

    def evidence_bytes(self) -> int:
        """The size of every evidence picture kept now, in bytes."""
        total: int = self._conn.execute(
            "SELECT coalesce(sum(size), 0) FROM pictures WHERE kept").fetchone()[0]
        return total

    def _event_seq(self, event: DeviceEvent) -> int | None:
        row = self._conn.execute("SELECT seq FROM device_events WHERE origin = ? AND session = ? "
                                 "AND sequence = ?", event).fetchone()
        return int(row[0]) if row else None


class Store(Reader):
    """The one writer of the table's record at ``path`` (created, or migrated, on opening).

    ``max_evidence_bytes`` bounds the evidence pictures kept (the oldest are dropped first);
    ``clock`` gives the record times (epoch seconds).

    :raises StoreError: when the file cannot be the record: a folder, not SQLite, another
        program's file, a newer schema, a place this user cannot write, open in another table,
        or locked by another program writing to it.
    """

    def __init__(self, path: Path | str, *,
                 max_evidence_bytes: int = DEFAULT_MAX_EVIDENCE_BYTES,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.max_evidence_bytes = max_evidence_bytes
        self._clock = clock
        schema.check_place(self.path, readonly=False)  # before the lock file is made next to it
        schema.check_header(self.path)
        self._lock = _lock_writer(self.path)
        try:
            self._conn = schema.connect(self.path, readonly=False)
        except BaseException:
            os.close(self._lock)  # the lock file stays, even beside a file refused: _lock_writer
            raise
        try:
            with self._transaction():  # the first write: another program's write lock fails it
                self._bound_evidence()
        except BaseException as err:
            self.close()  # or the lock stays held, and this process cannot open the record again
            if isinstance(err, sqlite3.Error):
                raise StoreError(schema.refusal(self.path, err, readonly=False)) from None
            raise

    @staticmethod
    def open_readonly(path: Path | str) -> Reader:
        """A read-only view of the record at ``path`` for another thread or process (the web),
        seeing each record once it is committed (of a closed record this user cannot write, the
        records it holds when opened), and leaving no file beside it that was not there.

        :raises StoreError: when the file does not exist, cannot be read, or is not the record.
        """
        return Reader(path)

    def close(self) -> None:
        """Close the file and let another table open it (closing twice does nothing). The lock
        file stays beside it, empty: see :func:`_lock_writer`."""
        try:
            self._conn.close()
        finally:
            if self._lock >= 0:
                os.close(self._lock)
                self._lock = -1

    def start_game(self, game: str, seats: int, options: Mapping[str, str],
                   names: Sequence[str], colours: Sequence[str] = (), *,
                   ending: tuple[int, Mapping[str, Any]] | None = None) -> int:
        """Record a new game of ``game`` and return its number (``colours``: each seat's colour,
        or none). ``ending``: the game in play and its results so far, finished in the same
        transaction (the dealer starts another before its end), so that no kill between the
        two leaves the record with that game finished and none begun after it.

        :raises GameInProgress: when the current game is not finished.
        :raises NoSuchGame: when the record does not hold the ``ending`` game.
        :raises InvalidInput: when ``names`` does not name every seat.
        """
        if len(names) != seats:
            raise InvalidInput(f"{seats} seats need {seats} names, not {len(names)}: {names!r}")
        if colours and len(colours) != seats:
            raise InvalidInput(f"{seats} seats need {seats} colours, not {len(colours)}: {colours!r}")
        with self._transaction():
            if ending is not None:
                self._finished(*ending)
            current = self.current_game()
            if current is not None:
                raise GameInProgress(f"game {current.game_no} ({current.game}) is not finished: "
                                     "finish it before starting another")
            cursor = self._conn.execute(
                "INSERT INTO games (game, seats, options, names, started, colours) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game, seats, json.dumps(dict(options), sort_keys=True), json.dumps(list(names)),
                 self._clock(), json.dumps(list(colours))))
        return int(cursor.lastrowid or 0)

    def finish_game(self, game_no: int, final: Mapping[str, Any]) -> None:
        """Mark game ``game_no`` finished with its results (``final()`` of the engine, JSON-ready);
        finishing it again replaces them (a game reopened by a correction, :meth:`append`'s
        ``reopen``, and ended anew).

        :raises NoSuchGame: when the record does not hold it.
        """
        with self._transaction():
            self._finished(game_no, final)

    def append(self, game_no: int, kind: str, line: str, *, who: str = "", why: str = "",
               origin: str = "", device_event: DeviceEvent | None = None,
               evidence: bytes | None = None, at: float | None = None,
               reopen: bool = False) -> int:
        """Record one line of game ``game_no`` and return its sequence number once it is
        durable (committed and synced in its own transaction).

        ``kind`` is one of :data:`KINDS` (:data:`TABLE_KINDS` for the table's own records,
        ``game_no`` :data:`TABLE`); ``line`` a history line for an input. A
        ``device_event`` ``(origin, session, sequence)`` is remembered so that the same event
        is never recorded twice; ``evidence`` is the JPEG of a camera-read roll. ``reopen``:
        the line is a correction that takes back the game's end (an Undo of the input that
        ended it), so the game is in play again: no longer finished, its result cleared, in
        the same transaction, so that no restart finds the correction in a game still marked
        finished (the table started another) or the game reopened without it.

        :raises DuplicateEvent: when ``device_event`` is already recorded (nothing is written).
        :raises NoSuchGame: when the record does not hold game ``game_no``.
        :raises InvalidInput: for an unknown ``kind`` or evidence that is not a JPEG.
        """
        _check_record(kind, evidence)
        if game_no == TABLE:
            _check_table_record(kind, evidence, reopen)
        with self._transaction():
            self._check_new(game_no, device_event)
            picture = self._add_picture(evidence) if evidence is not None else None
            cursor = self._conn.execute(
                "INSERT INTO records (game_no, kind, line, who, why, origin, at, picture) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_no, kind, line, who, why, origin, self._clock() if at is None else at,
                 picture))
            seq = int(cursor.lastrowid or 0)
            if device_event is not None:
                self._conn.execute("INSERT INTO device_events VALUES (?, ?, ?, ?)",
                                   (*device_event, seq))
            if reopen:
                self._conn.execute("UPDATE games SET finished = NULL, final = NULL "
                                   "WHERE game_no = ?", (game_no,))
            if picture is not None:
                self._bound_evidence()
        return seq

    def prune(self, export_dir: Path | str, effective: Callable[[int], Sequence[str]], *,
              keep: int = 10) -> list[Path]:
        """Keep the newest ``keep`` games whole; export each older finished game to
        ``export_dir`` as a history file of its effective input lines (``effective(game_no)``,
        the table's inputs after corrections), then delete its records and pictures, and the
        table's own records (:data:`TABLE`) older than its last record. Each device's newest
        fault, warning and clear stay (without their pictures), as the table's own records: a
        restart reads them to know what still stands, so it says after a prune what it said
        before (at most three records a device, however long it has failed).

        A game's rows go only once its file is written and synced; no file is overwritten.
        Returns the export files, oldest game first.

        :raises StoreError: when ``export_dir`` is not a folder or an export cannot be written
            (an existing file with other contents among them): that game and later ones stay.
        """
        folder = Path(export_dir)
        if not folder.is_dir():
            raise StoreError(f"{shown(folder)} is not a folder: cannot export old games there")
        written = []
        for game_no in self._prunable(keep):
            summary = self.game(game_no)
            path = folder / export.file_name(summary)
            text = export.history_text(summary, effective(game_no), self.path)
            export.write_once(path, text)
            self._forget(game_no)
            written.append(path)
        return written

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            if self._conn.in_transaction:  # SQLite has rolled back some errors by itself
                self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def _finished(self, game_no: int, final: Mapping[str, Any]) -> None:
        cursor = self._conn.execute(
            "UPDATE games SET finished = ?, final = ? WHERE game_no = ?",
            (self._clock(), json.dumps(dict(final), sort_keys=True), game_no))
        if cursor.rowcount == 0:
            raise NoSuchGame(f"{shown(self.path)} holds no game {game_no}")

    def _check_new(self, game_no: int, event: DeviceEvent | None) -> None:
        if not self._conn.execute("SELECT 1 FROM games WHERE game_no = ?", (game_no,)).fetchone():
            raise NoSuchGame(f"{shown(self.path)} holds no game {game_no}")
        seq = self._event_seq(event) if event is not None else None
        if event is not None and seq is not None:
            origin, session, sequence = event
            raise DuplicateEvent(f"device event {sequence} of {origin} (session {session}) is "
                                 f"already recorded as record {seq}: not applied twice", seq)

    def _add_picture(self, jpeg: bytes) -> int:
        cursor = self._conn.execute("INSERT INTO pictures (size) VALUES (?)", (len(jpeg),))
        picture = int(cursor.lastrowid or 0)
        self._conn.execute("INSERT INTO picture_data VALUES (?, ?)", (picture, jpeg))
        return picture

    def _bound_evidence(self) -> None:
        """Drop the oldest pictures until those kept fit in ``max_evidence_bytes`` (a picture
        larger than the whole bound is dropped at once)."""
        excess = self.evidence_bytes() - self.max_evidence_bytes
        oldest = self._conn.execute("SELECT id, size FROM pictures WHERE kept ORDER BY id")
        dropped = []
        for picture, size in oldest:
            if excess <= 0:
                break
            dropped.append((picture,))
            excess -= size
        self._conn.executemany("UPDATE pictures SET kept = 0 WHERE id = ?", dropped)
        self._conn.executemany("DELETE FROM picture_data WHERE id = ?", dropped)

    def _prunable(self, keep: int) -> list[int]:
        if keep < 0:
            raise ValueError(f"keep must be 0 or more, not {keep}")
        rows = self._conn.execute(
            f"SELECT game_no FROM games WHERE finished IS NOT NULL AND game_no > {TABLE} AND "
            "game_no NOT IN (SELECT game_no FROM games ORDER BY game_no DESC LIMIT ?) "
            "ORDER BY game_no", (keep,))
        return [row[0] for row in rows]

    def _forget(self, game_no: int) -> None:
        """Delete game ``game_no``'s rows, and the table's own records older than its last,
        children before parents (foreign keys are on), but for the devices' last words
        (:data:`_LAST_WORDS`), which stay as the table's own records."""
        of_game = "SELECT seq FROM records WHERE game_no = ?"
        pictures = "SELECT picture FROM records WHERE game_no = ? AND picture IS NOT NULL"
        before = (f"SELECT seq FROM records WHERE game_no = {TABLE} AND seq < "
                  f"(SELECT max(seq) FROM records WHERE game_no = ?) AND seq NOT IN ({_LAST_WORDS})")
        with self._transaction():
            self._conn.execute(f"DELETE FROM device_events WHERE seq IN ({before})", (game_no,))
            self._conn.execute(f"DELETE FROM records WHERE seq IN ({before})", (game_no,))
            kept = [row[0] for row in self._conn.execute(pictures, (game_no,))]
            self._conn.execute(f"UPDATE records SET game_no = {TABLE}, picture = NULL "
                               f"WHERE game_no = ? AND seq IN ({_LAST_WORDS})", (game_no,))
            self._conn.execute(f"DELETE FROM device_events WHERE seq IN ({of_game})", (game_no,))
            self._conn.execute("DELETE FROM records WHERE game_no = ?", (game_no,))
            self._conn.executemany("DELETE FROM picture_data WHERE id = ?", [(p,) for p in kept])
            self._conn.executemany("DELETE FROM pictures WHERE id = ?", [(p,) for p in kept])
            self._conn.execute("DELETE FROM games WHERE game_no = ?", (game_no,))


def _record(row: tuple[Any, ...]) -> Record:
    seq, game, kind, line, who, why, origin, at, picture, kept = row
    return Record(seq, game, kind, line, who, why, origin, at, picture, bool(kept))


def _summary(row: tuple[Any, ...]) -> GameSummary:
    game_no, game, seats, names, options, finished, final, started, colours, inputs = row
    return GameSummary(game_no=game_no, game=game, seats=seats, names=tuple(json.loads(names)),
                       colours=tuple(json.loads(colours)),
                       options=json.loads(options), over=finished is not None,
                       final=json.loads(final) if final else {}, started=export.when(started),
                       inputs=inputs)


def _check_record(kind: str, evidence: bytes | None) -> None:
    if kind not in KINDS:
        raise InvalidInput(f"unknown record kind {kind!r}: one of {', '.join(sorted(KINDS))}")
    if evidence is not None and not evidence.startswith(JPEG_START):
        raise InvalidInput(f"evidence must be a JPEG (it starts {evidence[:4]!r})")


def _check_table_record(kind: str, evidence: bytes | None, reopen: bool) -> None:
    if kind not in TABLE_KINDS:
        raise InvalidInput(f"a {kind!r} record belongs to a game, not to the table's own records "
                           f"(game {TABLE}): those are {', '.join(sorted(TABLE_KINDS))}")
    if evidence is not None:
        raise InvalidInput(f"the table's own records (game {TABLE}) keep no evidence picture")
    if reopen:
        raise InvalidInput(f"the table's own records (game {TABLE}) are no game: none reopens")


def _lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def _lock_writer(path: Path) -> int:
    """Hold the lock file next to ``path`` for this writer's lifetime; the kernel releases it
    when the process dies, so a table killed mid-game is reopened at once.

    The file is only what ``flock`` locks, empty, so one left after the table closes (or dies)
    locks nothing. It is never removed, on closing nor when the record is refused as it opens (a
    damaged file, a migration that fails): a table that opened it just before, and locks it just
    after, would hold the lock of a file no longer there while a third table made a new one and
    locked that, and the two would write the record at once. A file refused from its header and
    schema (junk, another program's, a newer dicetable's: :func:`schema.check_header`) is
    refused before the lock file is made, so nothing is left beside it.
    """
    lock = _lock_path(path)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        raise StoreError(f"cannot write or create {shown(path)} (its lock file: {err.strerror}): "
                         f"make {shown(path.parent)} writable by this user or choose another "
                         "file") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreError(f"{shown(path)} is open in another table (it holds {shown(lock)}): stop "
                         "that one first, or choose another file") from None
    return fd
