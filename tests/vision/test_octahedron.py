"""A d8's edges, flat or leaning (vision.octahedron): octahedra drawn by hand, not rendered."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.faces import EDGES_FLAT, EDGES_LEAN
from vision.octahedron import (EDGES, FACE_CORNERS, FACE_NORMALS, FLAT_POSES, LEANING_POSES, SAMPLES, SHIFTS, BLUR,
                               TrayCamera, _edge_scores, _gradients, _poses, edge_ratio, placed)

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

CAMERA = TrayCamera(below=(400.0, 300.0), rise=16 / 600, die_px=60.0)
"""A camera 600 mm over the tray, a 16 mm die 60 pixels across."""


def _drawn(pose: np.ndarray, at: tuple[float, float]) -> tuple[np.ndarray, tuple[float, float]]:
    """A frame of grey felt with a red octahedron in ``pose`` resting at the tray point under the
    camera's pixel ``at``, its faces shaded by a light above (drawn far face first), and the
    centre of its outline."""
    pixels, _ = placed(CAMERA, pose[None], at, 1.0, np.zeros((1, 2)))
    corners = pixels[0, 0]
    frame = np.full((600, 800, 3), (70, 80, 75), np.uint8)
    normals = FACE_NORMALS @ pose.T
    for face in np.argsort(normals[:, 2]):  # faces turned away drawn first, then covered
        if normals[face, 2] > -0.2:
            shade = 90 + 150 * max(float(normals[face, 2]), 0.0)
            cv2.fillConvexPoly(frame, np.round(corners[FACE_CORNERS[face]]).astype(np.int32),
                               (40, 40, shade), cv2.LINE_AA)
    low, high = corners.min(axis=0), corners.max(axis=0)
    return frame, (float(low[0] + high[0]) / 2, float(low[1] + high[1]) / 2)


@pytest.mark.parametrize("at", [(520.0, 330.0), (250.0, 180.0)])
def test_a_flat_octahedron_fits_flat_edges_and_a_leaning_one_leaning_edges(at: tuple[float, float]) -> None:
    """Poses between the ones tried (flat turned 10 degrees; leaning 29 degrees towards 45,
    turned 20): the flat one is under the bar taken for flat, the leaning one over the bar for
    leaning (the bars of vision.faces), wherever it lies under the camera."""
    flat = _poses((0.0,), 360.0, 10.0)[1]
    leaning = _poses((29.0,), 45.0, 20.0)[7]
    side = CAMERA.die_px * 1.17
    flat_frame, flat_centre = _drawn(flat, at)
    leaning_frame, leaning_centre = _drawn(leaning, at)
    assert edge_ratio(flat_frame, flat_centre, side, CAMERA) < EDGES_FLAT
    assert edge_ratio(leaning_frame, leaning_centre, side, CAMERA) > EDGES_LEAN


def _scores_from_colour_gradients(frame: np.ndarray, centre: tuple[float, float], reach: int,
                                  pixels: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """The score as the module defines it, from the colour gradients themselves (the code before
    the structure tensor): the mean over the seen edges of the median along each edge of the
    gradient across it less the gradient along it, each summed over the colours."""
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    x0, y0 = max(cx - reach, 0), max(cy - reach, 0)
    window = cv2.GaussianBlur(frame[y0:cy + reach, x0:cx + reach].astype(np.float32), (0, 0), BLUR)
    gx = cv2.Sobel(window, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(window, cv2.CV_32F, 0, 1, ksize=3) / 8
    a, b = pixels[..., EDGES[:, 0], :] - (x0, y0), pixels[..., EDGES[:, 1], :] - (x0, y0)
    along = (b - a) / np.maximum(np.linalg.norm(b - a, axis=-1, keepdims=True), 1e-6)
    points = a[..., None, :] + SAMPLES[:, None] * (b - a)[..., None, :]
    ix = np.clip(np.round(points[..., 0]).astype(int), 0, gx.shape[1] - 1)
    iy = np.clip(np.round(points[..., 1]).astype(int), 0, gx.shape[0] - 1)
    sx, sy = gx[iy, ix], gy[iy, ix]
    ux, uy = along[..., None, 0:1], along[..., None, 1:2]
    across = np.sqrt(((sx * -uy + sy * ux) ** 2).sum(axis=-1))
    lengthwise = np.sqrt(((sx * ux + sy * uy) ** 2).sum(axis=-1))
    per_edge = np.median(np.maximum(across - lengthwise, 0.0), axis=-1)
    return np.asarray((per_edge * seen).sum(axis=-1) / np.maximum(seen.sum(axis=-1), 1))


def test_the_scores_from_the_structure_tensor_are_the_scores_from_the_colour_gradients() -> None:
    """The faster sum (issue 18: the edges are asked of more dice) scores every hypothesis as the
    colour gradients do: flat and leaning octahedra, at every shift, on a drawn die and on noise."""
    rng = np.random.default_rng(5)
    drawn, centre = _drawn(_poses((29.0,), 45.0, 20.0)[7], (520.0, 330.0))
    noise = cv2.GaussianBlur(rng.integers(0, 256, drawn.shape, dtype=np.uint8), (0, 0), 3)
    reach = int(round(CAMERA.die_px * 1.17))
    poses = np.concatenate([FLAT_POSES, LEANING_POSES[::7]])
    pixels, seen = placed(CAMERA, poses, centre, 1.0, np.array(SHIFTS))
    for frame in (drawn, noise):
        fast = _edge_scores(_gradients(frame, centre, reach), pixels, seen)
        slow = _scores_from_colour_gradients(frame, centre, reach, pixels, seen)
        assert fast.shape == slow.shape == (len(poses), len(SHIFTS))
        assert np.allclose(fast, slow, rtol=1e-3, atol=1e-3 * float(slow.max())), float(np.abs(fast - slow).max())
        assert math.isclose(float(fast.max()), float(slow.max()), rel_tol=1e-4)
