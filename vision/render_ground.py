"""The synthetic renderer's camera, tray surfaces (felt, wood, plain), tray markers and sensor effects."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.calibrate import CORNER_IDS, TrayLayout, marker_image
from vision.render_die import fill

BACKGROUNDS = ("felt", "wood", "plain")
"""Surfaces the renderer knows; ``"random"`` picks one of them."""


@dataclass(frozen=True, eq=False)
class Camera:
    """A pinhole camera over the tray: world mm with x right, y down the tray, z down into it."""

    size: tuple[int, int]
    focal_px: float
    rotation: np.ndarray  # world -> camera
    centre: np.ndarray    # camera position, world mm

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) in mm to pixels (N, 2)."""
        cam = (points - self.centre) @ self.rotation.T
        uv = cam[:, :2] / cam[:, 2:] * self.focal_px
        return np.asarray(uv + (self.size[0] / 2, self.size[1] / 2))

    def below(self) -> tuple[float, float]:
        """The pixel of the tray plane's point straight below the camera (what a calibration
        finds: ``vision.calibrate.Calibration.below_camera``)."""
        x, y = self.project(np.array([[self.centre[0], self.centre[1], 0.0]]))[0]
        return float(x), float(y)

    def ground_to_image(self) -> np.ndarray:
        """Homography from tray-plane mm (x, y, 1) to pixels."""
        k = np.array([[self.focal_px, 0, self.size[0] / 2], [0, self.focal_px, self.size[1] / 2], [0, 0, 1]])
        r = self.rotation
        return np.asarray(k @ np.column_stack([r[:, 0], r[:, 1], -r @ self.centre]))

    def image_to_ground(self, pixels: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) to tray-plane mm (N, 2)."""
        points = pixels.reshape(-1, 1, 2).astype(np.float64)
        return cv2.perspectiveTransform(points, np.linalg.inv(self.ground_to_image())).reshape(-1, 2)


def focal_length_px(width: int, fov_deg: float) -> float:
    """The focal length, in pixels, of a lens that sees ``fov_deg`` across a frame ``width`` pixels wide.

    >>> round(focal_length_px(1536, 40.0), 1)
    2110.1
    """
    return width / 2 / math.tan(math.radians(fov_deg) / 2)


def make_camera(size: tuple[int, int], px_per_mm: float, fov_deg: float, tilt_deg: float,
                tilt_towards: float, target: tuple[float, float]) -> Camera:
    """A camera seeing ``px_per_mm`` at ``target`` on the tray, tilted ``tilt_deg`` from straight down."""
    focal = focal_length_px(size[0], fov_deg)
    axis = np.array([math.cos(tilt_towards), math.sin(tilt_towards), 0.0]) * math.radians(tilt_deg)
    rotation = cv2.Rodrigues(axis)[0]
    distance = focal / px_per_mm
    centre = np.array([target[0], target[1], 0.0]) - distance * rotation.T @ np.array([0.0, 0.0, 1.0])
    return Camera(size, focal, rotation, centre)


def ground_image(rng: random.Random, camera: Camera, background: str, tray: TrayLayout | None,
                 px_per_mm: float, markers: bool = False, walls: bool = False, clutter: int = 0) -> np.ndarray:
    """The empty tray as the camera sees it: a textured surface with, on request, distractors,
    the corner markers and the tray's walls (these two need ``tray``)."""
    width, height = camera.size
    corners = camera.image_to_ground(np.array([[0, 0], [width, 0], [width, height], [0, height]], float))
    lo, hi = corners.min(axis=0) - 2, corners.max(axis=0) + 2
    sharpness = 1.25 if markers else 0.8  # markers need crisp edges, felt does not
    scale = min(px_per_mm * sharpness, 2.2 * math.sqrt(width * height / float(np.prod(hi - lo))))
    size = (int((hi - lo)[0] * scale) + 1, int((hi - lo)[1] * scale) + 1)
    texture = surface(rng, background, size, scale)
    if walls and tray is not None:
        _paint_outside(texture, rng, tray, lo, scale)
    for _ in range(clutter):
        draw_distractor(texture, rng, scale)
    if markers and tray is not None:
        draw_tray(texture, tray, lo, scale)
    to_texture = np.array([[scale, 0, -lo[0] * scale], [0, scale, -lo[1] * scale], [0, 0, 1]])
    warp = camera.ground_to_image() @ np.linalg.inv(to_texture)
    image = cv2.warpPerspective(texture, warp, camera.size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    if walls and tray is not None:
        draw_walls(image, rng, camera, tray)
    return image


def _paint_outside(texture: np.ndarray, rng: random.Random, tray: TrayLayout, origin: np.ndarray,
                   scale: float) -> None:
    """The table around the tray: a plain light surface outside the tray's outline."""
    colour = _jitter(rng, (215, 218, 220), 20)
    height, width = texture.shape[:2]
    x0, y0 = ((0 - origin) * scale).astype(int)
    x1, y1 = ((np.array([tray.width_mm, tray.height_mm]) - origin) * scale).astype(int)
    for corner, far in (((0, 0), (width, y0)), ((0, y1), (width, height)), ((0, 0), (x0, height)),
                        ((x1, 0), (width, height))):
        cv2.rectangle(texture, corner, far, colour, -1)


WALL_COLOURS = ((40, 40, 42), (70, 70, 80), (35, 70, 120), (150, 150, 150))


def draw_walls(image: np.ndarray, rng: random.Random, camera: Camera, tray: TrayLayout) -> None:
    """The tray's four inner walls, leaning out a little, with a lighter rim on top."""
    colour = np.array(_jitter(rng, rng.choice(WALL_COLOURS), 15), np.float64)
    tall, lean, rim = rng.uniform(22, 35), rng.uniform(2, 8), rng.uniform(3, 6)
    w, h = tray.width_mm, tray.height_mm
    edges = (((0, 0), (w, 0), (0, -1)), ((w, 0), (w, h), (1, 0)), ((w, h), (0, h), (0, 1)), ((0, h), (0, 0), (-1, 0)))
    for (a, b, out), shade in zip(edges, (0.8, 1.0, 1.15, 0.9)):
        base = np.array([[*a, 0.0], [*b, 0.0]])
        step = np.array([out[0], out[1], 0.0])
        top = base + step * lean - np.array([0.0, 0.0, tall])
        _quad(image, camera, np.vstack([base, top[::-1]]), colour * shade)
        _quad(image, camera, np.vstack([top, top[::-1] + step * rim]), colour * 1.35)


def _quad(image: np.ndarray, camera: Camera, corners: np.ndarray, colour: np.ndarray) -> None:
    fill(image, camera.project(corners), tuple(float(c) for c in np.clip(colour, 0, 255)))


def draw_distractor(texture: np.ndarray, rng: random.Random, scale: float) -> None:
    """One thing on the surface that is not a die: a hole, a stain, a line, a row of dots or print."""
    height, width = texture.shape[:2]
    x, y = rng.randrange(width), rng.randrange(height)
    grey = rng.randint(40, 170)
    colour = (grey, grey + rng.randint(-15, 15), grey + rng.randint(-15, 15))
    kind = rng.choice(("hole", "line", "dots", "print", "strip"))
    if kind == "hole":
        cv2.circle(texture, (x, y), int(rng.uniform(3, 14) * scale), colour, -1, cv2.LINE_AA)
    elif kind == "line":
        angle, length = rng.uniform(0, math.pi), rng.uniform(20, 120) * scale
        end = (int(x + length * math.cos(angle)), int(y + length * math.sin(angle)))
        cv2.line(texture, (x, y), end, colour, max(1, int(rng.uniform(0.5, 2.5) * scale)), cv2.LINE_AA)
    elif kind == "strip":
        _draw_strip(texture, rng, (x, y), scale)
    elif kind == "dots":
        gap = rng.uniform(3, 6) * scale
        for k in range(rng.randint(2, 4)):
            cv2.circle(texture, (int(x + k * gap), y), max(1, int(rng.uniform(1, 2) * scale)), colour, -1, cv2.LINE_AA)
    else:
        text = "".join(rng.choice("ABCDEFGHKLMNOPRSTUVWXYZ0123456789 ") for _ in range(rng.randint(3, 10)))
        cv2.putText(texture, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(4, 10) * scale / 22, colour,
                    max(1, int(scale * 0.6)), cv2.LINE_AA)


def surface(rng: random.Random, background: str, size: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """A top-down texture of the named surface, ``size`` = (width, height) pixels."""
    kind = rng.choice(BACKGROUNDS) if background == "random" else background
    if kind == "felt":
        base = _jitter(rng, rng.choice([(45, 105, 35), (110, 60, 25), (40, 40, 120), (70, 70, 70)]), 20)
        return _grain(rng, _lit(rng, _flat(size, base), 0.25), 9)
    if kind == "wood":
        return _grain(rng, _lit(rng, _wood(rng, size, px_per_mm), 0.2), 4)
    if kind == "plain":
        level = rng.randint(-25, 12)  # paper and trays are near-neutral: vary brightness, not hue
        base = _jitter(rng, (218 + level, 222 + level, 225 + level), 4)
        return _grain(rng, _lit(rng, _flat(size, base), 0.18), 3)
    raise ValueError(f"unknown background {background!r} (choose from {', '.join(BACKGROUNDS)}, random)")


def _jitter(rng: random.Random, colour: tuple[int, int, int], amount: int) -> tuple[int, int, int]:
    return tuple(max(0, min(255, c + rng.randint(-amount, amount))) for c in colour)  # type: ignore[return-value]


def _flat(size: tuple[int, int], colour: tuple[int, int, int]) -> np.ndarray:
    return np.full((size[1], size[0], 3), colour, np.uint8)


def _lit(rng: random.Random, image: np.ndarray, amount: float) -> np.ndarray:
    """Uneven lighting: a smooth brightness field varying by about ``amount``."""
    cells = np.array([[1 + amount * (rng.random() - 0.5) for _ in range(3)] for _ in range(3)], np.float32)
    field = cv2.resize(cells, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_CUBIC)
    return cv2.multiply(image, cv2.merge([field] * 3), dtype=cv2.CV_8U)


def _grain(rng: random.Random, image: np.ndarray, strength: int) -> np.ndarray:
    """Fine texture (felt fibres, paper grain): smoothed noise, the same in every channel."""
    return cv2.add(image, noise_like(rng, image.shape, strength, smooth=True), dtype=cv2.CV_8U)


TILE = 2048


@lru_cache(maxsize=8)
def _noise_tile(strength: int, smooth: bool) -> np.ndarray:
    """A fixed tile of gaussian noise (int8, 3 channels); frames take random windows of it, which
    is much cheaper than drawing fresh noise for every pixel of every frame."""
    generator = np.random.default_rng(strength * 2 + smooth)
    if smooth:
        grey = cv2.GaussianBlur(generator.standard_normal((TILE, TILE), np.float32), (3, 3), 0)
        tile = cv2.merge([grey * np.float32(2.2 * strength)] * 3)
    else:
        tile = generator.standard_normal((TILE, TILE, 3), np.float32) * np.float32(strength)
    return np.clip(np.rint(tile, out=tile), -127, 127, out=tile).astype(np.int8)


def noise_like(rng: random.Random, shape: tuple[int, ...], strength: float, smooth: bool = False) -> np.ndarray:
    """Gaussian noise (int8) of the given (height, width, 3) shape and strength in grey levels."""
    height, width = shape[:2]
    tile = _noise_tile(max(1, min(40, round(strength))), smooth)
    if height > TILE or width > TILE:
        tile = np.tile(tile, (height // TILE + 1, width // TILE + 1, 1))
    y, x = rng.randrange(tile.shape[0] - height + 1), rng.randrange(tile.shape[1] - width + 1)
    window = tile[y:y + height, x:x + width]
    return window[::-1] if rng.random() < 0.5 else window


def sensor_noise(rng: random.Random, image: np.ndarray, sigma: float) -> np.ndarray:
    """``image`` (uint8, 3 channels) with gaussian sensor noise of ``sigma`` grey levels (rounded to a
    whole level, at least 1), independent per pixel and channel, drawn from ``rng``: a new image
    (a few milliseconds for a 1536x864 frame, as it is a window of :func:`noise_like`'s tile)."""
    return np.asarray(cv2.add(image, noise_like(rng, image.shape, sigma), dtype=cv2.CV_8U))


def _wood(rng: random.Random, size: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """Planks with grain along x: wavy stripes of two browns at two scales, drawn at a quarter of
    the size (wood grain is smooth) and enlarged."""
    dark = np.array(_jitter(rng, (30, 60, 110), 15), np.float32)
    light = np.array(_jitter(rng, (70, 120, 180), 15), np.float32)
    small = (max(2, size[0] // 4), max(2, size[1] // 4))
    bends = [cv2.resize(np.array([[rng.random() for _ in range(n)] for _ in range(3)], np.float32), small,
                        interpolation=cv2.INTER_CUBIC) for n in (4, 9)]
    y = np.arange(small[1], dtype=np.float32)[:, None] * 4 / px_per_mm
    phase = y * rng.uniform(0.12, 0.35) + bends[0] * rng.uniform(4, 10) + bends[1] * rng.uniform(1, 3)
    stripes = 0.5 + 0.35 * np.sin(phase) + 0.15 * np.sin(phase * 3.1 + bends[1] * 5)
    planks = (dark + (light - dark) * stripes[..., None]).astype(np.uint8)
    return np.asarray(cv2.resize(planks, size, interpolation=cv2.INTER_LINEAR))


def draw_tray(texture: np.ndarray, tray: TrayLayout, origin: np.ndarray, scale: float) -> None:
    """Draw the four corner markers, each on a white quiet zone one cell wide."""
    for marker_id in CORNER_IDS:
        x, y = (np.array(tray.marker_origin_mm(marker_id)) - origin) * scale
        cell = tray.marker_mm / 6 * scale
        side = int(round(tray.marker_mm * scale))
        x0, y0 = int(round(x)), int(round(y))
        pad = int(round(cell))
        cv2.rectangle(texture, (x0 - pad, y0 - pad), (x0 + side + pad, y0 + side + pad), (235, 235, 235), -1)
        marker = cv2.resize(marker_image(marker_id, 8), (side, side), interpolation=cv2.INTER_NEAREST)
        texture[y0:y0 + side, x0:x0 + side] = marker[..., None]


def _draw_strip(texture: np.ndarray, rng: random.Random, centre: tuple[int, int], scale: float) -> None:
    """A light plastic strip with a grey hole near each end (rails and clips lie around trays)."""
    length, width = rng.uniform(100, 250) * scale, rng.uniform(14, 30) * scale
    angle = rng.choice([0.0, 90.0]) + rng.uniform(-4, 4)
    corners = cv2.boxPoints((centre, (length, width), angle))
    surface = texture[min(texture.shape[0] - 1, centre[1]), min(texture.shape[1] - 1, centre[0])].astype(int)
    fill(texture, corners, tuple(float(min(255, c + 14)) for c in surface))
    cv2.polylines(texture, [np.round(corners).astype(np.int32)], True,
                  tuple(float(max(0, c - 25)) for c in surface), max(1, int(scale * 0.4)), cv2.LINE_AA)
    along = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))]) * (length / 2 - width * 0.7)
    for sign in (-1, 1):
        hole = np.array(centre) + sign * along
        grey = rng.randint(110, 160)
        cv2.circle(texture, (int(hole[0]), int(hole[1])), int(width * 0.28), (grey, grey, grey), -1, cv2.LINE_AA)


def finish(rng: random.Random, image: np.ndarray, blur: float, noise: float, jpeg_quality: int | None,
           gains: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """Camera effects on the final frame: white balance (per-channel ``gains``), defocus blur,
    sensor noise, JPEG compression."""
    if gains != (1.0, 1.0, 1.0):
        image = cv2.transform(image, np.diag(gains))
    if blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    if noise > 0:
        image = sensor_noise(rng, image, noise)
    if jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        image = image if decoded is None else decoded
    return image
