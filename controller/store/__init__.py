"""The table's durable record in SQLite: games, record lines, device events, evidence pictures.

``Store(path)`` is the one writer (the table); ``Store.open_readonly(path)`` gives readers (the
web) their own connection. See :mod:`controller.store.store`.
"""

from controller.store.errors import DuplicateEvent, GameInProgress, NoSuchGame, StoreError
from controller.store.store import KINDS, TABLE, DeviceEvent, Reader, Record, Store

__all__ = ["KINDS", "DeviceEvent", "DuplicateEvent", "GameInProgress", "NoSuchGame", "Reader",
           "Record", "Store", "StoreError", "TABLE"]
