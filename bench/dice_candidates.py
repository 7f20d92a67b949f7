"""Benchmark of the dice detector's proposal step (:func:`vision.detect.propose`): speed and what it finds.

Usage: ``python bench/dice_candidates.py [PHOTO_SET] [--rounds R] [--seed S] [--module FILE] [--compare FILE]``

Speed (one core): median ``propose`` time over R rounds on the working image of a 1536x864
rendered frame with 7 dice. Real photos (each shrunk to working size as the reader does):
candidates per photo (mean), labelled dice with a candidate within 0.3 of their box side from
their centre (%), typical side (mean) and mean ``propose`` time. ``--module`` benches another
version of ``vision/detect.py`` (e.g. ``git show HEAD~3:vision/detect.py > /tmp/old.py``);
``--compare`` also runs that version and prints how far the two differ, photo by photo.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable

import cv2
import numpy as np

from vision.photos import DEFAULT_SET, LabelledPhoto, load_set

NEAR = 0.3
"""A candidate is near a labelled die within this share of the die's box side from its centre."""


@dataclass(frozen=True)
class PhotoResult:
    """What one detector version found on one photo (working-image pixels and milliseconds)."""

    candidates: int
    near: int
    labelled: int
    side: float
    ms: float
    points: np.ndarray
    mask: np.ndarray


def load_detect(path: Path | None) -> ModuleType:
    """The detector module: the repository's, or the one in the file ``path``."""
    if path is None:
        import vision.detect

        return vision.detect
    spec = importlib.util.spec_from_file_location(f"detect_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def median_ms(fn: Callable[[], object], rounds: int) -> float:
    """Median wall time of ``fn`` over ``rounds`` calls, in milliseconds (one warm-up call first)."""
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def speed_frame(seed: int) -> np.ndarray:
    """The working image of the reader's speed frame: 1536x864, 7 dice, shrunk to working size."""
    from vision import detect
    from vision.render import SceneSpec, render_scene

    frame = render_scene(random.Random(seed), SceneSpec(size=(1536, 864), n_dice=7)).image
    return detect.shrink(frame, detect.working_scale(frame.shape))


def on_photo(detect: ModuleType, photo: LabelledPhoto) -> PhotoResult:
    """Run ``detect.propose`` on one photo at working size and score its candidates against the labels."""
    image = photo.load()
    scale = detect.working_scale(image.shape)
    work = detect.shrink(image, scale)
    start = time.perf_counter()
    proposals = detect.propose(work)
    ms = (time.perf_counter() - start) * 1000
    points = np.array([c.center for c in proposals.candidates], np.float64).reshape(-1, 2)
    near = 0
    for die in photo.dice:
        if len(points):
            distance = np.linalg.norm(points - np.array(die.center) * scale, axis=1).min()
            near += int(distance < NEAR * die.side * scale)
    return PhotoResult(len(points), near, len(photo.dice), float(proposals.side), ms, points, proposals.mask)


def photos_line(results: list[PhotoResult]) -> str:
    """The photo figures, readable."""
    labelled = sum(r.labelled for r in results)
    near = sum(r.near for r in results)
    return (f"real photos: {len(results)} images, candidates per photo {np.mean([r.candidates for r in results]):.2f}, "
            f"labelled dice with a candidate near the centre {near}/{labelled} ({100 * near / max(labelled, 1):.1f}%), "
            f"typical side {np.mean([r.side for r in results]):.2f} px, "
            f"propose {np.mean([r.ms for r in results]):.2f} ms mean")


def compare_line(ours: list[PhotoResult], theirs: list[PhotoResult]) -> str:
    """How far two versions differ: candidate counts, typical sides, and candidates without a twin."""
    count_diff = [abs(a.candidates - b.candidates) / max(b.candidates, 1) for a, b in zip(ours, theirs)]
    side_diff = [abs(a.side - b.side) / max(b.side, 1e-9) for a, b in zip(ours, theirs)]
    lone = total = 0
    for a, b in zip(ours, theirs):
        total += len(b.points)
        if len(b.points) and len(a.points):
            gaps = np.linalg.norm(b.points[:, None, :] - a.points[None, :, :], axis=2).min(axis=1)
            lone += int((gaps > 0.15 * b.side).sum())
        else:
            lone += len(b.points)
    masks = sum(int(np.count_nonzero(a.mask != b.mask)) for a, b in zip(ours, theirs))
    pixels = sum(b.mask.size for b in theirs)
    return (f"versus the other version: mask pixels differ {masks}/{pixels} ({100 * masks / max(pixels, 1):.3f}%); "
            f"candidates {sum(a.candidates for a in ours)} vs "
            f"{sum(b.candidates for b in theirs)} (per photo differ by {100 * np.mean(count_diff):.1f}% mean, "
            f"{100 * max(count_diff):.1f}% max); typical side differs by {100 * np.mean(side_diff):.2f}% mean, "
            f"{100 * max(side_diff):.2f}% max; its candidates with none of ours within 0.15 side: {lone}/{total}")


def run(detect: ModuleType, name: str, args: argparse.Namespace, photos: list[LabelledPhoto]) -> list[PhotoResult]:
    """Print the speed and photo figures of one detector version; return its per-photo results."""
    work = speed_frame(args.seed)
    proposals = detect.propose(work)
    ms = median_ms(lambda: detect.propose(work), args.rounds)
    print(f"{name}: speed frame (1 core, {work.shape[1]}x{work.shape[0]} working image, 7 dice): "
          f"propose {ms:.2f} ms median of {args.rounds}, {len(proposals.candidates)} candidates, "
          f"typical side {proposals.side:.2f} px", flush=True)
    results = [on_photo(detect, photo) for photo in photos]
    print(f"{name}: {photos_line(results)}", flush=True)
    return results


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="?", type=Path, default=DEFAULT_SET, help="labelled photo set folder")
    parser.add_argument("--rounds", type=int, default=30, help="timed propose calls on the speed frame")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the rendered speed frame")
    parser.add_argument("--module", type=Path, help="bench this detect.py instead of the repository's")
    parser.add_argument("--compare", type=Path, help="also bench this detect.py and print the differences")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    photos = load_set(args.photos)
    ours = run(load_detect(args.module), str(args.module or "vision/detect.py"), args, photos)
    if args.compare:
        theirs = run(load_detect(args.compare), str(args.compare), args, photos)
        print(compare_line(ours, theirs), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
