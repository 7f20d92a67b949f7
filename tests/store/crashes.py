"""The crash harness shared by ``test_crash.py`` and ``bench/store.py``: a child appends records,
is killed with SIGKILL at a random moment, and the record it leaves is checked."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from controller.store import Store
from tests.store.crash_child import expected

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("crash_child.py")


@dataclass(frozen=True)
class Kill:
    """One kill: the seqs the child printed (acknowledged) and the time reopening took."""

    acknowledged: tuple[int, ...]
    reopen_s: float
    records: int


def kill_once(db: Path, delay: float, *, early: bool = False) -> tuple[int, ...]:
    """Start the child on ``db`` and SIGKILL it ``delay`` seconds after its first append (after
    its start when ``early``: while it opens or migrates the file); return the seqs it printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, str(CHILD), str(db)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env)
    assert child.stdout is not None
    first = b"" if early else child.stdout.readline()
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    out, err = child.communicate()
    if child.returncode != -signal.SIGKILL:
        raise AssertionError(f"the child ended by itself ({child.returncode}): {err.decode()}")
    return tuple(int(line) for line in (first + out).split())


def check(db: Path, acknowledged: tuple[int, ...]) -> tuple[float, int]:
    """Reopen ``db`` and assert every acknowledged seq is there, whole and in order; returns the
    reopen time and the number of records."""
    start = time.perf_counter()
    store = Store(db)
    reopen = time.perf_counter() - start
    try:
        records = store.after(0, limit=10**9)
        seqs = [record.seq for record in records]
        assert seqs == list(range(1, len(seqs) + 1)), "seqs are not 1, 2, 3, ... in order"
        assert set(acknowledged) <= set(seqs), f"acknowledged but lost: {set(acknowledged) - set(seqs)}"
        for record in records:
            _check_whole(store, record.seq, record.line, record.who, record.picture)
        return reopen, len(records)
    finally:
        store.close()


def crash_run(db: Path, kills: int, seed: int) -> list[Kill]:
    """Kill the child ``kills`` times at seeded random moments, checking the record each time:
    one kill in five while it starts (opening, migrating), the others while it appends."""
    rng = random.Random(seed)
    done = []
    for _ in range(kills):
        early = rng.random() < 0.2
        delay = rng.uniform(0.0, 0.2 if early else 0.1)
        acknowledged = kill_once(db, delay, early=early)
        reopen, records = check(db, acknowledged)
        done.append(Kill(acknowledged, reopen, records))
    return done


def _check_whole(store: Store, seq: int, line: str, who: str, picture: int | None) -> None:
    want = expected(seq)
    assert (line, who) == (want.line, want.who), f"record {seq} is not whole: {line!r}"
    assert store.seen(*want.event), f"record {seq} lost its device event"
    if want.evidence is None:
        assert picture is None, f"record {seq} has a picture it was not given"
    else:
        assert picture is not None and store.evidence(picture) == want.evidence, \
            f"record {seq}'s picture is not whole"
