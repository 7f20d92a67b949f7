"""Benchmark of settle detection: median ms per 1536x864 frame on one core, and ratio to cvtColor + GaussianBlur.

Run: ``.venv/bin/python bench/settle.py [--frames N] [--rounds R]``
"""

from __future__ import annotations

import argparse
import random

import cv2

from vision.render import SceneSpec, render_roll
from vision.settle import time_settle


def main() -> None:
    """Render a roll (tumbling then still), time the settle check over it and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=30, help="frames in the rendered roll")
    parser.add_argument("--rounds", type=int, default=20, help="times to run over the frames")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    frames = [scene.image for scene in render_roll(random.Random(7), SceneSpec(noise=3.0), args.frames)]
    timing = time_settle(frames, rounds=args.rounds)
    height, width = frames[0].shape[:2]
    print(f"settle check: median {timing.settle_ms:.3f} ms per {width}x{height} frame "
          f"({len(frames) * args.rounds} frames, one thread)")
    print(f"baseline cvtColor + GaussianBlur 5x5: median {timing.baseline_ms:.3f} ms")
    print(f"ratio settle / baseline: {timing.ratio:.3f}")


if __name__ == "__main__":
    main()
