"""Building the configured devices (simulated or the Pi's) from a HardwareConfig, injected, never global.

:func:`build_devices` is the one place that turns configuration into devices; everything that
needs hardware receives the resulting :class:`Devices`. A device that cannot be opened becomes a
:class:`BrokenDevice` that says what is wrong and how to fix it, so ``doctor`` can report every
device instead of stopping at the first missing one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from controller.games.errors import DeviceError
from hardware.camera import open_camera
from hardware.clock import Clock, RealClock, SimClock
from hardware.config import Backend, HardwareConfig
from hardware.devices import (
    Camera, Device, DeviceFailing, DeviceStatus, EverySeat, Frame, LightState, SeatPanel,
    TagReader,
)
from hardware.panels import GpioPanel
from hardware.sim import SimTable

SPI_FIX = ("enable SPI (sudo raspi-config nonint do_spi 0), add dtoverlay=spi0-0cs to "
           "/boot/firmware/config.txt, install python3-spidev and use a venv with "
           "--system-site-packages")


@dataclass(frozen=True)
class BrokenDevice(EverySeat):
    """A device that could not be opened: every use raises, :meth:`check` explains."""

    name: str
    problem: str
    fix: str
    spots: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()

    def _fail(self) -> DeviceError:
        return DeviceFailing(self.check())

    def frame(self) -> Frame:
        """:raises DeviceError: always."""
        raise self._fail()

    def buttons(self, seat: int) -> tuple[str, ...]:
        """:raises DeviceError: always."""
        raise self._fail()

    def poll(self) -> list[Any]:
        """:raises DeviceError: always."""
        raise self._fail()

    def set_light(self, seat: int, state: LightState) -> None:
        """:raises DeviceError: always."""
        raise self._fail()

    def tags(self, spot: str) -> frozenset[str]:
        """:raises DeviceError: always."""
        raise self._fail()

    def check(self) -> DeviceStatus:
        """The reason it could not be opened."""
        return DeviceStatus.failing(self.name, self.problem, self.fix)

    def close(self) -> None:
        """Nothing was opened."""


@dataclass
class Devices:
    """The table's devices and their clock; ``sim`` is the simulated table when simulated."""

    clock: Clock
    camera: Camera | None = None
    panel: SeatPanel | None = None
    rfid: TagReader | None = None
    sim: SimTable | None = None

    def all(self) -> list[Device]:
        """Every configured device, camera first."""
        return [d for d in (self.camera, self.panel, self.rfid) if d is not None]

    def close(self) -> None:
        """Close every device (harmless twice)."""
        for device in self.all():
            device.close()


def build_devices(config: HardwareConfig, *, clock: Clock | None = None, pin_factory: Any = None,
                  picamera2_module: Any = None, seed: int = 0) -> Devices:
    """The devices ``config`` describes.

    ``clock`` defaults to a :class:`SimClock` for the simulated backend and the real clock on
    the Pi; ``pin_factory`` is gpiozero's (None: gpiozero's default); ``picamera2_module``
    replaces ``picamera2`` in tests; ``seed`` seeds the simulated camera.
    """
    if config.backend is Backend.SIM:
        sim_clock = clock if isinstance(clock, SimClock) else SimClock()
        table = SimTable(config, sim_clock, seed)
        return Devices(sim_clock, table.camera, table.panel, table.rfid, table)
    clock = clock or RealClock()
    devices = Devices(clock)
    devices.camera = _guarded("camera", lambda: open_camera(config.camera, picamera2_module))
    links = _seatnode_links(config, clock)
    devices.panel = _panel(config, clock, pin_factory, links)
    devices.rfid = _rfid(config, clock, pin_factory, links)
    return devices


def _seatnode_links(config: HardwareConfig, clock: Clock) -> dict[int, Any]:
    """One link per seat node, shared by the panel and the reader on it."""
    if "seatnode" not in (config.panel.source, config.rfid.source):
        return {}
    from hardware.seatnode import SeatNodeLink
    return {n.seat: SeatNodeLink(n.url, clock) for n in config.seatnodes}


def _guarded(name: str, build: Callable[[], Any]) -> Any:
    try:
        return build()
    except (DeviceError, OSError, ImportError, RuntimeError) as err:
        return BrokenDevice(name, f"cannot open ({type(err).__name__}: {err})",
                            "see hardware/README.md for wiring and installation")


def _panel(config: HardwareConfig, clock: Clock, pin_factory: Any,
           links: dict[int, Any]) -> SeatPanel | None:
    source = config.panel.source
    if source == "gpio":
        return GpioPanel(config.panel, clock, pin_factory)
    if source == "seatnode":
        from hardware.seatnode import SeatNodePanel
        names = config.panel.button_names()
        return SeatNodePanel(links, clock, names) if names else SeatNodePanel(links, clock)
    return None


def _rfid(config: HardwareConfig, clock: Clock, pin_factory: Any,
          links: dict[int, Any]) -> TagReader | None:
    rfid = config.rfid
    if not rfid.present:
        return None
    if rfid.source == "seatnode":
        from hardware.seatnode import SeatNodeReader
        spots = {n.spot: (links[n.seat], 0) for n in config.seatnodes if n.spot}
        return SeatNodeReader(spots, clock, seats=links)
    try:
        from hardware.mfrc522 import MFRC522, SpidevBus
        from hardware.rfid import Mfrc522Reader
        bus = SpidevBus(rfid.bus, rfid.speed_hz, pin_factory, rfid.reset_pin)
    except (ImportError, OSError) as err:
        return BrokenDevice("rfid", f"SPI bus {rfid.bus} cannot be opened "
                            f"({type(err).__name__}: {err})", SPI_FIX,
                            spots=tuple(r.spot for r in rfid.readers))
    chips = {r.spot: MFRC522(bus.channel(r.chip_select), clock, rx_gain_db=rfid.rx_gain_db)
             for r in rfid.readers}
    wiring = {r.spot: f"GPIO {r.chip_select}" for r in rfid.readers}
    return Mfrc522Reader(chips, clock, wiring=wiring, on_close=bus.close,
                         leave_after=rfid.leave_after, seats=rfid.seats())

