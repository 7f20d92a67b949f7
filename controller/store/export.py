"""A finished game written out as a ``dicetable-history 1`` file before the record forgets it.

The file is written whole under a temporary name, fsynced, then linked to its final name (which
fails if that name exists: nothing is ever overwritten) and the folder is fsynced, so that once
:func:`write_once` returns the export survives a power cut.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from controller.games.errors import InvalidInput
from controller.games.history import MAGIC
from controller.paths import shown
from controller.store.errors import StoreError
from controller.table.records import GameSummary


def history_text(summary: GameSummary, inputs: Sequence[str], source: Path) -> str:
    """The history of a recorded game: its header, comments saying where it came from (seat
    names, start, result; ``history.loads`` skips them) and its effective input lines.

    :raises InvalidInput: when an input line holds a line break (it would not replay).
    """
    for line in inputs:
        if "\n" in line or "\r" in line:
            raise InvalidInput(f"game {summary.game_no}: an input line holds a line break: {line!r}")
    lines = [MAGIC,
             f"# game {summary.game_no} of {shown(source, quoted=False)}, started {summary.started}",
             f"# names {json.dumps(list(summary.names))}",
             f"# final {json.dumps(summary.final, sort_keys=True)}",
             f"game {summary.game}", f"seats {summary.seats}"]
    lines += [f"option {key}={value}" for key, value in summary.options.items()]
    return "\n".join(lines + ["", *inputs]) + "\n"


def file_name(summary: GameSummary) -> str:
    """The export's name in the export folder, e.g. ``game-000012-tao.history``."""
    return f"game-{summary.game_no:06d}-{summary.game}.history"


def write_once(path: Path, text: str) -> None:
    """Write ``text`` to the new file ``path`` durably. A file already there with this very
    text is an earlier export that was interrupted before its rows were deleted: it is kept.

    :raises StoreError: when ``path`` exists with other contents, or cannot be written.
    """
    data = text.encode("utf-8")
    partial = path.with_name(f".{path.name}.partial")  # ours alone: a crash may leave it behind
    try:
        _write_synced(partial, data)
        try:
            os.link(partial, path)
        except FileExistsError:
            if path.read_bytes() != data:
                raise StoreError(f"{shown(path)} exists and is not this game's export: it is not "
                                 "overwritten; move it away and prune again") from None
        finally:
            partial.unlink()
        _sync_folder(path.parent)
    except OSError as err:
        if isinstance(err, StoreError):
            raise
        raise StoreError(f"cannot write the export {shown(path)}: {err.strerror or err}") from None


def when(at: float | None) -> str:
    """A clock time as ISO 8601 UTC to the second ('' for none)."""
    if at is None:
        return ""
    return datetime.fromtimestamp(at, timezone.utc).isoformat(timespec="seconds")


def _write_synced(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
