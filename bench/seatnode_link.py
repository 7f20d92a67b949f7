"""Times the seat-node link soak (firmware and Pi driver under line noise) and prints its figures.

Usage: ``.venv/bin/python bench/seatnode_link.py [DAMAGED_FRAMES] [SEED]`` (default 100000, 20261129,
the figures of ``tests/hardware/test_seatnode_soak.py``).
"""

from __future__ import annotations

import sys
import time

from hardware.seatnode_soak import soak


def main(argv: list[str]) -> int:
    """Run one soak and print what it did and how long it took."""
    damaged = int(argv[0]) if argv else 100_000
    seed = int(argv[1]) if len(argv) > 1 else 20261129
    start = time.perf_counter()
    report = soak(damaged=damaged, seed=seed)
    seconds = time.perf_counter() - start
    exact = (report.presses_received == report.presses_made
             and report.lights_applied == report.lights_sent)
    print(f"damaged or injected frames: {report.damaged}")
    print(f"frames rejected by the decoders: {report.bad_frames}")
    print(f"resends: {report.resends}")
    print(f"cable pulls: {report.outages}; events made while unplugged: {report.made_unplugged}")
    print(f"button events: {len(report.presses_made)} made, {len(report.presses_received)} received")
    print(f"light commands: {len(report.lights_sent)} sent, {len(report.lights_applied)} applied")
    print(f"exactly once, in order: {'yes' if exact else 'NO'}")
    print(f"simulated time: {report.sim_seconds:.1f} s; real time: {seconds:.2f} s "
          f"({report.damaged / seconds:,.0f} damaged frames/s)")
    return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
