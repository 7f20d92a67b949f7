"""What the commands share: files read and written without surprises, names shown safely, progress,
the table's record told at the terminal as it grows.

Every problem with a file a person named becomes one :class:`FileProblem` naming the file and what
to do, which the command line prints as one line with exit status 2; it and :func:`write_file` live
in :mod:`controller.files`, which the web writes its files with too. Outputs are never overwritten
unless the person asked for it (``--force``), and are written as they grow, so an interrupted
command keeps what it did.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterator, TextIO

from controller.files import FileProblem as FileProblem  # the commands' names for the files' own
from controller.files import check_output as check_output
from controller.files import reason as reason
from controller.files import write_file as write_file
from controller.games.errors import InvalidInput
from controller.paths import shown as shown  # the name the commands use

if TYPE_CHECKING:
    from controller.table.records import Update


def given(text: str) -> str:
    """An ``argparse`` type for a file or folder named on the command line: refuses an empty name,
    which ``Path`` reads as the current folder (an unset shell variable in ``vision read "$DIR"``
    read every photo there and wrote its pictures there) or a command took for its default."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name: give a file or folder")
    return text


def given_path(text: str) -> Path:
    """:func:`given` as a ``Path``."""
    return Path(given(text))


def check_port(port: int) -> None:
    """Refuse a scoreboard ``--port`` beyond 0-65535 (0: any free port, which the server prints)."""
    if not 0 <= port <= 65535:
        raise InvalidInput(f"--port must be 0-65535 (0: any free port), not {port}")


def read_bytes(path: Path, what: str = "file") -> bytes:
    """The bytes of ``path``; a folder, a missing or unreadable file is a :class:`FileProblem`."""
    if path.is_dir():
        raise FileProblem(f"{shown(path)} is a folder; give a {what}")
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FileProblem(f"no such {what}: {shown(path)}") from None
    except OSError as err:
        raise FileProblem(f"cannot read {shown(path)}: {reason(err)}") from None


SQLITE_HEADER = b"SQLite format 3\0"
"""The first bytes of every SQLite file (a table's record, a stone registry)."""


def read_text(path: Path, what: str = "file") -> str:
    """The UTF-8 text of ``path`` (without the byte-order mark Notepad writes first); a binary or
    non-UTF-8 file is a :class:`FileProblem` too, a table's record (SQLite) said to be one."""
    data = read_bytes(path, what)
    if data.startswith(SQLITE_HEADER):
        raise FileProblem(f"{shown(path)} is an SQLite file (a table's record?), not a text {what}: "
                          f"'dicetable history --db {shown(path, quoted=False)} --game N' prints a game's history")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise FileProblem(f"{shown(path)} is not a UTF-8 text {what} (byte {err.start + 1} "
                          f"is {data[err.start:err.start + 1]!r}); save it as UTF-8") from None
    if "\0" in text:
        raise FileProblem(f"{shown(path)} is a binary file, not a text {what}")
    return text


def made_folder(folder: Path, option: str) -> None:
    """Make the folder an ``option`` names (with its parents) and check a file can be written in it,
    before any work is done: a file there, or a folder that cannot be made or written in, is a
    :class:`FileProblem` naming it."""
    if folder.exists() and not folder.is_dir():
        raise FileProblem(f"{option} {shown(folder)} is a file; give a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise FileProblem(f"cannot make the {option} folder {shown(folder)}: {reason(err)}") from None
    check_folder(folder, f"{option} folder")


@contextmanager
def folders_kept_if_used(folder: Path) -> Iterator[None]:
    """Within it, the folders of ``folder``'s path that do not exist yet and are still empty are
    removed again when the work fails: a refused command leaves no empty folder behind."""
    missing = [path for path in (folder, *folder.parents) if not path.exists()]
    try:
        yield
    except BaseException:
        for path in missing:  # the deepest first
            with suppress(OSError):
                path.rmdir()
        raise


@contextmanager
def stderr_held() -> Iterator[None]:
    """The process's standard error (file descriptor 2, which C libraries write to themselves)
    pointed at nothing within it: for a single-threaded command around a library call whose own
    lines would come before the command's one line. Python's ``sys.stderr`` is flushed first."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as nothing:
            os.dup2(nothing.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def check_folder(folder: Path, what: str) -> None:
    """Refuse a folder no file can be written in, by writing one (as root, permissions say yes
    to /sys, a full disk or a read-only mount; only trying tells)."""
    try:
        with tempfile.TemporaryFile(dir=folder) as probe:
            probe.write(b"dicetable")
            probe.flush()
    except OSError as err:
        raise FileProblem(f"cannot write in the {what} {shown(folder)}: {reason(err)}") from None


class Output:
    """A text file written as it grows: every :meth:`write` is in the file when it returns.

    Unbuffered, each text in one ``write`` call: a run killed between two writes leaves whole
    texts (whole lines of a history), never half of one.
    """

    def __init__(self, path: Path, force: bool, what: str = "file") -> None:
        check_output(path, force, what)
        self.path = path
        try:
            self._file = open(path, "wb" if force else "xb", buffering=0)
        except OSError as err:
            raise self._problem(err) from None

    def write(self, text: str) -> None:
        """Append ``text`` to the file (an interrupted run keeps it)."""
        data = memoryview(text.encode("utf-8"))
        try:
            while data:
                data = data[self._file.write(data) or 0:]
        except OSError as err:
            raise self._problem(err) from None

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def _problem(self, err: OSError) -> FileProblem:
        return FileProblem(f"cannot write {shown(self.path)}: {reason(err)}")


@contextmanager
def interrupt_held() -> Iterator[None]:
    """Hold a Ctrl-C (SIGINT) until the block is done, then raise it as usual.

    For a write and the note of what was written, which must happen both or neither: a Ctrl-C
    between the two would have the interrupted command write the same lines again. Outside the
    main thread (where Python takes no signals) the block simply runs.
    """
    held: list[tuple[int, FrameType | None]] = []
    before: Any = None
    try:
        with _handled(signal.SIGINT, lambda number, frame: held.append((number, frame))) as before:
            yield
    finally:
        if held and callable(before):
            before(*held[0])
        elif held and before == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)


@contextmanager
def stopped_as_by_ctrl_c() -> Iterator[None]:
    """Within the block, SIGTERM (``kill``, ``timeout``, a service manager or a container
    stopping) raises KeyboardInterrupt as Ctrl-C does, so that the command stops as after
    Ctrl-C: it closes its files and says how to go on, where SIGTERM ended it at once. Outside the
    main thread (where Python takes no signals) the block simply runs."""
    with _handled(signal.SIGTERM, signal.default_int_handler):
        yield


@contextmanager
def _handled(number: int, handler: Callable[[int, FrameType | None], Any]) -> Iterator[Any]:
    """``handler`` for the signal ``number`` within the block, and the handler before it back
    after, even when the block raises; yields that handler before (None outside the main thread,
    where Python takes no signals and nothing is changed)."""
    try:
        before = signal.signal(number, handler)
    except ValueError:  # not the main thread
        yield None
        return
    try:
        yield before
    finally:
        signal.signal(number, before)


SHOW_AFTER = 1.0
"""Seconds of work before a progress line appears: quicker commands print none."""


class Progress:
    """A count on a terminal's stderr with the rate and the time left, once work takes a while.

    Silent when ``stream`` is not a terminal (a log, a pipe) or ``enabled`` is False (``--json``);
    nothing shows for work done within :data:`SHOW_AFTER` seconds, and the line is redrawn at most
    every ``every`` seconds, so fast commands print nothing and slow ones cost nothing measurable.
    """

    def __init__(self, label: str, total: int, unit: str, *, enabled: bool = True,
                 stream: TextIO | None = None, every: float = 0.25,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.label, self.total, self.unit = label, total, unit
        self.enabled = enabled and self.stream.isatty()
        self.after, self.every, self.clock = SHOW_AFTER, every, clock
        self.start = clock()
        self._drawn_at: float | None = None

    def update(self, done: int) -> None:
        """Say ``done`` of the total are done (cheap when nothing is drawn)."""
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.after or (
                self._drawn_at is not None and now - self._drawn_at < self.every):
            return
        self._drawn_at = now
        self.stream.write("\r" + self.line(done, now - self.start) + "\x1b[K")
        self.stream.flush()

    def line(self, done: int, seconds: float) -> str:
        """``simulate: 12,000/100,000 hands (12%), 2,003 hands/s, 0:39 left``."""
        rate = done / seconds if seconds > 0 else 0.0
        share = f" ({done / self.total:.0%})" if self.total else ""
        left = f", {_clock_time((self.total - done) / rate)} left" if rate and self.total else ""
        return (f"{self.label}: {done:,}/{self.total:,} {self.unit}{share}, "
                f"{rate:,.0f} {self.unit}/s{left}")

    def close(self) -> None:
        """Clear the line, so what follows starts on a clean one."""
        if self._drawn_at is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn_at = None


def _clock_time(seconds: float) -> str:
    """``0:39``, ``12:05``, ``1:02:03``."""
    whole = int(seconds + 0.5)
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class Announcer:
    """Tells ``out`` the table's record lines as they come, in the room's words (a fault with its
    fix): every one, or ``only`` the records of those kinds (``run`` tells its terminal the
    devices', ``controller.store.store.DEVICE_RECORDS``, which otherwise only the scoreboard and
    the record would show)."""

    def __init__(self, table: Any, out: TextIO, only: Collection[str] | None = None) -> None:
        self.table, self.out, self.only = table, out, only
        self.subscription = table.subscribe(after=table.state().seq)

    def tell(self) -> None:
        """Print what happened since the last call."""
        while (update := self.subscription.next(0)) is not None:
            self.heard(update)

    def heard(self, update: Update) -> None:
        """Print ``update``'s line, unless it is a notice or a record of a kind not asked for."""
        if update.kind == "notice" or (self.only is not None and update.record not in self.only):
            return
        fix = f"; {update.why}" if update.record in ("fault", "warning") and update.why else ""
        print(f"[{update.seq}] {update.text}{fix}", file=self.out, flush=True)
