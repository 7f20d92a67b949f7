"""A colour given as ``#rrggbb`` in CIE Lab, and the word a person would use for it, in plain Python.

:mod:`vision.colour` matches dice to seats with these; the dealer's pages name a seat's colour
with :func:`colour_word` ("the blue d6", not "#1d4ed8") without loading OpenCV or numpy. The
conversion is OpenCV's sRGB to Lab (D65 white, the same matrix and curve), computed exactly where
OpenCV interpolates a table: the two agree within half a unit, far inside
:data:`vision.colour.MATCH_DE`.

>>> colour_word("#1d4ed8"), colour_word("#87ceeb"), colour_word("#8b4513")
('blue', 'blue', 'brown')
"""

from __future__ import annotations

import math
from typing import Sequence

from controller.games.errors import InvalidInput

Lab = tuple[float, float, float]
"""A colour in CIE L*a*b* (L 0..100, a and b about -128..127), D65 white as OpenCV converts sRGB."""

L_WEIGHT = 0.5
"""Weight of a lightness difference against a hue or chroma difference: shading, exposure and
the die's own gloss move lightness most."""

WHITE_X, WHITE_Z = 0.950456, 1.088754
"""D65's X and Z (Y is 1), by which OpenCV divides."""

TO_XYZ = ((0.412453, 0.357580, 0.180423), (0.212671, 0.715160, 0.072169), (0.019334, 0.119193, 0.950227))
"""Linear sRGB (R, G, B) to CIE XYZ, OpenCV's matrix."""


def parse_hex(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` as a BGR triple.

    >>> parse_hex("#ff8000")
    (0, 128, 255)

    :raises InvalidInput: not a ``#rrggbb`` colour.
    """
    text = colour.strip()
    digits = text[1:] if text.startswith("#") else ""
    try:
        if len(digits) != 6:
            raise ValueError(colour)
        red, green, blue = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        raise InvalidInput(f"colour {colour!r}: expected #rrggbb, e.g. #c83228") from None
    return blue, green, red


def lab_of_bgr(bgr: Sequence[float]) -> Lab:
    """One BGR colour (0..255) in Lab.

    >>> [round(v, 1) for v in lab_of_bgr((255, 255, 255))]
    [100.0, 0.0, 0.0]
    """
    red, green, blue = (_linear(channel / 255.0) for channel in reversed(bgr[:3]))
    x, y, z = (row[0] * red + row[1] * green + row[2] * blue for row in TO_XYZ)
    fx, fy, fz = _cube_root(x / WHITE_X), _cube_root(y), _cube_root(z / WHITE_Z)
    lightness = 116 * fy - 16 if y > 0.008856 else 903.3 * y
    return lightness, 500 * (fx - fy), 200 * (fy - fz)


def _linear(channel: float) -> float:
    """An sRGB channel (0..1) without its gamma."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def _cube_root(t: float) -> float:
    """Lab's f(t): the cube root, a line near black."""
    return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116


def lab_of_hex(colour: str) -> Lab:
    """A ``"#rrggbb"`` colour in Lab.

    :raises InvalidInput: not a ``#rrggbb`` colour.
    """
    return lab_of_bgr(parse_hex(colour))


def difference(one: Lab, other: Lab) -> float:
    """The weighted colour difference the matching uses (CIE76 with lightness weighed :data:`L_WEIGHT`)."""
    return math.sqrt((L_WEIGHT * (one[0] - other[0])) ** 2 + (one[1] - other[1]) ** 2 + (one[2] - other[2]) ** 2)


COLOUR_WORDS = (("red", ("#d62828", "#800000")), ("orange", ("#f77f00",)),
                ("yellow", ("#f2c500", "#f0e68c")), ("green", ("#2a9d3f",)), ("teal", ("#00a6a6",)),
                ("blue", ("#1d4ed8", "#0000ff", "#000080", "#87ceeb", "#4682b4")),
                ("purple", ("#9030a0", "#6a0dad")), ("pink", ("#ff70a6", "#ffc0cb")),
                ("brown", ("#8b5a2b", "#d2b48c")), ("black", ("#222222",)), ("grey", ("#888888",)),
                ("white", ("#f1f1ee",)))
"""The words a colour is named by, each with the colours it stands for: first the tellable seat
colour of that name (:data:`vision.colour.TELLABLE_COLOURS`, so that the ten seat colours are ten
words), then others a person calls so (maroon, khaki, pure, navy, sky and steel blue, a deep
purple, a pale pink, tan); brown and grey, which no seat has, a middle one."""

_WORD_LABS = tuple((word, lab_of_hex(colour)) for word, colours in COLOUR_WORDS for colour in colours)


def colour_word(colour: str) -> str:
    """The word of :data:`COLOUR_WORDS` whose colours ``colour`` is nearest, by :func:`difference`.

    >>> colour_word("#d62828"), colour_word("#f4f4f0"), colour_word("#445566")
    ('red', 'white', 'grey')

    :raises InvalidInput: not a ``#rrggbb`` colour.
    """
    lab = lab_of_hex(colour)
    return min(_WORD_LABS, key=lambda named: difference(lab, named[1]))[0]
