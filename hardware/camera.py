"""Opening the configured camera: picamera2, OpenCV capture (webcam or video file) or an image folder.

The simulated camera (:mod:`hardware.camera_sim`) is built by the simulated factory, which owns
the simulated table it looks at.
"""

from __future__ import annotations

from typing import Any

from hardware.camera_folder import FolderCamera
from hardware.camera_opencv import OpenCvCamera
from hardware.camera_picamera2 import Picamera2Camera
from hardware.config import CameraConfig, require_pi_camera
from hardware.devices import Camera


def open_camera(config: CameraConfig, picamera2_module: Any = None) -> Camera:
    """The camera ``config`` describes (``picamera2_module`` replaces ``picamera2`` in tests).

    :raises ConfigError: ``source`` is ``sim`` (use the simulated factory) or unknown: the check
        a configuration's file gets as it is read (:func:`~hardware.config.require_pi_camera`).
    """
    require_pi_camera(config)
    if config.source == "picamera2":
        return Picamera2Camera(config, picamera2_module)
    if config.source == "opencv":
        return OpenCvCamera(config.device, config.width, config.height, config.loop)
    return FolderCamera(config.folder, config.loop)
