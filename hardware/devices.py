"""The device interfaces every backend implements, and the records devices produce.

One protocol per device kind (:class:`Camera`, :class:`SeatPanel`, :class:`TagReader`); each
device also answers :meth:`Device.check` with a :class:`DeviceStatus` that says what is wrong and
how to fix it, and releases its resources in :meth:`Device.close`. Backends implement the protocols
structurally (no base class needed); the contract tests in ``tests/hardware/`` check every backend.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from controller.games.errors import DeviceError

Frame = npt.NDArray[np.uint8]
"""A camera frame: BGR, ``uint8``, shape ``(height, width, 3)`` (OpenCV's layout)."""


@dataclass(frozen=True)
class DeviceStatus:
    """A device's health: ``ok``, or the ``problem`` in a person's words and the ``fix`` to try."""

    name: str
    ok: bool
    problem: str = ""
    fix: str = ""

    @classmethod
    def healthy(cls, name: str) -> DeviceStatus:
        """A status saying ``name`` works."""
        return cls(name, True)

    @classmethod
    def failing(cls, name: str, problem: str, fix: str) -> DeviceStatus:
        """A status saying what is wrong with ``name`` and how to fix it."""
        return cls(name, False, problem, fix)

    def to_json(self) -> dict[str, Any]:
        """The status as a JSON object (field names are part of ``dicetable doctor --json``)."""
        return {"device": self.name, "ok": self.ok, "problem": self.problem, "fix": self.fix}


class DeviceFailing(DeviceError):
    """A device that does not work, with the ``problem`` and ``fix`` its :meth:`Device.check` says:
    the table shows those (its fault, the dealer's console, ``run``'s terminal), where a bare
    :class:`DeviceError` gets a failing device's general fix (its cable, its power), wrong for a
    module not installed or a bus not enabled. The message says both, for a command's one line."""

    def __init__(self, status: DeviceStatus) -> None:
        self.problem, self.fix = status.problem, status.fix
        super().__init__(f"{status.name}: {status.problem}; {status.fix}")


class PressKind(Enum):
    """What happened to a button (after debouncing)."""

    PRESS = "press"
    RELEASE = "release"
    LONG_PRESS = "long_press"


@dataclass(frozen=True)
class ButtonEvent:
    """A debounced button event: ``button`` of ``seat`` was pressed/released/held at ``at``.

    ``at`` is a time of the device's :class:`~hardware.clock.Clock` (seconds, monotonic). A
    long press comes between its press and its release, ``hold_time`` after the press.
    An event from a seat node also names its ``origin`` (the node's port), the node's
    ``session`` (new at each boot) and the message's ``sequence`` in it: together they name the
    event for good, so a table that applied it once can refuse it when a restarted driver
    delivers it again. Events from the Pi's own GPIO leave them empty.
    """

    seat: int
    button: str
    kind: PressKind
    at: float
    origin: str = ""
    session: int = 0
    sequence: int = 0


class LightState(Enum):
    """A seat's turn light."""

    OFF = "off"
    ON = "on"
    BLINK = "blink"


class TagChange(Enum):
    """A tag came onto a reader's spot or went away from it."""

    ARRIVE = "arrive"
    LEAVE = "leave"


@dataclass(frozen=True)
class TagEvent:
    """Tag ``tag`` (upper-case hex UID) arrived on or left ``spot`` at clock time ``at``.

    ``origin``, ``session`` and ``sequence`` name a seat node's event for good, as in
    :class:`ButtonEvent`.
    """

    spot: str
    tag: str
    change: TagChange
    at: float
    origin: str = ""
    session: int = 0
    sequence: int = 0


@runtime_checkable
class Device(Protocol):
    """What every device offers: a name, a health check and a close."""

    @property
    def name(self) -> str:
        """The device's name as ``doctor`` shows it, e.g. ``camera`` or ``panel``."""
        ...

    def check(self) -> DeviceStatus:
        """Probe the device now and say whether it works (never raises for a device fault)."""
        ...

    def close(self) -> None:
        """Release the device (pins, bus, files); calling it twice is harmless."""
        ...


@runtime_checkable
class Camera(Device, Protocol):
    """A camera looking down at the dice tray.

    A camera that knows its lens also has ``focal_px``, the focal length in pixels of its frames
    (the Pi camera modules, the simulated camera): see :func:`camera_focal_px`."""

    def frame(self) -> Frame:
        """The next frame (BGR uint8).

        :raises DeviceTimeout: no frame came in time (dropped).
        :raises DeviceDisconnected: the camera stopped or was unplugged.
        """
        ...


def camera_focal_px(camera: Camera) -> float | None:
    """The focal length in pixels that ``camera`` knows of its own lens, or None (a webcam, a
    folder of photos, a Pi camera with a lens of its owner's choosing)."""
    focal = getattr(camera, "focal_px", None)
    return float(focal) if isinstance(focal, (int, float)) and focal > 0 else None


@runtime_checkable
class SeatPanel(Device, Protocol):
    """Buttons and a turn light per seat; button events are debounced by the backend."""

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats this panel serves (seat numbers as the games count them, from 0)."""
        ...

    def buttons(self, seat: int) -> tuple[str, ...]:
        """The names of the buttons at ``seat`` (e.g. ``("raise", "call", "pass")``)."""
        ...

    def poll(self) -> list[ButtonEvent]:
        """Every button event since the last poll, oldest first (each event exactly once)."""
        ...

    def set_light(self, seat: int, state: LightState) -> None:
        """Switch ``seat``'s turn light."""
        ...


@runtime_checkable
class TagReader(Device, Protocol):
    """RFID readers under the bet spots: which tags lie on each spot."""

    @property
    def spots(self) -> tuple[str, ...]:
        """The names of the spots this reader watches (e.g. ``("seat0", "pot")``)."""
        ...

    def tags(self, spot: str) -> frozenset[str]:
        """The tags on ``spot`` as of the last poll.

        :raises KeyError: ``spot`` is not one of :attr:`spots`.
        """
        ...

    def poll(self) -> list[TagEvent]:
        """Scan the spots now; the arrivals and departures since the last poll, oldest first.

        :raises DeviceTimeout: a reader did not answer.
        """
        ...
