"""Benchmark of the readers on close-ups: photos of one to three dice taken close, each die a fifth
to half of the photo across, as someone trying ``dicetable vision read`` on a phone's photo takes them.

Usage: ``python bench/close_ups.py [--frames N] [--kinds KIND...]``.

Per kind (d6, d12, d8-tauren, letters) and photo size (640x640, 1600x1200, a phone's 4032x3024),
N frames (default 100) rendered with seeds no trainer uses, in the face bench's colours
(``bench/faces_reader.py``: :data:`BENCH_PALETTE`, away from every training colour) and light,
half in each die's own lettering, with the face bench's blur, noise, JPEG and glare. Printed as
the other benches print (``bench/dice_reader.py``: :func:`score`): dice found, read right, read
right and accepted, false dice per frame, and read wrong but accepted.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_reader import Tally, Truth, score  # noqa: E402  (the d6 bench's scoring)
from faces_reader import BENCH_PALETTE, _accepted_right, bench_light  # noqa: E402

from controller.games.errors import InvalidInput  # noqa: E402
from vision.faces import read_faces  # noqa: E402
from vision.read import read_dice  # noqa: E402
from vision.render import SceneSpec, render_scene  # noqa: E402

KINDS = ("d6", "d12", "d8-tauren", "letters")
"""Every kind the readers read."""

SIZES = ((640, 640), (1600, 1200), (4032, 3024))
"""The photos' sizes (width, height): a photo shrunk for sending, a camera's, a phone's."""

SEED_BASE = 9_000_000
"""First seed of the bench's frames (the trainers' frames come from one generator seeded 1)."""


def close_up(kind: str, size: tuple[int, int], n: int) -> tuple[np.ndarray, list[Truth]]:
    """Frame ``n`` of ``kind`` at ``size``: one to three dice, each a die's side of 12-30% of the
    photo's shorter side (a fifth to a half of it across, with the sides it shows), one die alone
    where more do not fit."""
    rng = random.Random(SEED_BASE + 1000 * n + sum(map(ord, kind)) + size[0])
    low = rng.uniform(0.12, 0.3) * min(size)
    spec = SceneSpec(size=size, n_dice=rng.choice((1, 1, 2, 3)), die_px=(low, low * 1.15), kind=kind,
                     palette=BENCH_PALETTE, lettering=n % 2 == 1, background="random",
                     glare=rng.choice([0, 0, 0.5]), blur=rng.choice([0, 0.6, 1.0]) * min(size) / 640,
                     noise=rng.choice([0, 3, 6]), jpeg_quality=rng.choice([None, 70, 90]))
    seed = rng.getrandbits(32)
    try:
        scene = render_scene(random.Random(seed), spec)
    except InvalidInput:  # the dice do not fit side by side
        scene = render_scene(random.Random(seed), replace(spec, n_dice=1))
    return bench_light(scene.image, rng), [Truth(d.value, d.box) for d in scene.dice]


def accuracy(kind: str, frames: int) -> None:
    """Print the figures of ``frames`` close-ups of ``kind`` at each size, then over all of them."""
    every, every_accepted = Tally(), 0
    for size in SIZES:
        total, accepted = Tally(), 0
        for n in range(frames):
            image, truths = close_up(kind, size, n)
            readings = (read_dice(image) if kind == "d6" else read_faces(image, kind)).dice
            total += score(readings, truths)
            accepted += _accepted_right(readings, truths)
        print(_line(f"{kind} {size[0]}x{size[1]}", total, accepted), flush=True)
        every, every_accepted = every + total, every_accepted + accepted
    print(_line(f"{kind} close-ups", every, every_accepted), flush=True)


def _line(name: str, total: Tally, accepted: int) -> str:
    return f"{total.line(name)}; read right and accepted {accepted}/{total.labelled} " \
           f"({100 * accepted / max(total.labelled, 1):.1f}%)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=100, help="frames per kind and photo size")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    args = parser.parse_args()
    if args.frames < 1:
        parser.error("--frames must be at least 1")
    for kind in args.kinds:
        accuracy(kind, args.frames)


if __name__ == "__main__":
    main()
