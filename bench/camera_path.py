"""Benchmark of the table's camera path: rolls rendered by the simulated camera into the tray's
zones, watched by ``TrayWatcher`` frame by frame, matched to what the engine would wait for.

Prints the median and 95th percentile milliseconds of a frame that is only settle-checked, of the
frame that is read (calibration check, reader, zones, evidence JPEG), the evidence's size, and how
many rolls became the right ``Roll`` (the rest: questions; a wrong roll would be a guess). With
``--cocked K``, every K-th roll throws one die cocked (leaning on another or on the tray's wall,
as dice land on a real tray): such a roll must go to the dealer; how many were taken is printed.

Run: ``.venv/bin/python bench/camera_path.py [--rolls N] [--size 1536x864] [--seed S] [--cocked K]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

from controller.games.base import DiceNeeded
from controller.games.dice import DieKind
from controller.games.rolls import Roll
from controller.table.camera import TrayWatcher, match, zone_for
from hardware.camera_sim import SimCamera
from vision.calibrate import load_tray_config

EXAMPLE = Path(__file__).resolve().parent.parent / "table.example.toml"


def main() -> None:
    """Watch ``--rolls`` rolls (a flop, then each seat's 2d6 reveal in turn) and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rolls", type=int, default=12, help="rolls to watch")
    parser.add_argument("--size", default="1536x864", help="frame size WxH")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--marker-mm", type=float, default=30.0,
                        help="tray marker size (the example's 40 mm leaves a ring the main reader takes for a die)")
    parser.add_argument("--cocked", type=int, default=0, metavar="K",
                        help="every K-th roll throws one die cocked (0: none), counted apart")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    example = load_tray_config(EXAMPLE)
    tray = replace(example, layout=replace(example.layout, marker_mm=args.marker_mm))
    rng = random.Random(args.seed)
    camera = SimCamera(random.Random(args.seed), (width, height))
    camera.tray = tray
    watcher = TrayWatcher(camera, tray)
    watched, read, sizes, right, asked, wrong = [], [], [], 0, 0, 0
    cocked_taken, cocked_asked = [], 0
    for n in range(args.rolls):
        seat = None if n % 5 == 0 else n % 5 - 1
        need = DiceNeeded(seat, DieKind.D6, 3 if seat is None else 2, False, "bench")
        values = [rng.randint(1, 6) for _ in range(need.count)]
        cocked = bool(args.cocked) and n % args.cocked == args.cocked - 1
        camera.roll(values, frames=6, zones=[zone_for(seat)] * need.count, cocked=int(cocked))
        for _ in range(20):
            start = time.perf_counter()
            step = watcher.step(DieKind.D6)
            ms = (time.perf_counter() - start) * 1000
            if step.reading is None:
                watched.append(ms)
                continue
            read.append(ms)
            sizes.append(len(step.reading.jpeg) / 1024)
            result = match(need, step.reading, tray.zones)
            truth = tuple(d.face for d in sorted(camera.scene.dice, key=lambda d: d.tray_mm[0]))
            if cocked:
                if isinstance(result, Roll):
                    cocked_taken.append(f"roll {n}: {' '.join(result.faces)}")
                else:
                    cocked_asked += 1
            elif isinstance(result, Roll):
                right, wrong = right + (result.faces == truth), wrong + (result.faces != truth)
            else:
                asked += 1
            break
    print(f"{args.rolls} rolls at {width}x{height}, tray {tray.layout.width_mm:.0f}x{tray.layout.height_mm:.0f} mm")
    print(f"frame only settle-checked: median {statistics.median(watched):.2f} ms, "
          f"p95 {_p95(watched):.2f} ms ({len(watched)} frames)")
    print(f"frame read: median {statistics.median(read):.0f} ms, p95 {_p95(read):.0f} ms ({len(read)} frames)")
    print(f"evidence JPEG: median {statistics.median(sizes):.0f} KiB")
    print(f"rolls taken right {right}, questions {asked}, taken wrong {wrong}")
    if args.cocked:
        print(f"rolls with a cocked die: {cocked_asked} to the dealer, {len(cocked_taken)} taken with a value for it"
              f"{': ' + ', '.join(cocked_taken) if cocked_taken else ''}")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


if __name__ == "__main__":
    main()
