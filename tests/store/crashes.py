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
from tests.store.crash_child import KILL_AT, expected

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
    child = _child(db)
    assert child.stdout is not None
    first = b"" if early else child.stdout.readline()
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    return _printed(child, first)


def kill_in_game_change(db: Path, statement: int) -> tuple[int, ...]:
    """Start the child on ``db`` and let it kill itself at SQL statement ``statement`` of its
    first game change (``crash_child.KILL_AT``); return the seqs it printed."""
    return _printed(_child(db, {KILL_AT: str(statement)}), b"")


def _child(db: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(CHILD), str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})


def _printed(child: subprocess.Popen[bytes], first: bytes) -> tuple[int, ...]:
    """The seqs a child printed, once it is dead of a SIGKILL."""
    out, err = child.communicate()
    if child.returncode != -signal.SIGKILL:
        raise AssertionError(f"the child ended by itself ({child.returncode}): {err.decode()}")
    return tuple(int(line) for line in (first + out).split())


def check(db: Path, acknowledged: tuple[int, ...]) -> tuple[float, int]:
    """Reopen ``db`` and assert every acknowledged seq is there, whole and in order, and that a
    game is in play once one was started (a game change is one transaction: no kill leaves the
    last game finished and none begun after it); returns the reopen time and the number of
    records."""
    start = time.perf_counter()
    store = Store(db)
    reopen = time.perf_counter() - start
    try:
        assert not store.games(1) or store.current_game() is not None, \
            f"game {store.games(1)[0].game_no} is finished and none is in play"
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
