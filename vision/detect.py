"""Finding where dice may be: a foreground mask against a smooth background, and candidate die centres.

The candidates are generous on purpose (walls, shadows and gaps between dice are proposed too);
the face classifier in :mod:`vision.classify` decides which are dice.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

import cv2
import numpy as np

Morphology = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``cv2.dilate`` or ``cv2.erode`` (image, kernel) -> image."""

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
    lone_side: float | None = None
    """The median side of the blobs that look like one die each, when there are at least three."""
    close_side: float | None = None
    """The median side of the blobs that look like one die each and are too large for a die of a
    wider view, when no such blob has a wider view's side: a close-up's dice (:func:`_close_side`)."""


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
    """Per-pixel colour distance (L1, lightness halved) from a smooth background: a median at 1/4 scale.

    Returned doubled (``dL + 2 da + 2 db``) in uint8, saturating at 255: exact below that, so no
    rounding is needed and thresholds below 255 (doubled) give the same pixels.
    """
    background = cv2.medianBlur(_quarter(lab), _median_size(lab.shape))
    background = cv2.resize(background, (lab.shape[1], lab.shape[0]), interpolation=cv2.INTER_LINEAR)
    lightness, a, b = cv2.split(cv2.absdiff(lab, background))
    chroma = cv2.add(a, b)
    return cv2.add(cv2.add(chroma, chroma), lightness)


def _quarter(image: np.ndarray) -> np.ndarray:
    """``image`` (uint8) area-averaged to 1/4 scale, exactly as ``cv2.resize(..., INTER_AREA)`` does, but faster.

    When both sides divide by 4, two halvings in uint16 of 16 times the values keep every sum exact
    and the last step rounds as the one-step resize does (to nearest, halves to even).
    """
    if image.shape[0] % 4 or image.shape[1] % 4 or image.shape[0] < 8 or image.shape[1] < 8:
        return cv2.resize(image, (max(1, image.shape[1] // 4), max(1, image.shape[0] // 4)),
                          interpolation=cv2.INTER_AREA)
    scaled = np.left_shift(image, 4, dtype=np.uint16)
    half = cv2.resize(scaled, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
    quarter = cv2.resize(half, (image.shape[1] // 4, image.shape[0] // 4), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.convertScaleAbs(quarter, alpha=1 / 16))


def _median_size(shape: tuple[int, ...]) -> int:
    """Aperture of the background medians at 1/4 scale: a fifth of the shorter side, odd, 3 to 31."""
    return min(31, max(3, (min(max(1, shape[0] // 4), max(1, shape[1] // 4)) // 5) | 1))


def foreground(image: np.ndarray) -> np.ndarray:
    """A 0/1 mask of pixels that differ from the background, small holes filled (die faces, pips)."""
    return _foreground(image)[0]


def _foreground(image: np.ndarray) -> tuple[np.ndarray, Sequence[np.ndarray] | None]:
    """The foreground mask, with its outer contours when they come for free (no holes to fill), else None.

    The contour search that looks for holes (two levels: holes are 4-connected, as the filling
    wants) finds, when there are none, the outer contours a one-level search would, in its order.
    """
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    # the same pixels as the distance, rounded half to even, > FOREGROUND_DISTANCE (x.5 rounds up only if x is odd)
    far = background_distance(lab) > 2 * FOREGROUND_DISTANCE + 1 - FOREGROUND_DISTANCE % 2
    # white dice on a white tray differ mostly by their outline and shading: add strong local edges
    mask: np.ndarray = (far | _edges(cv2.extractChannel(lab, 0))).view(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(7))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _disc(3))
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None or not (hierarchy[0][:, 3] >= 0).any():
        return mask, contours  # no contour has a parent: no holes at all
    return _fill_small_holes(mask, max_area=0.01 * mask.size), None


def _edges(lightness: np.ndarray) -> np.ndarray:
    """Boolean mask of pixels whose local lightness step beats a floor and three times the typical step around.

    The local level keeps a textured background (felt, wood grain) from turning into foreground.
    """
    step = cv2.morphologyEx(lightness, cv2.MORPH_GRADIENT, _disc(3))
    level = cv2.medianBlur(_quarter(step), _median_size(step.shape))
    level = cv2.resize(level, (step.shape[1], step.shape[0]), interpolation=cv2.INTER_LINEAR)
    # 3 * level saturates at 255, which no step beats, just as no step beats a larger 3 * level
    above: np.ndarray = (step > EDGE_CONTRAST) & (step > cv2.convertScaleAbs(level, alpha=3))
    return above


@lru_cache(maxsize=64)
def _disc(size: int) -> np.ndarray:
    """The elliptic structuring element of ``size`` pixels (cached; never written to)."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def _fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """``mask`` with its holes (4-connected, not reaching the image edge) smaller than ``max_area`` filled.

    The holes are what a flood fill of the background from the image edge leaves; when they are
    small all together no labelling is needed, otherwise it runs on their bounding box only.
    """
    outside = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    cv2.floodFill(outside, None, (0, 0), 1, flags=4)
    holes = 1 - outside[1:-1, 1:-1]
    total = cv2.countNonZero(holes)
    if total < max_area:
        return mask | holes if total else mask
    x, y, w, h = cv2.boundingRect(holes)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(holes[y:y + h, x:x + w], connectivity=4)
    small = stats[:, cv2.CC_STAT_AREA] < max_area
    small[0] = False
    filled = mask.copy()
    filled[y:y + h, x:x + w][small[labels]] = 1
    return filled


def _blob_shape(contour: np.ndarray, area: float) -> tuple[tuple[float, float], float, float, bool]:
    """Centre, side, angle of a blob (of contour ``area``), and whether it looks like one die seen from above."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    side = math.sqrt(max(w * h, 1.0))
    square = min(w, h) > 0.75 * max(w, h)
    solid = area > 0.78 * w * h if w * h > 0 else False
    return (float(cx), float(cy)), side, float(angle), bool(square and solid)


def _outline_of_a_die(contour: np.ndarray, area: float) -> bool:
    """Whether a blob (of contour ``area``) has the outline of a die seen from above, of any kind: a
    square's, a d8's hexagon, a d12's decagon (which fill 75% and 77% of their least box, under the
    78% :func:`_blob_shape` asks of one d6)."""
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    return min(w, h) > 0.75 * max(w, h) and area > 0.7 * w * h


def typical_side(singles: list[float], widths: list[float], shape: tuple[int, ...],
                 expect: float | None = None, spread: float = 1.8) -> float:
    """A die's side in this frame: the median single-die blob, unless blob widths say the dice are larger.

    ``widths`` are twice the largest inscribed radius of every blob: about one die across even
    for a heap of touching dice, and not fooled by a white die whose blob is only its pips. Sides
    within ``spread`` times ``expect`` are plausible when it is given, else :func:`_plausible` ones.
    """
    low, high = (expect / spread, expect * spread) if expect else _plausible(shape)
    wide = [w for w in widths if low < w < high]
    width = float(statistics.median([w for w in wide if w >= 0.5 * max(wide)])) if wide else None
    plausible = [s for s in singles if low < s < high]
    if plausible and (width is None or statistics.median(plausible) >= 0.75 * width):
        return float(statistics.median(plausible))
    return width if width is not None else expect or 0.06 * min(shape[:2])


CLOSE_UP = 0.8
"""The largest die side a close-up photo may show, as a share of its shorter side (:func:`_close_side`)."""


def _close_side(sides: list[float], shape: tuple[int, ...]) -> float | None:
    """The side of a close-up's dice: the median of the ``sides`` of blobs with a die's outline
    (:func:`_outline_of_a_die`) between the largest side of a wider view's dice (:func:`_plausible`)
    and :data:`CLOSE_UP` of the frame's shorter side; None when there is none."""
    high, most = _plausible(shape)[1], CLOSE_UP * min(shape[:2])
    large = [s for s in sides if high <= s < most]
    return float(statistics.median(large)) if large else None


def _plausible(shape: tuple[int, ...]) -> tuple[float, float]:
    """The die sides a frame of ``shape`` may show: 1.2% to 20% of its shorter side (dice too small
    to read well still count, so that :func:`working_views` can look again)."""
    return 0.012 * min(shape[:2]), 0.2 * min(shape[:2])


def propose(image: np.ndarray, expect: float | None = None, spread: float = 1.8,
            most: int | None = None, around: bool = False) -> Proposals:
    """Candidate die centres in ``image`` (already at working size): blob centres and a grid over
    merged blobs; ``expect``: the die side, in pixels, when it is known within ``spread`` times
    (see :func:`typical_side`); at most ``most`` (default :data:`MAX_CANDIDATES`). With
    ``around``, also the points :func:`_around` every blob that is not a lone die, while there is room."""
    most = MAX_CANDIDATES if most is None else most
    mask, found = _foreground(image)
    if found is None:
        found = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    areas = [cv2.contourArea(c) for c in found]
    boxes: list[Box] = [cv2.boundingRect(c) for c in found]
    blobs = [i for i, area in enumerate(areas) if area >= 4]
    shapes = [_blob_shape(found[i], areas[i]) for i in blobs]
    widths = _widths(mask, [boxes[i] for i in blobs], boxes)
    singles = [s for _, s, _, single in shapes if single]
    side = typical_side(singles, widths, image.shape, expect, spread)
    out: list[Candidate] = []
    lone: list[np.ndarray] = []
    for i, (center, blob_side, angle, single) in zip(blobs, shapes):
        if single and 0.6 * side < blob_side < 1.6 * side:
            out.append(Candidate(center, blob_side, angle, True))
            lone.append(found[i])
        elif blob_side < 0.6 * side:
            out.append(Candidate(center, side, 0.0, False))
    out = sorted(out, key=lambda c: not c.single)[:most]  # lone dice first
    out.extend(_outside(_capped_grid(mask, side, most - len(out)), lone, mask.shape))
    if around:
        out.extend(_around([centre for centre, blob_side, _, single in shapes
                            if not (single and 0.6 * side < blob_side < 1.6 * side)], side, image.shape)[:most - len(out)])
    low, high = _plausible(image.shape)
    lone_sides = [s for s in singles if low < s < high]
    close = None if expect or lone_sides else _close_side([s for i, (_, s, _, _) in zip(blobs, shapes)
                                                            if _outline_of_a_die(found[i], areas[i])], image.shape)
    return Proposals(tuple(out), side, mask, float(statistics.median(lone_sides)) if len(lone_sides) >= 3 else None,
                     close)


AROUND_STEPS = (-0.5, -0.25, 0.0, 0.25, 0.5)
"""Where :func:`_around` looks around a blob's centre, in die sides along each axis."""


def _around(centres: list[tuple[float, float]], side: float, shape: tuple[int, ...]) -> list[Candidate]:
    """Points every quarter of a die ``side`` within half a side of each of ``centres`` (in a
    frame of ``shape``), blob by blob. A die of nearly the felt's colour is not a blob of its own:
    the foreground mask keeps a pip or a sliver of its outline, and its centre, between them, gets
    no candidate (neither the blob centres nor the grid, which needs foreground there). On the
    demo's calibrated tray these were pip dice showing 2 (their two pips far from the centre): 11
    of 2,657 flat d6 in 600 trays were not found, none with these points."""
    height, width = shape[:2]
    return [Candidate((min(max(cx + dx * side, 0.0), width - 1.0), min(max(cy + dy * side, 0.0), height - 1.0)),
                      side, 0.0, False)
            for cx, cy in centres for dx in AROUND_STEPS for dy in AROUND_STEPS]


SMALL_SIDE = 22.0
"""A die side (working pixels: the typical one, or the lone dice's) under which a larger frame is
also looked at less shrunk: the finder learnt dice of about 20 to 70 pixels (the real photos'
dice are 21 to 69 at 640 px)."""

LOOK_AGAIN_SIDE = 36.0
"""The typical die side (working pixels) a frame is looked at again for, when its dice were too small."""


@dataclass(frozen=True)
class View:
    """A frame as the finder looks at it: the working image, its scale from the frame, its candidates."""

    scale: float
    work: np.ndarray
    proposals: Proposals


def working_views(frame: np.ndarray) -> list[View]:
    """How to look at a frame: shrunk to :data:`WORK_PX`; and when its dice may be small there (a
    wide view, a large photo: the typical side, or that of the lone dice, under :data:`SMALL_SIDE`),
    also shrunk less, so that they would be about :data:`LOOK_AGAIN_SIDE` pixels across (never more
    than the frame's own pixels). The reader keeps the view where the finder reads more dice surely."""
    first = working_view(frame)
    close = first.proposals.close_side
    if close is not None:
        return [first, View(first.scale, first.work, propose(first.work, close))]
    side = min(first.proposals.side, first.proposals.lone_side or first.proposals.side)
    if first.scale == 1.0 or side >= SMALL_SIDE:
        return [first]
    larger = min(1.0, first.scale * LOOK_AGAIN_SIDE / side)
    work = shrink(frame, larger)
    return [first, View(larger, work, propose(work, side * larger / first.scale))]


CLOSER_PX = 2048
"""Longest side of a view looked at closer (:func:`closer_view`): bounds its time and memory."""


def closer_view(frame: np.ndarray, view: View, factor: float = 2.0) -> View:
    """The frame looked at as if ``view``'s typical die side were ``factor`` times too large: shrunk
    less, so that dice of that smaller side would be :data:`LOOK_AGAIN_SIDE` pixels across (never
    more than the frame's own pixels, nor :data:`CLOSER_PX` on the longer side), and proposed for
    that side. One size guess per frame can be wrong (a heap, noise, a frame edge, chips taken for
    dice): the reader looks closer when the finder reads few dice surely."""
    side = view.proposals.side / factor
    scale = max(view.scale, min(1.0, view.scale * LOOK_AGAIN_SIDE / side, CLOSER_PX / max(frame.shape[:2])))
    work = view.work if scale == view.scale else shrink(frame, scale)
    return View(scale, work, propose(work, side * scale / view.scale, CLOSER_SPREAD))


CLOSER_SPREAD = 1.8
"""How far (a factor) the closer view's die side may lie from the side it looks for. 1.4 keeps a
heap's widths from taking it back to the too large guess and finds two more real photos in a
1536x864 frame (IMG_20191208_111304, 111411), but loses dice of others (111228 in that frame and
noisy: 18-19 of 22 read right, against 21-22); 1.6 is between."""


def working_view(frame: np.ndarray) -> View:
    """The frame shrunk to :data:`WORK_PX` (never enlarged), with its candidates: the first of
    :func:`working_views`."""
    scale = working_scale(frame.shape)
    work = shrink(frame, scale)
    return View(scale, work, propose(work))


def _outside(grid: list[Candidate], blobs: list[np.ndarray], shape: tuple[int, ...]) -> list[Candidate]:
    """The grid points that lie on none of ``blobs`` (contours of lone dice, each already proposed at its centre).

    A lone die needs no grid over it: its blob's centre is its centre. Left out, the finder looks
    at 7 candidates instead of 49 on the benchmark's 7-dice frame (``bench/dice_reader.py``).
    """
    if not blobs or not grid:
        return grid
    covered = np.zeros(shape[:2], np.uint8)
    cv2.drawContours(covered, blobs, -1, 1, cv2.FILLED)
    return [c for c in grid if not covered[int(c.center[1]), int(c.center[0])]]


ALONE_BLOBS = 16
"""Up to this many blobs, blobs whose boxes overlap no other blob's get their distances from their own box."""

Box = Sequence[int]
"""x, y, width, height."""


def _widths(mask: np.ndarray, boxes: list[Box], every: list[Box]) -> list[float]:
    """Twice the largest distance to the background inside each blob's box (its widest inscribed circle).

    ``boxes`` are the blobs' boxes, ``every`` those of all blobs in ``mask``. The distances are
    those of the whole mask (up to float rounding: OpenCV's sums may round a last bit differently
    on a crop). A blob's nearest background pixels lie within its box grown by one pixel, so when
    no box overlaps another each blob is measured on its own box (nothing else is set there but
    islands in its holes); otherwise all are measured on the box around all foreground, grown by
    one pixel where the frame allows.
    """
    if not boxes:
        return []
    if len(boxes) <= ALONE_BLOBS and _apart(boxes, every):
        return [_width_in(mask, box) for box in boxes]
    x, y, w, h = cv2.boundingRect(mask)
    x0, y0 = max(0, x - 1), max(0, y - 1)
    inside = cv2.distanceTransform(mask[y0:y + h + 1, x0:x + w + 1], cv2.DIST_L2, 3)
    return [2.0 * float(inside[by - y0:by - y0 + bh, bx - x0:bx - x0 + bw].max()) for bx, by, bw, bh in boxes]


def _apart(boxes: list[Box], every: list[Box]) -> bool:
    """Whether each of ``boxes`` (each also in ``every``) overlaps no other box of ``every``."""
    a, b = np.array(boxes)[:, None, :], np.array(every)[None, :, :]
    overlap = ((a[..., 0] < b[..., 0] + b[..., 2]) & (b[..., 0] < a[..., 0] + a[..., 2])
               & (a[..., 1] < b[..., 1] + b[..., 3]) & (b[..., 1] < a[..., 1] + a[..., 3]))
    return bool((overlap.sum(axis=1) == 1).all())


def _width_in(mask: np.ndarray, box: Box) -> float:
    """Twice the largest distance to the background inside ``box``, measured on the box grown by one pixel."""
    x, y, w, h = box
    x0, y0 = max(0, x - 1), max(0, y - 1)
    inside = cv2.distanceTransform(mask[y0:y + h + 1, x0:x + w + 1], cv2.DIST_L2, 3)
    return 2.0 * float(inside[y - y0:y - y0 + h, x - x0:x - x0 + w].max())


MAX_CANDIDATES = 800
"""Most candidates one view proposes: noise or a closer look for small dice (a grid four times as
dense) gave up to 9,178, and the finder's time grows with them (the clean real photos have at most
529 in their first view, 3,355 when looked at closer)."""

TRAY_CANDIDATES = 1500
"""Most candidates of a calibrated tray's view (the die size fixed): a tray with a pattern (wood
grain) under changed light is foreground all over, and its grid, made coarser to fit
:data:`MAX_CANDIDATES`, passed between the dice: on ``bench/faces_reader.py --tray-frames 300``
letters found 1604 -> 1625 of 1631 dice, d12 1585 -> 1610 of 1611, d8-tauren 1664 -> 1670 of 1670.
The median read time stays (about 120 ms on one core); the slowest tray, on such a pattern, took
about 550 ms instead of 350-400 (2,500 candidates: about the same dice, slowest 650-800 ms)."""


def uncovered(proposals: Proposals, taken: Sequence[tuple[tuple[float, float], float]],
              sides: Sequence[float], room: int) -> tuple[Candidate, ...]:
    """Grid candidates over the foreground of ``proposals`` that no ``taken`` disc (centre, radius)
    covers, for dice of each of ``sides``, at most ``room`` per side. What is left of the mask is
    opened by a third of a die first, so a sliver beside a die found is not looked at again."""
    rest = proposals.mask.copy()
    for (x, y), radius in taken:
        cv2.circle(rest, (int(round(x)), int(round(y))), int(radius), 0, -1)
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, _disc(max(3, int(0.35 * proposals.side) | 1)))
    if not rest.any():
        return ()
    return tuple(c for side in sides for c in _capped_grid(rest, side, room))


def _capped_grid(mask: np.ndarray, side: float, room: int) -> list[Candidate]:
    """:func:`_grid`, made coarser (then cut) when it would give more than ``room`` points."""
    grid = _grid(mask, side)
    if len(grid) <= room:
        return grid
    return _grid(mask, side, math.sqrt(len(grid) / max(room, 1)))[:max(room, 0)]


def _grid(mask: np.ndarray, side: float, coarser: float = 1.0) -> list[Candidate]:
    """Points every third of a die side (``coarser`` times that) over the (slightly eroded)
    foreground, so every die has one near its centre.

    The foreground is closed with a disc of 0.45 side, then eroded with one of 0.2 side; see
    :func:`_grid_points` for how that is tested at the grid points only.
    """
    step = max(2, int(round(side / 3 * coarser)))
    xs, ys = _grid_points(mask, max(3, int(side * 0.45) | 1), max(3, int(side * 0.2) | 1), step)
    return [Candidate((float(x), float(y)), side, 0.0, False) for x, y in zip(xs.tolist(), ys.tolist())]


def _grid_points(mask: np.ndarray, close: int, erode: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Grid points (x, y, rows first) where ``mask`` closed by ``_disc(close)``, eroded by ``_disc(erode)``, is set.

    The same points as OpenCV's ``erode(morphologyEx(mask, MORPH_CLOSE, disc), disc)`` gives, for less:
    closing is a dilation then an erosion, and two erosions by these discs (centred, symmetric,
    rows shrinking away from the middle) are one erosion by their sum, the frame's outside counting
    as set as OpenCV has it. That sum is a union of centred rectangles, so a point survives when
    every rectangle around it, clipped to the frame, is all set in the dilated mask: a count read
    off its integral image. The dilation is only needed on the box around the foreground grown by
    the disc (it is empty outside, so no point outside survives).
    """
    height, width = mask.shape
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    grow = close // 2
    x0, y0 = max(0, x - grow), max(0, y - grow)
    x1, y1 = min(width, x + w + grow), min(height, y + h + grow)
    sums = cv2.integral(disc_filter(mask[y0:y1, x0:x1], close, cv2.dilate))
    xs = np.arange(step // 2, width, step)
    ys = np.arange(step // 2, height, step)
    xs, ys = xs[(xs >= x0) & (xs < x1)], ys[(ys >= y0) & (ys < y1)]
    half_w, half_h = _sum_levels(close, erode)
    left, right = np.maximum(xs - half_w, 0), np.minimum(xs + half_w + 1, width)  # (rectangles, 1, columns)
    column = ys[:, None]
    top, bottom = np.maximum(column - half_h, 0), np.minimum(column + half_h + 1, height)  # (rectangles, rows, 1)
    inside = (right - left) * (bottom - top)
    left, right = np.clip(left - x0, 0, x1 - x0), np.clip(right - x0, 0, x1 - x0)
    top, bottom = np.clip(top - y0, 0, y1 - y0), np.clip(bottom - y0, 0, y1 - y0)
    count = sums[bottom, right] - sums[top, right] - sums[bottom, left] + sums[top, left]
    rows, columns = np.nonzero((count == inside).all(axis=0))
    return xs[columns], ys[rows]


@lru_cache(maxsize=64)
def _sum_levels(close: int, erode: int) -> tuple[np.ndarray, np.ndarray]:
    """Half-widths and half-heights of the rectangles making up the sum of ``_disc(close)`` and ``_disc(erode)``.

    Shaped (rectangles, 1, 1) to broadcast over a grid.
    """
    size = close + erode - 1
    canvas = np.zeros((size, size), np.uint8)
    canvas[erode // 2:erode // 2 + close, erode // 2:erode // 2 + close] = _disc(close)
    levels = _levels(cv2.dilate(canvas, _disc(erode)))
    half_w, half_h = (np.array(v).reshape(-1, 1, 1) for v in zip(*levels))
    return half_w, half_h


def disc_filter(image: np.ndarray, size: int, operation: Morphology) -> np.ndarray:
    """``operation`` (``cv2.dilate`` or ``cv2.erode``) with ``_disc(size)``, the same result, in row and column passes.

    The disc is a union of centred rectangles, one per distinct row half-width ``dx`` (with the
    largest ``dy`` having it); dilating by a union is the maximum of the dilations, and each is a
    row pass then a column pass. Ordered by widening rows (``r_k``, each from the last) and
    shrinking column reach ``dy_k``, ``max_k col_{dy_k}(r_k)`` is computed with small kernels as
    ``V_1 = r_1``, ``V_k = max(col_{dy_(k-1) - dy_k}(V_(k-1)), r_k)``, result ``col_{dy_K}(V_K)``
    (erosion alike with minima).
    """
    combine = cv2.max if operation is cv2.dilate else cv2.min
    levels = _disc_levels(size)
    rows = image
    reach = 0
    result: np.ndarray | None = None
    for (dx, dy), (_, next_dy) in zip(levels, levels[1:] + ((0, 0),)):
        if dx > reach:
            rows = operation(rows, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * (dx - reach) + 1, 1)))
            reach = dx
        result = rows if result is None else combine(result, rows)
        if dy > next_dy:
            result = operation(result, cv2.getStructuringElement(cv2.MORPH_RECT, (1, 2 * (dy - next_dy) + 1)))
    assert result is not None
    return result


@lru_cache(maxsize=64)
def _disc_levels(size: int) -> tuple[tuple[int, int], ...]:
    """The rectangles (half-width, half-height) whose union is ``_disc(size)``, narrowest (tallest) first."""
    return _levels(_disc(size))


def _levels(shape: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The centred rectangles (half-width, half-height) whose union is ``shape``, narrowest (tallest) first.

    ``shape`` is an odd square of centred rows that shrink away from the middle (a disc, or a sum of discs).
    """
    half = [int(row.sum()) // 2 for row in shape]
    centre = len(half) // 2
    levels = tuple((dx, max(abs(i - centre) for i, h in enumerate(half) if h >= dx)) for dx in sorted(set(half)))
    union = np.zeros_like(shape)
    for dx, dy in levels:
        union[centre - dy:centre + dy + 1, centre - dx:centre + dx + 1] = 1
    if not np.array_equal(union, shape):
        raise ValueError("shape is not a union of centred rectangles")
    return levels


SPECK = 0.35
"""On a calibrated tray, a hit whose marks (:func:`marks_span`) span less than this many die sides is
a speck (a crumb, a chip's flake), not a die. Twelve crumbs of 4-10 px (round, dark, grey or brown)
strewn on each of 20 felt trays beside four dice 38-46 px across were read as 125, 122 and 115
false dice (letters, d12, d8-tauren: cocked or of another kind) and as 5 on d6 trays, 3 of them a
sure "1"; with this check, 9, 7, 9 and 1, none with a value. No die of 200 calibrated letter trays
(``bench/faces_reader.py --tray-frames``' trays: a quarter with a cocked die, heaps, patterned
trays) spans under 0.6, and those trays of every face kind, and 200 of the demo's d6 trays
(``bench/demo_tray.py``), read the same with the check as without."""

SPECK_FLOOR = 25
"""Least difference (of a BGR channel, 0-255) from the tray around a die that counts as a mark."""

SPECK_NOISE = 6.0
"""A mark differs from the tray by more than this many of the tray's own spreads (its texture, the
camera's noise: 1.4826 times the median absolute deviation around the die)."""

SPECK_STEP = 1 / 40
"""The finest :func:`marks_span` looks, in die sides: every pixel of a die up to 80 px across, every
other pixel up to 120, and so on."""

PLAIN_TRAY = 15.0
"""The most the ring around a hit may differ from its own median (its median difference plus its
spread) for :func:`marks_span` to judge it: beyond, dice or a pattern lie around it."""


def marks_span(frame: np.ndarray, centre: tuple[float, float], die_px: float) -> float:
    """How far the marks near ``centre`` span, in die sides (``die_px``): the pixels within 0.6 die
    sides of it that differ from the tray (the median of a ring 0.85-1 die sides out, which a
    neighbouring die may half cover), the larger side of their bounding box. A die spans its whole
    side (its outline, its face's marks, its shading, even on a tray of its body's colour); a crumb
    its own few pixels. Looked at every :data:`SPECK_STEP`-th of a die's side at most (a die 400 px
    across took 57 ms a hit at every pixel)."""
    h, w = frame.shape[:2]
    cx, cy, reach = int(round(centre[0])), int(round(centre[1])), max(2, int(round(die_px)))
    x0, y0, x1, y1 = max(0, cx - reach), max(0, cy - reach), min(w, cx + reach + 1), min(h, cy + reach + 1)
    step = max(1, int(die_px * SPECK_STEP))
    window = frame[y0:y1:step, x0:x1:step].astype(np.int16)
    ys, xs = np.mgrid[y0:y1:step, x0:x1:step]
    far = np.maximum(np.abs(xs - cx), np.abs(ys - cy))
    ring = window[far >= 0.85 * die_px]
    if len(ring) < 16:
        return 1.0  # at the frame's edge: no tray to compare with
    tray = np.median(ring, axis=0)
    away = np.abs(window - tray).max(axis=2)
    around = away[far >= 0.85 * die_px]
    level = float(np.median(around))
    spread = 1.4826 * float(np.median(np.abs(around - level)))
    if level + spread > PLAIN_TRAY:
        return 1.0  # dice or a pattern around it, not a plain tray: no judging what lies there
    marked = (away > max(SPECK_FLOOR, level + SPECK_NOISE * spread)) & (far <= 0.6 * die_px)
    if not marked.any():
        return 0.0
    my, mx = ys[marked], xs[marked]
    return float(max(mx.max() - mx.min(), my.max() - my.min()) + step) / die_px


def is_crumb(frame: np.ndarray, centre: tuple[float, float], die_px: float) -> bool:
    """Whether what lies at ``centre`` of ``frame`` is a crumb, not a die ``die_px`` across: its marks
    span under :data:`SPECK` of that side (:func:`marks_span`)."""
    return marks_span(frame, centre, die_px) < SPECK
