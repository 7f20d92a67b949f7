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

EDGE_CONTRAST = 12
"""Lightness step (3x3 morphological gradient) above which a pixel is an edge and counts as foreground."""


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
    mask: np.ndarray = (background_distance(lab) > FOREGROUND_DISTANCE).astype(np.uint8)
    # white dice on a white tray differ mostly by their outline and shading: add strong local edges
    mask |= _edges(lab[..., 0])
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(7))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(3))
    return _fill_small_holes(mask, max_area=0.01 * mask.size)


def _edges(lightness: np.ndarray) -> np.ndarray:
    """Pixels whose local lightness step beats both a floor and three times the typical step around them.

    The local level keeps a textured background (felt, wood grain) from turning into foreground.
    """
    step = cv2.morphologyEx(lightness, cv2.MORPH_GRADIENT, _disc(3))
    small = cv2.resize(step, (max(1, step.shape[1] // 4), max(1, step.shape[0] // 4)), interpolation=cv2.INTER_AREA)
    level = cv2.medianBlur(small, max(3, min(31, (min(small.shape[:2]) // 5) | 1)))
    level = cv2.resize(level, (step.shape[1], step.shape[0]), interpolation=cv2.INTER_LINEAR)
    return ((step > EDGE_CONTRAST) & (step > 3 * level.astype(np.uint16))).astype(np.uint8)


def _disc(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def _fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    holes = (1 - mask).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    small = np.zeros(count, dtype=bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] < max_area
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    touches = (left == 0) | (top == 0) | (left + stats[:, cv2.CC_STAT_WIDTH] == mask.shape[1]) | \
        (top + stats[:, cv2.CC_STAT_HEIGHT] == mask.shape[0])
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


def typical_side(singles: list[float], widths: list[float], shape: tuple[int, ...]) -> float:
    """A die's side in this frame: the median single-die blob, unless blob widths say the dice are larger.

    ``widths`` are twice the largest inscribed radius of every blob: about one die across even
    for a heap of touching dice, and not fooled by a white die whose blob is only its pips.
    """
    low, high = 0.02 * min(shape[:2]), 0.2 * min(shape[:2])
    wide = [w for w in widths if low < w < high]
    width = float(np.median([w for w in wide if w >= 0.5 * max(wide)])) if wide else None
    plausible = [s for s in singles if low < s < high]
    if plausible and (width is None or np.median(plausible) >= 0.75 * width):
        return float(np.median(plausible))
    return width if width is not None else 0.06 * min(shape[:2])


def propose(image: np.ndarray) -> Proposals:
    """Candidate die centres in ``image`` (already at working size): blob centres and a grid over merged blobs."""
    mask = foreground(image)
    contours = [c for c in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
                if cv2.contourArea(c) >= 4]
    shapes = [_blob_shape(c) for c in contours]
    side = typical_side([s for _, s, _, single in shapes if single], _widths(mask, contours), image.shape)
    out: list[Candidate] = []
    for center, blob_side, angle, single in shapes:
        if single and 0.6 * side < blob_side < 1.6 * side:
            out.append(Candidate(center, blob_side, angle, True))
        elif blob_side < 0.6 * side:
            out.append(Candidate(center, side, 0.0, False))
    out.extend(_grid(mask, side))
    return Proposals(tuple(out), side, mask)


def _widths(mask: np.ndarray, contours: list[np.ndarray]) -> list[float]:
    """Twice the largest distance to the background inside each blob (its widest inscribed circle)."""
    inside = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    widths = []
    for contour in contours:
        x, y, w, h = cv2.boundingRect(contour)
        widths.append(2.0 * float(inside[y:y + h, x:x + w].max()))
    return widths


def _grid(mask: np.ndarray, side: float) -> list[Candidate]:
    """Points every third of a die side over the (slightly eroded) foreground, so every die has one near its centre."""
    step = max(2, int(round(side / 3)))
    area = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(max(3, int(side * 0.45) | 1)))
    area = cv2.erode(area, _disc(max(3, int(side * 0.2) | 1)))
    ys, xs = np.mgrid[step // 2:mask.shape[0]:step, step // 2:mask.shape[1]:step]
    keep = area[ys, xs] > 0
    return [Candidate((float(x), float(y)), side, 0.0, False) for x, y in zip(xs[keep], ys[keep])]
