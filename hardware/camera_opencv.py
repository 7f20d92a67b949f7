"""A camera through OpenCV's VideoCapture: a USB webcam (by index) or a video file (by path)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from controller.games.errors import DeviceDisconnected, DeviceError, DeviceTimeout
from hardware.devices import DeviceStatus, Frame


class OpenCvCamera:
    """Frames from ``cv2.VideoCapture(source)``; a video file restarts at its end when ``loop``."""

    def __init__(self, source: int | str, width: int = 0, height: int = 0, loop: bool = True,
                 name: str = "camera") -> None:
        self._source = source
        self._name = name
        self._loop = loop and isinstance(source, str)
        self._capture: Any = cv2.VideoCapture(source)
        if isinstance(source, int) and width and height:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    @property
    def name(self) -> str:
        """The device's name."""
        return self._name

    def frame(self) -> Frame:
        """The next frame.

        :raises DeviceError: the source never opened.
        :raises DeviceDisconnected: the webcam went away or the video ended (without ``loop``).
        :raises DeviceTimeout: the webcam delivered no frame this time.
        """
        if self._capture is None or not self._capture.isOpened():
            raise DeviceError(f"{self._name}: cannot open video source {self._source!r}")
        ok, image = self._capture.read()
        if not ok and self._loop:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._capture.read()
        if not ok:
            if isinstance(self._source, str):
                raise DeviceDisconnected(f"{self._name}: video {self._source!r} ended")
            raise DeviceTimeout(f"{self._name}: webcam {self._source} delivered no frame")
        return np.ascontiguousarray(image[:, :, :3], dtype=np.uint8)

    def check(self) -> DeviceStatus:
        """OK when the source opens and delivers a frame."""
        try:
            self.frame()
        except DeviceError as err:
            return DeviceStatus.failing(
                self._name, str(err),
                "plug the USB webcam in (ls /dev/video*) and set [camera] device to its index, "
                "or to the path of a readable video file")
        return DeviceStatus.healthy(self._name)

    def close(self) -> None:
        """Release the capture."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None
