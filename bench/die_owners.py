"""Benchmark of die ownership by colour (``vision.colour``): whose d12 is whose on rendered trays.

Each frame is a calibrated tray (markers, 1536x864, the simulated table's scale) with one d12 per
seat in the seat's colour, plus one die of a colour no seat has (it must come out as nobody's),
under random light: colour cast (``tint``), glare, exposure-like shading, sensor noise, blur,
JPEG, a tilted camera, any background. The dice are located by the renderer's truth (finding
them is the reader's job): this measures the colour step alone. Printed: owners read right,
read wrong (a die given to the wrong seat), seat dice called nobody's, strangers given to a
seat; the colour error against the registered colour (median, 99th percentile, largest); with
and without the tray's white reference; and the time per die.

Run: ``.venv/bin/python bench/die_owners.py [--frames 300] [--seed 1]``
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from controller.games.errors import InvalidInput
from hardware.camera_sim import render_painted
from vision import render
from vision.calibrate import CalibrationError, calibrate
from vision.colour import (MATCH_DE, NO_REFERENCE, TELLABLE_COLOURS, body_colour, check_colours, difference,
                           lab_of_hex, owner, parse_hex, tray_light)

SEATS = TELLABLE_COLOURS[:6]
"""Six seat colours (the demo's): red, blue, yellow, green, purple, orange."""

STRANGERS = TELLABLE_COLOURS[6:]
"""Dice of colours no seat has: teal, pink, white, black."""

CONDITIONS = (("white reference", True, 1.0), ("no reference", False, 1.0), ("white ref., loose box", True, 1.3))
"""Name, whether the tray's white reference is used, and the die box's size against the die's
(the reader draws boxes 1.3 times the die's side)."""


def scene(seed: int) -> render.Scene:
    """A tray with the six seats' d12s and one stranger, under random light."""
    rng = random.Random(seed)
    spec = render.SceneSpec(kind="d12", n_dice=len(SEATS) + 1, markers=True, px_per_mm=3.1,
                            die_px=(15 * 3.1, 17 * 3.1), background="random", tint=1.0,
                            glare=rng.uniform(0, 0.8), noise=rng.uniform(0, 6), blur=rng.uniform(0, 1.2),
                            perspective=rng.uniform(0, 0.4), shadow=rng.uniform(0.2, 0.6),
                            jpeg_quality=rng.choice([None, 40, 60, 85]))
    bodies = [parse_hex(c) for c in (*SEATS, rng.choice(STRANGERS))]
    values = [rng.randint(1, 12) for _ in bodies]
    painted: render.Scene = render_painted(render, rng, spec, values, bodies)[0]  # typed Any in hardware/
    return painted


def main() -> None:
    """Render the frames, read every die's owner with and without the white reference, print."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frames", type=int, default=300, help="rendered frames (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="first frame's seed (default 1)")
    args = parser.parse_args()
    check_colours(SEATS)
    labs = [lab_of_hex(c) for c in SEATS]
    tally = {name: {"right": 0, "wrong": 0, "nobody": 0, "stranger_taken": 0} for name, _, _ in CONDITIONS}
    misses: dict[str, list[float]] = {name: [] for name, _, _ in CONDITIONS}  # colour errors, by condition
    seconds, dice, uncalibrated = 0.0, 0, 0
    for k in range(args.frames):
        shot = scene(args.seed + k)
        assert shot.tray is not None  # markers=True: the renderer fits a tray to them
        try:
            light = tray_light(shot.image, calibrate(shot.image, shot.tray))
        except CalibrationError:
            light, uncalibrated = NO_REFERENCE, uncalibrated + 1
        for name, reference, loose in CONDITIONS:
            counts = tally[name]
            for seat, truth in enumerate(shot.dice):
                start = time.perf_counter()
                x, y, w, h = truth.box
                box = (x - w * (loose - 1) / 2, y - h * (loose - 1) / 2, w * loose, h * loose)
                try:
                    colour = body_colour(shot.image, truth.center, box, light if reference else NO_REFERENCE)
                except InvalidInput:
                    continue
                found = owner(colour, labs)
                if name == "white reference":
                    seconds += time.perf_counter() - start
                    dice += 1
                if seat >= len(SEATS):
                    counts["stranger_taken"] += found is not None
                    continue
                misses[name].append(difference(colour, labs[seat]))
                key = "right" if found == seat else "nobody" if found is None else "wrong"
                counts[key] += 1
    seat_dice = args.frames * len(SEATS)
    print(f"die ownership by colour: {args.frames} rendered trays, {len(SEATS)} seat d12s + 1 stranger each "
          f"(seeds {args.seed}..{args.seed + args.frames - 1}; tray not calibrated in {uncalibrated})")
    print(f"match within {MATCH_DE:g} (weighted Lab difference)")
    for name, counts in tally.items():
        errors = np.array(misses[name])
        print(f"{name:>21}: owner right {counts['right']}/{seat_dice} ({counts['right'] / seat_dice:.2%}), "
              f"wrong seat {counts['wrong']}, nobody's {counts['nobody']}, "
              f"strangers given a seat {counts['stranger_taken']}/{args.frames}; colour error median "
              f"{np.median(errors):.1f}, p99 {np.percentile(errors, 99):.1f}, max {errors.max():.1f}")
    print(f"time: {seconds / max(dice, 1) * 1000:.2f} ms per die (body colour and match)")


if __name__ == "__main__":
    main()
