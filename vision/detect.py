"""Finding where dice may be: a foreground mask against a smooth background, and candidate die centres.

The candidates are generous on purpose (walls, shadows and gaps between dice are proposed too);
the face classifier in :mod:`vision.classify` decides which are dice.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_PX = 640
"""Longer side of the working image the detector looks at (larger frames are shrunk first)."""

FOREGROUND_DISTANCE = 30
"""Colour distance (Lab L1, lightness halved) from the local background above which a pixel is foreground."""


@dataclass(frozen=True)
class Candidate:
    """A place that may hold a die, in working-image pixels."""

    center: tuple[float, float]
    side: float
    angle: float
    single: bool


@dataclass(frozen=True)
class Proposals:
    """Every candidate of one working image, with the typical die side found there."""

    candidates: tuple[Candidate, ...]
    side: float
    mask: np.ndarray


def working_scale(shape: tuple[int, ...]) -> float:
    """Factor that shrinks a frame of ``shape`` to the working size (never enlarges)."""
    return min(1.0, WORK_PX / max(shape[0], shape[1]))


def shrink(image: np.ndarray, scale: float) -> np.ndarray:
    """``image`` resized by ``scale`` (<= 1): area-averaged halvings, then a bilinear remainder (fast and unaliased)."""
    while scale <= 0.5:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
        scale *= 2.0
    if scale < 1.0:
        size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
    return image


def background_distance(lab: np.ndarray) -> np.ndarray:
    """Per-pixel colour distance (L1, lightness halved) from a smooth background: a median at 1/4 scale."""
    small = cv2.resize(lab, (max(1, lab.shape[1] // 4), max(1, lab.shape[0] // 4)), interpolation=cv2.INTER_AREA)
    ksize = max(3, (min(small.shape[:2]) // 5) | 1)
    background = cv2.medianBlur(small, min(ksize, 31))
    background = cv2.resize(background, (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_LINEAR)
    diff = cv2.absdiff(lab, background)
    return cv2.transform(diff, np.array([[0.5, 1.0, 1.0]], np.float32))


def foreground(image: np.ndarray) -> np.ndarray:
    """A 0/1 mask of pixels that differ from the background, small holes filled (die faces, pips)."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    mask = (background_distance(lab) > FOREGROUND_DISTANCE).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(7))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(3))
    return _fill_small_holes(mask, max_area=0.01 * mask.size)


def _disc(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def _fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    holes = (1 - mask).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    small = np.zeros(count, dtype=bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] < max_area
    touches = (stats[:, cv2.CC_STAT_LEFT] == 0) | (stats[:, cv2.CC_STAT_TOP] == 0)
    small &= ~touches
    return np.where(small[labels], 1, mask).astype(np.uint8)


def _blob_shape(contour: np.ndarray) -> tuple[tuple[float, float], float, float, bool]:
    """Centre, side, angle of a blob, and whether it looks like one die seen from above."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    area = cv2.contourArea(contour)
    side = float(np.sqrt(max(w * h, 1.0)))
    square = min(w, h) > 0.75 * max(w, h)
    solid = area > 0.78 * w * h if w * h > 0 else False
    return (float(cx), float(cy)), side, float(angle), bool(square and solid)


def typical_side(sides: list[float], shape: tuple[int, ...]) -> float:
    """The median side of single-die blobs, or a guess from the frame size when there are none."""
    fallback = 0.06 * min(shape[0], shape[1])
    plausible = [s for s in sides if 0.02 * min(shape[:2]) < s < 0.2 * min(shape[:2])]
    return float(np.median(plausible)) if plausible else fallback


def propose(image: np.ndarray) -> Proposals:
    """Candidate die centres in ``image`` (already at working size): blob centres and a grid over merged blobs."""
    mask = foreground(image)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    shapes = [_blob_shape(c) for c in contours if cv2.contourArea(c) >= 4]
    side = typical_side([s for _, s, _, single in shapes if single], image.shape)
    out: list[Candidate] = []
    for (center, blob_side, angle, single), contour in zip(shapes, contours):
        if single and 0.6 * side < blob_side < 1.6 * side:
            out.append(Candidate(center, blob_side, angle, True))
        elif blob_side < 0.6 * side:
            out.append(Candidate(center, side, 0.0, False))
    out.extend(_grid(mask, side))
    return Proposals(tuple(out), side, mask)


def _grid(mask: np.ndarray, side: float) -> list[Candidate]:
    """Points every third of a die side over the (slightly eroded) foreground, so every die has one near its centre."""
    step = max(2, int(round(side / 3)))
    area = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(max(3, int(side * 0.45) | 1)))
    area = cv2.erode(area, _disc(max(3, int(side * 0.2) | 1)))
    ys, xs = np.mgrid[step // 2:mask.shape[0]:step, step // 2:mask.shape[1]:step]
    keep = area[ys, xs] > 0
    return [Candidate((float(x), float(y)), side, 0.0, False) for x, y in zip(xs[keep], ys[keep])]
