"""The Raspberry Pi camera (Camera Module 3) through picamera2, with fixed exposure and white balance.

``picamera2`` exists only on Raspberry Pi OS (Debian's ``python3-picamera2``), so it is imported
when the camera opens, never at module import; tests inject a stand-in ``module`` with the same
methods. Automatic exposure and white balance are switched off so that the dice look the same in
every frame (the reader's thresholds stay valid).

A capture can never hang the table: ``capture_array`` blocks for good when the sensor or a loose
ribbon stops the frames (picamera2 issues 794 and 1004), so each capture runs in a worker thread
that :meth:`Picamera2Camera.frame` waits for at most ``[camera] timeout`` seconds; then the
camera is a device fault that says how to fix it, and no second capture piles up behind the hung
one. The frame duration is set to fit the exposure (libcamera silently shortens an exposure
longer than the frame), and :meth:`~Picamera2Camera.check` compares the exposure the camera
reports with the configured one.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any, Callable

import numpy as np

from controller.games.errors import DeviceDisconnected, DeviceError
from hardware.config import CameraConfig
from hardware.devices import DeviceFailing, DeviceStatus, Frame

INSTALL_FIX = ("connect the camera ribbon (contacts facing the board, power off first), install "
               "Debian's python3-picamera2 and create the venv with --system-site-packages "
               "(see hardware/README.md)")
STALL_FIX = ("the camera stopped sending frames: power off, reseat both ends of the ribbon "
             "(contacts facing the board), check the power supply, then restart the table "
             "(sudo systemctl restart dicetable)")
FRAME_US = 33_333           # 30 frames a second unless the exposure needs longer
FRAME_OVERHEAD_US = 1_000   # readout time a frame needs beyond its exposure
EXPOSURE_TOLERANCE = 0.05   # sensors set exposure in whole lines: a few per cent off is normal

LENS_FOCAL_PX = {"ov5647": 3.60 / 1.4e-3, "imx219": 3.04 / 1.12e-3, "imx708": 4.74 / 1.4e-3,
                 "imx708_wide": 2.75 / 1.4e-3}
"""The official camera modules' fixed lenses, by the sensor model libcamera reports: the focal
length in pixels of the sensor's full pixel array, the lens's focal length over the pixel size
(Raspberry Pi's camera hardware specification: Camera Module 1, OV5647, 3.60 mm at 1.4 um; 2,
IMX219, 3.04 mm at 1.12 um; 3, IMX708, 4.74 mm and 3 Wide 2.75 mm at 1.4 um). The NoIR modules
(``_noir``) have the same lenses. The HQ and Global Shutter cameras take any lens: not known here,
so ``[tray] focal_px`` must say it. Camera Module 3's quoted 66-degree field of view would make its
focal length 4% longer than 4.74 mm does (the lens's distortion, or rounding)."""


def lens_focal_px(model: str, crop_width: float, width: int) -> float | None:
    """The focal length in pixels of frames ``width`` pixels wide made from ``crop_width`` pixels
    of the sensor's array (its ``ScalerCrop``), for a camera module whose sensor is ``model``;
    None for a lens not known (:data:`LENS_FOCAL_PX`).

    >>> round(lens_focal_px("imx708", 4608, 1536), 1), lens_focal_px("imx477", 4056, 1536)
    (1128.6, None)
    >>> round(lens_focal_px("imx708_wide_noir", 4608, 1536), 1)
    654.8
    """
    full = module_focal_px(model)
    if full is None or crop_width <= 0:
        return None
    return full * width / crop_width


def module_focal_px(model: str) -> float | None:
    """The focal length in pixels of the full pixel array of the camera module whose sensor is
    ``model`` (a NoIR module as the one with the filter), or None (:data:`LENS_FOCAL_PX`)."""
    return LENS_FOCAL_PX.get(model.removesuffix("_noir"))


def frame_duration_us(exposure_us: int) -> int:
    """The frame duration that lets an exposure of ``exposure_us`` happen in full.

    >>> frame_duration_us(10_000), frame_duration_us(50_000)
    (33333, 51000)
    """
    return max(FRAME_US, exposure_us + FRAME_OVERHEAD_US)


class Capture:
    """One call of a camera method in a worker thread, waited for with a timeout."""

    def __init__(self, call: Callable[[], Any]) -> None:
        self._call = call
        self.result: Any = None
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="picamera2-capture")
        self._thread.start()

    def _run(self) -> None:
        try:
            self.result = self._call()
        except BaseException as err:  # handed to the waiting thread, which raises it
            self.error = err

    @property
    def running(self) -> bool:
        """True while the call has not returned (a hung capture stays running)."""
        return self._thread.is_alive()

    def wait(self, timeout: float) -> bool:
        """True when the call returned within ``timeout`` seconds."""
        self._thread.join(timeout)
        return not self.running


class Picamera2Camera:
    """A picamera2 camera delivering BGR frames of the configured size."""

    def __init__(self, config: CameraConfig, module: Any = None, name: str = "camera") -> None:
        self._config = config
        self._name = name
        self._camera: Any = None
        self._error = ""
        self._hung: Capture | None = None
        self._focal: float | None = None
        try:
            self._open(module or importlib.import_module("picamera2"))
        except Exception as err:  # ImportError off the Pi, RuntimeError with no camera, ...
            self._error = f"{type(err).__name__}: {err}"
            self.close()

    def controls(self) -> dict[str, Any]:
        """The fixed controls: manual exposure, gain, colour gains, and focus when configured."""
        c = self._config
        frame_us = frame_duration_us(c.exposure_us)
        controls: dict[str, Any] = {
            "AeEnable": False, "AwbEnable": False, "ExposureTime": c.exposure_us,
            "AnalogueGain": c.analogue_gain, "ColourGains": c.colour_gains,
            "FrameDurationLimits": (frame_us, frame_us)}
        if c.lens_position > 0:  # Camera Module 3 only: AfMode 0 is manual focus
            controls.update({"AfMode": 0, "LensPosition": c.lens_position})
        return controls

    def _open(self, module: Any) -> None:
        camera = module.Picamera2()
        self._camera = camera
        size = (self._config.width, self._config.height)
        # RGB888 is stored B, G, R in memory: exactly OpenCV's BGR.
        camera.configure(camera.create_video_configuration(main={"size": size,
                                                                 "format": "RGB888"}))
        self._check_exposure_range(getattr(camera, "camera_controls", {}))
        camera.set_controls(self.controls())
        camera.start()

    def _check_exposure_range(self, limits: dict[str, Any]) -> None:
        """:raises DeviceError: the sensor cannot expose as long (or as short) as configured."""
        if "ExposureTime" not in limits:
            return
        low, high = limits["ExposureTime"][:2]
        if not low <= self._config.exposure_us <= high:
            raise DeviceError(f"[camera] exposure_us = {self._config.exposure_us} is outside what "
                              f"this sensor can do ({low}-{high} us)")

    @property
    def name(self) -> str:
        """The device's name."""
        return self._name

    def frame(self) -> Frame:
        """The newest frame as BGR uint8, within ``[camera] timeout`` seconds.

        :raises DeviceError: the camera never opened.
        :raises DeviceDisconnected: capturing failed, or no frame came in time (ribbon loose,
            sensor hung); the message says how to fix it.
        """
        image = np.asarray(self._bounded(lambda: self._camera.capture_array("main"), "a frame"))
        return np.ascontiguousarray(image[:, :, :3], dtype=np.uint8)

    def _bounded(self, call: Callable[[], Any], what: str) -> Any:
        """``call()``'s result, waited for at most ``timeout`` seconds."""
        if self._camera is None:
            raise DeviceFailing(DeviceStatus.failing(self._name, f"Pi camera not working ({self._error or 'closed'})",
                                                     INSTALL_FIX))
        timeout = self._config.timeout
        if self._hung is not None and self._hung.running:
            raise DeviceDisconnected(f"{self._name}: still no frame since a capture hung; "
                                     f"{STALL_FIX}")
        capture = Capture(call)
        if not capture.wait(timeout):
            self._hung = capture
            raise DeviceDisconnected(f"{self._name}: no {what} in {timeout:g} s; {STALL_FIX}")
        if capture.error is not None:
            raise DeviceDisconnected(f"{self._name}: capture failed: {capture.error}") \
                from capture.error
        return capture.result

    @property
    def focal_px(self) -> float | None:
        """The lens's focal length in pixels of these frames, for an official camera module
        (:func:`lens_focal_px`, from the sensor's model and the frames' ``ScalerCrop``): what the
        table takes when ``[tray] focal_px`` is left out. None for any other lens, or while the
        camera gives no metadata (asked again next time). A lens not known costs no metadata call."""
        if self._focal is None and self._camera is not None:
            model = str(getattr(self._camera, "camera_properties", {}).get("Model", ""))
            if module_focal_px(model) is None:
                return None
            try:
                metadata = self._bounded(lambda: self._camera.capture_metadata(), "metadata")
            except DeviceError:
                return None
            crop = metadata.get("ScalerCrop")
            if crop is not None and len(crop) == 4:
                self._focal = lens_focal_px(model, float(crop[2]), self._config.width)
        return self._focal

    def exposure_problem(self) -> str:
        """What is wrong with the exposure the camera reports ('' when it is as configured)."""
        metadata = self._bounded(lambda: self._camera.capture_metadata(), "metadata")
        actual, wanted = metadata.get("ExposureTime"), self._config.exposure_us
        if actual is None or abs(actual - wanted) <= EXPOSURE_TOLERANCE * wanted:
            return ""
        return (f"the camera exposes {actual} us, not the configured {wanted} us (the frame "
                "duration or the sensor's limits clamp it)")

    def check(self) -> DeviceStatus:
        """OK when the camera opened, delivers a frame of the configured size in time, and
        exposes as configured."""
        try:
            image = self.frame()
            expected = (self._config.height, self._config.width, 3)
            if image.shape != expected:
                return DeviceStatus.failing(
                    self._name, f"frames are {image.shape}, not {expected}",
                    "set [camera] width/height to a mode the sensor has")
            exposure = self.exposure_problem()
        except DeviceDisconnected as err:
            return DeviceStatus.failing(self._name, str(err).split("; ")[0], STALL_FIX)
        except DeviceFailing as err:  # it did not open: said as the table says it
            return DeviceStatus.failing(self._name, err.problem, err.fix)
        except DeviceError as err:
            return DeviceStatus.failing(self._name, f"Pi camera not working ({err})", INSTALL_FIX)
        if exposure:
            return DeviceStatus.failing(self._name, exposure,
                                        "set [camera] exposure_us within the sensor's range")
        return DeviceStatus.healthy(self._name)

    def close(self) -> None:
        """Stop and release the camera (given up on after ``timeout`` if the camera hangs)."""
        camera, self._camera = self._camera, None
        if camera is not None:
            Capture(lambda: (camera.stop(), camera.close())).wait(self._config.timeout)
