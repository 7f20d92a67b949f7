"""Drawing one die for the synthetic renderer: a rounded cube with pip faces under a pinhole camera."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

SHIFT = 4
"""Sub-pixel bits for OpenCV's polygon drawing."""
SCALE = 1 << SHIFT

PIP_SPREAD = 0.27
"""Distance of the outer pips from the face centre, as a fraction of the edge."""

PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
"""Pip positions on a d6 face in units of ``PIP_SPREAD``; 2, 3 and 6 have a direction."""

# Local faces of the unit cube: (outward normal, u axis, v axis). World z points down into the
# tray, so local -z is the top face when the die rests flat.
FACES = (
    ((0, 0, -1), (1, 0, 0), (0, 1, 0)),
    ((0, 0, 1), (1, 0, 0), (0, -1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, 1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, 1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
)
TOP, BOTTOM = 0, 1


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
    """How a die looks: body and pip colours (BGR), material and pip size."""

    body: tuple[int, int, int]
    pips: tuple[int, int, int]
    marble: tuple[int, int, int] | None = None
    translucent: bool = False
    pip_radius: float = 0.08
    corner: float = 0.16
    glare: float = 0.0
    shadow: float = 0.45
    seed: int = 0  # the marble swirl and glare spot, fixed per die so still frames stay still


@dataclass(frozen=True, eq=False)
class DiePose:
    """Where a die is: centre (tray mm, z down), rotation (local to world) and edge length in mm."""

    position: np.ndarray
    rotation: np.ndarray
    edge_mm: float

    def world(self, local: np.ndarray) -> np.ndarray:
        """Local points in edge units (N, 3) to world mm."""
        return self.position + (local * self.edge_mm) @ self.rotation.T

    def top_normal(self) -> np.ndarray:
        """The world direction of the local top face's normal."""
        return self.rotation @ np.array(FACES[TOP][0], dtype=np.float64)


@dataclass(frozen=True)
class Faces:
    """The value on each local face (same order as ``FACES``) and each face's pip turn."""

    values: tuple[int, int, int, int, int, int]
    turned: tuple[bool, bool, bool, bool, bool, bool]


def random_faces(rng: random.Random, top: int) -> Faces:
    """A standard die (opposite faces sum to 7) with ``top`` up and the others at random."""
    side = rng.choice([v for v in range(1, 7) if v not in (top, 7 - top)])
    other = rng.choice([v for v in range(1, 7) if v not in (top, 7 - top, side, 7 - side)])
    values = (top, 7 - top, side, 7 - side, other, 7 - other)
    return Faces(values, tuple(rng.random() < 0.5 for _ in range(6)))  # type: ignore[arg-type]


def rounded_square(half: float, radius: float, steps: int = 4) -> np.ndarray:
    """A square of half-size ``half`` with rounded corners, as (N, 2) points counter-clockwise."""
    inner = half - radius
    points = []
    for k, (cx, cy) in enumerate(((inner, inner), (-inner, inner), (-inner, -inner), (inner, -inner))):
        for j in range(steps + 1):
            angle = (k + j / steps) * math.pi / 2
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return np.array(points, dtype=np.float64)


CIRCLE = np.array([(math.cos(a), math.sin(a)) for a in np.linspace(0, 2 * math.pi, 14, endpoint=False)])


_AXES = np.array(FACES, dtype=np.float64)  # (face, normal/u/v, xyz)


def face_points(face: int, uv: np.ndarray) -> np.ndarray:
    """Face-local (u, v) points (N, 2) in edge units to cube-local 3-D points on that face."""
    normal, u_axis, v_axis = _AXES[face]
    return 0.5 * normal + uv @ np.stack([u_axis, v_axis])


def pip_centres(value: int, turned: bool) -> np.ndarray:
    """Pip centres of a face value in face-local edge units; ``turned`` rotates the layout 90°."""
    layout = np.array(PIP_LAYOUTS[value], dtype=np.float64) * PIP_SPREAD
    return layout[:, ::-1] * (1, -1) if turned else layout


def silhouette(pose: DiePose, style: DieStyle, camera: Projector) -> np.ndarray:
    """The die's outline in pixels: convex hull of all its rounded faces, (N, 2) float."""
    outline = rounded_square(0.5, style.corner * 0.9)
    local = np.vstack([face_points(f, outline) for f in range(6)])
    pixels = camera.project(pose.world(local)).astype(np.float32)
    return cv2.convexHull(pixels).reshape(-1, 2).astype(np.float64)


def face_visible(pose: DiePose, face: int, camera: Projector) -> float:
    """How squarely a face looks at the camera: > 0 when it is visible."""
    centre = pose.world(0.5 * _AXES[face, :1])[0]
    normal = pose.rotation @ _AXES[face, 0]
    to_camera = camera.centre - centre
    return float(normal @ to_camera / np.linalg.norm(to_camera))


def face_shade(pose: DiePose, face: int, light: np.ndarray) -> float:
    """Lambert brightness of a face lit from ``light`` (unit vector towards the light)."""
    normal = pose.rotation @ _AXES[face, 0]
    return 0.58 + 0.46 * max(0.0, float(normal @ light))


def fill(canvas: np.ndarray, polygon: np.ndarray, colour: tuple[float, ...]) -> None:
    """Fill an anti-aliased polygon given in float pixels."""
    points = np.round(polygon * SCALE).astype(np.int32).reshape(-1, 2)
    cv2.fillPoly(canvas, [points], colour, cv2.LINE_AA, SHIFT)


def shaded(colour: tuple[int, int, int], shade: float) -> tuple[float, float, float]:
    """A colour scaled by a brightness factor and clipped to 0..255."""
    return tuple(min(255.0, c * shade) for c in colour)  # type: ignore[return-value]


def draw_die(canvas: np.ndarray, pose: DiePose, faces: Faces, style: DieStyle, camera: Projector,
             light: np.ndarray) -> np.ndarray:
    """Draw a die with its shadow, body, pips and glare onto ``canvas``; returns its outline (pixels)."""
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
    body = _draw_body(roi.copy(), pose, faces, style, camera, light, offset, hull)
    if style.marble is not None:
        body = _marble(body, style, rng)
    alpha = mask.astype(np.float32) * ((0.72 if style.translucent else 1.0) / 255)
    roi[:] = blend(body, roi, alpha)
    _draw_pips(roi, pose, faces, style, camera, light, offset)
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
    corners = pose.world(np.array([(x, y, z) for x in (-.5, .5) for y in (-.5, .5) for z in (-.5, .5)]))
    cast = corners - (corners[:, 2:] / light[2]) * light
    pixels = camera.project(np.vstack([cast, corners])).astype(np.float32)
    outline = cv2.convexHull(pixels).reshape(-1, 2).astype(np.float64) - offset
    size = float(np.ptp(pixels[:, 0]))
    mask = soft_mask(roi.shape[:2], outline, 0.12 * size)
    roi[:] = blend(np.zeros_like(roi), roi, mask * darkness)


def _draw_body(body: np.ndarray, pose: DiePose, faces: Faces, style: DieStyle, camera: Projector,
               light: np.ndarray, offset: np.ndarray, hull: np.ndarray) -> np.ndarray:
    """The die's faces without pips: dark rounded edges, then each visible face shaded."""
    fill(body, hull - offset, shaded(style.body, 0.9 if style.translucent else 0.5))
    outline = rounded_square(0.47, style.corner)
    for face in range(6):
        if face_visible(pose, face, camera) > 0.03:
            polygon = camera.project(pose.world(face_points(face, outline))) - offset
            fill(body, polygon, shaded(style.body, face_shade(pose, face, light)))
    return body


def _marble(body: np.ndarray, style: DieStyle, rng: random.Random) -> np.ndarray:
    """Swirl a second colour through the body, keeping the shading."""
    assert style.marble is not None
    cells = np.array([[rng.random() for _ in range(5)] for _ in range(5)], np.float32)
    field = cv2.resize(cells, (body.shape[1], body.shape[0]), interpolation=cv2.INTER_CUBIC)
    share = np.clip((field - 0.5) * 3.0 + 0.5, 0.0, 1.0)[..., None]
    ratio = (np.array(style.marble, np.float32) + 8) / (np.array(style.body, np.float32) + 8)
    return np.clip(body * (1 - share) + body * ratio * share, 0, 255).astype(np.uint8)


def _draw_pips(roi: np.ndarray, pose: DiePose, faces: Faces, style: DieStyle, camera: Projector,
               light: np.ndarray, offset: np.ndarray) -> None:
    """Draw the pips of every visible face, shaded like their face."""
    for face in range(6):
        if face_visible(pose, face, camera) <= 0.08:
            continue
        colour = shaded(style.pips, 0.9 * face_shade(pose, face, light))
        for centre in pip_centres(faces.values[face], faces.turned[face]):
            uv = centre + CIRCLE * style.pip_radius
            fill(roi, camera.project(pose.world(face_points(face, uv))) - offset, colour)


def _draw_glare(roi: np.ndarray, pose: DiePose, style: DieStyle, camera: Projector,
                offset: np.ndarray, rng: random.Random) -> None:
    """A soft specular highlight on the upward face, washing out what lies under it."""
    face = max(range(6), key=lambda f: -float((pose.rotation @ np.array(FACES[f][0], float))[2]))
    centre = np.array([rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)])
    radius = rng.uniform(0.08, 0.22)
    stretch = np.array([1.0, rng.uniform(0.4, 1.0)])
    polygon = camera.project(pose.world(face_points(face, centre + CIRCLE * radius * stretch)))
    size = float(np.ptp(polygon[:, 0])) + 1
    mask = np.clip(soft_mask(roi.shape[:2], polygon - offset, 0.25 * size) * 1.6, 0, 1) * style.glare
    roi[:] = blend(np.full_like(roi, 255), roi, mask)
