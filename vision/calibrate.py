"""Tray calibration: four ArUco corner markers give a homography between camera pixels and tray mm."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import cv2
import numpy as np

from controller.games.errors import ConfigError, DiceTableError

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
"""The ArUco dictionary of the tray markers: 4x4 bits, big cells, robust at small sizes."""

TRAY_KEYS = ("width_mm", "height_mm", "marker_mm", "margin_mm", "focal_px")
"""The keys of a configuration's ``[tray]`` table."""

MAX_TRAY_MM = 3000.0
"""The largest size a ``[tray]`` key may give: the reader warps the tray to a top-down view at
1.8 px per mm (``vision.read.TRAY_PX_PER_MM``), so a mistyped size (``width_mm = 1e9``, or ``inf``,
which TOML allows) would ask for an image of that many pixels, or none."""

CORNER_IDS = (0, 1, 2, 3)
"""Marker ids at the tray corners: top-left, top-right, bottom-right, bottom-left."""


class CalibrationError(DiceTableError, ValueError):
    """A frame in which the tray markers cannot be found or give no usable homography."""


@dataclass(frozen=True)
class TrayLayout:
    """The tray's size and where its four markers sit, all in millimetres, origin top-left; and the
    edge of the table's dice (the reader's die size on the tray: :func:`vision.read.read_dice`)."""

    width_mm: float = 400.0
    height_mm: float = 250.0
    marker_mm: float = 30.0
    margin_mm: float = 5.0
    die_mm: float = 16.0

    @classmethod
    def from_config(cls, table: Mapping[str, Any]) -> TrayLayout:
        """The layout from a configuration's ``[tray]`` table (keys as the field names).

        :raises ConfigError: a key is unknown or not a number of millimetres (more than 0; the
            margin may be 0), naming it as ``tray.KEY``.
        """
        unknown = sorted(set(table) - set(TRAY_KEYS))
        if unknown:
            raise ConfigError(f"unknown configuration key: tray.{unknown[0]} (keys: "
                              f"{', '.join(TRAY_KEYS)}; see table.example.toml)")
        values = {}
        for key in ("width_mm", "height_mm", "marker_mm", "margin_mm", "die_mm"):
            if key in table:
                value = table[key]
                if not _is_number(value) or value < 0 or (value == 0 and key != "margin_mm"):
                    raise ConfigError(f"tray.{key}: must be a number of millimetres above 0, "
                                      f"not {value!r}")
                if value > MAX_TRAY_MM:
                    raise ConfigError(f"tray.{key}: {value!r} mm is larger than any tray "
                                      f"(at most {MAX_TRAY_MM:.0f} mm)")
                values[key] = float(value)
        return cls(**values)

    def __post_init__(self) -> None:
        sizes = (self.width_mm, self.height_mm, self.marker_mm, self.margin_mm, self.die_mm)
        if not all(math.isfinite(size) for size in sizes) or max(sizes) > MAX_TRAY_MM:
            raise ConfigError(f"tray {self.width_mm}x{self.height_mm} mm, markers {self.marker_mm} mm: every size "
                              f"must be a number of millimetres, at most {MAX_TRAY_MM:.0f}")
        inner = min(self.width_mm, self.height_mm) - 2 * (self.margin_mm + self.marker_mm)
        if self.die_mm <= 0:
            raise ConfigError(f"tray die_mm must be a positive edge in millimetres, not {self.die_mm!r}")
        if self.marker_mm <= 0 or self.margin_mm < 0 or inner <= 0:
            raise ConfigError(f"tray {self.width_mm}x{self.height_mm} mm cannot hold four "
                              f"{self.marker_mm} mm markers {self.margin_mm} mm from the edges")

    def marker_origin_mm(self, marker_id: int) -> tuple[float, float]:
        """Top-left corner (tray mm) of the marker with this id."""
        far_x = self.width_mm - self.margin_mm - self.marker_mm
        far_y = self.height_mm - self.margin_mm - self.marker_mm
        near = self.margin_mm
        return ((near, near), (far_x, near), (far_x, far_y), (near, far_y))[CORNER_IDS.index(marker_id)]

    def marker_corners_mm(self, marker_id: int) -> np.ndarray:
        """The marker's four corners in tray mm, in ArUco order (clockwise from its top-left)."""
        x, y = self.marker_origin_mm(marker_id)
        m = self.marker_mm
        return np.array([[x, y], [x + m, y], [x + m, y + m], [x, y + m]], dtype=np.float64)


def marker_image(marker_id: int, cells_px: int) -> np.ndarray:
    """The marker as a grey image, ``cells_px`` pixels per bit cell (6 cells across with border)."""
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, 6 * cells_px)


@dataclass(frozen=True)
class Zone:
    """A named area of the tray (the community area, a seat's area) as a polygon in tray mm."""

    name: str
    polygon: tuple[tuple[float, float], ...]

    def contains(self, point_mm: tuple[float, float]) -> bool:
        """True when the point lies inside the polygon or on its edge."""
        contour = np.array(self.polygon, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (float(point_mm[0]), float(point_mm[1])), False) >= 0


@dataclass(frozen=True)
class ZoneMap:
    """The tray's zones in configuration order; the first zone containing a point wins."""

    zones: tuple[Zone, ...] = ()

    @classmethod
    def from_config(cls, table: Mapping[str, Any]) -> ZoneMap:
        """Zones from a ``[zones]`` table: ``name = [[x, y], ...]`` or ``[zones.name] polygon = ...``.

        >>> zones = ZoneMap.from_config({"community": [[0, 0], [100, 0], [100, 50], [0, 50]]})
        >>> zones.zone_of((20, 20)), zones.zone_of((20, 80))
        ('community', None)
        """
        return cls(tuple(_zone(name, value) for name, value in table.items()))

    def zone_of(self, point_mm: tuple[float, float]) -> str | None:
        """The name of the zone a tray point lies in, or None outside every zone."""
        return next((zone.name for zone in self.zones if zone.contains(point_mm)), None)


def _is_number(value: Any) -> bool:
    """An int or a float (a TOML ``true`` is neither), and finite (not nan or inf)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _zone(name: str, value: Any) -> Zone:
    if isinstance(value, Mapping) and set(value) - {"polygon"}:
        extra = sorted(set(value) - {"polygon"})[0]
        raise ConfigError(f"unknown configuration key: zones.{name}.{extra} (a zone has only "
                          "polygon = [[x, y], ...])")
    points: Any = value.get("polygon") if isinstance(value, Mapping) else value
    if not isinstance(points, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(_is_number(c) for c in p) for p in points):
        raise ConfigError(f"zones.{name}: must be a list of [x, y] points in mm, not {value!r}")
    if len(points) < 3:
        raise ConfigError(f"zones.{name}: needs at least 3 points, got {len(points)}")
    return Zone(name, tuple((float(x), float(y)) for x, y in points))


@dataclass(frozen=True)
class TrayConfig:
    """The tray part of a table configuration: layout, zones and, if measured, the lens's focal length."""

    layout: TrayLayout = TrayLayout()
    zones: ZoneMap = ZoneMap()
    focal_px: float | None = None


def load_tray_config(path: str | Path) -> TrayConfig:
    """The ``[tray]`` and ``[zones]`` tables of a table configuration file (TOML).

    ``[tray]`` takes ``width_mm``, ``height_mm``, ``marker_mm``, ``margin_mm`` and optionally
    ``focal_px`` (needed to place dice when the camera looks straight down).
    """
    try:
        with open(path, "rb") as handle:
            config = tomllib.load(handle)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        reason = "not UTF-8 text" if isinstance(err, UnicodeDecodeError) else str(err)
        raise ConfigError(f"cannot read table configuration {str(path)!r}: {reason}") from None
    return tray_config_of(config)


def tray_config_of(config: Mapping[str, Any]) -> TrayConfig:
    """The tray part of a parsed configuration (its ``[tray]`` and ``[zones]`` tables).

    :raises ConfigError: naming the key (``tray.focal_px``, ``zones.seat0``) that is wrong.
    """
    tray, zones = config.get("tray", {}), config.get("zones", {})
    for name, table in (("tray", tray), ("zones", zones)):
        if not isinstance(table, Mapping):
            raise ConfigError(f"{name}: expected a table ([{name}]), got {table!r}")
    focal = tray.get("focal_px")
    if focal is not None and (not _is_number(focal) or focal <= 0):
        raise ConfigError(f"tray.focal_px: must be a positive number of pixels, not {focal!r}")
    return TrayConfig(TrayLayout.from_config(tray), ZoneMap.from_config(zones),
                      None if focal is None else float(focal))


def corner_dictionary() -> cv2.aruco.Dictionary:
    """The tray's four corner markers (:data:`CORNER_IDS`) of :data:`MARKER_DICTIONARY`, and no other:
    what the detector looks for. With all 50 markers of the dictionary, OpenCV 4.10 (the Pi's,
    ``hardware/pi-constraints.txt``) took the outline of marker 0's white quiet zone on green felt for
    a marker 17, and then dropped marker 0 inside it as too close (1 of 400 bench trays; OpenCV 5.1
    found it); the tray then had three markers, and the camera's point below was guessed from them
    (:func:`estimate_focal_px`). A marker of the dictionary's other 46 lies at least 4 bits from
    these four (in any turn), so the one bit the detector corrects never makes it one of them."""
    whole = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    return cv2.aruco.Dictionary(whole.bytesList[list(CORNER_IDS)].copy(), whole.markerSize, whole.maxCorrectionBits)


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The tray markers found in a frame: id -> its four corners in pixels (ArUco order)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    parameters = cv2.aruco.DetectorParameters()
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(corner_dictionary(), parameters)
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    return {CORNER_IDS[int(i)]: c.reshape(4, 2).astype(np.float64) for i, c in zip(ids.ravel(), corners)}


TOP_FACE_MM = 16.0
"""Height of a resting die's top face above the tray (a standard d6's edge), to undo its parallax
when the lens's focal length is known; a few millimetres off for other kinds, well inside a zone."""


@dataclass(frozen=True, eq=False)
class Calibration:
    """The mapping between a camera's pixels and the tray plane, in millimetres.

    ``homography`` maps tray mm (x, y, 1) to pixels. ``focal_px`` (the lens, from the
    configuration or estimated from a tilted view) lets :meth:`die_tray_mm` undo the parallax of a
    die's raised top face.
    """

    layout: TrayLayout
    homography: np.ndarray
    image_size: tuple[int, int]
    focal_px: float | None = None

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Tray points (N, 2) in mm to pixels (N, 2)."""
        return _transform(self.homography, points_mm)

    def to_tray(self, pixels: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) to tray-plane points (N, 2) in mm."""
        return _transform(np.linalg.inv(self.homography), pixels)

    def top_down(self, image: np.ndarray, px_per_mm: float = 2.0, border_mm: float = 0.0) -> np.ndarray:
        """The tray seen straight from above, ``px_per_mm`` pixels per millimetre, with
        ``border_mm`` of its surroundings on every side (pixel (0, 0) is tray mm (-border, -border))."""
        to_tray_image = np.array([[px_per_mm, 0, border_mm * px_per_mm], [0, px_per_mm, border_mm * px_per_mm],
                                  [0, 0, 1]])
        size = (round((self.layout.width_mm + 2 * border_mm) * px_per_mm),
                round((self.layout.height_mm + 2 * border_mm) * px_per_mm))
        return cv2.warpPerspective(image, to_tray_image @ np.linalg.inv(self.homography), size)

    def camera_mm(self) -> np.ndarray:
        """The camera's position in tray mm (z negative: above the tray), from the homography."""
        if self.focal_px is None:
            raise CalibrationError("the camera's focal length is unknown: set [tray] focal_px "
                                   "or calibrate from a tilted view")
        k = _intrinsics(self.focal_px, self.image_size)
        columns = np.linalg.inv(k) @ self.homography
        scale = (np.linalg.norm(columns[:, 0]) + np.linalg.norm(columns[:, 1])) / 2
        columns = columns / scale if columns[2, 2] > 0 else -columns / scale
        r1, r2 = columns[:, 0], columns[:, 1]
        u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
        rotation = u @ vt
        return np.asarray(-rotation.T @ columns[:, 2])

    def below_camera(self) -> tuple[float, float] | None:
        """The pixel of the tray plane's point straight below the camera, or None when the focal
        length is unknown (a camera looking straight down: that point is then the frame's centre)."""
        if self.focal_px is None:
            return None
        x, y = self.to_image(self.camera_mm()[None, :2])[0]
        return float(x), float(y)

    def die_on_tray(self, center_px: tuple[float, float], height_mm: float = TOP_FACE_MM) -> tuple[float, float]:
        """Where on the tray a die lies (mm), from the pixel of its top face's centre: the parallax
        of its top face, ``height_mm`` above the tray, undone when the focal length is known
        (:meth:`die_tray_mm`), else the point of the tray plane under that pixel."""
        if self.focal_px is not None:
            return self.die_tray_mm(center_px, height_mm)
        x, y = self.to_tray(np.array([center_px], np.float64))[0]
        return float(x), float(y)

    def die_tray_mm(self, center_px: tuple[float, float], height_mm: float) -> tuple[float, float]:
        """Where on the tray a die stands, from the pixel of its top face's centre.

        The top face is ``height_mm`` above the tray (a flat d6's edge), so its ray meets the tray
        plane beyond the die; walk back along the ray towards the camera by the die's share of
        the camera's height.
        """
        on_plane = self.to_tray(np.array([center_px], np.float64))[0]
        camera = self.camera_mm()
        share = height_mm / -camera[2]
        x, y = on_plane + (camera[:2] - on_plane) * share
        return float(x), float(y)


def calibrate(image: np.ndarray, layout: TrayLayout, focal_px: float | None = None,
              found: dict[int, np.ndarray] | None = None) -> Calibration:
    """Find the tray markers in a frame (or take those ``found`` in it by :func:`detect_markers`)
    and fit the pixel <-> tray-mm homography.

    Needs at least two of the four markers (eight corners); ``focal_px`` is estimated from the
    view's tilt when not given and the tilt allows it.
    """
    found = detect_markers(image) if found is None else found
    if len(found) < 2:
        missing = [i for i in CORNER_IDS if i not in found]
        raise CalibrationError(f"tray markers {missing} not found: is the whole tray in view and lit?")
    tray = np.vstack([layout.marker_corners_mm(i) for i in sorted(found)])
    pixels = np.vstack([found[i] for i in sorted(found)])
    homography, _ = cv2.findHomography(tray, pixels, 0)
    if homography is None:
        raise CalibrationError("the tray markers give no homography (are they in a line?)")
    size = (image.shape[1], image.shape[0])
    return Calibration(layout, homography, size, focal_px or estimate_focal_px(homography, size))


LONGEST_FOCAL = 8.0
"""The longest focal length :func:`estimate_focal_px` believes, in frame widths (a field of view of
7 degrees: no table camera sees a whole tray through that). Longer ones come from a view within a
few degrees of straight down, whose homography's slight perspective is noise, not tilt: with one of
four markers covered, 144 of 800 calibrations of bench trays seen straight down guessed 24,000 to
30,700 px (16-20 widths, under the 20 allowed before) for a lens of 2,100, put the point below the
camera a frame's width away, and the reader then took the camera for tilted (another cocked
network and bar: :func:`vision.crops.straight_above`). Tilted 2-30 degrees, the guesses are
1,475-4,410 px."""


def estimate_focal_px(homography: np.ndarray, image_size: tuple[int, int]) -> float | None:
    """The focal length a plane's homography implies (square pixels, centred principal point).

    Returns None when the view is too close to straight-down for the estimate to be meaningful.
    """
    centred = np.array([[1, 0, -image_size[0] / 2], [0, 1, -image_size[1] / 2], [0, 0, 1]]) @ homography
    (a1, a2), (b1, b2), (c1, c2) = centred[0, :2], centred[1, :2], centred[2, :2]
    rows = np.array([[a1 * a2 + b1 * b2, c1 * c2], [a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2, c1 * c1 - c2 * c2]])
    # each row says rows[i, 0] / f^2 + rows[i, 1] = 0; solve for 1/f^2 in the least-squares sense
    inverse_square = -float(rows[:, 0] @ rows[:, 1]) / float(rows[:, 0] @ rows[:, 0])
    if inverse_square <= 0:
        return None
    focal = 1 / math.sqrt(inverse_square)
    return focal if focal < LONGEST_FOCAL * max(image_size) else None


def _intrinsics(focal_px: float, image_size: tuple[int, int]) -> np.ndarray:
    return np.array([[focal_px, 0, image_size[0] / 2], [0, focal_px, image_size[1] / 2], [0, 0, 1]])


def _transform(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    shaped = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(shaped, homography).reshape(-1, 2)
