"""The Raspberry Pi camera (Camera Module 3) through picamera2, with fixed exposure and white balance.

``picamera2`` exists only on Raspberry Pi OS (Debian's ``python3-picamera2``), so it is imported
when the camera opens, never at module import; tests inject a stand-in ``module`` with the same
methods. Automatic exposure and white balance are switched off so that the dice look the same in
every frame (the reader's thresholds stay valid).
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from controller.games.errors import DeviceDisconnected, DeviceError
from hardware.config import CameraConfig
from hardware.devices import DeviceStatus, Frame

INSTALL_FIX = ("connect the camera ribbon (contacts facing the board, power off first), install "
               "Debian's python3-picamera2 and create the venv with --system-site-packages "
               "(see hardware/README.md)")


class Picamera2Camera:
    """A picamera2 camera delivering BGR frames of the configured size."""

    def __init__(self, config: CameraConfig, module: Any = None, name: str = "camera") -> None:
        self._config = config
        self._name = name
        self._camera: Any = None
        self._error = ""
        try:
            self._open(module or importlib.import_module("picamera2"))
        except Exception as err:  # ImportError off the Pi, RuntimeError with no camera, ...
            self._error = f"{type(err).__name__}: {err}"
            self.close()

    def controls(self) -> dict[str, Any]:
        """The fixed controls: manual exposure, gain, colour gains, and focus when configured."""
        c = self._config
        controls: dict[str, Any] = {
            "AeEnable": False, "AwbEnable": False, "ExposureTime": c.exposure_us,
            "AnalogueGain": c.analogue_gain, "ColourGains": c.colour_gains}
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
        camera.set_controls(self.controls())
        camera.start()

    @property
    def name(self) -> str:
        """The device's name."""
        return self._name

    def frame(self) -> Frame:
        """The newest frame as BGR uint8.

        :raises DeviceError: the camera never opened.
        :raises DeviceDisconnected: capturing failed (ribbon loose, camera stopped).
        """
        if self._camera is None:
            raise DeviceError(f"{self._name}: {self._error or 'closed'}")
        try:
            image = np.asarray(self._camera.capture_array("main"))
        except Exception as err:
            raise DeviceDisconnected(f"{self._name}: capture failed: {err}") from err
        return np.ascontiguousarray(image[:, :, :3], dtype=np.uint8)

    def check(self) -> DeviceStatus:
        """OK when the camera opened and delivers a frame of the configured size."""
        try:
            image = self.frame()
        except DeviceError as err:
            return DeviceStatus.failing(self._name, f"Pi camera not working ({err})", INSTALL_FIX)
        expected = (self._config.height, self._config.width, 3)
        if image.shape != expected:
            return DeviceStatus.failing(self._name, f"frames are {image.shape}, not {expected}",
                                        "set [camera] width/height to a mode the sensor has")
        return DeviceStatus.healthy(self._name)

    def close(self) -> None:
        """Stop and release the camera."""
        camera, self._camera = self._camera, None
        if camera is not None:
            camera.stop()
            camera.close()
