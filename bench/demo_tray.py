"""Figures of the dice readers on the demo's own tray (not a test): die by die, every kind.

Each tray is drawn as the demo's simulated camera draws it: the default 400x250 mm tray fitted to
1536x864, the demo's zones for ``--players`` seats (``controller.table.build.seat_zones``; the
seat strips run along the tray's long edges), dice of 15-17 mm in the renderer's own colours on
felt, 2 to 7 dice in zones drawn at random, one tray in ten with a die lying cocked. Each is read
through its calibration with the lens's focal length, as the demo's tray configuration gives it
(``vision.read.read_dice``, the table's path), and every die is scored:

- read right and accepted: the camera takes it;
- read right but withheld (under the threshold, or flagged): the table asks (the players, for a die
  flagged cocked; else the dealer);
- read wrong and accepted: a misread the table would take (goal: none);
- read wrong, flagged: a question;
- not found: the table sees fewer dice than thrown, a question;
- false dice accepted: a reading where no die lies (goal: none);
- cocked dice taken with a value (goal: none): a sure reading of the cocked die (each reading
  belongs to the nearest die within reach, :func:`_near`; before 2026-12-08 to every such die, and
  a flat die's reading beside a cocked die leaning on it counted as the cocked die taken).

The figures are per die, not per roll: a roll of four dice is taken whole only when all four are.
``bench/table.py --camera-games`` counts whole demo games' rolls. With ``--error-sheet PNG``, every
die not read right and accepted (and every cocked die taken) is drawn with its surroundings, its
label and its reading, one sheet per kind (``PNG``'s name with the kind's).

Run: ``.venv/bin/python bench/demo_tray.py [--kinds d6 d12 d8-tauren letters] [--trays 200] [--seed 1]
[--players 4] [--error-sheet out/demo-tray.png]``
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from controller.games.dice import DieKind
from controller.table.build import seat_zones
from hardware.camera_sim import TRAY_DIE_MM, TRAY_FILL
from vision.calibrate import TrayLayout, calibrate
from vision.read import DieReading, read_dice
from vision.render import Scene, SceneSpec, render_scene

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dice_reader import Truth, error_tiles, named_sheet, write_sheet  # noqa: E402  (the d6 bench's error pictures)

SIZE = (1536, 864)
"""The simulated camera's frame (the Pi camera's working size)."""

NEAR = 0.6
"""A reading belongs to a die when its centre lies within this share of the die's size of the die's."""


def tray_scene(kind: str, players: int, seed: int, index: int) -> Scene:
    """Tray ``index`` of ``seed``: drawn as the demo draws a throw (see the module's text)."""
    layout = TrayLayout()
    zones = seat_zones(players, layout.width_mm, layout.height_mm)
    px_per_mm = TRAY_FILL * min(SIZE[0] / layout.width_mm, SIZE[1] / layout.height_mm)
    rng = random.Random(seed * 100_000 + index)
    count = rng.randint(2, 7)
    areas = tuple(tuple((x, y) for x, y in zones[rng.choice(sorted(zones))]) for _ in range(count))
    spec = SceneSpec(size=SIZE, tray=layout, markers=True, px_per_mm=px_per_mm, kind=kind,
                     die_px=(TRAY_DIE_MM[0] * px_per_mm, TRAY_DIE_MM[1] * px_per_mm), n_dice=count,
                     areas_mm=areas, cocked=int(rng.random() < 0.1))
    return render_scene(random.Random(rng.getrandbits(32)), spec)


def _near(scene: Scene, dice: tuple[DieReading, ...]) -> list[list[DieReading]]:
    """For each die of ``scene``, the readings of ``dice`` that belong to it, nearest first: within
    :data:`NEAR` of its size from its centre, and of those dice the nearest (a die leaning on
    another: the flat one's reading is not the cocked one's, seed 1's tray 149)."""
    centres = np.array([truth.center for truth in scene.dice], float).reshape(-1, 2)
    sizes = [(truth.box[2] + truth.box[3]) / 2 for truth in scene.dice]
    out: list[list[tuple[float, DieReading]]] = [[] for _ in scene.dice]
    for reading in dice:
        distances = np.hypot(*(np.array(reading.center) - centres).T)
        within = [i for i, distance in enumerate(distances) if distance < NEAR * sizes[i]]
        if within:
            nearest = min(within, key=lambda i: distances[i])
            out[nearest].append((float(distances[nearest]), reading))
    return [[reading for _, reading in sorted(near, key=lambda pair: pair[0])] for near in out]


def score_tray(scene: Scene, dice: tuple[DieReading, ...]) -> Counter[str]:
    """Each die of ``scene`` scored against the readings ``dice`` (the module's list)."""
    tally: Counter[str] = Counter()
    belong = _near(scene, dice)
    for reading in dice:
        alone = not any(reading in near for near in belong)
        tally["false dice accepted"] += alone and reading.sure
    for truth, near in zip(scene.dice, belong):
        taken = [r for r in near if r.sure]
        if truth.value is None:
            tally["cocked"] += 1
            tally["cocked dice taken with a value"] += bool(taken)
            continue
        tally["dice"] += 1
        if not near:
            tally["not found"] += 1
            continue
        reading = near[0]
        right, accepted = reading.value == truth.value, reading.flag is None
        tally[{(True, True): "read right and accepted", (True, False): "read right but withheld",
               (False, True): "read wrong and accepted", (False, False): "read wrong, flagged"}[right, accepted]] += 1
    return tally


ORDER = ("read right and accepted", "read right but withheld", "read wrong and accepted", "read wrong, flagged",
         "not found", "false dice accepted")


def error_pictures(scene: Scene, dice: tuple[DieReading, ...], name: str) -> list[np.ndarray]:
    """A picture of each die of ``scene`` not read right and accepted, and of each cocked die
    given a value (``dice_reader.error_tiles``, the readings matched as :func:`score_tray` matches them)."""
    truths = [Truth(d.value, d.box) for d in scene.dice]
    found = {i: next((r for r in near if r.sure), near[0]) if truths[i].value is None else near[0]
             for i, near in enumerate(_near(scene, dice)) if near}  # a cocked die: the reading that took it
    return error_tiles(scene.image, truths, found, name, accepted=True)


def bench(kind: str, trays: int, seed: int, players: int, sheet: Path | None = None) -> None:
    """Read ``trays`` trays of ``kind`` and print the kind's figures (progress every 100 trays);
    with ``sheet``, draw the dice it got wrong there (:func:`error_pictures`, named for the kind)."""
    total: Counter[str] = Counter()
    times: list[float] = []
    tiles: list[np.ndarray] = []
    for index in range(trays):
        scene = tray_scene(kind, players, seed, index)
        assert scene.tray is not None and scene.camera is not None  # the demo's: a tray, seen by a camera
        tray = calibrate(scene.image, scene.tray, scene.camera.focal_px)  # the demo's lens, as the demo knows it
        start = time.process_time()
        dice = read_dice(scene.image, kind, tray=tray).dice
        times.append((time.process_time() - start) * 1000)
        total += score_tray(scene, dice)
        if sheet is not None:
            tiles += error_pictures(scene, dice, f"tray {index}")
        if (index + 1) % 100 == 0 and index + 1 < trays:
            print(f"  {kind}: {index + 1} of {trays} trays read", flush=True)
    figures = ", ".join(f"{what} {total[what]}" for what in ORDER)
    print(f"{kind}: {trays} trays, {total['dice']} flat dice: {figures}; cocked dice {total['cocked']}, taken with "
          f"a value {total['cocked dice taken with a value']}; read time (CPU) median {statistics.median(times):.0f} ms, "
          f"slowest {max(times):.0f} ms", flush=True)
    if sheet is not None:
        write_sheet(named_sheet(sheet, kind), tiles, what="dice not read right and accepted, and cocked dice taken")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def _check_sheet(parser: argparse.ArgumentParser, sheet: Path) -> None:
    """Refuse, before any tray is read, an error sheet that could not be written: a name that is not
    UTF-8 or not a picture's (.png, .jpg), or a folder that cannot be made or written to."""
    try:
        str(sheet).encode()
    except UnicodeEncodeError:
        parser.error(f"--error-sheet {os.fsencode(sheet)!r}: the path is not UTF-8")
    if sheet.suffix.lower() not in (".png", ".jpg", ".jpeg"):
        parser.error(f"--error-sheet {sheet}: give a .png (or .jpg) file")
    try:
        sheet.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        parser.error(f"--error-sheet {sheet}: cannot make its folder ({err.strerror})")
    if not os.access(sheet.parent, os.W_OK):
        parser.error(f"--error-sheet {sheet}: its folder {sheet.parent} is not writable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", nargs="+", default=[k.value for k in DieKind], choices=[k.value for k in DieKind],
                        help="the kinds to read (default: every kind)")
    parser.add_argument("--trays", type=_positive, default=200, help="trays per kind (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="which trays (default 1)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9), metavar="2-8",
                        help="seats whose zones the tray has (default 4, as dicetable demo)")
    parser.add_argument("--error-sheet", type=Path, metavar="PNG",
                        help="draw every die not read right and accepted, one sheet per kind (PNG's name with the kind's)")
    args = parser.parse_args()
    if args.error_sheet is not None:
        _check_sheet(parser, args.error_sheet)
    for kind in args.kinds:
        bench(kind, args.trays, args.seed, args.players, args.error_sheet)


if __name__ == "__main__":
    main()
