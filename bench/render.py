"""Benchmark of the synthetic renderer: time to render N frames of mixed hard cases on one core.

Run: ``.venv/bin/python bench/render.py [--frames 1000] [--size 640x640]``
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import cv2

from vision.render import SceneSpec, render_scene


def mixed_spec(rng: random.Random, size: tuple[int, int]) -> SceneSpec:
    """A random scene of the hard cases, die sizes scaled to the frame like the real photos."""
    short = min(size)
    return SceneSpec(size=size, n_dice=rng.randint(1, 12), die_px=(short * 0.045, short * 0.1),
                     touching=rng.random() < 0.4, glare=rng.choice([0, 0, 0.5, 1]),
                     translucent=rng.random() < 0.25, blur=rng.choice([0, 0, 0.7, 1.4]),
                     noise=rng.choice([0, 3, 6]), perspective=rng.choice([0, 0, 0.5, 1]),
                     cocked=rng.choice([0, 0, 1]), cut_off=rng.choice([0, 0, 1]), walls=rng.random() < 0.3,
                     clutter=rng.choice([0, 0, 4]), background="random", jpeg_quality=rng.choice([None, 85]))


def main() -> None:
    """Render the frames and print the total and per-frame figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--frames", type=int, default=1000)
    parser.add_argument("--size", default="640x640", help="frame WIDTHxHEIGHT in pixels")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.lower().split("x"))
    size = (width, height)
    cv2.setNumThreads(1)
    rng = random.Random(args.seed)
    times, dice = [], 0
    start = time.perf_counter()
    for _ in range(args.frames):
        spec = mixed_spec(rng, size)
        began = time.perf_counter()
        dice += len(render_scene(random.Random(rng.random()), spec).dice)
        times.append(time.perf_counter() - began)
    total = time.perf_counter() - start
    print(f"rendered {args.frames} frames of {size[0]}x{size[1]} ({dice} dice) in {total:.1f} s on one "
          f"thread: median {statistics.median(times) * 1000:.1f} ms per frame "
          f"(load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
