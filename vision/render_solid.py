"""Dice shapes for the renderer: convex solids (cube, octahedron, dodecahedron) and the marks on their faces.

A solid is sized so that opposite faces are one unit apart (a resting die is one unit tall);
each face has a centre, an outward normal and in-plane axes (u, v) with ``u x n = v``, so a mark
drawn in (u, v) like an image (x right, y down) reads the right way round from outside. A face's
outline and marks are polygons in (u, v); the renderer projects them like any other point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from controller.games.dice import DieKind

PHI = (1 + math.sqrt(5)) / 2

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


@dataclass(frozen=True, eq=False)
class Solid:
    """A die's shape: vertices and, per face, centre, normal, (u, v) axes, outline and opposite face."""

    name: str
    vertices: np.ndarray      # (V, 3)
    centres: np.ndarray       # (F, 3)
    normals: np.ndarray       # (F, 3)
    axes: np.ndarray          # (F, 2, 3): u and v
    outlines: tuple[np.ndarray, ...]  # per face, (N, 2) corners in (u, v), counter-clockwise
    opposite: tuple[int, ...]
    rest: np.ndarray          # rotation that turns face 0 up (world -z): the die resting on face 1

    @property
    def faces(self) -> int:
        """How many faces the solid has."""
        return len(self.normals)

    @property
    def inradius(self) -> float:
        """Radius of the circle inscribed in a face."""
        return float(np.min(np.linalg.norm(self.outlines[0], axis=1)) * math.cos(math.pi / len(self.outlines[0])))

    def face_points(self, face: int, uv: np.ndarray) -> np.ndarray:
        """Face-local (u, v) points (N, 2) to solid-local 3-D points on that face."""
        return np.asarray(self.centres[face] + uv @ self.axes[face])


def _solid(name: str, vertices: np.ndarray, normals: np.ndarray) -> Solid:
    """Build a solid from its vertices and face normals, sized one unit between opposite faces."""
    normals = normals / np.linalg.norm(normals, axis=1, keepdims=True)
    vertices = vertices * (0.5 / float(np.max(vertices @ normals[0])))
    centres, axes, outlines = [], [], []
    for normal in normals:
        heights = vertices @ normal
        corners = vertices[heights > heights.max() - 1e-6]
        centre = corners.mean(axis=0)
        reference = np.array([0.0, 0.0, 1.0]) if abs(normal[2]) < 0.9 else np.array([0.0, 1.0, 0.0])
        u = np.cross(reference, normal)
        u /= np.linalg.norm(u)
        v = np.cross(u, normal)
        flat = (corners - centre) @ np.stack([u, v]).T
        order = np.argsort(np.arctan2(flat[:, 1], flat[:, 0]))
        centres.append(centre)
        axes.append(np.stack([u, v]))
        outlines.append(flat[order])
    opposite = tuple(int(np.argmin(normals @ n)) for n in normals)
    return Solid(name, vertices, np.array(centres), normals, np.array(axes), tuple(outlines), opposite,
                 _turning(normals[0], np.array([0.0, 0.0, -1.0])))


def _turning(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The rotation that takes unit vector ``a`` to unit vector ``b`` by the shortest way."""
    axis = np.cross(a, b)
    if np.linalg.norm(axis) < 1e-9:
        return np.eye(3) if a @ b > 0 else np.diag([1.0, -1.0, -1.0])
    angle = math.atan2(float(np.linalg.norm(axis)), float(a @ b))
    return np.asarray(cv2.Rodrigues(axis / np.linalg.norm(axis) * angle)[0])


def _cube() -> Solid:
    axes = np.eye(3)
    normals = np.vstack([-axes[2], axes[2], axes[0], -axes[0], axes[1], -axes[1]])
    corners = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    return _solid("cube", corners, normals)


def _octahedron() -> Solid:
    corners = np.vstack([np.eye(3), -np.eye(3)])
    signs = np.array([(x, y, z) for z in (-1, 1) for x in (-1, 1) for y in (-1, 1)], float)
    return _solid("octahedron", corners, signs)


def _dodecahedron() -> Solid:
    cube = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    rings = []
    for a in (-1, 1):
        for b in (-1, 1):
            rings += [(0, a / PHI, b * PHI), (a / PHI, b * PHI, 0), (a * PHI, 0, b / PHI)]
    normals = []
    for a in (-1, 1):
        for b in (-1, 1):
            normals += [(0, a * PHI, b), (a, 0, b * PHI), (a * PHI, b, 0)]
    return _solid("dodecahedron", np.array(cube + rings, float), np.array(normals, float))


SOLIDS: dict[DieKind, Solid] = {
    DieKind.D6: _cube(),
    DieKind.LETTERS: _cube(),
    DieKind.D8_TAUREN: _octahedron(),
    DieKind.D12: _dodecahedron(),
}
"""The shape of each kind of die."""


def rounded(outline: np.ndarray, shrink: float, radius: float, steps: int = 4) -> np.ndarray:
    """A regular face outline scaled by ``shrink`` with its corners rounded by ``radius``."""
    reach = float(np.linalg.norm(outline[0]))
    corners = outline * shrink
    inner = corners * (1 - radius / (reach * shrink * math.sin(math.pi / 2 - math.pi / len(outline))))
    points = []
    for k, corner in enumerate(inner):
        start = _outward(corners[k - 1], corners[k])
        end = _outward(corners[k], corners[(k + 1) % len(corners)])
        sweep = (end - start + math.pi) % (2 * math.pi) - math.pi
        for j in range(steps + 1):
            angle = start + sweep * j / steps
            points.append(corner + radius * np.array([math.cos(angle), math.sin(angle)]))
    return np.array(points)


def _outward(a: np.ndarray, b: np.ndarray) -> float:
    """Angle of the outward normal of edge a -> b of a counter-clockwise polygon."""
    dx, dy = b - a
    return math.atan2(-dx, dy)


CIRCLE = np.array([(math.cos(a), math.sin(a)) for a in np.linspace(0, 2 * math.pi, 14, endpoint=False)])


@dataclass(frozen=True, eq=False)
class Mark:
    """One filled polygon of a face's marking, in (u, v); a hole is drawn in the face's colour."""

    polygon: np.ndarray
    hole: bool = False


def face_marks(kind: DieKind, solid: Solid, index: int, turn: int, pip_radius: float) -> tuple[Mark, ...]:
    """The marks of face number ``index`` (1-based, in ``kind.faces`` order), turned ``turn`` quarter turns."""
    if kind is DieKind.D6:
        layout = np.array(PIP_LAYOUTS[index], dtype=np.float64) * PIP_SPREAD
        return tuple(Mark(_turned(centre, turn) + CIRCLE * pip_radius) for centre in layout)
    size = solid.inradius * {DieKind.D12: 1.15, DieKind.D8_TAUREN: 1.0}.get(kind, 1.25)
    label = kind.faces[index - 1]
    text = label + "." if kind is DieKind.D12 and label in ("6", "9") else label
    return tuple(Mark(_turned(points, turn) * size, hole) for points, hole in _glyph(text))


def _turned(points: np.ndarray, turn: int) -> np.ndarray:
    for _ in range(turn % 4):
        points = points[..., ::-1] * (1, -1)
    return points


@lru_cache(maxsize=64)
def _glyph(text: str) -> tuple[tuple[np.ndarray, bool], ...]:
    """The outlines of ``text`` in a bold Hershey font, centred, fitting a unit box, y down."""
    canvas = np.zeros((160, 160 * max(1, len(text))), np.uint8)
    cv2.putText(canvas, text, (10, 120), cv2.FONT_HERSHEY_DUPLEX, 3.2, 255, 9, cv2.LINE_AA)
    contours, hierarchy = cv2.findContours((canvas > 127).astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    points = np.vstack([c.reshape(-1, 2) for c in contours]).astype(np.float64)
    lo, hi = points.min(axis=0), points.max(axis=0)
    centre, scale = (lo + hi) / 2, float(max(hi - lo))
    return tuple(((c.reshape(-1, 2) - centre) / scale, bool(h[3] >= 0))
                 for c, h in zip(contours, hierarchy[0]) if len(c) >= 3)
