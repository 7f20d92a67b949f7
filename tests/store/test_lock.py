"""The lock file beside the record: one table writes it at a time, and the file outlives it."""

from pathlib import Path

import pytest

from controller.store import Store, StoreError


def test_the_lock_file_stays_after_the_table_closes_and_locks_nothing(tmp_path: Path) -> None:
    # removing it on closing would let a table that opened it just before lock a file no longer
    # there while another made and locked a new one: two writers (store._lock_writer)
    db = tmp_path / "table.db"
    Store(db).close()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["table.db", "table.db.lock"]
    with Store(db):
        with pytest.raises(StoreError, match="open in another table"):
            Store(db)
