"""``dicetable demo`` stopped by SIGTERM (``kill``, ``timeout``, a service manager, a container
stopping) as by Ctrl-C: it says how to resume, and closes its record."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from controller.paths import shown

DICETABLE = Path(sys.executable).with_name("dicetable")


def test_sigterm_stops_the_demo_as_ctrl_c_does(tmp_path: Path) -> None:
    # SIGTERM ended the demo at once: no "resume with" line, and its record left as after a crash
    db = tmp_path / "t.db"
    demo = subprocess.Popen([str(DICETABLE), "demo", "--no-web", "--game", "tao", "--seed", "3", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not _inputs(db):
            assert demo.poll() is None, demo.communicate()
            time.sleep(0.2)
        demo.send_signal(signal.SIGTERM)
        out, err = demo.communicate(timeout=60)
    finally:
        demo.kill()
    assert demo.returncode == 0, err
    assert out.rstrip().endswith(f"demo stopped; resume with: dicetable demo --db {shown(db)}")
    assert not db.with_name("t.db-wal").exists()  # closed: SQLite folds its log back into the file


def _inputs(db: Path) -> bool:
    """The demo has recorded an input (``history`` reads the record while the demo writes it)."""
    if not db.exists():
        return False
    listed = subprocess.run([str(DICETABLE), "history", "--db", str(db)], capture_output=True, text=True)
    return listed.returncode == 0 and " 0 inputs" not in listed.stdout and "inputs" in listed.stdout
