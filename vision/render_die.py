"""Drawing one die for the synthetic renderer: a rounded solid with marked faces under a pinhole camera."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from controller.games.dice import DieKind
from vision.face_art import CIRCLE, Lettering
from vision.render_solid import SOLIDS, Solid, face_marks, rounded

SHIFT = 4
"""Sub-pixel bits for OpenCV's polygon drawing."""
SCALE = 1 << SHIFT

TOP = 0
"""The face that is up when a die rests flat (its solid's ``rest`` turns face 0 up)."""


class Projector(Protocol):
    """What a die needs from the camera."""

    @property
    def centre(self) -> np.ndarray:
        """The camera's position in world mm."""
        ...

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) in mm to pixels (N, 2)."""
        ...


@dataclass(frozen=True)
class DieStyle:
    """How a die looks: body and mark colours (BGR), material, pip size and corner rounding."""

    body: tuple[int, int, int]
    pips: tuple[int, int, int]
    marble: tuple[int, int, int] | None = None
    translucent: bool = False
    pip_radius: float = 0.08
    corner: float = 0.16
    glare: float = 0.0
    shadow: float = 0.45
    seed: int = 0  # the marble swirl and glare spot, fixed per die so still frames stay still
    lettering: Lettering | None = None  # numerals and letters in another font than the shipped design


@dataclass(frozen=True, eq=False)
class DiePose:
    """Where a die is: centre (tray mm, z down), rotation (solid to world) and height in mm."""

    position: np.ndarray
    rotation: np.ndarray
    edge_mm: float
    solid: Solid = SOLIDS[DieKind.D6]

    def world(self, local: np.ndarray) -> np.ndarray:
        """Solid-local points in height units (N, 3) to world mm."""
        return np.asarray(self.position + (local * self.edge_mm) @ self.rotation.T)

    def normal(self, face: int) -> np.ndarray:
        """The world direction a face looks in."""
        return np.asarray(self.rotation @ self.solid.normals[face])

    def up_face(self) -> int:
        """The face looking most nearly up (world -z)."""
        return int(np.argmin((self.solid.normals @ self.rotation.T)[:, 2]))


@dataclass(frozen=True)
class Faces:
    """What each face of a die shows: its number in ``kind.faces`` order (1-based) and quarter turns."""

    kind: DieKind
    values: tuple[int, ...]
    turns: tuple[int, ...]

    def label(self, face: int) -> str:
        """The face as games write it ('5', '12', 'W', 'H')."""
        return self.kind.faces[self.values[face] - 1]


def random_faces(rng: random.Random, kind: DieKind, top: int) -> Faces:
    """A die of ``kind`` with face number ``top`` on face 0 and opposite faces summing to n + 1."""
    solid = SOLIDS[kind]
    count = solid.faces
    values = [0] * count
    values[TOP], values[solid.opposite[TOP]] = top, count + 1 - top
    pairs = [(v, count + 1 - v) for v in range(1, count // 2 + 1) if v not in (top, count + 1 - top)]
    rng.shuffle(pairs)
    free = [f for f in range(count) if values[f] == 0 and f < solid.opposite[f]]
    for face, pair in zip(free, pairs):
        low_first = rng.random() < 0.5
        values[face], values[solid.opposite[face]] = pair if low_first else pair[::-1]
    return Faces(kind, tuple(values), tuple(rng.randrange(4) for _ in range(count)))


def silhouette(pose: DiePose, style: DieStyle, camera: Projector) -> np.ndarray:
    """The die's outline in pixels: convex hull of all its rounded faces, (N, 2) float."""
    solid = pose.solid
    radius = _radius(style, solid) * 0.9
    local = np.vstack([solid.face_points(f, rounded(o, 1.0, radius)) for f, o in enumerate(solid.outlines)])
    pixels = camera.project(pose.world(local)).astype(np.float32)
    return cv2.convexHull(pixels).reshape(-1, 2).astype(np.float64)


def face_outline(pose: DiePose, style: DieStyle, face: int) -> np.ndarray:
    """A face's rounded outline (a little inside the edges) as solid-local 3-D points."""
    solid = pose.solid
    return solid.face_points(face, rounded(solid.outlines[face], 0.94, _radius(style, solid)))


def _radius(style: DieStyle, solid: Solid) -> float:
    """Corner rounding in the solid's units: ``style.corner`` is given for a cube's face."""
    return style.corner * solid.inradius / 0.5


def face_visible(pose: DiePose, face: int, camera: Projector) -> float:
    """How squarely a face looks at the camera: > 0 when it is visible."""
    centre = pose.world(pose.solid.centres[face:face + 1])[0]
    to_camera = camera.centre - centre
    return float(pose.normal(face) @ to_camera / np.linalg.norm(to_camera))


def face_shade(pose: DiePose, face: int, light: np.ndarray) -> float:
    """Lambert brightness of a face lit from ``light`` (unit vector towards the light)."""
    return 0.58 + 0.46 * max(0.0, float(pose.normal(face) @ light))


def fill(canvas: np.ndarray, polygon: np.ndarray, colour: tuple[float, ...]) -> None:
    """Fill an anti-aliased polygon given in float pixels."""
    points = np.round(polygon * SCALE).astype(np.int32).reshape(-1, 2)
    cv2.fillPoly(canvas, [points], colour, cv2.LINE_AA, SHIFT)


def shaded(colour: tuple[int, int, int], shade: float) -> tuple[float, float, float]:
    """A colour scaled by a brightness factor and clipped to 0..255."""
    return tuple(min(255.0, c * shade) for c in colour)  # type: ignore[return-value]


def draw_die(canvas: np.ndarray, pose: DiePose, faces: Faces, style: DieStyle, camera: Projector,
             light: np.ndarray) -> np.ndarray:
    """Draw a die with its shadow, body, marks and glare onto ``canvas``; returns its outline (pixels)."""
    rng = random.Random(style.seed)
    hull = silhouette(pose, style, camera)
    x0, y0, x1, y1 = _region(hull, canvas.shape)
    if x1 <= x0 or y1 <= y0:
        return hull
    roi = canvas[y0:y1, x0:x1]
    offset = np.array([x0, y0], dtype=np.float64)
    if style.shadow > 0:
        _draw_shadow(roi, pose, camera, light, offset, style.shadow)
    mask = np.zeros(roi.shape[:2], np.uint8)
    fill(mask, hull - offset, (255,))
    visible = [f for f in range(pose.solid.faces) if face_visible(pose, f, camera) > 0.03]
    body = _draw_body(roi.copy(), pose, style, camera, light, offset, hull, visible)
    if style.marble is not None:
        body = _marble(body, style, rng)
    alpha = mask.astype(np.float32) * ((0.72 if style.translucent else 1.0) / 255)
    roi[:] = blend(body, roi, alpha)
    _draw_marks(roi, pose, faces, style, camera, light, offset, visible)
    if style.glare > 0:
        _draw_glare(roi, pose, style, camera, offset, rng)
    return hull


def blend(top: np.ndarray, under: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """``top`` over ``under`` with per-pixel opacity ``alpha`` (float32, 0..1), uint8 out."""
    return cv2.blendLinear(top, under, alpha, 1.0 - alpha)


def soft_mask(shape: tuple[int, ...], polygon: np.ndarray, sigma: float) -> np.ndarray:
    """A polygon filled with 1.0 and blurred by ``sigma`` pixels (float32); large blurs are done
    at reduced size, which looks the same and costs a fraction."""
    factor = max(1, int(sigma // 3))
    small = (max(1, -(-shape[0] // factor)), max(1, -(-shape[1] // factor)))
    shape_only = np.zeros(small, np.float32)
    fill(shape_only, polygon / factor, (1.0,))
    mask: np.ndarray = cv2.GaussianBlur(shape_only, (0, 0), max(0.8, sigma / factor))
    if factor > 1:
        mask = cv2.resize(mask, (small[1] * factor, small[0] * factor), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(mask[:shape[0], :shape[1]])


def _region(hull: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The canvas rectangle a die and its shadow may touch, clipped to the canvas."""
    lo, hi = hull.min(axis=0), hull.max(axis=0)
    margin = 0.8 * float(max(hi - lo)) + 4
    x0, y0 = (max(0, int(v - margin)) for v in lo)
    x1, y1 = int(min(shape[1], hi[0] + margin)), int(min(shape[0], hi[1] + margin))
    return x0, y0, x1, y1


def _draw_shadow(roi: np.ndarray, pose: DiePose, camera: Projector, light: np.ndarray,
                 offset: np.ndarray, darkness: float) -> None:
    """Darken the tray under the die: its corners cast along the light onto z = 0, softened."""
    corners = pose.world(pose.solid.vertices)
    cast = corners - (corners[:, 2:] / light[2]) * light
    pixels = camera.project(np.vstack([cast, corners])).astype(np.float32)
    outline = cv2.convexHull(pixels).reshape(-1, 2).astype(np.float64) - offset
    size = float(np.ptp(pixels[:, 0]))
    mask = soft_mask(roi.shape[:2], outline, 0.12 * size)
    roi[:] = blend(np.zeros_like(roi), roi, mask * darkness)


def _draw_body(body: np.ndarray, pose: DiePose, style: DieStyle, camera: Projector, light: np.ndarray,
               offset: np.ndarray, hull: np.ndarray, visible: list[int]) -> np.ndarray:
    """The die's faces without marks: rounded edges in a darker tone, then each visible face shaded."""
    fill(body, hull - offset, shaded(style.body, 0.9 if style.translucent else 0.5))
    for face in visible:
        polygon = camera.project(pose.world(face_outline(pose, style, face))) - offset
        fill(body, polygon, shaded(style.body, face_shade(pose, face, light)))
    return body


def _marble(body: np.ndarray, style: DieStyle, rng: random.Random) -> np.ndarray:
    """Swirl a second colour through the body, keeping the shading."""
    assert style.marble is not None
    cells = np.array([[rng.random() for _ in range(5)] for _ in range(5)], np.float32)
    field = cv2.resize(cells, (body.shape[1], body.shape[0]), interpolation=cv2.INTER_CUBIC)
    share = np.clip((field - 0.5) * 3.0 + 0.5, 0.0, 1.0)[..., None]
    ratio = (np.array(style.marble, np.float32) + 8) / (np.array(style.body, np.float32) + 8)
    return np.asarray(np.clip(body * (1 - share) + body * ratio * share, 0, 255).astype(np.uint8))


def _draw_marks(roi: np.ndarray, pose: DiePose, faces: Faces, style: DieStyle, camera: Projector,
                light: np.ndarray, offset: np.ndarray, visible: list[int]) -> None:
    """Draw the pips (or numerals, letters) of every visible face, shaded like their face."""
    for face in visible:
        if face_visible(pose, face, camera) <= 0.08:
            continue
        shade = face_shade(pose, face, light)
        ink, paper = shaded(style.pips, 0.9 * shade), shaded(style.body, shade)
        for mark in face_marks(faces.kind, pose.solid, faces.values[face], faces.turns[face], style.pip_radius,
                                 style.lettering):
            polygon = camera.project(pose.world(pose.solid.face_points(face, mark.polygon))) - offset
            fill(roi, polygon, paper if mark.hole else ink)


def _draw_glare(roi: np.ndarray, pose: DiePose, style: DieStyle, camera: Projector,
                offset: np.ndarray, rng: random.Random) -> None:
    """A soft specular highlight on the upward face, washing out what lies under it."""
    face = pose.up_face()
    reach = pose.solid.inradius
    centre = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6)]) * reach
    radius = rng.uniform(0.16, 0.44) * reach
    stretch = np.array([1.0, rng.uniform(0.4, 1.0)])
    polygon = camera.project(pose.world(pose.solid.face_points(face, centre + CIRCLE * radius * stretch)))
    size = float(np.ptp(polygon[:, 0])) + 1
    mask = np.clip(soft_mask(roi.shape[:2], polygon - offset, 0.25 * size) * 1.6, 0, 1) * style.glare
    roi[:] = blend(np.full_like(roi, 255), roi, mask)
