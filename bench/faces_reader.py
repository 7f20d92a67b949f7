"""Benchmark of the face reader (d12, d8-tauren, letters): accuracy on rendered frames it was not
tuned on, and the read time of a 1536x864 frame on one core.

Usage: ``python bench/faces_reader.py [--frames N] [--kinds KIND...] [--plain] [--speed-rounds R]
[--lean-frames N] [--tilted-frames N] [--tray-frames N] [--error-sheet PNG]``.

Per kind, N frames (default 1,000) rendered with seeds the trainer never uses (from
:data:`SEED_BASE`), die bodies and inks from :data:`BENCH_PALETTE` (none within
:data:`LEAST_COLOUR_DISTANCE` of a training colour), half of them in each die's own lettering,
turned any way, at 0.6-1.4x brightness with warm or cool light, and some blur, noise, JPEG,
glare and perspective (``--plain``: none of those five, and no cocked die). A reading matches a
die when its centre lies in the die's box (``bench/dice_reader.py``: :func:`score`); printed:
dice found, read right (flagged or not), read right and accepted (no flag: the table does not
ask the dealer), false dice per frame, and read wrong but accepted above
``vision.read.UNCERTAIN`` (goal: none; in brackets, how many of those are dice that show no
face, cocked or hidden, given a value). Then, per kind, the CPU time of
reading a 1536x864 frame with seven dice: median and slowest. With ``--lean-frames N``, first the
cocked network's calls on dice at their true centres (:func:`leans`); with ``--tilted-frames N``,
calibrated trays seen by a tilted camera (:func:`tilted`); with ``--tray-frames N``, per kind,
calibrated trays seen from straight above, the table's own path (:func:`trays`).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Sequence, TypedDict

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_reader import TILE, Tally, Truth, error_tiles, match, named_sheet, score, write_sheet  # noqa: E402  (the d6 bench's scoring)

from vision.calibrate import TrayLayout, calibrate  # noqa: E402
from vision.face_art import Lettering, draws_with  # noqa: E402
from vision.perturb import gain  # noqa: E402
from vision.read import DieReading  # noqa: E402
from vision.faces import read_faces  # noqa: E402
from vision.render import PALETTE, SceneSpec, render_scene  # noqa: E402

FACE_KINDS = ("d12", "d8-tauren", "letters")
"""The kinds this bench reads (the d6's is ``bench/dice_reader.py``)."""

SEED_BASE = 7_000_000
"""First seed of the bench's frames (the trainer's frames come from one generator seeded 1)."""

BENCH_PALETTE: tuple[tuple[tuple[int, int, int], tuple[tuple[int, int, int], ...]], ...] = (
    ((90, 200, 250), ((20, 20, 20),)),          # pale orange-yellow, black
    ((220, 180, 60), ((250, 250, 250), (10, 10, 60))),  # light blue
    ((200, 90, 200), ((250, 250, 250), (20, 20, 20))),  # magenta
    ((80, 80, 30), ((240, 240, 240), (60, 220, 250))),  # dark teal
    ((150, 230, 180), ((40, 40, 40), (120, 20, 20))),   # mint
    ((30, 70, 120), ((235, 235, 235), (60, 230, 250))),  # brown
    ((20, 20, 90), ((240, 240, 240),)),         # dark red
    ((200, 200, 160), ((30, 30, 30), (160, 30, 30))),   # pale blue-grey
    ((100, 30, 160), ((245, 245, 245),)),       # purple-red
    ((40, 160, 230), ((20, 20, 20), (250, 250, 250))),  # amber
)
"""Die bodies (BGR) and their inks for the bench, away from every training colour."""

LEAST_COLOUR_DISTANCE = 40
"""Least distance (BGR, Euclidean) of a bench body from every training body (:data:`PALETTE`, before
the renderer's +-18 spread: so at least 40 - 31 = 9 apart after it)."""


def colour_distance() -> float:
    """The least distance between a bench body and a training body."""
    return min(float(np.linalg.norm(np.subtract(b, t))) for b, _ in BENCH_PALETTE for t, _ in PALETTE)


def bench_frame(kind: str, n: int, size: tuple[int, int] = (960, 540),
                plain: bool = False, fonts: Sequence[str] = ()) -> tuple[np.ndarray, list[Truth]]:
    """Frame ``n`` of the bench for ``kind``: rendered, then lit brighter or darker, warmer or cooler.
    ``plain``: the same dice, turns, sizes, colours, felts and light, with only the changes issue
    18's first line names (rotations, lighting, die colours): the camera straight above, no blur,
    noise, JPEG, glare, clutter or cocked die (:data:`PLAIN`). Odd frames are printed in each
    die's own lettering, or, with ``fonts`` (font files), in one of those (:func:`unseen_lettering`)."""
    rng = random.Random(SEED_BASE + 1000 * n + sum(map(ord, kind)))
    low = rng.uniform(34, 70)
    lettering: bool | Lettering = n % 2 == 1 and (unseen_lettering(fonts, n) if fonts else True)
    spec = SceneSpec(size=size, n_dice=rng.randint(3, 8), die_px=(low, low * 1.3), kind=kind,
                     palette=BENCH_PALETTE, lettering=lettering, touching=rng.random() < 0.3,
                     glare=rng.choice([0, 0, 0.5]), blur=rng.choice([0, 0, 0.6, 1.0]), noise=rng.choice([0, 3, 6]),
                     perspective=rng.choice([0, 0, 0.3]), cocked=int(rng.random() < 0.1), background="random",
                     clutter=rng.choice([0, 2]), tint=rng.choice([0.0, 1.0]), jpeg_quality=rng.choice([None, 60, 85]))
    scene = render_scene(random.Random(rng.getrandbits(32)), replace(spec, **PLAIN) if plain else spec)
    return bench_light(scene.image, rng), [Truth(d.value, d.box) for d in scene.dice]


def unseen_lettering(fonts: Sequence[str], n: int) -> Lettering:
    """Frame ``n``'s lettering in one of ``fonts`` (font files the reader was not trained on: its
    numerals and letters come from OpenCV's own faces), at a weight, slant and width drawn as the
    renderer draws a die's own, from a generator of its own (the frame's dice stay the same)."""
    rng = random.Random(n)
    slant = rng.uniform(-0.12, 0.25) if rng.random() < 0.25 else 0.0
    return Lettering(fonts[n // 2 % len(fonts)], rng.choice((400, 500, 600, 700, 800)), slant, rng.uniform(0.85, 1.15),
                     rng.choice(("underline", "dot")))


class Plain(TypedDict):
    """The :class:`SceneSpec` fields :data:`PLAIN` sets, typed as the spec types them, so that
    ``replace(spec, **PLAIN)`` is checked field by field."""

    glare: float
    blur: float
    noise: float
    perspective: float
    cocked: int
    clutter: int
    jpeg_quality: int | None


PLAIN: Plain = {"glare": 0, "blur": 0, "noise": 0, "perspective": 0, "cocked": 0, "clutter": 0, "jpeg_quality": None}
"""What ``--plain`` frames leave out of the bench's (:func:`bench_frame`)."""


def bench_light(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """``image`` lit x0.6 to x1.4, warmer or cooler, as ``rng`` draws it."""
    light = rng.uniform(0.6, 1.4)
    warm = rng.uniform(-0.12, 0.12)
    return gain(image, (light * (1 - warm), light, light * (1 + warm)))


def accuracy(kind: str, frames: int, sheet: Path | None = None, plain: bool = False,
             fonts: Sequence[str] = ()) -> None:
    """Print the figures of ``frames`` bench frames of ``kind`` (``plain``: :func:`bench_frame`'s);
    with ``sheet``, write a picture of every die not read right and accepted there, with the kind's
    name added (``dice_reader.named_sheet``)."""
    total, accepted = Tally(), 0
    tiles: list[np.ndarray] = []
    for n in range(frames):
        image, truths = bench_frame(kind, n, plain=plain, fonts=fonts)
        readings = read_faces(image, kind).dice
        total += score(readings, truths)
        accepted += _accepted_right(readings, truths)
        if sheet is not None:
            tiles += error_tiles(image, truths, match(readings, truths)[0], f"frame {n}", accepted=True)
        if (n + 1) % 100 == 0 and n + 1 < frames:
            print(f"  {kind} so far: {total.line(f'{n + 1} frames')}; accepted right {accepted}", flush=True)
    n_dice = max(total.labelled, 1)
    name = f"{kind} (plain)" if plain else kind
    print(f"{name}: {total.line(f'{frames} frames')}; read right and accepted {accepted}/{total.labelled} "
          f"({100 * accepted / n_dice:.1f}%)", flush=True)
    if sheet is not None:
        write_sheet(named_sheet(sheet, kind), tiles, what="dice not read right and accepted")


def _accepted_right(readings: Sequence[DieReading], truths: list[Truth]) -> int:
    taken, _ = match(readings, truths)
    return sum(r.sure and r.value == truths[i].value for i, r in taken.items())


MIXED_KINDS = ("d12", "letters", "d8-tauren")
"""The kinds taken in turn, frame by frame, by :func:`leans` and :func:`tilted`."""


def leans(frames: int) -> None:
    """How the cocked network (``vision.faces.COCKED_PATH``) tells leaning dice from flat ones at
    their true centres and sizes, on ``frames`` frames of 960x540 with two cocked dice each (the
    kinds in turn, 50-65 px): how many of each it puts above ``vision.faces.LEANS``; then, the
    same frames read by the face reader (where its hits put the dice), how many cocked dice it
    gives a value (flagged or not) and how many flat dice it flags cocked."""
    from dice_reader import match
    from vision.faces import LEANS, Hit, cocked_shares
    from vision.train_faces import COCKED_VISIBLE

    counts = {True: [0, 0], False: [0, 0]}  # cocked?: [above LEANS, dice]
    given, flagged, cocked, flat = 0, 0, 0, 0
    for n in range(frames):
        spec = SceneSpec(size=(960, 540), n_dice=6, die_px=(50, 65), kind=MIXED_KINDS[n % 3], cocked=2,
                         background="random")
        scene = render_scene(random.Random(SEED_BASE + 500_000 + n), spec)
        dice = [d for d in scene.dice if not d.cut_off and not d.moving and d.visible >= COCKED_VISIBLE]
        hits = [Hit((float(d.center[0]), float(d.center[1])), d.side, np.zeros(1)) for d in dice]
        for die, share in zip(dice, cocked_shares(scene.image, 1.0, hits) if hits else []):
            counts[die.cocked][0] += int(share > LEANS)
            counts[die.cocked][1] += 1
        truths = [Truth(d.value, d.box) for d in scene.dice]
        taken, _ = match(read_faces(scene.image, MIXED_KINDS[n % 3]).dice, truths)
        cocked += sum(t.value is None for t in truths)
        flat += sum(t.value is not None for t in truths)
        for i, reading in taken.items():
            given += truths[i].value is None and reading.value is not None
            flagged += truths[i].value is not None and reading.flag == "cocked"
    print(f"cocked network ({frames} frames, dice at their true centres): cocked dice above {LEANS} "
          f"{counts[True][0]}/{counts[True][1]}, flat dice above it {counts[False][0]}/{counts[False][1]}", flush=True)
    print(f"the same frames read: cocked dice given a value {given}/{cocked}, flat dice flagged cocked {flagged}/{flat}",
          flush=True)


def tilted(frames: int) -> None:
    """The face kinds in turn on ``frames`` calibrated trays seen by a camera tilted 18-30 degrees
    (one cocked die each), read with the tray's calibration: the figures of :func:`accuracy`, and
    how many flat dice were flagged cocked."""
    total, accepted, flagged = Tally(), 0, 0
    for n in range(frames):
        spec = SceneSpec(size=(1280, 720), markers=True, perspective=1.0, kind=MIXED_KINDS[n % 3], n_dice=6, cocked=1,
                         die_px=(50, 70), palette=BENCH_PALETTE, background="random")
        scene = render_scene(random.Random(SEED_BASE + 600_000 + n), spec)
        assert scene.tray is not None  # drawn with markers
        truths = [Truth(d.value, d.box) for d in scene.dice]
        readings = read_faces(scene.image, MIXED_KINDS[n % 3], tray=calibrate(scene.image, scene.tray)).dice
        total += score(readings, truths)
        accepted += _accepted_right(readings, truths)
        taken, _ = match(readings, truths)
        flagged += sum(truths[i].value is not None and r.flag == "cocked" for i, r in taken.items())
    print(f"tilted trays: {total.line(f'{frames} frames')}; read right and accepted {accepted}/{total.labelled}; "
          f"flat dice flagged cocked {flagged}", flush=True)


def tray_frame(kind: str, n: int) -> tuple[np.ndarray, TrayLayout, list[Truth]]:
    """Tray ``n`` of :func:`trays` for ``kind``: the frame, the tray's layout and the dice's truth."""
    rng = random.Random(SEED_BASE + 700_000 + 1000 * n + sum(map(ord, kind)))
    spec = SceneSpec(size=(1536, 864), markers=True, kind=kind, n_dice=rng.randint(3, 8),
                     cocked=int(rng.random() < 0.25), die_px=(38, 46), palette=BENCH_PALETTE,
                     lettering=n % 2 == 1, background="random", noise=rng.choice([0, 3, 6]))
    scene = render_scene(random.Random(rng.getrandbits(32)), spec)
    assert scene.tray is not None  # drawn with markers
    return bench_light(scene.image, rng), scene.tray, [Truth(d.value, d.box) for d in scene.dice]


def trays(kind: str, frames: int, sheet: Path | None = None) -> None:
    """The table's own path: ``frames`` calibrated trays of ``kind`` dice seen from straight above at
    the Pi camera's 1536x864, the dice 15-17 mm as on the demo's tray (38-46 px), in the bench's
    colours and light (:func:`bench_light`), one tray in four with a cocked die, read with the
    tray's calibration: the figures of :func:`accuracy` (``sheet`` as there, named ``-trays``), and the read
    time of a tray on one core (CPU: median, slowest)."""
    total, accepted = Tally(), 0
    tiles: list[np.ndarray] = []
    times: list[float] = []
    for n in range(frames):
        image, layout, truths = tray_frame(kind, n)
        tray = calibrate(image, layout)
        start = time.process_time()
        readings = read_faces(image, kind, tray=tray).dice
        times.append((time.process_time() - start) * 1000)
        total += score(readings, truths)
        accepted += _accepted_right(readings, truths)
        if sheet is not None:
            tiles += error_tiles(image, truths, match(readings, truths)[0], f"tray {n}", accepted=True)
    if sheet is not None:
        write_sheet(named_sheet(sheet.with_name(sheet.stem + "-trays" + sheet.suffix), kind), tiles,
                    what="dice not read right and accepted")
    print(f"{kind} on calibrated trays: {total.line(f'{frames} trays')}; read right and accepted "
          f"{accepted}/{total.labelled} ({100 * accepted / max(total.labelled, 1):.1f}%); read time (CPU) median "
          f"{statistics.median(times) if times else 0:.0f} ms, slowest {max(times, default=0):.0f} ms", flush=True)


def speed(kind: str, rounds: int) -> None:
    """Median and slowest CPU time of reading 1536x864 frames of seven ``kind`` dice on one core."""
    cv2.setNumThreads(1)
    times = []
    for n in range(rounds):
        scene = render_scene(random.Random(SEED_BASE - n), SceneSpec(size=(1536, 864), n_dice=7, kind=kind,
                                                                     palette=BENCH_PALETTE))
        start = time.process_time()
        read_faces(scene.image, kind)
        times.append((time.process_time() - start) * 1000)
    print(f"{kind}: read time of a 1536x864 frame with 7 dice (1 core, CPU): median {statistics.median(times):.0f} ms, "
          f"slowest {max(times):.0f} ms ({rounds} frames)", flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--frames", type=int, default=1000)
    parser.add_argument("--kinds", nargs="+", default=list(FACE_KINDS), choices=FACE_KINDS)
    parser.add_argument("--error-sheet", type=Path, metavar="PNG",
                        help="write a picture of every die not read right and accepted (missed, read wrong, or "
                             "flagged: the dealer's questions), captioned, one per kind: PNG's name + the kind's")
    parser.add_argument("--plain", action="store_true",
                        help="the frames with only the changes issue 18 names (rotations, lighting, die colours): "
                             "camera straight above, no blur, noise, JPEG, glare, clutter or cocked die")
    parser.add_argument("--speed-rounds", type=int, default=20, help="frames timed per kind (0: none)")
    parser.add_argument("--lean-frames", type=int, default=0,
                        help="also count the cocked network's calls on this many frames with cocked dice (0: none)")
    parser.add_argument("--tilted-frames", type=int, default=0,
                        help="also read this many calibrated trays seen by a camera tilted 18-30 degrees (0: none)")
    parser.add_argument("--tray-frames", type=int, default=0,
                        help="also read this many calibrated trays per kind seen from straight above, as the "
                             "table reads them (0: none)")
    parser.add_argument("--fonts", nargs="+", default=[], metavar="FONT",
                        help="print the lettered half of the frames in these font files (TrueType or OpenType: "
                             "numerals and letters the reader was never trained on; needs OpenCV 5)")
    args = parser.parse_args(argv)
    for font in args.fonts:
        if not draws_with(font):
            parser.error(f"--fonts: {font} is not a font file OpenCV can draw with")
    cv2.setNumThreads(1)
    print(f"bench colours: least distance to a training colour {colour_distance():.0f}", flush=True)
    if args.lean_frames:
        leans(args.lean_frames)
    if args.tilted_frames:
        tilted(args.tilted_frames)
    for kind in args.kinds if args.tray_frames > 0 else ():
        trays(kind, args.tray_frames, args.error_sheet)
    for kind in args.kinds if args.frames > 0 else ():  # 0: the other figures only
        accuracy(kind, args.frames, args.error_sheet, args.plain, args.fonts)
    for kind in args.kinds if args.speed_rounds > 0 else ():  # 0: accuracy only
        speed(kind, args.speed_rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
