"""The designs of every die face, in one place: the renderer draws them, sticker sheets print them,
the scoreboard can show them.

A face's design is a set of filled polygons (:class:`Mark`) in a unit box centred at 0, x right and
y down (a face's own axes, as an image is drawn), outer outlines and the holes inside them. The
design fits the box's inscribed circle (radius 0.5), so that it fits a triangular, square or
pentagonal face turned any way. Pip faces (d6, the Tauren die's 2-6) are dots; d12 faces are bold
numerals, 6 and 9 underlined so that they are told apart upside down; letter dice are bold capitals
H O L D E M; the Tauren die's three picture faces are drawn as pictures: the Warrior a spear over a
shield, the Chieftain a totem, the Shaman a staff.

Pictures and lettering are traced from a sharp raster drawing (:func:`traced`), so that overlapping
strokes become one outline: the polygons never overlap, which makes the SVG's even-odd fill and the
renderer's ink-then-holes drawing agree.

>>> svg_path(DieKind.LETTERS, "O").count("M") >= 2   # an outline and its hole
True
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput


@dataclass(frozen=True, eq=False)
class Mark:
    """One filled polygon of a face's marking, in (u, v); a hole is drawn in the face's colour."""

    polygon: np.ndarray
    hole: bool = False


CIRCLE = np.array([(math.cos(a), math.sin(a)) for a in np.linspace(0, 2 * math.pi, 14, endpoint=False)])
"""A unit circle as a polygon, for pips."""

PIP_SPREAD = 0.27
"""Distance of a d6's outer pips from the face centre, as a fraction of the edge."""

PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip positions on a d6 face in units of ``PIP_SPREAD``; 2, 3 and 6 have a direction."""

D6_PIP_RADIUS = 0.08
"""A d6 pip's radius as a fraction of the edge (the renderer varies it per die)."""

TAUREN_PIP_RADIUS = 0.085
"""A Tauren pip's radius in the unit box: the pips of a six fit the inscribed circle together."""

TAUREN_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((-0.17, 0.17), (0.17, -0.17)),
    3: ((0.0, -0.22), (-0.19, 0.11), (0.19, 0.11)),
    4: ((-0.17, -0.17), (0.17, -0.17), (-0.17, 0.17), (0.17, 0.17)),
    5: ((-0.2, -0.2), (0.2, -0.2), (0.0, 0.0), (-0.2, 0.2), (0.2, 0.2)),
    6: ((-0.13, -0.24), (0.13, -0.24), (-0.13, 0.0), (0.13, 0.0), (-0.13, 0.24), (0.13, 0.24)),
}
"""Pip centres of the Tauren die's pip faces in the unit box (a triangle's face is small: the pips
stay inside its inscribed circle)."""

TRACE_PX = 400
"""Side of the raster a picture or a lettering is drawn on before it is traced."""


def marks(kind: DieKind, face: str) -> tuple[Mark, ...]:
    """The design of ``face`` (as games write it: '5', '12', 'W', 'H') of a ``kind`` die, in the unit box.

    :raises InvalidInput: for a face the kind does not have.
    """
    face = kind.parse_face(face)
    if kind is DieKind.D6:
        return pips(np.array(PIP_LAYOUTS[int(face)], np.float64) * PIP_SPREAD, D6_PIP_RADIUS)
    if kind is DieKind.D8_TAUREN and face.isdigit():
        return pips(np.array(TAUREN_PIPS[int(face)], np.float64), TAUREN_PIP_RADIUS)
    return _designed(kind, face)


def pips(centres: np.ndarray, radius: float) -> tuple[Mark, ...]:
    """Round pips of ``radius`` at ``centres`` (N, 2)."""
    return tuple(Mark(centre + CIRCLE * radius) for centre in centres)


DESIGNS_PATH = Path(__file__).resolve().parent / "face_designs.json"
"""The shipped designs as traced here once (``python -m vision.face_art`` writes it): fonts differ
between OpenCV versions (the Pi's OpenCV 4 has no font faces), the dice and stickers must not."""


def _designed(kind: DieKind, face: str) -> tuple[Mark, ...]:
    """A shipped picture or lettering, as stored in :data:`DESIGNS_PATH`."""
    return _stored()[f"{kind.value}:{face}"]


@lru_cache(maxsize=1)
def _stored() -> dict[str, tuple[Mark, ...]]:
    entries = json.loads(DESIGNS_PATH.read_text())
    return {key: tuple(Mark(np.array(points, np.float64), hole) for points, hole in marks_)
            for key, marks_ in entries.items()}


def drawn(kind: DieKind, face: str) -> tuple[Mark, ...]:
    """A shipped picture or lettering traced afresh (what :data:`DESIGNS_PATH` stores)."""
    if kind is DieKind.D8_TAUREN:
        return traced(PICTURES[face], fit=0.86)
    if kind is DieKind.D12:
        return lettering(face, SHIPPED, face in UNDERLINED)
    if kind is DieKind.LETTERS:
        return lettering(face)
    raise InvalidInput(f"no face art for {kind.value} dice")


def write_designs(path: Path = DESIGNS_PATH) -> int:
    """Trace every shipped picture and lettering and store them at ``path``; returns how many."""
    entries = {f"{kind.value}:{face}": [[np.round(m.polygon, 4).tolist(), m.hole] for m in drawn(kind, face)]
               for kind in (DieKind.D12, DieKind.D8_TAUREN, DieKind.LETTERS) for face in kind.faces
               if not (kind is DieKind.D8_TAUREN and face.isdigit())}
    path.write_text(json.dumps(entries, separators=(",", ":")) + "\n")
    return len(entries)


def svg_path(kind: DieKind, face: str) -> str:
    """The design of ``face`` as SVG path data in the unit box (x right, y down, centred at 0), to
    fill with ``fill-rule="evenodd"``: every outline and hole is one closed subpath.

    >>> svg_path(DieKind.D8_TAUREN, "2")[:2]
    'M '
    """
    parts = []
    for mark in marks(kind, face):
        points = " L ".join(f"{x:.4f} {y:.4f}" for x, y in mark.polygon)
        parts.append(f"M {points} Z")
    return " ".join(parts)


# ----- lettering ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Lettering:
    """How numerals or letters are printed: an OpenCV font face ('sans', 'italic', 'uni'), a weight
    (100 thin to 900 black), a slant (a shear: x moves by ``slant`` per unit up), a width (1: as
    the font has it) and how a 6 or 9 is told from the other upside down ('underline' or 'dot')."""

    face: str = "sans"
    weight: int = 800
    slant: float = 0.0
    width: float = 1.0
    six_nine: str = "underline"


SHIPPED = Lettering()
"""The lettering of the shipped designs: a black-weight sans serif, 6 and 9 underlined."""

FONT_FACES = ("sans", "italic", "uni")
"""The font faces OpenCV 5 draws (its Hershey fonts all draw as its sans)."""

UNDERLINED = ("6", "9")
"""The numerals that read as each other upside down, and so carry a mark below."""


@lru_cache(maxsize=1024)
def lettering(text: str, look: Lettering = SHIPPED, marked: bool = False) -> tuple[Mark, ...]:
    """``text`` as outlines in ``look``, centred and fitting the unit box's inscribed circle; with
    ``marked``, underlined or dotted below as ``look.six_nine`` says. A zero is drawn as a plain oval
    (the fonts' zeros are slashed; a die's are not).

    >>> len(lettering("8")) >= 3   # an outline and two holes
    True
    """
    def draw(canvas: np.ndarray) -> None:
        side = canvas.shape[0]
        x, baseline = round(0.08 * side), round(0.68 * side)
        for char in text:
            x = _character(canvas, char, (x, baseline), look)
        ink = np.nonzero(canvas > 127)
        top, bottom, left, right = ink[0].min(), ink[0].max(), ink[1].min(), ink[1].max()
        stroke = _stroke(canvas)
        if marked and look.six_nine == "dot":
            cv2.circle(canvas, (round(right + 1.1 * stroke), round(bottom - 0.5 * stroke)), round(0.7 * stroke), 255, -1,
                       cv2.LINE_AA)
        elif marked:
            inset, gap = (right - left) // 8, round(0.05 * side)
            cv2.rectangle(canvas, (left + inset, bottom + gap), (right - inset, bottom + gap + round(0.8 * stroke)),
                          255, -1)
        centre = ((left + right) / 2, (top + bottom) / 2)
        shape = np.array([[look.width, -look.slant, 0.0], [0.0, 1.0, 0.0]], np.float32)
        shape[:, 2] = np.array(centre, np.float32) - shape[:, :2] @ np.array(centre, np.float32)
        shape[:, 2] += np.array([side / 2, side / 2], np.float32) - np.array(centre, np.float32)
        canvas[:] = cv2.warpAffine(canvas, shape, (side, side))
    return traced(draw, fit=0.9)


def _character(canvas: np.ndarray, char: str, origin: tuple[int, int], look: Lettering) -> int:
    """Draw one character at ``origin`` (left end of its baseline); returns where the next one starts."""
    if char != "0":
        return _put(canvas, char, origin, look)
    probe = np.zeros_like(canvas)
    after = _put(probe, "8", origin, look)
    ys, xs = np.nonzero(probe > 127)
    stroke = _stroke(probe)
    centre = (round((xs.min() + xs.max()) / 2), round((ys.min() + ys.max()) / 2))
    axes = (round(0.45 * (xs.max() - xs.min()) - stroke / 2), round((ys.max() - ys.min() - stroke) / 2))
    cv2.ellipse(canvas, centre, axes, 0, 0, 360, 255, max(1, round(stroke)), cv2.LINE_AA)
    return after


def _put(canvas: np.ndarray, text: str, origin: tuple[int, int], look: Lettering) -> int:
    """``cv2.putText`` in ``look``'s face and weight (OpenCV 5), or in the Hershey duplex font with a
    stroke as heavy (OpenCV 4, which has no font faces); returns the end of the text."""
    size = round(0.45 * canvas.shape[0])
    if hasattr(cv2, "FontFace"):
        end, _ = cv2.putText(canvas, text, origin, 255, font_face(look.face), size, look.weight)
        return int(end[0])
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_DUPLEX, size)
    thickness = max(1, round(size * look.weight / 6000))
    cv2.putText(canvas, text, origin, cv2.FONT_HERSHEY_DUPLEX, scale, 255, thickness, cv2.LINE_AA)
    return origin[0] + cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thickness)[0][0]


@lru_cache(maxsize=None)
def font_face(face: str) -> Any:
    """OpenCV's (5) font face ``face`` ('sans', 'italic', 'uni' or a font file), one object per face
    for the whole process. OpenCV 5.1 keeps the glyphs it draws by the face object, so a face made
    for each text, freed, and another font's face made in its place drew the first font's glyphs,
    by their number in that font other characters: after 24 other font files, a Roboto "1" came
    out as another font's "3", and 20 of 25 fonts drew some of 1, 3, 11 and 12 wrong."""
    return cv2.FontFace(face)


def draws_with(font: str) -> bool:
    """Whether OpenCV (5, with font faces) draws text with the font file ``font`` (it draws a file
    that is no font in its own sans face, without a word)."""
    if not hasattr(cv2, "FontFace") or not Path(font).is_file():
        return False
    drawn = []
    for face in (font, "sans"):
        canvas = np.zeros((64, 64), np.uint8)
        cv2.putText(canvas, "8", (8, 48), 255, font_face(face), 40, 700)
        drawn.append(canvas)
    return not np.array_equal(drawn[0], drawn[1])


def _stroke(canvas: np.ndarray) -> float:
    """The typical stroke width of what is drawn on ``canvas``: twice its area over its outline's length."""
    ink = (canvas > 127).astype(np.uint8)
    edges = cv2.findContours(ink, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)[0]
    return 2 * float(ink.sum()) / max(sum(cv2.arcLength(c, True) for c in edges), 1.0)


# ----- pictures -----------------------------------------------------------------------------

Drawing = Callable[[np.ndarray], None]
"""Draws a design in white (255) on a black square canvas, black (0) for cut-outs."""


def traced(draw: Drawing, fit: float = 0.9) -> tuple[Mark, ...]:
    """The outlines and holes of what ``draw`` paints on a :data:`TRACE_PX` canvas, scaled so that
    the design's farthest point lies at ``fit`` / 2 from its centre (inside the inscribed circle)."""
    canvas = np.zeros((TRACE_PX, TRACE_PX), np.uint8)
    draw(canvas)
    binary = (canvas > 127).astype(np.uint8)
    contours, hierarchy = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if not contours:
        raise InvalidInput("the face design draws nothing")
    kept = [(cv2.approxPolyDP(c, 0.8, True).reshape(-1, 2).astype(np.float64), bool(h[3] >= 0))
            for c, h in zip(contours, hierarchy[0]) if len(c) >= 3]
    ys, xs = np.nonzero(binary)
    centre = np.array([(xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2], np.float64)
    reach = max(float(np.max(np.linalg.norm(points - centre, axis=1))) for points, _ in kept)
    return tuple(Mark((points - centre) * (fit / 2 / reach), hole) for points, hole in kept)


def _px(canvas: np.ndarray, points: list[tuple[float, float]]) -> np.ndarray:
    """Unit-box points (centred, y down) to canvas pixels for ``cv2.fillPoly``."""
    side = canvas.shape[0]
    return np.asarray(np.round((np.array(points, np.float64) + 0.5) * side), np.int32)


def _poly(canvas: np.ndarray, points: list[tuple[float, float]], value: int = 255) -> None:
    cv2.fillPoly(canvas, [_px(canvas, points)], value, cv2.LINE_AA)


def _bar(canvas: np.ndarray, a: tuple[float, float], b: tuple[float, float], width: float, value: int = 255) -> None:
    """A straight stroke from ``a`` to ``b`` (unit box), ``width`` wide, with square ends."""
    direction = np.subtract(b, a) / max(float(np.hypot(*np.subtract(b, a))), 1e-9)
    normal = np.array([-direction[1], direction[0]]) * width / 2
    _poly(canvas, [tuple(a + normal), tuple(b + normal), tuple(b - normal), tuple(a - normal)], value)


def _disc(canvas: np.ndarray, centre: tuple[float, float], radius: float, value: int = 255) -> None:
    side = canvas.shape[0]
    cv2.circle(canvas, tuple(int(v) for v in _px(canvas, [centre])[0]), round(radius * side), value, -1, cv2.LINE_AA)


def _shield(canvas: np.ndarray, grow: float, value: int) -> None:
    """A heater shield (flat top, curved sides meeting in a point), ``grow`` wider all round."""
    top, width, point = -0.2 - grow, 0.27 + grow, 0.36 + grow
    side = [(width, top)] + [(width * math.cos(t), top + 0.17 + (point - top - 0.17) * math.sin(t))
                             for t in np.linspace(0, math.pi / 2, 12)]
    _poly(canvas, [(-width, top)] + side + [(-x, y) for x, y in reversed(side)], value)


def warrior(canvas: np.ndarray) -> None:
    """The Warrior: a spear over a shield, the spear's outline cut clear of the shield."""
    _shield(canvas, 0.06, 255)
    _shield(canvas, 0.0, 0)
    _shield(canvas, -0.05, 255)
    start, end = (-0.2, 0.46), (0.14, -0.26)
    _bar(canvas, start, end, 0.19, 0)  # the gap that shows the spear lies over the shield
    _bar(canvas, start, end, 0.085)
    tip, back = np.array([0.26, -0.5]), np.array(end)
    along = (tip - back) / float(np.linalg.norm(tip - back))
    across = np.array([-along[1], along[0]]) * 0.1
    _poly(canvas, [tuple(tip), tuple(back + across + along * 0.05), tuple(back - along * 0.02),
                   tuple(back - across + along * 0.05)])


def chieftain(canvas: np.ndarray) -> None:
    """The Chieftain: a totem pole, outstretched wings on top and two carved faces below."""
    _poly(canvas, [(-0.44, -0.34), (-0.14, -0.24), (-0.14, 0.46), (0.14, 0.46), (0.14, -0.24), (0.44, -0.34),
                   (0.38, -0.16), (0.14, -0.06), (-0.14, -0.06), (-0.38, -0.16)])
    _poly(canvas, [(-0.12, -0.26), (0.0, -0.46), (0.12, -0.26)])  # the beak between the wings
    for top in (-0.06, 0.2):
        _poly(canvas, [(-0.19, top), (0.19, top), (0.19, top + 0.22), (-0.19, top + 0.22)])
        _disc(canvas, (-0.075, top + 0.07), 0.04, 0)
        _disc(canvas, (0.075, top + 0.07), 0.04, 0)
        _bar(canvas, (-0.09, top + 0.16), (0.09, top + 0.16), 0.045, 0)
    _bar(canvas, (-0.2, 0.18), (0.2, 0.18), 0.04, 0)  # the cut between the two faces


def shaman(canvas: np.ndarray) -> None:
    """The Shaman: a staff crowned by a ring with an orb inside and two feathers hanging from it."""
    _bar(canvas, (0.0, 0.47), (0.0, -0.1), 0.12)
    _disc(canvas, (0.0, -0.26), 0.21)
    _disc(canvas, (0.0, -0.26), 0.12, 0)
    _disc(canvas, (0.0, -0.26), 0.06)
    for side in (-1, 1):
        _bar(canvas, (side * 0.14, -0.12), (side * 0.25, 0.0), 0.06)
        _poly(canvas, [(side * 0.25, -0.04), (side * 0.35, 0.1), (side * 0.27, 0.3), (side * 0.17, 0.1)])
    _bar(canvas, (-0.12, 0.18), (0.12, 0.18), 0.09)  # the binding of the grip


PICTURES: dict[str, Drawing] = {"W": warrior, "C": chieftain, "S": shaman}
"""The Tauren die's picture faces."""


if __name__ == "__main__":
    print(f"wrote {write_designs()} designs to {DESIGNS_PATH}")
