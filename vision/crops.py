"""Die-centred crops: one square patch per candidate, normalised the same way for training and reading."""

from __future__ import annotations

import math

import cv2
import numpy as np

CROP_PX = 32
"""Side of the square crop the face classifier sees."""

READ_PX = 48
"""Side of the square crop the face reader sees (the same view as the finder's, sharper)."""

CROP_SCALE = 1.6
"""Crop side as a multiple of the die's side, so the whole top face and a margin are in view."""


def crop_matrix(center: tuple[float, float], side: float, angle_deg: float = 0.0,
                flip: bool = False, size: int = CROP_PX) -> np.ndarray:
    """The 2x3 affine map from crop pixels to image pixels for a square of ``side`` image pixels."""
    scale = side / size
    theta = math.radians(angle_deg)
    cos, sin = math.cos(theta) * scale, math.sin(theta) * scale
    sx = -1.0 if flip else 1.0
    half = (size - 1) / 2.0
    a = np.array([[cos * sx, -sin], [sin * sx, cos]], dtype=np.float64)
    offset = np.array(center, dtype=np.float64) - a @ np.array([half, half])
    return np.hstack([a, offset[:, None]])


def facing(center: tuple[float, float], below: tuple[float, float]) -> float:
    """The turn (degrees, for :func:`crop`) that puts the image point ``below`` straight below
    ``center`` in the crop. A camera sees a die lying flat from the side that faces the point of
    the tray straight below the camera (in a frame of a camera looking straight down, the frame's
    centre: :func:`frame_centre`); a leaning die shows a side in any direction. In crops taken at
    this turn the sides a flat die shows always lie below its top face."""
    return math.degrees(math.atan2(center[0] - below[0], below[1] - center[1]))


def frame_centre(shape: tuple[int, ...]) -> tuple[float, float]:
    """The centre (x, y) of a frame of ``shape`` (rows, columns, ...), in pixel coordinates."""
    return (shape[1] - 1) / 2, (shape[0] - 1) / 2


STRAIGHT_ABOVE = 0.05
"""Largest distance (a share of the frame's diagonal) from the frame's centre to the point straight
below the camera for the camera to count as straight above the tray."""


def straight_above(below: tuple[float, float] | None, shape: tuple[int, ...]) -> bool:
    """Whether the camera is about straight above a frame of ``shape``: the point ``below`` it
    unknown, or within :data:`STRAIGHT_ABOVE` of the frame's centre.

    >>> straight_above(None, (864, 1536)), straight_above((800.0, 450.0), (864, 1536, 3))
    (True, True)
    >>> straight_above((800.0, 700.0), (864, 1536, 3))
    False
    """
    centre = frame_centre(shape)
    return below is None or float(np.hypot(below[0] - centre[0], below[1] - centre[1])) \
        <= STRAIGHT_ABOVE * float(np.hypot(shape[0], shape[1]))


def crop(image: np.ndarray, center: tuple[float, float], side: float, angle_deg: float = 0.0,
         flip: bool = False, size: int = CROP_PX) -> np.ndarray:
    """A ``size`` x ``size`` BGR patch of ``image`` centred on ``center``, ``side`` pixels across."""
    matrix = crop_matrix(center, side, angle_deg, flip, size)
    return cv2.warpAffine(image, matrix, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def normalise(patches: np.ndarray) -> np.ndarray:
    """Stack of BGR uint8 patches (N, H, W, 3) to the network's input (N, 3, H, W), zero mean, unit spread.

    Each patch is standardised on its own so that lighting and die colour matter less than shape.
    """
    x = patches.astype(np.float32) / 255.0
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) / (std + 0.03)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def dominant_angle(image: np.ndarray, center: tuple[float, float], side: float) -> float:
    """The die's edge direction in degrees (0..90) around ``center``, from gradients folded modulo 90.

    A die's outline and its rows of pips share one pair of axes, so the magnitude-weighted mean of
    4x the gradient angle points along them.
    """
    patch = cv2.cvtColor(crop(image, center, side), cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    weight = (gx * gx + gy * gy) * _WINDOW
    theta = 4.0 * np.arctan2(gy, gx)
    z = complex(float((weight * np.cos(theta)).sum()), float((weight * np.sin(theta)).sum()))
    return math.degrees(math.atan2(z.imag, z.real) / 4.0) % 90.0


def aligned_crop(image: np.ndarray, center: tuple[float, float], side: float, size: int = CROP_PX) -> np.ndarray:
    """A ``size`` px crop turned so that the die's edges run along the crop's axes (see :func:`dominant_angle`)."""
    return crop(image, center, side, dominant_angle(image, center, side), size=size)


def sharpness(patch: np.ndarray, across: float | None = None) -> float:
    """How sharp a die crop is: the steepest lightness step in its middle (98th percentile of the
    gradient) over its lightness range. About 0.3 for a die in focus, under 0.2 when blurred.

    ``across``: how many frame pixels the crop spans. A crop enlarged from fewer pixels than its own
    spreads each step over more of them, so its sharpness is scaled up by the enlargement (a small
    die in focus is not blurred); a shrunk crop is taken as it is."""
    return _sharpness_of(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), across)


def sharpest_channel(patch: np.ndarray, across: float | None = None) -> float:
    """:func:`sharpness` of the BGR crop's sharpest colour channel: a design's edges may lie in one
    channel only (white ink on an orange or pink die is faint in grey, and measured soft there)."""
    return max(_sharpness_of(patch[..., c], across) for c in range(3))


def _sharpness_of(plane: np.ndarray, across: float | None) -> float:
    """:func:`sharpness` of one 8-bit plane of a crop (its lightness, or one colour channel)."""
    grey = cv2.GaussianBlur(plane.astype(np.float32), (0, 0), 1.0)
    step = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    inner = slice(plane.shape[0] // 5, plane.shape[0] - plane.shape[0] // 5)
    low, high = np.percentile(grey[inner, inner], [5, 95])
    enlarged = max(1.0, plane.shape[0] / across) if across else 1.0
    return float(np.percentile(step[inner, inner], 98) / 8.0 / (high - low + 8.0)) * enlarged


DARK_BODY = 70
"""Most median lightness (0-255) of a die's middle for it to count as dark (:func:`dark_body`):
the smoky dice of the real photos are 48-55; a red die with white pips about 110. :mod:`vision.read`
reads a doubtful dark die in its red channel too (:func:`red_channel`)."""


def _middle(n: int) -> slice:
    """The middle of a die-centred crop ``n`` pixels across, along either axis: its central 40%,
    well inside the die's top face."""
    return slice(int(n * 0.3), int(n * 0.7))


def dark_body(patch: np.ndarray) -> bool:
    """Whether the die in a die-centred crop has a dark body (see :data:`DARK_BODY`)."""
    inner = _middle(patch.shape[0])
    return float(np.median(cv2.cvtColor(patch[inner, inner], cv2.COLOR_BGR2GRAY))) <= DARK_BODY


def red_channel(patches: np.ndarray) -> np.ndarray:
    """Each BGR crop's red channel, stretched so the die's middle spans black to white, as a grey
    BGR crop: red pips on a dark body, faint in colour, are light on dark there, as the readers know
    the pips of a black die."""
    red = patches[..., 2].astype(np.float32)
    inner = _middle(patches.shape[1])
    low, high = np.percentile(red[:, inner, inner], [2, 98], axis=(1, 2))[:, :, None, None]
    grey = np.clip((red - low) * (255.0 / np.maximum(high - low, 8.0)), 0, 255).astype(np.uint8)
    return np.repeat(grey[..., None], 3, axis=3)


def _window(size: int) -> np.ndarray:
    r = np.arange(size, dtype=np.float32) - (size - 1) / 2.0
    g = np.exp(-(r * r) / (2 * (size * 0.3) ** 2))
    return np.outer(g, g)


_WINDOW = _window(CROP_PX)
