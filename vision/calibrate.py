"""Tray calibration: four ArUco corner markers give a homography between camera pixels and tray mm."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from controller.games.errors import ConfigError, DiceTableError

MARKER_DICTIONARY = cv2.aruco.DICT_4X4_50
"""The ArUco dictionary of the tray markers: 4x4 bits, big cells, robust at small sizes."""

CORNER_IDS = (0, 1, 2, 3)
"""Marker ids at the tray corners: top-left, top-right, bottom-right, bottom-left."""


class CalibrationError(DiceTableError, ValueError):
    """A frame in which the tray markers cannot be found or give no usable homography."""


@dataclass(frozen=True)
class TrayLayout:
    """The tray's size and where its four markers sit, all in millimetres, origin top-left."""

    width_mm: float = 400.0
    height_mm: float = 250.0
    marker_mm: float = 30.0
    margin_mm: float = 5.0

    def __post_init__(self) -> None:
        inner = min(self.width_mm, self.height_mm) - 2 * (self.margin_mm + self.marker_mm)
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
