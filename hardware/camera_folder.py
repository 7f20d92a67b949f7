"""A camera that replays a folder of images in name order (optionally looping): real photos as frames."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from controller.games.errors import DeviceDisconnected, DeviceError
from controller.paths import shown
from hardware.devices import DeviceStatus, Frame

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class FolderCamera:
    """Each :meth:`frame` is the next image of ``folder``."""

    def __init__(self, folder: str | Path, loop: bool = True, name: str = "camera") -> None:
        self._folder = Path(folder)
        self._name = name
        self._loop = loop
        self._files = sorted(p for p in self._folder.glob("*")
                             if p.suffix.lower() in IMAGE_SUFFIXES) if self._folder.is_dir() else []
        self._next = 0

    @property
    def name(self) -> str:
        """The device's name."""
        return self._name

    @property
    def files(self) -> tuple[Path, ...]:
        """The images replayed, in order."""
        return tuple(self._files)

    def frame(self) -> Frame:
        """The next image as BGR uint8.

        :raises DeviceError: the folder has no images, or an image does not decode.
        :raises DeviceDisconnected: every image was shown and ``loop`` is off.
        """
        if not self._files:
            raise DeviceError(f"{self._name}: no images in {shown(self._folder)}")
        if self._next >= len(self._files):
            if not self._loop:
                raise DeviceDisconnected(f"{self._name}: all {len(self._files)} images shown")
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        try:  # decoded from Python's bytes: cv2.imread crashes the process on a name that is not UTF-8
            data = path.read_bytes()
        except OSError as err:
            raise DeviceError(f"{self._name}: cannot read {shown(path)}: {err.strerror or err}") from None
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            raise DeviceError(f"{self._name}: {shown(path)} is not a readable image")
        return np.ascontiguousarray(image, dtype=np.uint8)

    def check(self) -> DeviceStatus:
        """OK when the folder holds at least one image."""
        if self._files:
            return DeviceStatus.healthy(self._name)
        return DeviceStatus.failing(self._name, f"no images in {shown(self._folder)}",
                                    "set [camera] folder to a folder of .jpg/.png frames")

    def close(self) -> None:
        """Nothing to release."""
