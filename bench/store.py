"""Benchmark of the table's record: appends per second (each durable before it returns), and a
crash run: a child appending records is SIGKILLed at random moments, every acknowledged record is
checked after each kill, and the time to reopen the file after a kill is reported.

Run: ``nice -n 10 .venv/bin/python bench/store.py [--appends N] [--kills K] [--seed S]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.store import Store  # noqa: E402
from tests.store.crashes import crash_run  # noqa: E402

PHOTO = sorted((Path(__file__).resolve().parent.parent
                / "data/dice-photos/byler-d6-dev/images").glob("*.jpg"))[0]


def appends_per_second(folder: Path, count: int, evidence: bytes | None) -> float:
    """Append ``count`` input records (each with a device event, and ``evidence`` if given) to a
    new file and return how many were made durable per second."""
    with Store(folder / f"appends-{evidence is not None}.db") as store:
        game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
        start = time.perf_counter()
        for n in range(count):
            store.append(game_no, "input", "roll 0 d6 2 5", origin="camera",
                         device_event=("seatnode:0", 1, n), evidence=evidence)
        return count / (time.perf_counter() - start)


def main() -> None:
    """Time the appends, run the kills and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--appends", type=int, default=2000, help="appends timed per kind")
    parser.add_argument("--kills", type=int, default=1000, help="SIGKILLs in the crash run")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill moments")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        plain = appends_per_second(folder, args.appends, None)
        photo = PHOTO.read_bytes()
        pictured = appends_per_second(folder, args.appends, photo)
        print(f"appends: {plain:.0f}/s durable (synchronous=FULL, WAL); "
              f"{pictured:.0f}/s with a {len(photo) // 1000} kB evidence JPEG each")
        start = time.perf_counter()
        kills = crash_run(folder / "crash.db", args.kills, args.seed)
        took = time.perf_counter() - start
    reopen = sorted(kill.reopen_s * 1000 for kill in kills)
    acknowledged = sum(len(kill.acknowledged) for kill in kills)
    print(f"crash run: {len(kills)} SIGKILLs in {took:.0f} s, {acknowledged} acknowledged appends, "
          f"{kills[-1].records} records at the end, none lost or half-written")
    print(f"reopen after a kill: median {statistics.median(reopen):.1f} ms, "
          f"95th percentile {reopen[int(0.95 * (len(reopen) - 1))]:.1f} ms, max {reopen[-1]:.1f} ms")


if __name__ == "__main__":
    main()
