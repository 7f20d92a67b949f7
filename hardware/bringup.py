"""The bring-up check (``dicetable doctor --bring-up``): how well each antenna reads a test tag, and
whether the camera sees the tray sharp, well exposed and with its four markers; what to adjust.

Run it on the built table with a test tag on every RFID spot and the tray under the camera. Each
antenna is scanned :data:`SCANS` times through its own RC522 driver, so the figures are the
reader's real reads per second and misses. A scan whose WUPA or a branch of the UID tree came
garbled is a hit for the stones it read all the same, and is counted as garbled: a tag half over
the antenna, or a neighbouring reader's field, is what aiming the antennas is for, not a chip that
failed. The camera's sharpness is the variance of the Laplacian of a grey frame (a blurred frame
has few strong edges), its exposure the share of clipped pixels, and its aim how far it looks off
straight down (from the markers: :func:`camera_aim`). The dice read best from straight above,
where a die lying flat shows the camera its top face and barely a side.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from controller.games.errors import DeviceError, DiceTableError
from hardware.devices import Camera, Frame, TagReader, camera_focal_px
from hardware.mfrc522 import TagProtocolError, describe_version
from hardware.rfid import Mfrc522Reader

SCANS = 20
MISS_WARN = 0.1          # more than one scan in ten without the test tag: the antenna reads badly
SHARP_ENOUGH = 60.0      # Laplacian variance of a focused tray with dice (blurred trays: < 20)
CLIPPED_WARN = 0.02      # 2 % of the pixels saturated: glare, clipped pips
DARK_WARN = 0.5          # half the frame nearly black: too little light or exposure
CORNERS = (0, 1, 2, 3)


@dataclass(frozen=True)
class AntennaReport:
    """How one spot's reader read: ``hits`` of ``scans`` saw a tag, ``errors`` failed outright,
    ``garbled`` came garbled in a branch of the UID tree (hits too when they read a tag)."""

    spot: str
    scans: int
    hits: int
    errors: int
    reads_per_s: float
    tags: tuple[str, ...]
    chip: str
    advice: str
    garbled: int = 0

    @property
    def misses(self) -> int:
        """Scans that finished but saw no tag."""
        return self.scans - self.hits - self.errors

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object (``doctor --bring-up --json``)."""
        return {"antenna": self.spot, "scans": self.scans, "hits": self.hits,
                "misses": self.misses, "errors": self.errors, "garbled": self.garbled,
                "reads_per_s": round(self.reads_per_s, 1), "tags": list(self.tags),
                "chip": self.chip, "advice": self.advice}


@dataclass(frozen=True)
class CameraReport:
    """The camera on the tray: ``sharpness``, ``clipped`` and ``dark`` shares, markers found, the
    focal length in pixels the camera knows of its own lens (``focal_px``, None: not known), and
    how many degrees it looks off straight down (``tilt_deg``, None: not measured)."""

    sharpness: float
    clipped: float
    dark: float
    markers: tuple[int, ...]
    advice: tuple[str, ...]
    focal_px: float | None = None
    tilt_deg: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON object (``doctor --bring-up --json``)."""
        return {"camera": "camera", "sharpness": round(self.sharpness, 1),
                "clipped_share": round(self.clipped, 4), "dark_share": round(self.dark, 4),
                "markers_found": list(self.markers),
                "focal_px": None if self.focal_px is None else round(self.focal_px, 1),
                "tilt_deg": None if self.tilt_deg is None else round(self.tilt_deg, 1),
                "advice": list(self.advice)}

    def aim(self) -> str:
        """How the camera looks at the tray, in words."""
        if self.tilt_deg is None:
            return "tilt not measured (it needs two markers in view, and a known lens or a tilted view)"
        return f"tilt {self.tilt_deg:.1f} degrees off straight down"

    def lens(self) -> str:
        """What the table knows of the lens, in words."""
        if self.focal_px is None:
            return "lens not known to the camera (a camera looking straight down needs [tray] focal_px)"
        return f"lens {self.focal_px:.0f} px (the camera's own, unless [tray] focal_px says otherwise)"


def antenna_reports(reader: TagReader, clock: Any) -> list[AntennaReport]:
    """Scan every spot's RC522 :data:`SCANS` times (a seat node's readers are not reachable
    from here: they report through the node, so they are left out)."""
    if not isinstance(reader, Mfrc522Reader):
        return []
    return [_antenna(spot, reader, clock) for spot in reader.spots]


def _antenna(spot: str, reader: Mfrc522Reader, clock: Any) -> AntennaReport:
    chip = reader.chip(spot)
    hits = errors = garbled = 0
    seen: set[str] = set()
    try:
        chip.init()
        version = describe_version(chip.chip_version or chip.version())
    except DeviceError as err:
        return AntennaReport(spot, SCANS, 0, SCANS, 0.0, (), "none", f"no reader: {err}")
    started = clock.now()
    for _ in range(SCANS):
        try:
            tags = reader.scan(spot)
        except TagProtocolError as err:
            garbled += 1
            tags = err.found
        except DiceTableError:
            errors += 1
            continue
        hits += bool(tags)
        seen |= tags
    elapsed = max(clock.now() - started, 1e-9)
    report = AntennaReport(spot, SCANS, hits, errors, SCANS / elapsed, tuple(sorted(seen)),
                           version, "", garbled)
    return AntennaReport(**{**report.__dict__, "advice": _antenna_advice(report)})


def _antenna_advice(report: AntennaReport) -> str:
    if report.errors:
        return (f"{report.errors} scans failed: check the reader's wiring and power (MISO "
                "buffer when readers share the bus) and lower [rfid] speed_hz")
    if not report.hits:
        return f"no tag seen: put a test tag on spot {report.spot!r}, antenna side up"
    if report.garbled > MISS_WARN * report.scans:
        return (f"{report.garbled} scans came garbled: move the tag to the middle of the spot; if "
                "they still garble, the reader hears noise: shorten its SPI wires, keep other "
                "RC522 antennas 10 cm away and metal away from its antenna")
    if report.misses > MISS_WARN * report.scans:
        return ("the tag is missed too often: centre it on the antenna, thin the cover over "
                "the antenna (3-4 mm), or raise [rfid] rx_gain_db (43 or 48)")
    return "ok"


def camera_report(camera: Camera, tray: Any = None) -> CameraReport:
    """Measure one frame of the tray: focus, exposure, which corner markers are seen, and how far
    the camera looks off straight down on ``tray`` (a ``vision.calibrate.TrayConfig``; None: the
    default tray), whose ``focal_px``, when set, stands before the camera's own lens.

    :raises DeviceError: the camera gives no frame.
    """
    own = camera_focal_px(camera)
    focal = tray.focal_px if tray is not None and tray.focal_px else own
    report = measure_frame(camera.frame(), None if tray is None else tray.layout, focal)
    return replace(report, focal_px=own)


def measure_frame(frame: Frame, layout: Any = None, focal_px: float | None = None) -> CameraReport:
    """The figures and the advice for one frame of the tray (``layout``: a
    ``vision.calibrate.TrayLayout``, None: the default; ``focal_px``: the lens's focal length in
    pixels, None: estimated from a tilted view of the markers, see :func:`camera_aim`)."""
    cv2: Any = importlib.import_module("cv2")
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    sharpness = float(cv2.Laplacian(grey, cv2.CV_64F).var())
    clipped = float(np.mean(frame.max(axis=2) >= 254))
    dark = float(np.mean(grey <= 20))
    calibrate: Any = importlib.import_module("vision.calibrate")
    found = calibrate.detect_markers(frame)
    markers = tuple(sorted(found))
    advice = []
    if sharpness < SHARP_ENOUGH:
        advice.append(f"blurred (sharpness {sharpness:.0f} < {SHARP_ENOUGH:.0f}): set [camera] "
                      "lens_position to 1 / the lens's height above the felt in metres")
    if clipped > CLIPPED_WARN:
        advice.append(f"{clipped:.1%} of the pixels are clipped: lower [camera] exposure_us or "
                      "analogue_gain, or diffuse the light")
    if dark > DARK_WARN:
        advice.append(f"{dark:.0%} of the frame is nearly black: raise exposure_us or the light")
    missing = [i for i in CORNERS if i not in markers]
    if missing:
        advice.append(f"markers {missing} not found: glue them in the tray's corners (ids 0-3 "
                      "clockwise from top-left), all in view, printed at 100 %")
    aim = camera_aim(frame, layout, focal_px, found) if len(markers) >= 2 else None
    if aim is not None and aim[0] > aim[1]:
        advice.append(f"the camera looks {aim[0]:.0f} degrees off straight down: aim it straight down "
                      f"at the tray's middle (the dice read best within {aim[1]:.0f} degrees)")
    return CameraReport(sharpness, clipped, dark, markers, tuple(advice) or ("ok",),
                        tilt_deg=None if aim is None else aim[0])


def camera_aim(frame: Frame, layout: Any = None, focal_px: float | None = None,
               found: Any = None) -> tuple[float, float] | None:
    """How many degrees the camera looks off straight down at the tray, from the tray's markers
    in ``frame`` (those ``found`` there already by ``vision.calibrate.detect_markers``: they are
    not looked for again), and the most it may for the reader to take it as straight above the tray
    (``vision.crops.straight_above``: the point below the camera within ``STRAIGHT_ABOVE`` of the
    frame's diagonal from its centre). That point lies ``focal * tan(tilt)`` pixels from the
    frame's centre. None when the markers give no calibration, or the focal length is neither
    given nor estimated from the view (``vision.calibrate.estimate_focal_px``: a view within a
    few degrees of straight down gives none)."""
    calibrate: Any = importlib.import_module("vision.calibrate")
    crops: Any = importlib.import_module("vision.crops")
    try:
        calibration = calibrate.calibrate(frame, layout or calibrate.TrayLayout(), focal_px, found)
    except calibrate.CalibrationError:
        return None
    below = calibration.below_camera()
    if below is None:
        return None
    offset = math.dist(below, crops.frame_centre(frame.shape))
    limit = crops.STRAIGHT_ABOVE * math.hypot(*frame.shape[:2])
    return (math.degrees(math.atan2(offset, calibration.focal_px)),
            math.degrees(math.atan2(limit, calibration.focal_px)))
