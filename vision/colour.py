"""Whose die is it: a die's body colour from its crop, matched to the colours registered for the seats.

Tao Dice gives every player a d12 in the player's own colour, and all of them are rolled into the
centre: the camera tells them apart by colour. A die's colour is measured on its top face (the
part of the crop the camera sees square on, least shaded), in CIE Lab, as the densest cluster of
its pixels: a face's ink (pips, a numeral) and a glare spot are smaller than the body around
them, so they do not move it. With a calibrated tray, the white quiet zones around the four corner
markers are the white reference: the frame's colour cast and exposure are taken out first, so
that a registered colour means the same under warm bar light and cool daylight.

Matching weighs lightness half as much as hue and chroma (``L_WEIGHT``): shading and exposure
change lightness most. A die farther than :data:`MATCH_DE` from every seat's colour is nobody's.
:func:`check_colours` refuses, at setup, seat colours closer than :data:`MIN_SEPARATION` under
the tray's light, naming both seats. A registered colour (``#rrggbb``) is put in Lab by
:mod:`vision.lab`, which needs no OpenCV: the dealer's pages name it in a word with the same space.

>>> owner(lab_of_hex("#d03030"), [lab_of_hex("#2040c0"), lab_of_hex("#c83228")])
1
>>> owner(lab_of_hex("#30a040"), [lab_of_hex("#2040c0"), lab_of_hex("#c83228")]) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

import cv2
import numpy as np

from controller.games.errors import ConfigError, InvalidInput
from vision.lab import L_WEIGHT as L_WEIGHT  # the names the matching's users know them by
from vision.lab import Lab as Lab
from vision.lab import difference as difference
from vision.lab import lab_of_hex as lab_of_hex
from vision.lab import parse_hex as parse_hex

if TYPE_CHECKING:
    from vision.calibrate import Calibration

REFERENCE_WHITE = 235.0
"""The grey level (of 255) the tray's white quiet zones are brought to: white paper as a
well-exposed camera sees it. Registered colours are meant as they look next to that paper."""

MATCH_DE = 24.0
"""Largest (weighted) colour difference at which a die is still a seat's (the nearest seat's);
farther from every seat's colour it is nobody's. (Measured by ``bench/die_owners.py`` on 300 trays,
1,800 d12s under cast light, glare, blur and JPEG: with the tray's white reference they differ from
their registered colour by a median of 2.1, 11.1 at the 99th percentile and 18.1 at most; 24.6 at
most, one die, with the reader's loose boxes.)"""

MATCH_CLEAR_DE = 32.0
"""Largest colour difference at which a die farther than :data:`MATCH_DE` is still its nearest
seat's, when that seat is clearly the nearest (every other seat :data:`CLEAR_RATIO` times as far).
A blue d12 of the demo's (Tao Dice seed 76 of ``bench/table.py --camera-games 40 --first-seed
41``) came 26.2 from the blue seat and 106 from any other, and the dealer was asked whose it was.
Measured on ``bench/die_owners.py``'s trays never used to set :data:`MATCH_DE` (seeds 1001-2500 and
3001-4500, 1,500 trays each, six seats and a stranger, tight and loose boxes): seat dice called
nobody's 2 -> 1 and 12 -> 4, none given to the wrong seat; the dice of colours no seat has came
36.8 at the least from every seat, and none is taken. The dice still called nobody's lie nearly
as near another seat (second nearest 1.23 times as far): truly in doubt."""

CLEAR_RATIO = 1.5
"""How many times farther than the nearest seat's colour every other seat's must be for
:data:`MATCH_CLEAR_DE` (see there)."""

MIN_SEPARATION = 36.0
"""Least (weighted) difference between two seats' colours under the tray's light: twice the largest
colour error measured, so that a die is always nearer its own seat's colour than another's."""

TELLABLE_COLOURS = ("#d62828", "#1d4ed8", "#f2c500", "#2a9d3f", "#9030a0", "#f77f00", "#00a6a6",
                    "#ff70a6", "#f1f1ee", "#222222")
"""Ten seat colours any two of which the camera tells apart (at least 37 apart, :data:`MIN_SEPARATION`
36): red, blue, yellow, green, purple, orange, teal, pink, white, black."""

TOP_SHARE = 0.3
"""Radius of the disc the body colour is measured in, as a share of the die box's smaller side:
the top face and the upper part of the sides of a d6, d8 or d12 seen from above, inside its
outline whether the box is drawn tight (the renderer's truth) or loose (the reader's, 1.3 times
the die). More body than ink, whatever the size of the numeral."""


@dataclass(frozen=True)
class Light:
    """The tray's light as the camera sees it: per-channel gains (B, G, R) that bring the white
    reference to :data:`REFERENCE_WHITE` grey, and the white reference's level before them."""

    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    white: float = REFERENCE_WHITE

    def corrected(self, bgr: np.ndarray) -> np.ndarray:
        """BGR pixels (..., 3) under this light, brought to the reference white, float 0..255."""
        return np.asarray(np.clip(bgr.astype(np.float32) * np.array(self.gains, np.float32), 0, 255))


NO_REFERENCE = Light()
"""No white reference (an uncalibrated frame): colours are taken as the camera gives them."""


def tray_light(frame: np.ndarray, calibration: Calibration) -> Light:
    """The light on the tray, from the white quiet zones around its corner markers.

    The ring from a sixth to five sixths of a marker cell outside each marker is sampled (the
    marker's own edge and whatever lies beyond the zone stay out), and the median of its pixels
    is the white. A frame where the ring is dark (covered, or not white) gives no correction.
    """
    layout = calibration.layout
    cell = layout.marker_mm / 6
    mask = np.zeros(frame.shape[:2], np.uint8)
    for marker_id in range(4):
        corners = layout.marker_corners_mm(marker_id)
        centre = corners.mean(axis=0)
        for grow, value in ((cell * 5 / 6, 255), (cell / 6, 0)):
            square = centre + (corners - centre) * (1 + 2 * grow / layout.marker_mm)
            pixels = np.round(calibration.to_image(square)).astype(np.int32)
            cv2.fillPoly(mask, [pixels], value)
    samples = frame[mask > 0].reshape(-1, 3).astype(np.float32)
    if len(samples) < 20:
        return NO_REFERENCE
    white = np.median(samples, axis=0)
    level = float(white.mean())
    if level < 40 or float(white.min()) < 0.6 * level:
        return NO_REFERENCE  # not a white zone: no trustworthy correction
    gains = REFERENCE_WHITE / np.maximum(white, 1.0)
    return Light((float(gains[0]), float(gains[1]), float(gains[2])), level)


def body_colour(frame: np.ndarray, center: tuple[float, float], box: tuple[float, float, float, float],
                light: Light = NO_REFERENCE) -> Lab:
    """The dominant body colour of the die at ``center`` (its box ``box``: x, y, w, h in pixels).

    The pixels of a disc on the top face are corrected for the light and put in Lab; the densest
    cell of a coarse Lab histogram (lightness in wider cells), smoothed over its neighbours, is
    the body, and the mean of the pixels near it is the colour. Ink and glare are the smaller
    parts of a face, so neither wins.

    :raises InvalidInput: the disc lies outside the frame.
    """
    radius = max(2.0, TOP_SHARE * min(box[2], box[3]))
    pixels = _disc(frame, center, radius)
    if len(pixels) < 8:
        raise InvalidInput(f"no die pixels at {center[0]:.0f},{center[1]:.0f}: the die is outside the frame")
    lab = cv2.cvtColor(light.corrected(pixels).reshape(-1, 1, 3) / 255.0, cv2.COLOR_BGR2Lab).reshape(-1, 3)
    return _densest(lab)


def _disc(frame: np.ndarray, center: tuple[float, float], radius: float) -> np.ndarray:
    """The BGR pixels (N, 3) of a disc, clipped to the frame."""
    height, width = frame.shape[:2]
    x0, x1 = max(0, int(center[0] - radius)), min(width, int(center[0] + radius) + 1)
    y0, y1 = max(0, int(center[1] - radius)), min(height, int(center[1] + radius) + 1)
    if x1 <= x0 or y1 <= y0:
        return np.zeros((0, 3), np.uint8)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    inside = (xs - center[0]) ** 2 + (ys - center[1]) ** 2 <= radius ** 2
    return np.asarray(frame[y0:y1, x0:x1][inside])


CELL = (32.0, 8.0, 8.0)
"""Histogram cell of :func:`_densest` in Lab units: tall in lightness, so that a face in the light
and one in the shade of the same body fall together (Lambert shading moves lightness most)."""


def _densest(lab: np.ndarray) -> Lab:
    """The colour of the densest region of Lab space: the median of its brighter half (the
    top face, which the light from above hits squarely)."""
    cells = np.floor(lab / np.array(CELL, np.float32)).astype(np.int32)
    cells -= cells.min(axis=0)
    shape = tuple(int(n) + 1 for n in cells.max(axis=0))
    counts = np.zeros(shape, np.float32)
    np.add.at(counts, (cells[:, 0], cells[:, 1], cells[:, 2]), 1.0)
    padded = np.pad(counts, 1)
    smooth = sum(padded[dl:dl + shape[0], da:da + shape[1], db:db + shape[2]]
                 for dl in range(3) for da in range(3) for db in range(3))
    peak = np.array(np.unravel_index(int(np.argmax(smooth)), shape))
    near = lab[np.abs(cells - peak).max(axis=1) <= 1]
    lit = near[near[:, 0] >= np.median(near[:, 0])]
    colour = np.median(lit, axis=0)
    return float(colour[0]), float(colour[1]), float(colour[2])


def owner(colour: Lab, seats: Sequence[Lab]) -> int | None:
    """The seat (index into ``seats``) whose colour ``colour`` is, or None: nobody's, farther than
    :data:`MATCH_DE` from every seat's colour, unless within :data:`MATCH_CLEAR_DE` of one and
    every other :data:`CLEAR_RATIO` times as far.

    >>> red, blue = lab_of_hex("#d62828"), lab_of_hex("#1d4ed8")
    >>> owner((26.6, 23.5, -52.8), [red, blue])  # the demo's blue die, 26.2 from blue
    1
    >>> owner((26.6, 23.5, -52.8), [red]) is None  # no seat has its colour
    True
    """
    if not seats:
        return None
    distances = [difference(colour, seat) for seat in seats]
    best = min(range(len(seats)), key=distances.__getitem__)
    others = [d for seat, d in enumerate(distances) if seat != best]
    clear = distances[best] <= MATCH_CLEAR_DE and all(d >= CLEAR_RATIO * distances[best] for d in others)
    return best if distances[best] <= MATCH_DE or clear else None


def separation_needed(light: Light = NO_REFERENCE) -> float:
    """The least difference two seats' colours need under ``light``: :data:`MIN_SEPARATION`, more
    on a tray darker than the reference white (fewer grey levels between colours, more noise)."""
    return MIN_SEPARATION * max(1.0, REFERENCE_WHITE / max(light.white, 1.0))


def check_colours(colours: Sequence[str], names: Sequence[str] = (), light: Light = NO_REFERENCE) -> None:
    """Refuse seat colours (``"#rrggbb"``, one per seat) that the camera cannot tell apart under
    ``light``: the first pair closer than :func:`separation_needed`, named by seat and name.

    :raises ConfigError: ``seats 1 (Ben) #c83228 and 3 (Dev) #d03a30 are too close to tell apart
        ...``; or a colour that is not ``#rrggbb``.
    """
    labs = []
    for seat, colour in enumerate(colours):
        try:
            labs.append(lab_of_hex(colour))
        except InvalidInput as err:
            raise ConfigError(f"seat {_seat(seat, names)}: {err}") from None
    need = separation_needed(light)
    for one in range(len(labs)):
        for other in range(one + 1, len(labs)):
            apart = difference(labs[one], labs[other])
            if apart < need:
                raise ConfigError(
                    f"seats {_seat(one, names)} {colours[one]} and {_seat(other, names)} {colours[other]} "
                    f"are too close to tell apart under the tray's light (difference {apart:.0f}, "
                    f"at least {need:.0f} needed): give one of them a die of another colour")


def _seat(seat: int, names: Sequence[str]) -> str:
    return f"{seat} ({names[seat]})" if seat < len(names) else str(seat)
