"""Changes a bar's camera and light make to a photo, applied deterministically, boxes and all.

The reader's bench (``bench/dice_reader.py --changes``) reads the labelled photos under each
:data:`CHANGES` entry, and the trainer (:mod:`vision.train`) may use the same changes as
augmentation. Each change maps a BGR image and its dice boxes (x, y, w, h) to the changed image
and boxes; the random ones (sensor noise, an arbitrary turn) draw from the generator they are given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

Box = tuple[float, float, float, float]
"""x, y, width, height in image pixels."""

Apply = Callable[[np.ndarray, Sequence[Box], np.random.Generator], tuple[np.ndarray, list[Box]]]
"""(image, boxes, generator) -> (changed image, changed boxes)."""


@dataclass(frozen=True)
class Change:
    """One named change to a photo (see :data:`CHANGES`)."""

    name: str
    apply: Apply


def _photometric(fn: Callable[[np.ndarray, np.random.Generator], np.ndarray]) -> Apply:
    """A change of the pixels only: the boxes stay."""
    def apply(image: np.ndarray, boxes: Sequence[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
        return fn(image, rng), list(boxes)
    return apply


def gain(image: np.ndarray, bgr: tuple[float, float, float]) -> np.ndarray:
    """``image`` with each channel multiplied (brighter or darker light, warmer or cooler light)."""
    return np.clip(image.astype(np.float32) * np.array(bgr, np.float32), 0, 255).astype(np.uint8)


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` compressed to JPEG at ``quality`` (0-100) and decoded again."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok, "OpenCV cannot encode JPEG"
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))


def noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """``image`` with Gaussian sensor noise of ``sigma`` grey levels, independent per pixel and channel."""
    return np.clip(image.astype(np.float32) + rng.normal(0.0, sigma, image.shape).astype(np.float32),
                   0, 255).astype(np.uint8)


def _background(image: np.ndarray) -> tuple[int, int, int]:
    """The colour around a photo's edge (its median there): what fills the space a change opens up."""
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    return tuple(int(c) for c in np.median(edge, axis=0))  # type: ignore[return-value]


def _warp(image: np.ndarray, boxes: Sequence[Box], matrix: np.ndarray,
          size: tuple[int, int]) -> tuple[np.ndarray, list[Box]]:
    """``image`` mapped by the rigid 2x3 ``matrix`` onto a ``size`` (width, height) canvas of its edge
    colour; each box keeps its side and moves with its centre (a turned die's box is its own)."""
    out = cv2.warpAffine(image, matrix, size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=_background(image))
    moved = []
    for x, y, w, h in boxes:
        cx, cy = matrix @ np.array([x + w / 2, y + h / 2, 1.0])
        moved.append((float(cx - w / 2), float(cy - h / 2), w, h))
    return out, moved


def turn(image: np.ndarray, boxes: Sequence[Box], degrees: float) -> tuple[np.ndarray, list[Box]]:
    """``image`` turned by ``degrees`` about its centre, on a canvas large enough to keep all of it."""
    height, width = image.shape[:2]
    theta = math.radians(degrees)
    new_w = int(math.ceil(abs(width * math.cos(theta)) + abs(height * math.sin(theta))))
    new_h = int(math.ceil(abs(width * math.sin(theta)) + abs(height * math.cos(theta))))
    matrix = cv2.getRotationMatrix2D(((width - 1) / 2, (height - 1) / 2), degrees, 1.0)
    matrix[:, 2] += ((new_w - width) / 2, (new_h - height) / 2)
    return _warp(image, boxes, matrix, (new_w, new_h))


def resize(image: np.ndarray, boxes: Sequence[Box], factor: float) -> tuple[np.ndarray, list[Box]]:
    """``image`` and its boxes scaled by ``factor`` (area-averaged when shrinking, cubic when enlarging)."""
    height, width = image.shape[:2]
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    out = cv2.resize(image, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC)
    fx, fy = size[0] / width, size[1] / height
    return out, [(x * fx, y * fy, w * fx, h * fy) for x, y, w, h in boxes]


def place(image: np.ndarray, boxes: Sequence[Box], size: tuple[int, int]) -> tuple[np.ndarray, list[Box]]:
    """``image`` at its own size in the middle of a ``size`` (width, height) frame of its edge colour
    (cut to the frame where it is larger)."""
    height, width = image.shape[:2]
    matrix = np.array([[1.0, 0.0, (size[0] - width) // 2], [0.0, 1.0, (size[1] - height) // 2]])
    return _warp(image, boxes, matrix, size)


CLOSE_UP_ENLARGED = 2.0
"""How much a close-up (:func:`close_up`) is enlarged: a real close-up has more pixels on its die
than a wide photo, but a photo enlarged further is only blurred (dice 40 px across enlarged to 460
were flagged blurred)."""


def close_up(image: np.ndarray, boxes: Sequence[Box], rng: np.random.Generator) -> tuple[np.ndarray, list[Box]]:
    """A photo of one die taken close: a square around a die the generator picks, three times its
    larger side (less where that would cut another die, down to twice), enlarged
    :data:`CLOSE_UP_ENLARGED` times; the boxes of the dice whose centres lie in it, cut to it, and
    an empty box (:data:`LEFT_OUT`) for each die left out of it."""
    if not boxes:
        return image, []
    x, y, w, h = boxes[int(rng.integers(len(boxes)))]
    centre, side = (x + w / 2, y + h / 2), 3.0 * max(w, h)
    while side > 2.0 * max(w, h) and any(_cut(box, _square(centre, side, image.shape)) for box in boxes):
        side *= 0.95
    x0, y0, x1, y1 = _square(centre, side, image.shape)
    factor = CLOSE_UP_ENLARGED
    out = cv2.resize(image[y0:y1, x0:x1], None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
    kept: list[Box] = []
    for bx, by, bw, bh in boxes:
        left, top, right, bottom = max(bx, x0), max(by, y0), min(bx + bw, x1), min(by + bh, y1)
        inside = x0 <= bx + bw / 2 < x1 and y0 <= by + bh / 2 < y1
        kept.append(((left - x0) * factor, (top - y0) * factor, (right - left) * factor, (bottom - top) * factor)
                    if inside else LEFT_OUT)
    return out, kept


LEFT_OUT: Box = (0.0, 0.0, 0.0, 0.0)
"""The box of a die a change leaves out of the photo (:func:`close_up`)."""


def _square(centre: tuple[float, float], side: float, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The pixel square of ``side`` about ``centre``, moved inside a frame of ``shape`` (x0, y0, x1, y1)."""
    height, width = shape[:2]
    side = min(side, width, height)
    x0 = int(round(min(max(centre[0] - side / 2, 0.0), width - side)))
    y0 = int(round(min(max(centre[1] - side / 2, 0.0), height - side)))
    return x0, y0, x0 + int(round(side)), y0 + int(round(side))


def _cut(box: Box, square: tuple[int, int, int, int]) -> bool:
    """Whether ``square``'s edge crosses ``box``: part of the die in it, part out."""
    x, y, w, h = box
    x0, y0, x1, y1 = square
    overlaps = x < x1 and x + w > x0 and y < y1 and y + h > y0
    inside = x >= x0 and x + w <= x1 and y >= y0 and y + h <= y1
    return overlaps and not inside


PI_FRAME = (1536, 864)
"""The Pi camera's working frame (width, height)."""


CHANGES: tuple[Change, ...] = (
    Change("none", _photometric(lambda im, rng: im)),
    Change("brightness x0.6", _photometric(lambda im, rng: gain(im, (0.6, 0.6, 0.6)))),
    Change("brightness x1.4", _photometric(lambda im, rng: gain(im, (1.4, 1.4, 1.4)))),
    Change("warm light", _photometric(lambda im, rng: gain(im, (0.75, 0.95, 1.15)))),
    Change("cool light", _photometric(lambda im, rng: gain(im, (1.15, 1.0, 0.8)))),
    Change("JPEG quality 30", _photometric(lambda im, rng: jpeg(im, 30))),
    Change("sensor noise sigma 8", _photometric(lambda im, rng: noise(im, 8.0, rng))),
    Change("turned 17 degrees", lambda im, boxes, rng: turn(im, boxes, 17.0)),
    Change("turned at random", lambda im, boxes, rng: turn(im, boxes, float(rng.uniform(0.0, 360.0)))),
    Change("shrunk to 50%", lambda im, boxes, rng: resize(im, boxes, 0.5)),
    Change("shrunk to 35%", lambda im, boxes, rng: resize(im, boxes, 0.35)),
    Change("enlarged to 150%", lambda im, boxes, rng: resize(im, boxes, 1.5)),
    Change("blur sigma 1.5", _photometric(lambda im, rng: cv2.GaussianBlur(im, (0, 0), 1.5))),
    Change("in a 1536x864 frame", lambda im, boxes, rng: place(im, boxes, PI_FRAME)),
    Change("close-up of one die", close_up),
)
"""The changes of issue 17's table, in its order ("none" first: the clean photo)."""


def change(name: str) -> Change:
    """The change called ``name`` in :data:`CHANGES`.

    :raises KeyError: for a name that is not there.
    """
    for known in CHANGES:
        if known.name == name:
            return known
    raise KeyError(f"no change {name!r}; known: {', '.join(c.name for c in CHANGES)}")


def changed(image: np.ndarray, boxes: Sequence[Box], which: Change, seed: int) -> tuple[np.ndarray, list[Box]]:
    """``image`` and its ``boxes`` under ``which``, the random parts drawn from ``seed`` (same seed, same result)."""
    return which.apply(image, boxes, np.random.default_rng(seed))
