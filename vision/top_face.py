"""Where a die's top face lies, to a pixel, from its body colour: for dice of a set taught by
pictures (:mod:`vision.teach`), whose look no network was trained on.

The finder's hits put a new look's die's centre up to half a side off and its size at 0.2-1.3
times the truth (it takes letters for small dice); a taught set's crops compared at those places
read 60% of the dice right, and 99.5% at the true centres. So a hit is taken as a hint: around
it, the pixels of the set's body colour (its ink filled in as holes) make the top face; the point
deepest inside them is its centre, and the rectangle around them its size and turn (to a pixel
and a degree on rendered dice). OpenCV only.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WINDOW = 5.0
"""The window looked at around a hint, in the hint's die sides: the finder may take a letter or a
corner of a new look's die for a die a third of its size."""

WINDOW_PX = 240
"""The window's size in pixels: a hint's die is 48 px across in it."""

REACH = 1.0
"""How far from the hint the top face's centre may lie, in radii of the circle inside the face."""

LEAST_DISTANCE = 20.0
"""Least colour distance (CIELAB) from the body colour that is not body: over sensor noise and the
light's fall across a face (``bench/teach_reader.py`` at 10, 20 and 25: 398, 399 and 398 of 403
dice read right; with ``--first 20000``, 393, 396 and 393 of 398)."""

SPREAD_TIMES = 3.0
"""Pixels further from the body colour than this many times its spread (the median distance of the
body's pixels) are not body."""

FACE_SIDES = (0.3, 3.5)
"""The sizes of top face (in hint sides) taken; outside, the body colour ran into the tray (or
found a speck) and the hint stands."""

LEAST_RADIUS = 4.0
"""Least radius (window pixels) of the circle inside a top face."""

DIE_PER_FACE = 1.33
"""A die's side as the finder measures it (its visible box), per top face side, seen from above."""

BACKGROUND = 25.0
"""Least colour distance of a teaching picture's die from the picture's edge colour."""


@dataclass(frozen=True)
class TopFace:
    """A top face found in a frame: centre and side in frame pixels, its turn (degrees, 0-90), and
    the short side over the long of the least rectangle around it (:attr:`aspect`)."""

    center: tuple[float, float]
    side: float
    angle: float
    aspect: float = 1.0
    """About 1 for a square face seen square on; a leaning cube's top face is foreshortened
    (:data:`vision.teach.SQUARE_UNDER`)."""


def picture_body(picture: np.ndarray) -> np.ndarray:
    """The body colour (CIELAB, 3 floats) of the one die in a BGR teaching picture: of the pixels
    unlike the picture's edge, in their largest patch, the commonest of three colours (body,
    shaded sides, ink: seen from above, the top face is the most of the die)."""
    lab = _lab(picture)
    edge = np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]])
    unlike = (np.linalg.norm(lab - np.median(edge, axis=0), axis=2) > BACKGROUND).astype(np.uint8)
    unlike = cv2.morphologyEx(unlike, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, patches, stats, _ = cv2.connectedComponentsWithStats(unlike)
    if count < 2:
        return np.asarray(np.median(lab.reshape(-1, 3), axis=0))
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return _commonest(lab[patches == largest], 3)


def locate(frame: np.ndarray, center: tuple[float, float], side: float, body: np.ndarray) -> TopFace | None:
    """The top face of the die of ``body`` colour (CIELAB) near a hint (centre and die side in
    ``frame`` pixels), or None when none of a plausible size lies within :data:`REACH`. A face
    that runs out of the window is looked for again in one twice as wide (:data:`WIDENINGS` times):
    the finder may take a letter's bowl for a die a fifth of the size."""
    for widening in range(WIDENINGS + 1):
        face, narrow = _look(frame, center, side * 2 ** widening, body)
        if not narrow:
            return face
    return None


WIDENINGS = 2
"""How many times :func:`locate` looks again in a window twice as wide."""


def _look(frame: np.ndarray, center: tuple[float, float], side: float, body: np.ndarray) -> tuple[TopFace | None, bool]:
    """:func:`locate` in one window: the face, and whether it ran out of the window."""
    scale = WINDOW_PX / (WINDOW * side)
    to_window = np.array([[scale, 0, WINDOW_PX / 2 - scale * center[0]], [0, scale, WINDOW_PX / 2 - scale * center[1]]])
    window = cv2.warpAffine(frame, to_window, (WINDOW_PX, WINDOW_PX), borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.warpAffine(np.ones(frame.shape[:2], np.uint8), to_window, (WINDOW_PX, WINDOW_PX),
                            flags=cv2.INTER_NEAREST, borderValue=0)
    face = _face_mask(_lab(window), inside, body, WINDOW_PX / WINDOW)
    depth = cv2.distanceTransform(face, cv2.DIST_L2, 5)
    peaks = np.argwhere((depth >= cv2.dilate(depth, np.ones((5, 5), np.uint8))) & (depth >= LEAST_RADIUS))
    middle = WINDOW_PX / 2
    reach = [float(np.hypot(x - middle, y - middle)) / float(depth[y, x]) for y, x in peaks]
    if not reach or min(reach) > REACH:
        return None, False
    y, x = peaks[int(np.argmin(reach))]
    radius = float(depth[y, x])
    ys, xs = np.mgrid[:WINDOW_PX, :WINDOW_PX]
    around = ((face > 0) & (np.hypot(xs - x, ys - y) < 1.5 * radius)).astype(np.uint8)
    if around[[0, -1]].any() or around[:, [0, -1]].any():
        return None, True
    if not FACE_SIDES[0] <= 2 * radius / (WINDOW_PX / WINDOW) <= FACE_SIDES[1]:
        return None, False
    around = _parted(around, (x, y), radius)
    outline = max(cv2.findContours(around, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    (cx, cy), (width, height), angle = cv2.minAreaRect(cv2.convexHull(outline))
    return TopFace((center[0] + (cx - WINDOW_PX / 2) / scale, center[1] + (cy - WINDOW_PX / 2) / scale),
                   max(width, height) / scale, angle % 90.0, min(width, height) / max(width, height, 1e-6)), False


def _parted(face: np.ndarray, center: tuple[int, int], radius: float) -> np.ndarray:
    """The part of a ``face`` mask around its ``center`` once opened by a disc of :data:`NECK` times
    the ``radius`` of the circle inside it: two faces touching at a corner, or bridged by the mask's
    closing, part (``bench/teach_reader.py``, seeds 20000-20199: 2 of 398 dice read wrong or lost
    against 5)."""
    size = max(3, int(NECK * radius) | 1)
    opened = cv2.morphologyEx(face, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    _, parts = cv2.connectedComponents(opened)
    part = parts[center[1], center[0]]
    return np.asarray(parts == part, np.uint8) if part else face


NECK = 0.8
"""The disc parting faces that touch (:func:`_parted`), in radii of the circle inside a face."""


def _face_mask(lab: np.ndarray, inside: np.ndarray, body: np.ndarray, hint_px: float) -> np.ndarray:
    """The window's pixels of the body colour as seen near its middle (:func:`_body_seen`), their
    holes (the ink) filled."""
    half = int(hint_px / 4)
    middle = lab[WINDOW_PX // 2 - half:WINDOW_PX // 2 + half, WINDOW_PX // 2 - half:WINDOW_PX // 2 + half].reshape(-1, 3)
    seen, spread = _body_seen(middle, body)
    near = (np.linalg.norm(lab - seen, axis=2) < max(LEAST_DISTANCE, SPREAD_TIMES * spread)) & (inside > 0)
    kernel = max(3, int(0.15 * hint_px) | 1)
    mask = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kernel, kernel)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.drawContours(np.zeros_like(mask), outlines, -1, 1, cv2.FILLED)


_KMEANS = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
_LIGHTNESS_WEIGHT = np.array([0.5, 1.0, 1.0], np.float32)
"""Lightness counts half in telling the body colour from the ink: the light changes it most."""


def _body_seen(pixels: np.ndarray, body: np.ndarray) -> tuple[np.ndarray, float]:
    """Of two colours k-means finds in ``pixels`` (CIELAB: the body and the ink, or the tray), the
    one nearer ``body``, and the median distance of its pixels from it."""
    labels, centres = _kmeans(pixels, 2)
    nearer = int(np.argmin(np.linalg.norm((centres - body) * _LIGHTNESS_WEIGHT, axis=1)))
    return centres[nearer], float(np.median(np.linalg.norm(pixels[labels == nearer] - centres[nearer], axis=1)))


def _commonest(pixels: np.ndarray, colours: int) -> np.ndarray:
    """The commonest of ``colours`` colours k-means finds in ``pixels`` (CIELAB)."""
    labels, centres = _kmeans(pixels, colours)
    return np.asarray(centres[int(np.bincount(labels, minlength=colours).argmax())])


def _kmeans(pixels: np.ndarray, colours: int) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's colour (labels) and the ``colours`` colours k-means finds in ``pixels``, seeded
    alike every time (a reading does not change from one run to the next)."""
    cv2.setRNGSeed(0)
    _, labels, centres = cv2.kmeans(pixels.astype(np.float32), colours, None, _KMEANS, 3, cv2.KMEANS_PP_CENTERS)
    return labels.ravel(), centres


def _lab(image: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2LAB), np.float32)




BODY_DISTANCE = 30.0
"""Most colour distance (CIELAB, lightness counted half) from the taught body colour of the pixels
:func:`spots` looks among: the tray's light shifts a body's colour a little."""

LEAST_SPOT_PX = 6.0
"""Least radius (frame pixels) of the circle inside a spot of body colour taken for a die."""


def spots(frame: np.ndarray, body: np.ndarray) -> list[tuple[tuple[float, float], float]]:
    """Places (centre, die side in ``frame`` pixels) where patches of the ``body`` colour (ink
    filled in) are deep enough for a die: hints for :func:`locate` beside the finder's, which
    may miss a new look's dice. The deepest first, one per circle inside a patch, at most
    :data:`MOST_SPOTS` (a tray of the dice's colour is one deep patch, not a ridge of them)."""
    near = np.linalg.norm((_lab(frame) - body) * _LIGHTNESS_WEIGHT, axis=2) < BODY_DISTANCE
    mask = cv2.morphologyEx(near.astype(np.uint8), cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    mask = cv2.drawContours(np.zeros_like(mask), outlines, -1, 1, cv2.FILLED)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    peaks = np.argwhere((depth >= cv2.dilate(depth, np.ones((7, 7), np.uint8))) & (depth >= LEAST_SPOT_PX))
    kept: list[tuple[int, int, float]] = []
    for y, x in sorted(peaks.tolist(), key=lambda p: -depth[p[0], p[1]]):
        radius = float(depth[y, x])
        if all(np.hypot(x - kx, y - ky) >= max(radius, kr) for kx, ky, kr in kept):
            kept.append((x, y, radius))
            if len(kept) == MOST_SPOTS:
                break
    return [((float(x), float(y)), 2 * radius * DIE_PER_FACE) for x, y, radius in kept]


MOST_SPOTS = 16
"""The most spots :func:`spots` gives (a tray holds a dozen dice at most)."""
