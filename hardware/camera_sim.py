"""The simulated camera: renders the simulated table's dice with the vision renderer.

The simulated table says what lies in the tray with :meth:`SimCamera.show`; each frame is that
scene, rendered by :func:`vision.render.render_scene` (imported on first use, so ``hardware``
does not depend on ``vision`` at import time). Faults on demand: drop frames, or stop.
"""

from __future__ import annotations

import importlib
import random
from enum import Enum
from typing import Any, Callable, Sequence

import numpy as np

from controller.games.errors import DeviceDisconnected, DeviceTimeout
from hardware.clock import Clock, SimClock
from hardware.devices import DeviceStatus, Frame

DROP_EVERY = 3
FULL_WIDTH = 1536
DIE_PX = (60.0, 110.0)      # die edge range at FULL_WIDTH, as the renderer's default


class CameraFault(Enum):
    """How the simulated camera misbehaves."""

    NONE = "none"
    DROPS = "drops"        # every third frame is dropped (a loose ribbon, an overloaded USB)
    DROPPED = "dropped"    # this frame is dropped (set frame by frame by the simulated table)
    STOPPED = "stopped"    # no frames at all
    SLOW = "slow"          # every frame comes ``slow_s`` late


class SimCamera:
    """A camera over the simulated tray; ``rng`` (seeded) makes the rendering reproducible.

    ``before_frame`` runs first in every :meth:`frame` (the simulated table sets :attr:`fault`
    there, for faults that come and go); ``clock`` is what a slow frame makes wait.
    """

    def __init__(self, rng: random.Random, size: tuple[int, int] = (1536, 864),
                 name: str = "camera", clock: Clock | None = None) -> None:
        self._rng = rng
        self._size = size
        self._name = name
        self._values: tuple[int, ...] = ()
        self._overrides: dict[str, Any] = {}
        self._scene: Any = None
        self._frames = 0
        self._clock = clock or SimClock()
        self.fault = CameraFault.NONE
        self.slow_s = 0.0
        self.before_frame: Callable[[], None] | None = None

    @property
    def name(self) -> str:
        """The device's name."""
        return self._name

    def show(self, values: Sequence[int], **spec: Any) -> None:
        """Put dice showing ``values`` in the tray; ``spec`` overrides ``SceneSpec`` fields
        (``kind``, ``touching``, ``glare``, ...). The next frame renders them."""
        self._values, self._overrides, self._scene = tuple(values), dict(spec), None

    @property
    def scene(self) -> Any:
        """The last rendered ``vision.render.Scene`` (with the dice's truth), or None."""
        return self._scene

    def frame(self) -> Frame:
        """The current scene's image.

        :raises DeviceTimeout: a dropped frame (fault ``drops``).
        :raises DeviceDisconnected: fault ``stopped``.
        """
        if self.before_frame is not None:
            self.before_frame()
        if self.fault is CameraFault.STOPPED:
            raise DeviceDisconnected(f"{self._name}: the simulated camera stopped")
        self._frames += 1
        if self.fault is CameraFault.SLOW:
            self._clock.sleep(self.slow_s)
        if self.fault is CameraFault.DROPPED or (
                self.fault is CameraFault.DROPS and self._frames % DROP_EVERY == 0):
            raise DeviceTimeout(f"{self._name}: frame {self._frames} dropped (simulated)")
        if self._scene is None:
            self._scene = self._render()
        return np.array(self._scene.image, dtype=np.uint8, copy=True)

    def _render(self) -> Any:
        render = importlib.import_module("vision.render")
        scale = self._size[0] / FULL_WIDTH  # dice keep their size relative to the tray
        fields = {"die_px": (DIE_PX[0] * scale, DIE_PX[1] * scale), **self._overrides}
        spec = render.SceneSpec(size=self._size, n_dice=len(self._values), **fields)
        return render.render_scene(self._rng, spec, values=list(self._values))

    def check(self) -> DeviceStatus:
        """Grabs a few frames: OK when none is missing."""
        lost, faults = 0, set()
        for _ in range(DROP_EVERY):
            try:
                self.frame()
            except (DeviceTimeout, DeviceDisconnected):
                lost += 1
                faults.add(self.fault.value)
        if not lost:
            return DeviceStatus.healthy(self._name)
        problem = ("camera stopped sending frames" if lost == DROP_EVERY
                   else f"camera dropped {lost} of {DROP_EVERY} frames")
        return DeviceStatus.failing(
            self._name, f"{problem} (simulated fault {', '.join(sorted(faults))})",
            "reseat the camera ribbon cable and restart the table; in simulation, clear the "
            "fault (remove --inject camera:... or DICETABLE_SIM_FAULTS)")

    def close(self) -> None:
        """Nothing to release."""
