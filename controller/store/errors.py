"""What the store refuses: a file it cannot keep the record in, a device event seen before."""

from __future__ import annotations

from controller.games.errors import DiceTableError


class StoreError(DiceTableError, OSError):
    """A file that cannot hold the table's record (a folder, not SQLite, a newer schema, a
    read-only place, in use by another table); the message names the file and what to do."""


class DuplicateEvent(DiceTableError, ValueError):
    """A device event already recorded (a seat node repeating itself after a restart): nothing
    was written. ``seq`` is the record that holds it."""

    def __init__(self, message: str, seq: int) -> None:
        super().__init__(message)
        self.seq = seq


class NoSuchGame(DiceTableError, LookupError):
    """A game number the record does not hold (never started, or pruned and exported)."""


class GameInProgress(DiceTableError, RuntimeError):
    """A new game while another is not finished: finish that one first."""
