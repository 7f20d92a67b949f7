"""The device interfaces every backend implements, and the records devices produce.

One protocol per device kind (:class:`Camera`, :class:`SeatPanel`, :class:`TagReader`); each
device also answers :meth:`Device.check` with a :class:`DeviceStatus` that says what is wrong and
how to fix it, and releases its resources in :meth:`Device.close`. Backends implement the protocols
structurally (no base class needed); the contract tests in ``tests/hardware/`` check every backend.
"""

from __future__ import annotations

from collections.abc import Iterable
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
    """A device's health: ``ok``, or the ``problem`` in a person's words and the ``fix`` to try.

    A status that is ``ok`` with a ``problem`` is a warning (:meth:`warning`): the table plays on
    without the part that fails, as it does without a seat node under an empty seat."""

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

    @classmethod
    def warning(cls, name: str, problem: str, fix: str) -> DeviceStatus:
        """A status saying ``name`` serves the game in play, and what fails in a part of it the
        game does not need (the node of a seat where no one plays), with the fix."""
        return cls(name, True, problem, fix)

    @property
    def warns(self) -> bool:
        """True for a :meth:`warning`."""
        return self.ok and bool(self.problem)

    @classmethod
    def first_wrong(cls, name: str, statuses: Iterable[DeviceStatus]) -> DeviceStatus:
        """The first of ``statuses`` failing (the rest are not looked at), else the first
        warning, else a status saying ``name`` works.

        >>> DeviceStatus.first_wrong("panel", [DeviceStatus.warning("panel", "seat 3: away", "plug it")])
        DeviceStatus(name='panel', ok=True, problem='seat 3: away', fix='plug it')
        """
        warning = None
        for status in statuses:
            if not status.ok:
                return status
            warning = warning or (status if status.warns else None)
        return warning or cls.healthy(name)

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
class SeatDevice(Device, Protocol):
    """A device that serves the seats (a panel, the bet spots' readers): the table tells it where
    players sit, and it waits for those seats only."""

    def set_seats_in_play(self, seats: frozenset[int]) -> None:
        """Players sit at ``seats`` (the game in play's, counted from 0); until told, at every
        seat. A part serving only other seats that fails (a seat node under an empty seat) no
        longer fails the device: :meth:`poll` neither raises for it nor holds the other seats'
        events, and :meth:`warning` and :meth:`check` say it as a warning (a seat node under an
        empty seat, an RC522 under its spot). A device whose parts all serve every seat (the
        Pi's GPIO panel) does nothing."""
        ...

    def warning(self) -> DeviceStatus | None:
        """What fails, as of the last poll, in a part of the device serving only seats where no
        one plays (a :meth:`DeviceStatus.warning`), or None."""
        ...


EMPTY_SEAT_FIX = "the table plays on without it while its seat is empty"
"""How the fix of a :meth:`DeviceStatus.warning` ends: the part failing serves only a seat where
no one plays, and the table does not wait for it."""


class EverySeat:
    """What a :class:`SeatDevice` whose parts all serve every seat does with the seats in play:
    nothing (the Pi's GPIO panel, a device that did not open)."""

    def set_seats_in_play(self, seats: frozenset[int]) -> None:
        """Nothing: every part serves every seat."""

    def warning(self) -> DeviceStatus | None:
        """None: no part serves only seats where no one plays."""
        return None


@runtime_checkable
class SeatPanel(SeatDevice, Protocol):
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
class TagReader(SeatDevice, Protocol):
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
