"""A flat die's sides, as a calibrated camera sees them, painted over before the d6 readers look.

A camera ``H`` mm above the tray sees a flat die's top face, ``h`` mm above the tray, further from
the point straight below it than the die's footprint: in the top-down tray view the top face lies
``d * h / (H - h)`` beyond the footprint (``d`` the footprint's distance from that point), and
between the two lie the sides that face the camera, their pips in view. At a tray's edge, under
a camera with a 40 degree lens, that band is a third of a die's side. The d6 readers were taught
dice seen from straight above, and read such a die with a share for "unreadable" (a die that may
lean): it goes to the dealer though its top face is in plain view. With the camera's height known
(a calibration with the lens's focal length), :meth:`SideView.painted` paints the band in the
tray's colour, so that the readers see the top face as from straight above.

Only the readers' crops are painted: the cocked network (:mod:`vision.faces`) still sees the sides,
which are what tells it a leaning die from a flat one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

TOP_AHEAD = 0.47
"""Where a flat die's top face lies from the centre the finder gives it, when the camera sees its
sides: this share of the way from its footprint's centre to its top face's further on (the finder
centres the whole die it sees; on 100 of the demo's trays, 441 flat d6, the median, half of them
within 0.43-0.50)."""

PAINTED_AHEAD = (TOP_AHEAD, 0.0)
"""Where a doubted die's top face is taken to lie when its sides are painted over, tried in turn
(shares of the shift beyond the finder's centre; :func:`vision.read._sides_painted` keeps the
surer reading of the same face): :data:`TOP_AHEAD`, then on the finder's centre itself, as if
the finder had centred the top face alone. A light die under a warm glare, its sides
in shadow, painted at :data:`TOP_AHEAD` kept a side and its pips in view and lost the top face's
lower edge: a 5 read at 0.54 (0.91 painted at the centre), and a green 6 at 0.73 (0.83), the two
d6 that the dealer entered in 40 demo games of Tao Dice (seeds 15 and 40,
``bench/table.py --camera-games 40 --camera-game tao``): those games now send none of their 767
rolls to the dealer, none misread and taken, 1 of 38 throws with a cocked die taken with a value
as before (with :data:`vision.faces.TOP_AHEAD` too). On the demo's tray
(``bench/demo_tray.py --kinds d6``: 400 trays of seed 1, and 200 of seed 7 and 300 of seed 8 each
with a cocked d6) nothing else changed: 1751 of 1758, 691 of 695 and 1033 of 1037 flat dice read
right and accepted, cocked dice taken 1, 6 and 3, as with :data:`TOP_AHEAD` alone (three places,
0.2, 0.47 and 0.8, once took a cocked die more: ``vision/README.md``). Painting at the centre alone
read 2 fewer flat dice of the 1,758 and took 1 fewer cocked die of seed 7's."""

KEEP = 1.03
"""The top face, this much larger than the calibration's, is left as it is: the band's paint stops
short of its edge by the blur of a pixel or two."""

LEAST_SHIFT_PX = 1.0
"""A band narrower than this (a die near the point below the camera) is left: there is no side to paint."""


@dataclass(frozen=True)
class SideView:
    """How the camera sees flat dice in a top-down view of a calibrated tray.

    ``below`` is the view's point straight below the camera (pixels), ``rise`` a die's height over
    the camera's (both above the tray), ``top_px`` and ``foot_px`` the sides of a die's top face and
    of its footprint in the view's pixels, ``felt`` the tray's colour (BGR).
    """

    below: tuple[float, float]
    rise: float
    top_px: float
    foot_px: float
    felt: tuple[int, int, int]

    def shift(self, center: tuple[float, float]) -> np.ndarray:
        """The view's vector from a flat die's footprint centre to its top face's, for a die the
        finder centres at ``center`` (:data:`TOP_AHEAD` of it short of the top face's).

        >>> view = SideView((0.0, 0.0), 0.02, 30.0, 29.0, (0, 90, 0))
        >>> [round(float(v), 2) for v in view.shift((200.0, 0.0))]
        [4.04, 0.0]
        """
        return top_shift(center, self.below, self.rise)

    def seen(self, center: tuple[float, float]) -> bool:
        """Whether the camera sees the sides of a flat die the finder centres at ``center``
        (a band of at least :data:`LEAST_SHIFT_PX`)."""
        return float(np.hypot(*self.shift(center))) >= LEAST_SHIFT_PX

    def painted(self, frame: np.ndarray, center: tuple[float, float], angle_deg: float,
                ahead: float = TOP_AHEAD) -> np.ndarray:
        """``frame`` with the sides of the flat die that the finder centres at ``center``, its edges
        turned ``angle_deg`` (:func:`vision.crops.dominant_angle`), painted in the tray's colour;
        ``frame`` itself when the camera sees no side of it. Its top face is taken to lie
        ``ahead`` of the shift beyond ``center`` (:data:`PAINTED_AHEAD`)."""
        shift = self.shift(center)
        if float(np.hypot(*shift)) < LEAST_SHIFT_PX:
            return frame
        top = np.asarray(center, np.float64) + ahead * shift
        outline = cv2.convexHull(np.vstack([_square(top, self.top_px, angle_deg),
                                            _square(top - shift, self.foot_px, angle_deg)]).astype(np.float32))
        x, y, w, h = cv2.boundingRect(outline)
        x0, y0 = max(x - 1, 0), max(y - 1, 0)
        x1, y1 = min(x + w + 1, frame.shape[1]), min(y + h + 1, frame.shape[0])
        if x1 <= x0 or y1 <= y0:
            return frame
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        corner = np.array([x0, y0], np.float64)
        _fill(mask, outline.reshape(-1, 2) - corner, 255)
        _fill(mask, _square(top, self.top_px * KEEP, angle_deg) - corner, 0)
        share = mask.astype(np.float32)[..., None] / 255.0
        out = frame.copy()
        window = out[y0:y1, x0:x1].astype(np.float32)
        out[y0:y1, x0:x1] = np.round(window * (1.0 - share) + np.array(self.felt, np.float32) * share).astype(np.uint8)
        return out


def top_shift(center: tuple[float, float], below: tuple[float, float], rise: float) -> np.ndarray:
    """The vector from a flat die's footprint centre to its top face's, in a view of the tray seen
    from a camera whose point straight below is ``below`` and over which a die rises ``rise`` of
    its height, for a die the finder centres at ``center`` (:data:`TOP_AHEAD` of it short of the
    top face's).

    >>> [round(float(v), 2) for v in top_shift((200.0, 0.0), (0.0, 0.0), 0.02)]
    [4.04, 0.0]
    """
    away = np.asarray(center, np.float64) - np.asarray(below, np.float64)
    # the finder's centre lies (1 - TOP_AHEAD) of the shift beyond the footprint, and the
    # shift is the footprint's distance from the point below the camera times h / (H - h)
    footprint = float(np.hypot(*away)) / (1.0 + rise / (1.0 - rise) * (1.0 - TOP_AHEAD))
    length = footprint * rise / (1.0 - rise)
    return np.zeros(2) if footprint == 0.0 else away / np.hypot(*away) * length


def _square(center: np.ndarray, side: float, angle_deg: float) -> np.ndarray:
    """The four corners (4, 2) of a square of ``side`` around ``center``, its edges turned ``angle_deg``."""
    theta = math.radians(angle_deg)
    along, across = np.array([math.cos(theta), math.sin(theta)]), np.array([-math.sin(theta), math.cos(theta)])
    return np.array([center + (i * along + j * across) * side / 2 for i, j in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def _fill(mask: np.ndarray, polygon: np.ndarray, value: int) -> None:
    """Fill ``polygon`` (N, 2, float pixels) in ``mask`` with ``value``, its edges anti-aliased."""
    cv2.fillConvexPoly(mask, np.round(polygon * 16).astype(np.int32), value, cv2.LINE_AA, 4)
