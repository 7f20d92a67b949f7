"""Times the seat-node link soak (firmware and Pi driver under line noise) and prints its figures.

Usage: ``.venv/bin/python bench/seatnode_link.py [DAMAGED_FRAMES] [SEED]`` (default 100000, 20261129,
the figures of ``tests/hardware/test_seatnode_soak.py``).
"""

from __future__ import annotations

import argparse
import sys
import time

from hardware.seatnode_soak import soak


def _count(text: str) -> int:
    """A whole number over 0, or argparse's one line."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"not a whole number over 0: {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Run one soak and print what it did and how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("damaged", nargs="?", type=_count, default=100_000,
                        help="damaged or injected frames to send (default 100000)")
    parser.add_argument("seed", nargs="?", type=int, default=20261129, help="random seed (default 20261129)")
    args = parser.parse_args(argv)
    damaged, seed = args.damaged, args.seed
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
