"""``dicetable vision read``: read the dice in photos, print values (or JSON) and draw annotated copies."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from controller.games.errors import DiceTableError, InvalidInput


def register(subparsers: Any) -> None:
    """Add the ``vision`` subcommand with its ``read`` action."""
    parser = subparsers.add_parser("vision", help="camera dice reading from image files",
                                   description="Dice reading from the command line.")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    read = actions.add_parser(
        "read", help="read the dice in one or more photos",
        description="Find every die in each photo and read its top face. Prints one line per "
                    "photo (or one JSON object per photo with --json); unreadable dice show as '?' "
                    "(JSON value null) with a flag saying why (cocked, cut_off, blurred).")
    read.add_argument("images", nargs="+", type=Path, metavar="IMAGE",
                      help="photo files (JPEG, PNG, ...), or folders: every photo in them")
    read.add_argument("--kind", default="d6", choices=["d6"], help="kind of dice in the photos (default d6)")
    read.add_argument("--json", action="store_true", help="one JSON object per image per line")
    read.add_argument("--annotate", type=Path, metavar="DIR",
                      help="also write each photo with boxes and values drawn into DIR")
    read.set_defaults(run=run_read)
    parser.set_defaults(run=lambda args: (parser.print_help(), 2)[1])


def run_read(args: argparse.Namespace) -> int:
    """Read every image; report bad files one line each and exit non-zero at the end if any failed."""
    from vision.read import read_dice

    if args.annotate is not None:
        args.annotate.mkdir(parents=True, exist_ok=True)
    failures = 0
    images = photo_paths(args.images)
    show_progress = len(images) > 1 and sys.stderr.isatty()
    for n, path in enumerate(images, 1):
        if show_progress:
            print(f"\r{n}/{len(images)} {path.name}", end="", file=sys.stderr, flush=True)
        try:
            image = load_image(path)
            observation = read_dice(image, args.kind)
        except DiceTableError as err:
            failures += 1
            print(f"dicetable: {err}", file=sys.stderr)
            continue
        print_observation(path, observation, args.json, sys.stdout)
        if args.annotate is not None:
            out = args.annotate / (path.stem + ".png")
            cv2.imwrite(str(out), annotate(image, observation))
    if show_progress:
        print(file=sys.stderr)
    return 1 if failures else 0


PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
"""The files a folder given to ``vision read`` is read for (any case)."""


def photo_paths(paths: list[Path]) -> list[Path]:
    """The photos to read: each path as given, or for a folder its photo files, sorted by name (a
    folder with none stays, for :func:`load_image` to report)."""
    out: list[Path] = []
    for path in paths:
        inside = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES) \
            if path.is_dir() else []
        out += inside or [path]
    return out


def load_image(path: Path) -> np.ndarray:
    """The image at ``path`` as BGR; raises :class:`InvalidInput` for a missing or unreadable file."""
    if path.is_dir():
        raise InvalidInput(f"no photos ({', '.join(PHOTO_SUFFIXES)}) in folder {str(path)!r}")
    if not path.is_file():
        raise InvalidInput(f"no such image file: {str(path)!r}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise InvalidInput(f"not a readable image: {str(path)!r}")
    return image


def print_observation(path: Path, observation: Any, as_json: bool, out: TextIO) -> None:
    """One line for one image: JSON, or the values, count and time."""
    if as_json:
        out.write(json.dumps({"image": str(path), "ms": round(observation.ms, 2),
                              "dice": [d.to_json() for d in observation.dice]}) + "\n")
        return
    faces = " ".join("?" if d.value is None else str(d.value) for d in observation.dice)
    flagged = sum(1 for d in observation.dice if d.flag)
    note = f", {flagged} flagged" if flagged else ""
    out.write(f"{path}: {len(observation.dice)} dice [{faces}]{note} ({observation.ms:.0f} ms)\n")


def annotate(image: np.ndarray, observation: Any) -> np.ndarray:
    """A copy of ``image`` with every die's box and value: green sure, orange unsure, red unreadable."""
    out = image.copy()
    for die in observation.dice:
        x, y, w, h = (int(round(v)) for v in die.box)
        colour = _colour(die.value, die.confidence)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, max(1, round(w / 45)))  # lines and labels grow with the die
        label = "?" if die.value is None else str(die.value)
        if die.flag:
            label += f" {die.flag}"
        label += f" {die.confidence:.2f}"
        size = 0.4 * max(1.0, w / 50)
        cv2.putText(out, label, (x, max(10, y - 3)), cv2.FONT_HERSHEY_SIMPLEX, size, colour,
                    max(1, round(size / 0.5)), cv2.LINE_AA)
    return out


def _colour(value: int | None, confidence: float) -> tuple[int, int, int]:
    from vision.read import UNCERTAIN  # the reader's one threshold: green is what the table may act on

    if value is None:
        return (0, 0, 255)
    return (0, 200, 0) if confidence >= UNCERTAIN else (0, 165, 255)
