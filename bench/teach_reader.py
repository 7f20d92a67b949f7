"""Benchmark of teach mode: a set of a new look taught from a few pictures per face, then read.

Usage: ``python bench/teach_reader.py [--frames N] [--per-face K] [--first SEED] [--lean-frames N]``.

The set is the one of ``tests/vision/test_teach.py``: letter dice in thin, slanted, narrow letters
on an olive body, a look no shipped network was trained on. It is taught from K pictures of each
face (one die each, 240x180; default 5, the issue's bound), then N new frames (default 200,
360x240, one to three dice each, seeds the teaching never used) are read with it. A reading
matches a die when its centre lies in the die's box (``bench/dice_reader.py``: :func:`score`);
printed as the d6 bench prints a frame set: dice found, read right (flagged or not), false dice,
read wrong but accepted (no flag); then read right and accepted. Issue 18's goal: 99% read right.
With ``--lean-frames N``, also N frames (360x240, seeds from :data:`FIRST_LEANING`) each of one die of
the set alone, leaning: how many of them were given a value without a flag (the cocked network
never saw the set's look).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the test's set lives with the tests
from dice_reader import Tally, Truth, match, score  # noqa: E402  (the d6 bench's scoring: one definition)
from tests.vision.test_teach import new_look  # noqa: E402  (the test's set: one definition)

from controller.games.dice import DieKind  # noqa: E402
from vision.faces import read_faces  # noqa: E402
from vision.render import Scene  # noqa: E402
from vision.teach import set_path, teach  # noqa: E402

FIRST_FRAME = 5000
"""Seed of the first frame read (the teaching pictures use seeds 100-159)."""

FIRST_LEANING = 7000
"""Seed of the first frame of a leaning die (``--lean-frames``)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200, help="new frames read with the taught set")
    parser.add_argument("--per-face", type=int, default=5, help="teaching pictures of each face")
    parser.add_argument("--first", type=int, default=FIRST_FRAME,
                        help=f"seed of the first frame read (default {FIRST_FRAME}; 20000: a second set of frames)")
    parser.add_argument("--lean-frames", type=int, default=0,
                        help="also read this many frames of one leaning die each (0: none)")
    args = parser.parse_args(argv)
    faces = DieKind.LETTERS.faces
    pictures = {face: [new_look(100 + 10 * k + n, [k + 1]).image for n in range(args.per_face)]
                for k, face in enumerate(faces)}
    folder = Path(tempfile.mkdtemp(prefix="teach-bench-"))
    teach(DieKind.LETTERS, pictures).save(set_path(DieKind.LETTERS, folder))
    if args.lean_frames:
        leaning(folder, args.lean_frames)
    tally, accepted, began = Tally(), 0, time.process_time()
    for n in range(args.frames):
        rng = random.Random(args.first + n)
        scene = new_look(args.first + n, [rng.randint(1, 6) for _ in range(rng.randint(1, 3))], (360, 240))
        readings = read_faces(scene.image, "letters", data=folder).dice
        truths = [Truth(d.value, d.box) for d in scene.dice]
        tally += score(readings, truths)
        accepted += sum(r.flag is None and r.value == truths[i].value for i, r in match(readings, truths)[0].items())
        if (n + 1) % 50 == 0:
            print(f"  {n + 1} frames: {tally.line('so far')}", flush=True)
    print(tally.line(f"taught from {args.per_face} per face, {args.frames} frames"))
    print(f"read right and accepted {accepted}/{tally.labelled} ({100 * accepted / max(tally.labelled, 1):.1f}%); "
          f"CPU {time.process_time() - began:.0f} s", flush=True)
    return 0


def leaning_frame(seed: int) -> Scene:
    """A frame (360x240) of one die of the set alone, leaning."""
    scene: Scene = new_look(seed, [random.Random(seed).randint(1, 6)], (360, 240), cocked=1)
    return scene


def leaning(folder: Path, frames: int) -> None:
    """Read ``frames`` frames of one leaning die of the set taught in ``folder``: how many were given
    a value without a flag, given one with a flag, given none (flagged), or not found."""
    given, doubted, none, lost = 0, 0, 0, 0
    for n in range(frames):
        scene = leaning_frame(FIRST_LEANING + n)
        readings = read_faces(scene.image, "letters", data=folder).dice
        reading = match(readings, [Truth(d.value, d.box) for d in scene.dice])[0].get(0)
        lost += reading is None
        none += reading is not None and reading.value is None
        doubted += reading is not None and reading.value is not None and reading.flag is not None
        given += reading is not None and reading.sure
    print(f"leaning dice ({frames} frames, one each): given a value without a flag {given}, with a flag "
          f"{doubted}, flagged with no value {none}, not found {lost}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
