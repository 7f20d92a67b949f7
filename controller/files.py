"""Files written whole or not at all, and a file's problem in a person's words: what the commands
and the dealer console's sessions file share.

On the standard library and the exception tree only, outside :mod:`controller.commands`, so
that the web (``web.security`` keeps the dealer's sessions with :func:`write_file`) does not
import the command line to write a file. Every problem with a file becomes one
:class:`FileProblem` naming the file and what to do, which the command line prints as one line
with exit status 2.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

from controller.games.errors import DiceTableError
from controller.paths import shown


class FileProblem(DiceTableError, OSError):
    """A file that cannot be read or written (one named on the command line, the dealer's
    sessions file); the message names it."""


def reason(err: OSError) -> str:
    """The reason of an ``OSError`` in a person's words."""
    if err.errno == errno.ENOSPC:
        return "the disk is full"
    if err.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if err.errno == errno.EROFS:
        return "the file system is read-only"
    return (err.strerror or str(err)).lower()


def check_output(path: Path, force: bool, what: str = "file") -> None:
    """Refuse an output that cannot be written, or that exists and ``force`` is not given.

    Checked before any work is done, so a long run never ends on a refusal.
    """
    if path.is_dir():
        raise FileProblem(f"{shown(path)} is a folder; give the name of a {what} to write")
    parent = path.parent
    if not parent.is_dir():
        raise FileProblem(f"cannot write {shown(path)}: there is no folder {shown(parent)}")
    if path.exists() and not force:
        raise FileProblem(f"{shown(path)} exists; choose another name or add --force to "
                          "overwrite it")
    if not os.access(parent, os.W_OK) and not (path.exists() and os.access(path, os.W_OK)):
        raise FileProblem(f"cannot write {shown(path)}: permission denied")


def write_file(path: Path, data: bytes, force: bool = False, mode: int = 0o666) -> None:
    """Write ``data`` to a new file ``path`` (an existing one only with ``force``), whole or not at
    all: a full disk or a crash halfway leaves ``path`` as it was, never half a file
    (:func:`_put_whole`), made with ``mode`` (less the umask: 0o600 for a secret, which no one
    else may read even for a moment). A device or a pipe (``/dev/stdout``) is written to as it is."""
    check_output(path, force)
    try:
        if path.exists() and not path.is_file():
            with open(path, "wb") as handle:
                handle.write(data)
        else:  # through a link, to the file it names
            _put_whole(path.resolve() if path.is_symlink() else path, data, force, mode)
    except OSError as err:
        raise FileProblem(f"cannot write {shown(path)}: {reason(err)}") from None


def _put_whole(path: Path, data: bytes, force: bool, mode: int = 0o666) -> None:
    """Write ``data`` to a hidden file beside ``path``, flushed to the disk, then give it ``path``'s
    name: in one step over the old file with ``force``, else as a new name only (a file that
    appeared there meanwhile is kept). The hidden file is made with ``mode`` less the umask, and
    it is gone whatever happens."""
    hidden = path.with_name(f".{path.name}.{secrets.token_hex(4)}.part")
    fd = os.open(hidden, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with open(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(hidden, path)
        else:
            _link_new(hidden, path)
    finally:
        hidden.unlink(missing_ok=True)


def _link_new(made: Path, path: Path) -> None:
    """Give the file ``made`` the new name ``path`` too (``FileExistsError`` if it is taken). On a
    file system without hard links (FAT, as on many USB sticks) the name is taken first, empty,
    then the file put in its place."""
    try:
        os.link(made, path)
    except FileExistsError:
        raise
    except OSError:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        os.replace(made, path)
