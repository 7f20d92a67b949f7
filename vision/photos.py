"""Labelled dice photo sets (a folder of images plus ``labels.json``), as used for training and benchmarks."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from controller.games.errors import InvalidInput
from controller.paths import shown

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SET = REPO / "data" / "dice-photos" / "byler-d6-dev"
"""The development photos, committed in the repository (a copy beside it, ``../shared/...``, works as an argument)."""


@dataclass(frozen=True)
class LabelledDie:
    """One labelled die: its face value and its box (x, y, w, h) in image pixels."""

    value: int
    box: tuple[float, float, float, float]

    @property
    def center(self) -> tuple[float, float]:
        """Centre of the box."""
        x, y, w, h = self.box
        return (x + w / 2, y + h / 2)

    @property
    def side(self) -> float:
        """The die's size: the mean of its box's sides (as ``vision.render.DieTruth.side``)."""
        return (self.box[2] + self.box[3]) / 2


@dataclass(frozen=True)
class LabelledPhoto:
    """One photo of a labelled set."""

    path: Path
    dice: tuple[LabelledDie, ...]

    def load(self) -> np.ndarray:
        """The photo as a BGR array; raises :class:`InvalidInput` when it cannot be read."""
        try:  # decoded from Python's bytes: cv2.imread crashes the process on a name that is not UTF-8
            data = self.path.read_bytes()
        except OSError as err:
            raise InvalidInput(f"cannot read image {shown(self.path)}: {err.strerror or err}") from None
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise InvalidInput(f"cannot read image {shown(self.path)}")
        return np.asarray(image)

    def seen_wide(self) -> tuple[np.ndarray, tuple[LabelledDie, ...]]:
        """The photo as if seen from three times as far, and its dice there: the photo with its eight
        mirror images around it (a frame three times as wide with the same dice, three times
        smaller in it; a mirrored pip face reads the same)."""
        image = self.load()
        height, width = image.shape[:2]
        wide = cv2.copyMakeBorder(image, height, height, width, width, cv2.BORDER_REFLECT)
        return wide, tuple(LabelledDie(d.value, _mirrored(d.box, width, height, column, row)) for d in self.dice
                           for row in range(3) for column in range(3))


def _mirrored(box: tuple[float, float, float, float], width: int, height: int, column: int,
              row: int) -> tuple[float, float, float, float]:
    """A box in copy (``column``, ``row``) of a 3x3 mirrored tiling of a photo (the photo in the middle)."""
    x, y, w, h = box
    x = x if column == 1 else width - x - w
    y = y if row == 1 else height - y - h
    return (x + column * width, y + row * height, w, h)


def load_set(folder: Path = DEFAULT_SET) -> list[LabelledPhoto]:
    """Every photo of the set in ``folder`` (``labels.json`` beside an ``images/`` folder), in file order."""
    labels = folder / "labels.json"
    if not labels.is_file():
        raise InvalidInput(f"no labels.json in {str(folder)!r}")
    entries = json.loads(labels.read_text())
    return [LabelledPhoto(folder / entry["image"],
                          tuple(LabelledDie(int(d["value"]), tuple(map(float, d["box"])))  # type: ignore[arg-type]
                                for d in entry["dice"]))
            for entry in entries]


def is_held_out(index: int) -> bool:
    """Whether photo ``index`` of a set is held out of training: every fifth run of ten consecutive photos.

    Consecutive photos show the same dice re-rolled, so whole runs are held out, not single photos.

    >>> [i for i in range(60) if is_held_out(i)][:3], is_held_out(50)
    ([40, 41, 42], False)
    """
    return (index // 10) % 5 == 4
