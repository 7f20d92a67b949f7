"""``dicetable run`` restarted on a record with more than one fault or warning standing: its start
says each of them, one line each, as the dealer's devices page marks them."""

from __future__ import annotations

from pathlib import Path

from controller.store import Store
from tests.commands.test_run import _run_with_faults

BROKEN = "camera:stopped,rfid[seat3]:timeout"
"""The camera out (a fault) and the RC522 under seat 3's spot stuck, where no one sits in a game
of two (a warning: example table.toml gives each reader its seat)."""


def test_run_restarted_says_each_fault_and_warning_that_stands(tmp_path: Path) -> None:
    # it said the first fault only (the table's status): not the reader's warning
    _run_with_faults(tmp_path, BROKEN)
    with Store.open_readonly(tmp_path / "state" / "table.db") as record:
        first = [(r.kind, r.origin) for r in record.records(1)]
    assert sorted(first) == [("fault", "camera"), ("warning", "rfid")]
    (tmp_path / "notify.sock").unlink()  # the second start's systemd socket
    err = _run_with_faults(tmp_path, BROKEN, game=())
    standing = [line for line in err.splitlines() if " standing when the table stopped: " in line]
    assert [line.split(" standing")[0] for line in standing] == ["Fault", "Warning"], err
    assert "camera stopped sending frames" in standing[0] and "cable" in standing[0]
    assert "rfid: reader under 'seat3' timed out" in standing[1]
    assert standing[1].endswith("; the table plays on without it while its seat is empty")
    assert [line for line in err.splitlines() if line.startswith("[")] == [], err  # nothing recorded again
    with Store.open_readonly(tmp_path / "state" / "table.db") as record:
        assert [(r.kind, r.origin) for r in record.records(1)] == first
