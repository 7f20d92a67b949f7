"""Whether a d8 lies flat or leans, told by its edges, for a camera about straight above a
calibrated tray (:func:`edge_ratio`).

Why: the cocked network (:data:`vision.faces.COCKED_PATH`) is sure of most d8 dice, but between
its flat and its leaning shares (:data:`vision.faces.FLAT`, :data:`vision.faces.TRAY_LEANS`) it
mixes the two: of the 381 d8-tauren dice the reader doubted on 1,000 of the demo's trays with a
cocked die each, the flat ones there were at 0.063 and 0.092, the cocked ones at 0.097 to 0.186.
Issue 18's last two dealer entries were such dice: a flat one (0.094) and a cocked one (0.082).

How: the camera sees a flat octahedron's edges (its top face's three and its outline's six)
where the tray's geometry puts them, and a leaning one's elsewhere. The die's colour gradients are
sampled across the edges of octahedra placed where its hit lies (at half a die's height on the
camera's ray), of three sizes and shifted up to 2 mm: lying flat and turned every 3 degrees, and
leaning :data:`LEANS_DEG` towards every 30 degrees, turned every 8. A hypothesis scores the mean
over its visible edges of the median along each edge of the gradient across the edge less the
gradient along it (a printed mark crossed by a wrong edge shows both). The ratio of the best
leaning score to the best flat one is mostly under 1 for a flat die and over it for a leaning one
(the bars and their figures: :data:`vision.faces.EDGES_FLAT`, :data:`vision.faces.EDGES_LEAN`); a
die with faint edges (dark on dark felt) may fall between them. It takes about 0.2 s of a core
here a die (summed from the gradients' structure tensor, :func:`_edge_scores`: 0.7 s before), so
it is asked only of the d8s the cocked network is unsure of (:func:`vision.faces._judged_by_edges`).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

CORNERS = np.vstack([np.eye(3), -np.eye(3)])
"""An octahedron's corners (corner ``k`` on axis ``k % 3``, on its minus side from 3 on)."""

_SIGNS = np.array(list(itertools.product((1, -1), repeat=3)), float)
FACE_CORNERS = np.array([[axis if s[axis] > 0 else axis + 3 for axis in range(3)] for s in _SIGNS])
"""Each of the eight faces' corners (a face per sign of the three axes)."""

FACE_NORMALS = _SIGNS / math.sqrt(3)


def _edges() -> np.ndarray:
    """Each edge's two corners and its two faces, (12, 4)."""
    out = []
    for a, b in itertools.combinations(range(3), 2):
        for sa, sb in itertools.product((1, -1), repeat=2):
            faces = [i for i, s in enumerate(_SIGNS) if s[a] == sa and s[b] == sb]
            out.append((a if sa > 0 else a + 3, b if sb > 0 else b + 3, faces[0], faces[1]))
    return np.array(out)


EDGES = _edges()

LEANS_DEG = (20.0, 26.0, 32.0, 38.0)
"""How far the leaning octahedra lean (degrees): a d8 cocked against a die or a wall of the tray
(the renderer leans its cocked dice 20-38 degrees, :func:`vision.render._candidate`)."""

SIZES = (15 / 16, 1.0, 17 / 16)
"""Die sizes tried, in the calibration's die side (16 mm dice, give or take a millimetre)."""

SHIFTS = tuple((dx / 16, dy / 16) for dx in range(-2, 3) for dy in range(-2, 3))
"""Shifts tried from the hit's centre, in die sides (up to 2 mm of a 16 mm die, each way)."""

SAMPLES = np.linspace(0.2, 0.8, 9)
"""Where along an edge the gradients are sampled (its corners are rounded on a real die)."""

BLUR = 2.0
"""Gaussian blur (pixels) before the gradients: a hypothesis a pixel or two off still scores."""


def _turn(axis: np.ndarray, angle: float) -> np.ndarray:
    """The rotation by ``angle`` (radians) about the unit ``axis``."""
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.asarray(np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k)


def _face_up() -> np.ndarray:
    """The rotation that turns the face of corners 0, 1 and 2 up (+z)."""
    normal = FACE_NORMALS[0]
    axis = np.cross(normal, (0.0, 0.0, 1.0))
    return _turn(axis / np.linalg.norm(axis), math.acos(float(normal[2])))


def _poses(leans_deg: tuple[float, ...], round_deg: float, turn_deg: float) -> np.ndarray:
    """Rotations (N, 3, 3) of an octahedron on a face turned every ``turn_deg`` (its top face
    repeats every 120 degrees), leaning each of ``leans_deg`` towards every ``round_deg``."""
    up, out = _face_up(), []
    for lean in leans_deg:
        for towards in np.radians(np.arange(0, 360, round_deg)) if lean else (0.0,):
            tilt = _turn(np.array([-math.sin(towards), math.cos(towards), 0.0]), math.radians(lean))
            out += [tilt @ _turn(np.array([0.0, 0.0, 1.0]), turn) @ up for turn in np.radians(np.arange(0, 120, turn_deg))]
    return np.array(out)


FLAT_POSES = _poses((0.0,), 360.0, 3.0)
LEANING_POSES = _poses(LEANS_DEG, 30.0, 8.0)


@dataclass(frozen=True)
class TrayCamera:
    """A calibrated camera about straight above the tray: the pixel straight ``below`` it, a die's
    height over the camera's (``rise``) and a die's side on the tray plane in pixels (``die_px``)."""

    below: tuple[float, float]
    rise: float
    die_px: float

    def pixels(self, points: np.ndarray) -> np.ndarray:
        """Points (..., 3) in die sides (x, y on the tray plane from the point below the camera,
        z up from the tray) to pixels (..., 2)."""
        height = 1.0 / self.rise
        nearer = height / (height - points[..., 2:3])
        return np.asarray(np.array(self.below) + self.die_px * points[..., :2] * nearer)

    def on_tray(self, pixel: tuple[float, float], height: float) -> np.ndarray:
        """Where on the camera's ray through ``pixel`` a point ``height`` die sides up lies (x, y)."""
        ground = (np.array(pixel) - np.array(self.below)) / self.die_px
        return np.asarray(ground * (1.0 - height * self.rise))


def edge_ratio(frame: np.ndarray, centre: tuple[float, float], side: float, camera: TrayCamera) -> float:
    """How much better a leaning octahedron's edges fit the d8 hit at ``centre`` (``frame`` pixels,
    its box ``side`` across) than a flat one's: the best leaning score over the best flat score."""
    gradients = _gradients(frame, centre, int(round(side)))
    flat = max(_best(gradients, camera, FLAT_POSES, centre, size) for size in SIZES)
    leaning = max(_best(gradients, camera, LEANING_POSES, centre, size) for size in SIZES)
    return leaning / max(flat, 1e-6)


Gradients = tuple[np.ndarray, tuple[int, int], tuple[int, int]]
"""The colour gradients' structure tensor of a window of the frame (:func:`_gradients`), its
height and width, and its corner in the frame."""


def _gradients(frame: np.ndarray, centre: tuple[float, float], reach: int) -> Gradients:
    """The colour gradients of ``frame`` within ``reach`` of ``centre`` as their structure tensor:
    three planes (xx, xy, yy, each summed over the colours, flattened), from which the gradient
    across or along any edge direction is had without the six gradient planes (:func:`_edge_scores`)."""
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    x0, y0 = max(cx - reach, 0), max(cy - reach, 0)
    window = cv2.GaussianBlur(frame[y0:cy + reach, x0:cx + reach].astype(np.float32), (0, 0), BLUR)
    gx = cv2.Sobel(window, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(window, cv2.CV_32F, 0, 1, ksize=3) / 8
    if gx.ndim == 2:  # a grey frame
        gx, gy = gx[..., None], gy[..., None]
    tensor = np.stack([(gx * gx).sum(axis=-1), (gx * gy).sum(axis=-1), (gy * gy).sum(axis=-1)])
    return tensor.reshape(3, -1), (gx.shape[0], gx.shape[1]), (x0, y0)


def _best(gradients: Gradients, camera: TrayCamera, poses: np.ndarray, centre: tuple[float, float],
          size: float) -> float:
    """The best score of octahedra of ``size`` in ``poses``, each at every one of :data:`SHIFTS`."""
    pixels, seen = placed(camera, poses, centre, size, np.array(SHIFTS))
    return float(np.max(_edge_scores(gradients, pixels, seen)))


def placed(camera: TrayCamera, poses: np.ndarray, centre: tuple[float, float], size: float,
           shifts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Octahedra of ``size`` (die sides) in ``poses`` (N, 3, 3) resting on the tray where the
    camera's ray through the pixel ``centre`` meets half their height, moved by each of ``shifts``
    (S, 2, die sides): their corners' pixels (N, S, 6, 2) and which of their edges the camera
    sees (N, S, 12)."""
    corners = np.einsum("pij,vj->pvi", poses, CORNERS * size * math.sqrt(3) / 2)
    corners[..., 2] -= corners[..., 2].min(axis=1, keepdims=True)  # resting on the tray
    faces = corners[:, FACE_CORNERS].mean(axis=2)
    normals = np.einsum("pij,fj->pfi", poses, FACE_NORMALS)
    at = camera.on_tray(centre, size / 2) + shifts
    at = np.concatenate([at, np.zeros((len(shifts), 1))], axis=1)[None, :, None]  # (1, shifts, 1, 3)
    facing = _facing(faces[:, None] + at, normals[:, None], camera)
    seen = facing[..., EDGES[:, 2]] | facing[..., EDGES[:, 3]]
    return camera.pixels(corners[:, None] + at), seen


def _facing(points: np.ndarray, normals: np.ndarray, camera: TrayCamera) -> np.ndarray:
    """Whether faces at ``points`` (die sides, as :meth:`TrayCamera.pixels` takes them) looking
    along ``normals`` face the camera."""
    eye = np.array([0.0, 0.0, 1.0 / camera.rise])
    return np.asarray(((eye - points) * normals).sum(axis=-1) > 0)


def _edge_scores(gradients: Gradients, pixels: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Each hypothesis's score (:mod:`vision.octahedron`): ``pixels`` (..., 6, 2) its corners,
    ``seen`` (..., 12) which of its edges the camera sees. The gradient across an edge of unit
    direction u is sqrt(u'^T J u'), u' = u turned a quarter, and along it sqrt(u^T J u), J the
    structure tensor (:func:`_gradients`): the same as from the colour gradients, in float32, about
    3 times faster (issue 18: edges asked of more dice)."""
    tensor, (h, w), corner = gradients
    pixels = (pixels - corner).astype(np.float32)
    a, b = pixels[..., EDGES[:, 0], :], pixels[..., EDGES[:, 1], :]
    step = b - a
    along = step / np.maximum(np.sqrt((step * step).sum(axis=-1, keepdims=True)), np.float32(1e-6))
    samples = SAMPLES.astype(np.float32)
    ix = np.rint(np.clip(a[..., 0, None] + samples * step[..., 0, None], 0, w - 1)).astype(np.intp)
    iy = np.rint(np.clip(a[..., 1, None] + samples * step[..., 1, None], 0, h - 1)).astype(np.intp)
    at = iy * w + ix
    jxx, jxy, jyy = (np.take(plane, at) for plane in tensor)
    ux, uy = along[..., 0:1], along[..., 1:2]
    uxx, uxy, uyy = ux * ux, ux * uy, uy * uy
    across = np.sqrt(np.maximum(uyy * jxx - 2 * uxy * jxy + uxx * jyy, 0))
    lengthwise = np.sqrt(np.maximum(uxx * jxx + 2 * uxy * jxy + uyy * jyy, 0))
    middle = len(SAMPLES) // 2  # the median of an odd count
    per_edge = np.partition(np.maximum(across - lengthwise, 0), middle, axis=-1)[..., middle]
    return np.asarray((per_edge * seen).sum(axis=-1) / np.maximum(seen.sum(axis=-1), 1))
