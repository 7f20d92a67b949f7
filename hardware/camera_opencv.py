"""A camera through OpenCV's VideoCapture: a USB webcam (by index) or a video file (by path)."""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Iterator

os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # FFmpeg's own lines ("[mjpeg @ 0x..] No JPEG data
# found") go to stderr past the device's one-line status; OpenCV reads this once, at its first FFmpeg
# capture, so it is set before any (a person's own setting stands)

import cv2  # noqa: E402  (after the setting above)
import numpy as np  # noqa: E402

from controller.games.errors import DeviceDisconnected, DeviceError, DeviceTimeout
from hardware.devices import DeviceFailing, DeviceStatus, Frame


@contextmanager
def opencv_quiet() -> Iterator[None]:
    """OpenCV's own log lines held back within it ("[ WARN:0@0.1] global cap_v4l.cpp:915 open
    VIDEOIO(V4L2:/dev/video99): can't open camera by index"): the caller says what went wrong, in
    one line of its own."""
    logging = getattr(cv2.utils, "logging", cv2)  # OpenCV 4 (the Pi's) has them on cv2 itself
    before = logging.getLogLevel()
    logging.setLogLevel(SILENT)
    try:
        yield
    finally:
        logging.setLogLevel(before)


WEBCAM_FIX = ("plug the USB webcam in (ls /dev/video*) and set [camera] device to its index, "
              "or to the path of a readable video file")

SILENT = 0
"""OpenCV's log level that prints nothing (``cv2.utils.logging.LOG_LEVEL_SILENT``)."""


class OpenCvCamera:
    """Frames from ``cv2.VideoCapture(source)``; a video file restarts at its end when ``loop``."""

    def __init__(self, source: int | str, width: int = 0, height: int = 0, loop: bool = True,
                 name: str = "camera") -> None:
        self._source = source
        self._name = name
        self._loop = loop and isinstance(source, str)
        self._frames = 0
        with opencv_quiet():
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
            raise DeviceFailing(DeviceStatus.failing(self._name, f"cannot open video source {self._source!r}",
                                                     WEBCAM_FIX))
        with opencv_quiet():
            ok, image = self._capture.read()
            if not ok and self._loop:
                self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, image = self._capture.read()
        if not ok and isinstance(self._source, str) and not self._frames:
            raise DeviceError(f"{self._name}: {self._source!r} gives no frame: not a video OpenCV reads")
        if not ok:
            if isinstance(self._source, str):
                raise DeviceDisconnected(f"{self._name}: video {self._source!r} ended")
            raise DeviceTimeout(f"{self._name}: webcam {self._source} delivered no frame")
        self._frames += 1
        return np.ascontiguousarray(image[:, :, :3], dtype=np.uint8)

    def check(self) -> DeviceStatus:
        """OK when the source opens and delivers a frame."""
        try:
            self.frame()
        except DeviceError as err:
            return DeviceStatus.failing(self._name, getattr(err, "problem", "") or str(err), WEBCAM_FIX)
        return DeviceStatus.healthy(self._name)

    def close(self) -> None:
        """Release the capture."""
        if self._capture is not None:
            self._capture.release()
            self._capture = None
