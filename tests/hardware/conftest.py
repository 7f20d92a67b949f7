"""Backends for the device contract tests: one entry per backend of each device kind.

To add a backend, add one line to PANEL_RIGS, READER_RIGS or CAMERA_RIGS: a name and a function
``make(clock) -> Rig`` (the rig holds the device and a way to act on it). Real hardware is only
used when ``DICETABLE_TEST_CONFIG`` names a Pi configuration (``backend = "pi"``); otherwise those
entries are skipped, never faked.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cv2
import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from controller.games.errors import DeviceDisconnected
from hardware.clock import SimClock
from hardware.config import PanelConfig, SeatPins, load_config, parse_config
from hardware.devices import LightState
from hardware.factory import build_devices
from hardware.camera_folder import FolderCamera
from hardware.camera_opencv import OpenCvCamera
from hardware.panels import GpioPanel, SimPanel
from hardware.sim import SimTable
from vision.photos import DEFAULT_SET

PHOTOS = DEFAULT_SET / "images"  # the repo's own photos
SEATNODE_TABLE = {
    "panel": {"source": "seatnode"}, "rfid": {"source": "seatnode"},
    "seatnodes": [{"seat": 0, "url": "sim://node0", "spot": "seat0"},
                  {"seat": 1, "url": "sim://node1", "spot": "seat1"}],
}


@dataclass
class Rig:
    """A device under test and the hands that act on it (None where a backend has none)."""

    device: Any
    clock: SimClock
    press: Callable[[int, str], None] | None = None
    release: Callable[[int, str], None] | None = None
    light: Callable[[int], LightState] | None = None
    place: Callable[[str, str], None] | None = None
    remove: Callable[[str, str], None] | None = None
    table: SimTable | None = None
    away: int = 0  # polls that said the device had gone away

    def advance(self, seconds: float) -> None:
        """Let simulated time pass."""
        self.clock.advance(seconds)

    def drain(self, seconds: float = 0.5) -> list[Any]:
        """Poll as the table's loop does, every 50 ms for ``seconds`` (a link may deliver an
        event a few polls later); every event polled, in order. A device that says it went away
        (``DeviceDisconnected``) is a state the table shows, and is polled again next time."""
        events: list[Any] = []
        for _ in range(round(seconds / 0.05)):
            self.advance(0.05)
            try:
                events += self.device.poll()
            except DeviceDisconnected:
                self.away += 1
        return events


def pi_devices() -> Any:
    """The real devices of ``DICETABLE_TEST_CONFIG``, or skip when there are none."""
    path = os.environ.get("DICETABLE_TEST_CONFIG")
    if not path:
        pytest.skip("real hardware: set DICETABLE_TEST_CONFIG to the Pi's table.toml")
    config = load_config(path, {"DICETABLE_HW": "pi"})
    return build_devices(config)


def sim_panel(clock: SimClock) -> Rig:
    table = SimTable(clock=clock)
    panel = table.panel
    assert isinstance(panel, SimPanel), "the default simulated table has simulated buttons"
    return Rig(panel, clock, table.press, table.release, lambda seat: panel.lights[seat],
               table=table)


def seatnode_panel(clock: SimClock) -> Rig:
    table = SimTable(parse_config(SEATNODE_TABLE, {}), clock)
    return Rig(table.panel, clock, table.press, table.release,
               lambda seat: table.nodes[seat].light(0), table=table)


def gpio_mock_panel(clock: SimClock) -> Rig:
    factory = MockFactory()
    config = PanelConfig(seats=(SeatPins(0, {"raise": 5, "call": 6}, 19),
                                SeatPins(1, {"raise": 12, "call": 16}, 21)))
    pins = {(s.seat, name): pin for s in config.seats for name, pin in s.buttons.items()}
    lights = {s.seat: s.light for s in config.seats}
    return Rig(GpioPanel(config, clock, factory), clock,
               lambda seat, b: factory.pin(pins[seat, b]).drive_low(),
               lambda seat, b: factory.pin(pins[seat, b]).drive_high(),
               lambda seat: LightState.ON if factory.pin(lights[seat]).state else LightState.OFF)


def pi_panel(clock: SimClock) -> Rig:
    return Rig(pi_devices().panel, clock)


def sim_reader(clock: SimClock) -> Rig:
    table = SimTable(clock=clock)
    return Rig(table.rfid, clock, place=table.place, remove=table.remove, table=table)


def seatnode_reader(clock: SimClock) -> Rig:
    table = SimTable(parse_config(SEATNODE_TABLE, {}), clock)
    return Rig(table.rfid, clock, place=table.place, remove=table.remove, table=table)


def pi_reader(clock: SimClock) -> Rig:
    return Rig(pi_devices().rfid, clock)


def sim_camera(clock: SimClock) -> Rig:
    table = SimTable(parse_config({"camera": {"width": 320, "height": 240}}, {}), clock)
    table.show_dice([1, 2, 3])
    return Rig(table.camera, clock, table=table)


def folder_camera(clock: SimClock) -> Rig:
    return Rig(FolderCamera(PHOTOS, loop=True), clock)


def video_camera(clock: SimClock, tmp: Path) -> Rig:
    path = tmp / "tray.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 5, (320, 240))
    for photo in sorted(PHOTOS.glob("*.jpg"))[:4]:
        image = cv2.imread(str(photo))
        assert image is not None, f"{photo} is not an image"
        writer.write(cv2.resize(image, (320, 240)))
    writer.release()
    return Rig(OpenCvCamera(str(path), loop=True), clock)


def pi_camera(clock: SimClock) -> Rig:
    return Rig(pi_devices().camera, clock)


PANEL_RIGS: dict[str, Callable[[SimClock], Rig]] = {
    "sim": sim_panel,
    "gpio-mockfactory": gpio_mock_panel,
    "seatnode-sim": seatnode_panel,
}
READER_RIGS: dict[str, Callable[[SimClock], Rig]] = {
    "sim-rc522": sim_reader,
    "seatnode-sim": seatnode_reader,
}
CAMERA_RIGS: dict[str, Callable[..., Rig]] = {
    "sim": sim_camera,
    "folder-of-photos": folder_camera,
    "opencv-video-file": video_camera,
}
PI_RIGS = {"panel": pi_panel, "reader": pi_reader, "camera": pi_camera}


def _fault_rig(make: Callable[[SimClock], Rig]) -> Any:
    rig = make(SimClock())
    yield rig
    rig.device.close()


@pytest.fixture
def sim_camera_rig() -> Any:
    """The simulated camera, with its table to inject faults into."""
    yield from _fault_rig(sim_camera)


@pytest.fixture(params=["sim", "seatnode-sim"])
def sim_panel_rig(request: pytest.FixtureRequest) -> Any:
    """Each simulated panel, with its table to inject faults into."""
    yield from _fault_rig(PANEL_RIGS[request.param])


@pytest.fixture(params=["sim-rc522", "seatnode-sim"])
def sim_reader_rig(request: pytest.FixtureRequest) -> Any:
    """Each simulated tag reader, with its table to inject faults into."""
    yield from _fault_rig(READER_RIGS[request.param])


def _rig(make: Callable[..., Rig], request: pytest.FixtureRequest) -> Any:
    clock = SimClock()
    if make is video_camera:
        rig = make(clock, request.getfixturevalue("tmp_path"))
    else:
        rig = make(clock)
    yield rig
    rig.device.close()


@pytest.fixture(params=sorted(PANEL_RIGS))
def panel_rig(request: pytest.FixtureRequest) -> Any:
    """Each panel backend that tests can drive."""
    yield from _rig(PANEL_RIGS[request.param], request)


@pytest.fixture(params=sorted(READER_RIGS))
def reader_rig(request: pytest.FixtureRequest) -> Any:
    """Each tag reader backend that tests can drive."""
    yield from _rig(READER_RIGS[request.param], request)


@pytest.fixture(params=[*sorted(PANEL_RIGS), "pi"])
def any_panel(request: pytest.FixtureRequest) -> Any:
    """Every panel backend, the Pi's real one included (skipped off the Pi)."""
    yield from _rig(PANEL_RIGS.get(request.param, pi_panel), request)


@pytest.fixture(params=[*sorted(READER_RIGS), "pi"])
def any_reader(request: pytest.FixtureRequest) -> Any:
    """Every tag reader backend, the Pi's real one included (skipped off the Pi)."""
    yield from _rig(READER_RIGS.get(request.param, pi_reader), request)


@pytest.fixture(params=[*sorted(CAMERA_RIGS), "pi"])
def any_camera(request: pytest.FixtureRequest) -> Any:
    """Every camera backend, the Pi's configured camera included (skipped off the Pi)."""
    yield from _rig(CAMERA_RIGS.get(request.param, pi_camera), request)
