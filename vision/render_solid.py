"""Dice shapes for the renderer: convex solids (cube, octahedron, dodecahedron) and the marks on their faces.

A solid is sized so that opposite faces are one unit apart (a resting die is one unit tall);
each face has a centre, an outward normal and in-plane axes (u, v) with ``u x n = v``, so a mark
drawn in (u, v) like an image (x right, y down) reads the right way round from outside. A face's
outline and marks are polygons in (u, v); the renderer projects them like any other point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from controller.games.dice import DieKind
from vision.face_art import CIRCLE, PIP_LAYOUTS, PIP_SPREAD, UNDERLINED, Lettering, Mark, lettering, marks

PHI = (1 + math.sqrt(5)) / 2

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


FACE_FILL: dict[DieKind, float] = {DieKind.D12: 0.78, DieKind.D8_TAUREN: 0.92, DieKind.LETTERS: 0.8}
"""How much of a face's inscribed circle its design fills, per kind (the design fits a unit box's circle)."""


def face_marks(kind: DieKind, solid: Solid, index: int, turn: int, pip_radius: float,
               look: Lettering | None = None) -> tuple[Mark, ...]:
    """The marks of face number ``index`` (1-based, in ``kind.faces`` order), turned ``turn`` quarter
    turns: the design of :mod:`vision.face_art`, or its lettering in ``look``."""
    if kind is DieKind.D6:
        layout = np.array(PIP_LAYOUTS[index], dtype=np.float64) * PIP_SPREAD
        return tuple(Mark(turned(centre, turn) + CIRCLE * pip_radius) for centre in layout)
    label = kind.faces[index - 1]
    size = 2 * solid.inradius * FACE_FILL[kind]
    if look is not None and kind in (DieKind.D12, DieKind.LETTERS):
        design = lettering(label, look, kind is DieKind.D12 and label in UNDERLINED)
    else:
        design = marks(kind, label)
    return tuple(Mark(turned(mark.polygon, turn) * size, mark.hole) for mark in design)


def turned(points: np.ndarray, turn: int) -> np.ndarray:
    """Face-local points (..., 2) turned ``turn`` quarter turns, as a face's marks are turned."""
    for _ in range(turn % 4):
        points = points[..., ::-1] * (1, -1)
    return points
