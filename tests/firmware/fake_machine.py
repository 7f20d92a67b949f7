"""A stand-in for MicroPython's ``machine`` module (Pin, SPI, UART) so the firmware runs under CPython.

Tests put it on ``sys.modules`` as ``machine``. :class:`SPI` forwards each chip-select-low
transaction to a device with ``transfer(data: bytes) -> bytes`` (the emulated RC522), picking the
device by which chip-select :class:`Pin` is driven low, as the real bus does. Devices are wired
to pin numbers in :data:`WIRING` (so code that makes its own pins, like ``main()``, finds them).
"""

from __future__ import annotations

from typing import Protocol


class SpiDevice(Protocol):
    """A chip on the bus: one chip-select-low transaction in, MISO's bytes out."""

    def transfer(self, data: bytes) -> bytes:
        """Clock ``data`` out, return what came back."""
        ...


WIRING: dict[int, SpiDevice] = {}
"""Chip-select pin number -> the SPI device behind it."""

HELD: set[int] = set()
"""Input pins held low when they are made (a button pressed at power-up)."""


class Pin:
    """A GPIO pin; tests drive inputs with :meth:`value` too."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, number: int, mode: int = IN, pull: int | None = None) -> None:
        self.number = number
        self.mode = mode
        self.level = 1 if pull == Pin.PULL_UP and number not in HELD else 0
        self.device = WIRING.get(number)
        PINS.append(self)

    def value(self, level: int | None = None) -> int:
        """Read the pin, or drive it to ``level``."""
        if level is not None:
            self.level = 1 if level else 0
        return self.level


PINS: list[Pin] = []
"""Every pin made so far."""


class SPI:
    """An SPI bus; every pin with a device wired to it is a chip select on it."""

    def __init__(self, bus: int, baudrate: int = 1_000_000, **pins: Pin) -> None:
        self.bus = bus
        self.baudrate = baudrate
        self.pins = pins

    def attach(self, cs: Pin, device: SpiDevice) -> None:
        """Wire ``device`` to this bus behind chip select ``cs``."""
        WIRING[cs.number] = device
        cs.device = device

    def _selected(self) -> SpiDevice:
        low = [pin for pin in PINS if pin.device is not None and pin.level == 0]
        if len(low) != 1:
            raise OSError(f"SPI transfer with {len(low)} chip selects low (needs exactly one)")
        assert low[0].device is not None
        return low[0].device

    def write(self, data: bytes) -> None:
        """Clock ``data`` out, ignoring MISO."""
        self._selected().transfer(bytes(data))

    def write_readinto(self, data: bytes, into: bytearray) -> None:
        """Clock ``data`` out and store MISO's bytes in ``into``."""
        into[:] = self._selected().transfer(bytes(data))


class UART:
    """A UART whose other end is the test: :attr:`incoming` feeds ``read``, ``outgoing`` collects."""

    def __init__(self, uart_id: int = 0, baudrate: int = 115200, **pins: Pin) -> None:
        self.incoming = bytearray()
        self.outgoing = bytearray()

    def any(self) -> int:
        """Bytes waiting."""
        return len(self.incoming)

    def read(self) -> bytes | None:
        """Every waiting byte, or ``None``."""
        data, self.incoming = bytes(self.incoming), bytearray()
        return data or None

    def write(self, data: bytes) -> int:
        """Send ``data``."""
        self.outgoing.extend(data)
        return len(data)


PWRON_RESET = 1
WDT_RESET = 3
RESET_CAUSE = PWRON_RESET
"""What :func:`reset_cause` answers (tests set it to :data:`WDT_RESET`)."""

RESETS: list[int] = []
"""One entry per :func:`reset` call."""


def reset_cause() -> int:
    """Why the Pico last started."""
    return RESET_CAUSE


def reset() -> None:
    """A hard reset; recorded (the test decides what happens next)."""
    RESETS.append(1)


class WDT:
    """The watchdog: counts its feeds."""

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0
        WATCHDOGS.append(self)

    def feed(self) -> None:
        """Another pass of the loop finished in time."""
        self.feeds += 1


WATCHDOGS: list[WDT] = []
"""Every watchdog made."""
