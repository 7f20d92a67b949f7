"""The simulated camera: renders the simulated table's dice with the vision renderer.

The simulated table says what lies in the tray with :meth:`SimCamera.show`; each frame is that
scene, rendered by :func:`vision.render.render_scene` (imported on first use, so ``hardware``
does not depend on ``vision`` at import time). Faults on demand: drop frames, or stop.

With a :attr:`SimCamera.tray` (a ``vision.calibrate.TrayConfig``) the frames show that tray, its
markers drawn and fitted to the frame, 15-17 mm dice on it, and :meth:`SimCamera.show` can put the
dice in named zones or at tray positions; :meth:`SimCamera.roll` shows them tumbling in first.

Every frame has its own sensor noise (:data:`SENSOR_NOISE`), as a real camera's frames of a still
tray differ: code that looks again at the next frame, or waits for frames to agree, meets what it
meets on the table. The noise is drawn afresh for each frame, from the frame's place in the throw
and the throw's key (which seeds the throw's rendering too), else the camera's seed and the count
of shows, so a run made twice, or restarted in the middle of a throw, sees the same frames.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import pickle
import random
import zlib
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from controller.games.errors import DeviceDisconnected, DeviceTimeout, InvalidInput
from hardware.clock import Clock, SimClock
from hardware.devices import DeviceStatus, Frame

DROP_EVERY = 3
FULL_WIDTH = 1536
DIE_PX = (60.0, 110.0)      # die edge range at FULL_WIDTH, as the renderer's default
TRAY_DIE_MM = (15.0, 17.0)  # die edges on a configured tray: standard 16 mm dice, give or take
TRAY_FILL = 0.9             # share of the frame's width or height the configured tray fills

SENSOR_NOISE = 3
"""The sensor noise of every frame, in grey levels (the standard deviation of one pixel's channel
between frames of a still tray; whole levels, as :func:`vision.render_ground.sensor_noise` draws
it). An estimate, not a measurement: a Camera Module 3 (IMX708) at 1536x864 (its 2x2-binned mode,
scaled) under indoor light runs at some analog gain, where a processed 8-bit frame shows a few
grey levels of temporal noise after the ISP's denoise; no published figure for that was found
(the nearest, the HQ camera's IMX477, reads 1.5 of 4096 levels of raw read noise at gain 1,
before shot noise and gain). 3 is the renderer's own "some noise" (the reader's benches draw 0, 3
or 6). Replace it with the table's own figure when one is measured: the standard deviation of the
difference of two frames of a still tray, divided by the square root of 2. A ``noise`` given to
:meth:`SimCamera.show` or :meth:`SimCamera.roll` replaces it for those dice (0: clean frames)."""


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
        self._bodies: tuple[tuple[int, int, int], ...] | None = None
        self._scene: Any = None
        self._frames = 0
        self._rolling: list[Any] = []
        self._key: str | None = None
        self._seed = _seed_of(rng)
        self._shows = 0
        self._shot = ""      # seeds the noise of the dice shown now: the throw's key, else the camera's seed and show
        self._shot_frames = 0
        self._clock = clock or SimClock()
        self.fault = CameraFault.NONE
        self.slow_s = 0.0
        self.before_frame: Callable[[], None] | None = None
        self.tray: Any = None  # a vision.calibrate.TrayConfig: frames show that tray and its zones
        self.kept: Path | None = None
        """Where the tray's dice are kept between runs (:meth:`roll` with a ``key``): a real tray's
        dice lie where they lay when the controller restarts, and so do these."""

    @property
    def name(self) -> str:
        """The device's name."""
        return self._name

    @property
    def focal_px(self) -> float:
        """The simulated lens's focal length in pixels (the renderer's field of view across the
        frame): what an install measures for its own camera and writes as ``[tray] focal_px``."""
        render = importlib.import_module("vision.render")
        fov = self._overrides.get("fov_deg", render.SceneSpec.fov_deg)
        return float(importlib.import_module("vision.render_ground").focal_length_px(self._size[0], fov))

    def show(self, values: Sequence[int], zones: Sequence[str] | None = None,
             positions_mm: Sequence[tuple[float, float]] | None = None,
             bodies: Sequence[tuple[int, int, int]] | None = None, **spec: Any) -> None:
        """Put dice showing ``values`` in the tray; ``spec`` overrides ``SceneSpec`` fields
        (``kind``, ``touching``, ``glare``, ...). The next frame renders them.

        ``bodies`` gives each die's body colour (BGR: a seat's die in its seat's colour), with
        ink that stands out on it; without it the renderer picks dice looks at random.

        With a :attr:`tray`, ``zones`` names each die's zone (it lands wholly inside, at a random
        place and angle) or ``positions_mm`` gives each die's tray point (off the tray too).

        :raises InvalidInput: zones or positions without a tray, or a zone the tray does not have.
        """
        self._values, self._overrides, self._scene = tuple(values), dict(spec), None
        self._rolling = []
        self._shows += 1
        self._shot, self._shot_frames = f"{self._seed}/show {self._shows}", 0
        if bodies is not None and len(bodies) != len(self._values):
            raise InvalidInput(f"{self._name}: {len(bodies)} body colours for {len(self._values)} dice")
        self._bodies = None if bodies is None else tuple(tuple(int(c) for c in b) for b in bodies)  # type: ignore[misc]
        if zones is not None or positions_mm is not None:
            self._overrides.update(self._places(zones, positions_mm))

    def roll(self, values: Sequence[int], frames: int = 8, zones: Sequence[str] | None = None,
             positions_mm: Sequence[tuple[float, float]] | None = None,
             bodies: Sequence[tuple[int, int, int]] | None = None, lying: int = 0,
             lying_kinds: Sequence[str] | None = None, key: str | None = None, moved: bool = False,
             again: bool = False, **spec: Any) -> None:
        """Like :meth:`show`, but the next ``frames`` frames show the dice tumbling in (rendered
        now), and the frames after them the dice at rest.

        ``key`` names the throw: it seeds the rendering, and with :attr:`kept` the tray is read
        from that file before the throw and written there after it (the throw's key, the scene it
        was thrown onto, the scene it made). A throw made again with the same key (the controller
        stopped before it took the dice) lands on the scene it was first thrown onto, so a run
        restarted at any moment draws what an uninterrupted one draws.

        The first ``lying`` dice lie on the tray from the last roll, as on a real table: when the
        last roll's settled scene shows dice of their kinds (``lying_kinds``, default this roll's
        kind: Tao Dice's d12s lie in the centre while the d6 are thrown) with those values in the
        same zones, they stay where they lay, as they looked, and only the others are thrown in
        beside them (the tray, light and camera stay too); otherwise the dice of this kind are
        all drawn anew, and those of another kind are not drawn (a fresh scene is of one kind).

        ``moved``: the last roll's dice are not thrown again but moved by hand, the same faces up
        (the players asked to move a die the camera doubts): the same dice on the same tray, under
        the same camera and light, each turned and slid a little (``vision.render``'s
        ``_moved_by_hand``). ``again``: the last roll's thrown dice are picked up and thrown again
        (the players asked to throw a cocked die again): the same dice on the same tray, under the
        same camera and light, landing anew (``_thrown_again``)."""
        kind = spec.get("kind", "d6")
        kinds = [kind] * lying if lying_kinds is None else list(lying_kinds)
        if len(kinds) != lying:
            raise InvalidInput(f"{self._name}: {len(kinds)} kinds for {lying} dice lying")
        if key is not None:
            self._rng = random.Random(key)
        before = self._last(key)
        self._key = key
        staying = _staying(before, values[:lying], kinds, zones, self.tray, None if bodies is None else bodies[:lying])
        if staying is None and kinds.count(kind) < lying:
            drawn = [i for i in range(len(values)) if i >= lying or kinds[i] == kind]
            values, lying = [values[i] for i in drawn], kinds.count(kind)
            zones = None if zones is None else [zones[i] for i in drawn]
            positions_mm = None if positions_mm is None else [positions_mm[i] for i in drawn]
            bodies = None if bodies is None else [bodies[i] for i in drawn]
        self.show(values, zones, positions_mm, bodies, **spec)
        if key is not None:
            self._shot = f"throw {key}"  # as the rendering: the same throw made again after a restart, the same frames
        render = importlib.import_module("vision.render")
        hand = _by_hand(before, staying, lying, len(self._values)) if moved or again else None
        if hand is not None:
            scenes = render.render_roll(self._rng, self._spec(render, skip=lying), frames + 1, settle_at=frames,
                                        values=list(self._values[lying:]), after=before,
                                        staying=staying or [], moved=hand if moved else (),
                                        rethrown=() if moved else hand)
        elif staying is None:
            scenes = render_painted(render, self._rng, self._spec(render), list(self._values), self._bodies,
                                    frames=frames + 1)
        else:
            thrown = self._spec(render, skip=lying)
            scenes = render.render_roll(self._rng, thrown, frames + 1, settle_at=frames, values=list(self._values[lying:]),
                                        bodies=None if self._bodies is None else self._bodies[lying:],
                                        after=before, staying=staying)
        self._rolling, self._scene = scenes[:-1], scenes[-1]
        self._keep(key, before)

    def _last(self, key: str | None) -> Any:
        """The scene a throw named ``key`` lands on: the last one, or with :attr:`kept` the kept
        one (the one the same throw was thrown onto before, else the last throw's)."""
        if self.kept is None or key is None:
            return self._scene
        kept = self._kept()
        if kept is None:
            return None  # a tray swept clean: the throw is drawn on a fresh one
        return kept["before"] if kept["key"] == key else kept["after"]

    def _kept(self) -> dict[str, Any] | None:
        """The kept tray (:meth:`_keep`), or None: none there yet, or not one this renderer can read back."""
        if self.kept is None:
            return None
        try:
            kept = pickle.loads(zlib.decompress(self.kept.read_bytes()))
        except Exception:  # noqa: BLE001
            return None
        return kept if isinstance(kept, dict) and {"key", "before", "after"} <= kept.keys() else None

    def last_key(self) -> str | None:
        """The key of the last throw (:meth:`roll`), the one whose dice lie on the tray now: kept
        with the tray (:attr:`kept`), so a restarted run knows it; None before any."""
        if self.kept is None:
            return self._key
        kept = self._kept()
        return None if kept is None else str(kept["key"])

    def _keep(self, key: str | None, before: Any) -> None:
        """Write the tray to :attr:`kept` (whole or not at all: written aside, then renamed); a
        tray that cannot be written is not kept, and the throw goes on."""
        if self.kept is None or key is None:
            return
        bare = [None if scene is None else dataclasses.replace(scene, image=np.zeros((0, 0, 3), np.uint8))
                for scene in (before, self._scene)]
        aside = self.kept.with_name(self.kept.name + ".new")
        try:
            aside.write_bytes(zlib.compress(pickle.dumps({"key": key, "before": bare[0], "after": bare[1]}), 1))
            os.replace(aside, self.kept)
        except OSError:  # a full disk, a folder gone: the tray is not kept, and is drawn anew after a restart
            with contextlib.suppress(OSError):
                aside.unlink(missing_ok=True)  # nor is half of it left beside the record

    def _places(self, zones: Sequence[str] | None, positions_mm: Sequence[tuple[float, float]] | None) -> dict[str, Any]:
        """The ``SceneSpec`` fields that put the dice in ``zones`` or at ``positions_mm``."""
        if self.tray is None:
            raise InvalidInput(f"{self._name}: placing dice in zones or at positions needs a tray "
                               "(set SimCamera.tray to the table's TrayConfig)")
        if positions_mm is not None:
            return {"positions_mm": tuple((float(x), float(y)) for x, y in positions_mm)}
        polygons = {zone.name: zone.polygon for zone in self.tray.zones.zones}
        unknown = [name for name in zones or () if name not in polygons]
        if unknown:
            raise InvalidInput(f"{self._name}: the tray has no zone {unknown[0]!r} "
                               f"(zones: {', '.join(polygons) or 'none'})")
        return {"areas_mm": tuple(polygons[name] for name in zones or ())}

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
        if self._rolling:
            return self._noisy(self._rolling.pop(0).image)
        if self._scene is None:
            self._scene = self._render()
        return self._noisy(self._scene.image)

    def _noisy(self, image: np.ndarray) -> Frame:
        """A new frame of the rendered ``image`` with this frame's own sensor noise (:data:`SENSOR_NOISE`)."""
        index, self._shot_frames = self._shot_frames, self._shot_frames + 1
        sigma = float(self._overrides.get("noise", SENSOR_NOISE))
        if sigma <= 0:
            return np.array(image, dtype=np.uint8, copy=True)
        rng = random.Random(f"{self._shot}/{index}")
        return importlib.import_module("vision.render_ground").sensor_noise(rng, image, sigma)  # type: ignore[no-any-return]

    def _render(self) -> Any:
        render = importlib.import_module("vision.render")
        return render_painted(render, self._rng, self._spec(render), list(self._values), self._bodies)[0]

    def _spec(self, render: Any, skip: int = 0) -> Any:
        """The ``SceneSpec`` of the current dice (without the first ``skip``, which lie still): the
        configured tray fitted to the frame, or dice of the renderer's default size relative to
        the frame."""
        if self.tray is None:
            scale = self._size[0] / FULL_WIDTH  # dice keep their size relative to the tray
            fields = {"die_px": (DIE_PX[0] * scale, DIE_PX[1] * scale), **self._overrides}
        else:
            layout = self.tray.layout
            px_per_mm = TRAY_FILL * min(self._size[0] / layout.width_mm, self._size[1] / layout.height_mm)
            fields = {"tray": layout, "markers": True, "px_per_mm": px_per_mm,
                      "die_px": (TRAY_DIE_MM[0] * px_per_mm, TRAY_DIE_MM[1] * px_per_mm), **self._overrides}
        for place in ("positions_mm", "areas_mm"):
            if fields.get(place) is not None:
                fields[place] = fields[place][skip:]
        fields["noise"] = 0.0  # rendered clean: every frame gets its own (_noisy), not one baked in
        return render.SceneSpec(size=self._size, n_dice=len(self._values) - skip, **fields)

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


def _seed_of(rng: random.Random) -> int:
    """A number from ``rng``'s state that leaves ``rng`` as it was (the renderings draw from it)."""
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin.getrandbits(64)


def _staying(before: Any, values: Sequence[int], kinds: Sequence[str], zones: Sequence[str] | None,
             tray: Any, bodies: Sequence[tuple[int, int, int]] | None = None) -> list[int] | None:
    """Which dice of the scene ``before`` (by number) are the dice still lying there with
    ``values`` of ``kinds``, in order, each in its zone of ``zones`` (of the ``tray``, a
    TrayConfig) and, with ``bodies``, of its body colour (a seat's own die: two seats' d12s may
    show the same face in the centre, and only one of them still lies there); None when they are
    not all there."""
    if not values or before is None or before.moving or zones is None or tray is None:
        return None
    free = list(range(len(before.dice)))
    staying = []
    for n, (value, kind, zone) in enumerate(zip(values, kinds, zones)):
        found = [i for i in free if before.dice[i].kind == kind and before.dice[i].value == value
                 and (bodies is None or tuple(before.dice[i].colour) == tuple(bodies[n]))
                 and before.dice[i].tray_mm is not None and tray.zones.zone_of(before.dice[i].tray_mm) == zone]
        if not found:
            return None
        staying.append(found[0])
        free.remove(found[0])
    return staying


def _by_hand(before: Any, staying: list[int] | None, lying: int, count: int) -> list[int] | None:
    """The dice of the scene ``before`` that players move by hand (all but those ``staying``), or
    None when that scene is not the last roll's of these ``count`` dice (``lying`` of them lying
    from before): a tray swept clean, or one still moving, is thrown on as ever."""
    if before is None or before.moving or (staying is None and lying):
        return None
    hand = [i for i in range(len(before.dice)) if i not in (staying or [])]
    return hand if len(hand) == count - lying else None


def render_painted(render: Any, rng: random.Random, spec: Any, values: Sequence[int],
                   bodies: Sequence[tuple[int, int, int]] | None, frames: int = 0) -> list[Any]:
    """Scenes of ``render`` (the ``vision.render`` module) with each die's body painted as
    ``bodies`` says (None: the renderer's own looks): one still scene (``frames`` 0), or a roll of
    ``frames`` frames settling on the last."""
    if frames == 0:
        return [render.render_scene(rng, spec, values=values, bodies=bodies)]
    return list(render.render_roll(rng, spec, frames, settle_at=frames - 1, values=values, bodies=bodies))
