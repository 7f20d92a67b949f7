"""The table's hardware configuration, read from ``table.toml`` (see ``table.example.toml``).

``[hardware] backend`` chooses ``sim`` or ``pi``; the ``DICETABLE_HW`` environment variable
overrides it. The file is checked whole: an unknown section or key, a wrong type or a value out
of range raises :class:`ConfigError` naming the key's path (``panel.bounce_time``), so a typo never
silently falls back to a default.
"""

from __future__ import annotations

import math
import os
import sys
import tomllib
from dataclasses import dataclass, field, replace
from difflib import get_close_matches
from enum import Enum
from pathlib import Path
from typing import Any, Mapping, Sequence

from controller.games.errors import ConfigError, InvalidInput
from controller.games.registry import GAMES
from controller.paths import shown
from hardware.faults import Fault, require, table_parts

ENV_BACKEND = "DICETABLE_HW"
ENV_FAULTS = "DICETABLE_SIM_FAULTS"
ENV_CONFIG = "DICETABLE_CONFIG"
DEFAULT_BUTTONS = ("raise", "call", "pass")
SECTIONS = ("hardware", "camera", "panel", "rfid", "seatnodes", "console", "tray", "zones")
"""The tables a ``table.toml`` may hold; a part of the table that reads a section of its own adds
its name here (and documents it in ``table.example.toml``)."""


class NoConfigFile(ConfigError):
    """The configuration file named does not exist (:func:`config_for_command` says who
    named it)."""


class Backend(Enum):
    """Where devices come from: the simulated table or the Raspberry Pi's hardware."""

    SIM = "sim"
    PI = "pi"


@dataclass(frozen=True)
class CameraConfig:
    """``[camera]``: which camera backend and its settings."""

    source: str = "picamera2"
    device: int | str = 0
    folder: str = ""
    loop: bool = True
    width: int = 1536
    height: int = 864
    exposure_us: int = 10000
    analogue_gain: float = 1.0
    colour_gains: tuple[float, float] = (1.8, 1.6)
    lens_position: float = 0.0
    timeout: float = 1.0


@dataclass(frozen=True)
class SeatPins:
    """``[[panel.seats]]``: one seat's button pins (BCM numbers) and turn-light pin."""

    seat: int
    buttons: Mapping[str, int]
    light: int | None = None


@dataclass(frozen=True)
class PanelConfig:
    """``[panel]``: seat panels on the Pi's GPIO, on seat nodes, or none."""

    source: str = "gpio"
    bounce_time: float = 0.02
    hold_time: float = 1.0
    seats: tuple[SeatPins, ...] = ()

    def button_names(self) -> tuple[str, ...]:
        """The buttons' names in panel order, as the first seat's entry lists them (empty when
        no seat is listed): seat nodes number their buttons, the names come from here."""
        return tuple(self.seats[0].buttons) if self.seats else ()


@dataclass(frozen=True)
class ReaderPins:
    """``[[rfid.readers]]``: one RC522 reader under ``spot``, selected by GPIO ``chip_select``;
    ``seat``: the seat whose spot it is (None: a spot of no seat, such as the pot)."""

    spot: str
    chip_select: int
    seat: int | None = None


@dataclass(frozen=True)
class RfidConfig:
    """``[rfid]``: RC522 readers on one SPI bus (each with its own chip select), or none."""

    source: str = "mfrc522"
    bus: int = 0
    reset_pin: int | None = 25
    speed_hz: int = 1_000_000
    registry: str = "stones.db"
    readers: tuple[ReaderPins, ...] = ()
    rx_gain_db: int | None = None
    leave_after: int = 3

    @property
    def present(self) -> bool:
        """Whether the table has readers to build: on seat nodes, or RC522s listed (``none``:
        the dealer enters the stakes, as with no reader listed)."""
        return self.source == "seatnode" or (self.source == "mfrc522" and bool(self.readers))

    def seats(self) -> dict[str, int]:
        """The seat each reader's spot belongs to, by spot (the spots of no seat left out)."""
        return {r.spot: r.seat for r in self.readers if r.seat is not None}


@dataclass(frozen=True)
class SeatNodeConfig:
    """``[[seatnodes]]``: a Pico seat node serving ``seat``, reached at serial ``url``."""

    seat: int
    url: str
    spot: str = ""


@dataclass(frozen=True)
class ConsoleConfig:
    """``[console]``: how long a dealer's session on the console lasts, the venue's to set:
    ``idle_minutes`` without use, ``shift_hours`` after the login, used or not. The defaults are
    ``web.security``'s :data:`IDLE_LIMIT` and :data:`SHIFT_LIMIT` (the hardware does not import
    the web; a test holds them equal)."""

    idle_minutes: float = 180.0
    shift_hours: float = 12.0


@dataclass(frozen=True)
class HardwareConfig:
    """The whole configuration: the devices, and the dealer console's ``[console]``; ``path`` is
    the file it came from (None: defaults)."""

    backend: Backend = Backend.SIM
    faults: tuple[str, ...] = ()
    camera: CameraConfig = field(default_factory=CameraConfig)
    panel: PanelConfig = field(default_factory=PanelConfig)
    rfid: RfidConfig = field(default_factory=RfidConfig)
    seatnodes: tuple[SeatNodeConfig, ...] = ()
    console: ConsoleConfig = field(default_factory=ConsoleConfig)
    path: Path | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        """Every seat the configuration wires up, in order."""
        return tuple(sorted({s.seat for s in self.panel.seats} | {n.seat for n in self.seatnodes}))

    @property
    def spots(self) -> tuple[str, ...]:
        """Every RFID spot the configuration names, in order of appearance."""
        names = [r.spot for r in self.rfid.readers] + [n.spot for n in self.seatnodes if n.spot]
        return tuple(dict.fromkeys(names))

    def registry_path(self) -> Path:
        """The stone registry's SQLite file, relative to the configuration file's folder."""
        base = self.path.parent if self.path else Path.cwd()
        return base / self.rfid.registry


class _Table:
    """A TOML table being read: every key taken is checked, leftovers are errors."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        if not isinstance(data, Mapping):
            raise ConfigError(f"{where}: expected a table, got {data!r}")
        self.data = dict(data)
        self.where = where

    def key(self, name: str) -> str:
        return f"{self.where}.{name}" if self.where else name

    def take(self, name: str, kinds: type | tuple[type, ...], default: Any) -> Any:
        if name not in self.data:
            return default
        value = self.data.pop(name)
        if isinstance(value, bool) and bool not in _as_tuple(kinds):
            raise ConfigError(f"{self.key(name)}: expected {_kind_names(kinds)}, got {value!r}")
        if not isinstance(value, kinds):
            raise ConfigError(f"{self.key(name)}: expected {_kind_names(kinds)}, got {value!r}")
        return value

    def number(self, name: str, default: float, low: float, high: float = math.inf,
               above: bool = False) -> float:
        """A number from ``low`` (excluded when ``above``) to ``high``."""
        value = float(self.take(name, (int, float), default))
        if not (low < value if above else low <= value) or not value <= high:
            bound = f"more than {low:g}" if above else f"at least {low:g}"
            bound += f" and at most {high:g}" if high != math.inf else ""
            raise ConfigError(f"{self.key(name)}: {value:g} is out of range (give {bound})")
        return value

    def count(self, name: str, default: int, low: int, high: int | None = None) -> int:
        """An integer of at least ``low`` (and at most ``high``)."""
        value: int = self.take(name, int, default)
        if value < low or (high is not None and value > high):
            bound = f"at least {low}" + (f" and at most {high}" if high is not None else "")
            raise ConfigError(f"{self.key(name)}: {value} is out of range (give {bound})")
        return value

    def choice(self, name: str, options: tuple[str, ...], default: str) -> str:
        value: str = self.take(name, str, default)
        if value not in options:
            raise ConfigError(f"{self.key(name)}: {value!r} is not one of {', '.join(options)}")
        return value

    def sub(self, name: str) -> _Table:
        return _Table(self.take(name, dict, {}), self.key(name))

    def items(self, name: str) -> list[_Table]:
        values = self.take(name, list, [])
        return [_Table(v, f"{self.key(name)}[{i}]") for i, v in enumerate(values)]

    def done(self) -> None:
        if self.data:
            unknown = ", ".join(self.key(k) for k in sorted(self.data))
            raise ConfigError(f"unknown configuration key: {unknown} (see table.example.toml)")


def _as_tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _kind_names(kinds: type | tuple[type, ...]) -> str:
    names = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
             list: "a list", dict: "a table"}
    return " or ".join(names.get(k, k.__name__) for k in _as_tuple(kinds))


def _pin(table: _Table, name: str, default: int | None) -> int | None:
    value: int | None = table.take(name, int, default)
    if value is not None and not 0 <= value <= 27:
        raise ConfigError(f"{table.key(name)}: GPIO {value} is not a BCM pin (0-27)")
    return value


RX_GAINS_DB = (18, 23, 33, 38, 43, 48)


def _rx_gain(table: _Table, default: int | None) -> int | None:
    """The RC522 receiver gain in dB: one of the chip's steps (RFCfgReg), or None for its own."""
    value: int | None = table.take("rx_gain_db", int, default)
    if value is not None and value not in RX_GAINS_DB:
        steps = ", ".join(map(str, RX_GAINS_DB))
        raise ConfigError(f"{table.key('rx_gain_db')}: {value} dB is not one of {steps}")
    return value


MOST_FRAME_SIDE = 4608
"""The longest frame side a camera may be asked for: Camera Module 3's full sensor (4608x2592; the HQ
camera's is 4056x3040, a 4K webcam's 3840x2160). A larger one asked the simulated camera for a frame
of gigabytes (``width = 30000``, ``height = 30000``: 10 GB, and doctor hung), and no sensor gives it."""


def _camera(table: _Table) -> CameraConfig:
    d = CameraConfig()
    gains = table.take("colour_gains", list, list(d.colour_gains))
    if len(gains) != 2 or not all(isinstance(g, (int, float)) and not isinstance(g, bool)
                                  and g > 0 for g in gains):
        raise ConfigError(f"{table.key('colour_gains')}: expected [red, blue] gains above 0, "
                          f"got {gains!r}")
    device = table.take("device", (int, str), d.device)
    if isinstance(device, int) and device < 0:
        raise ConfigError(f"{table.key('device')}: {device} is not a camera number (0, 1, ...)")
    config = CameraConfig(
        source=table.choice("source", ("picamera2", "opencv", "folder", "sim"), d.source),
        device=device,
        folder=table.take("folder", str, d.folder),
        loop=table.take("loop", bool, d.loop),
        width=table.count("width", d.width, 16, MOST_FRAME_SIDE),
        height=table.count("height", d.height, 16, MOST_FRAME_SIDE),
        exposure_us=table.count("exposure_us", d.exposure_us, 1),
        analogue_gain=table.number("analogue_gain", d.analogue_gain, 1.0),
        colour_gains=(float(gains[0]), float(gains[1])),
        lens_position=table.number("lens_position", d.lens_position, 0.0),
        timeout=table.number("timeout", d.timeout, 0.1, 10.0),
    )
    if config.source == "folder" and not config.folder:
        raise ConfigError(f"{table.key('folder')}: required when camera.source is 'folder'")
    table.done()
    return config


MOST_SEATS = max(spec.max_seats for spec in GAMES.values())
"""Seats a table may have: the most players a game seats. How many sit is the game's, told as it
starts (``run --names``, the dealer console), not the file's: a seat without buttons plays from
the console, and a reader under a seat where no one sits is only watched. So the file may wire
any seat below this, and one past it is surely a typo (seat = 12), whose device no game uses."""


def _seat_number(table: _Table) -> int | None:
    """``seat = N``, from 0 to :data:`MOST_SEATS` - 1 (None when missing)."""
    seat: int | None = table.take("seat", int, None)
    if seat is not None and not 0 <= seat < MOST_SEATS:
        raise ConfigError(f"{table.key('seat')}: {seat} is not a seat (seats count from 0 to "
                          f"{MOST_SEATS - 1}: no game seats more than {MOST_SEATS} players)")
    return seat


def _seat_pins(table: _Table) -> SeatPins:
    seat = _seat_number(table)
    if seat is None:
        raise ConfigError(f"{table.key('seat')}: required (the seat number, from 0)")
    buttons = table.sub("buttons")
    pins = {name: _pin(buttons, name, None) for name in list(buttons.data)}
    light = _pin(table, "light", None)
    table.done()
    return SeatPins(seat, {name: pin for name, pin in pins.items() if pin is not None}, light)


def _panel(table: _Table) -> PanelConfig:
    d = PanelConfig()
    config = PanelConfig(
        source=table.choice("source", ("gpio", "seatnode", "none"), d.source),
        bounce_time=table.number("bounce_time", d.bounce_time, 0.0, 1.0),
        hold_time=table.number("hold_time", d.hold_time, 0.0, 60.0, above=True),
        seats=tuple(_seat_pins(t) for t in table.items("seats")),
    )
    table.done()
    _check_unique(table.key("seats"), [s.seat for s in config.seats], "seat")
    return config


def _reader(table: _Table) -> ReaderPins:
    spot = table.take("spot", str, "")
    cs = _pin(table, "chip_select", None)
    if not spot or cs is None:
        raise ConfigError(f"{table.where}: needs spot = \"NAME\" and chip_select = GPIO")
    seat = _seat_number(table)
    table.done()
    return ReaderPins(spot, cs, seat)


def _rfid(table: _Table) -> RfidConfig:
    d = RfidConfig()
    config = RfidConfig(
        source=table.choice("source", ("mfrc522", "seatnode", "none"), d.source),
        bus=table.count("bus", d.bus, 0),
        reset_pin=_pin(table, "reset_pin", d.reset_pin),
        speed_hz=table.count("speed_hz", d.speed_hz, 1),
        registry=table.take("registry", str, d.registry),
        readers=tuple(_reader(t) for t in table.items("readers")),
        rx_gain_db=_rx_gain(table, d.rx_gain_db),
        leave_after=table.count("leave_after", d.leave_after, 1, 20),
    )
    table.done()
    _check_unique(table.key("readers"), [r.spot for r in config.readers], "spot")
    _check_unique(table.key("readers"), [r.chip_select for r in config.readers], "chip_select")
    return config


def _seatnode(table: _Table) -> SeatNodeConfig:
    seat = _seat_number(table)
    url = table.take("url", str, "")
    if seat is None or not url:
        raise ConfigError(f"{table.where}: needs seat = N and url = \"/dev/ttyACM0\"")
    spot = table.take("spot", str, "")
    table.done()
    return SeatNodeConfig(seat, url, spot)


MOST_SHIFT_HOURS = 24.0
"""The longest ``console.shift_hours``: a day. The shift limit is what ends a session whose
cookie was copied and is kept busy; past a day a venue's longest opening hours are covered, and
a longer one is surely a typo (120 for 12)."""


def _console(table: _Table) -> ConsoleConfig:
    """``[console]``: a shift of more than 0 hours up to a day, and an idle limit of at least a
    minute (a dealer reads the page before touching it) and no longer than the shift: one longer
    would never end a session, the shift ending it first, and was surely meant otherwise."""
    d = ConsoleConfig()
    shift = table.number("shift_hours", d.shift_hours, 0.0, MOST_SHIFT_HOURS, above=True)
    idle = table.number("idle_minutes", d.idle_minutes, 1.0)
    if idle > shift * 60:
        raise ConfigError(f"{table.key('idle_minutes')}: {idle:g} minutes is longer than the shift "
                          f"({table.key('shift_hours')} = {shift:g}); give at most {shift * 60:g}")
    table.done()
    return ConsoleConfig(idle, shift)


def _check_unique(where: str, values: list[Any], what: str) -> None:
    seen = [v for i, v in enumerate(values) if v in values[:i]]
    if seen:
        raise ConfigError(f"{where}: {what} {seen[0]!r} appears twice")


def _backend(table: _Table, override: Backend | None) -> Backend:
    """``[hardware] backend``, unless the environment overrides it."""
    name = table.choice("backend", ("sim", "pi"), "sim")
    return override or Backend(name)


def _env_backend(env: Mapping[str, str]) -> Backend | None:
    """The backend :data:`ENV_BACKEND` chooses over the file's (None: it chooses none)."""
    override = env.get(ENV_BACKEND, "").strip().lower()
    if override and override not in ("sim", "pi"):
        raise ConfigError(f"{ENV_BACKEND}={override!r}: expected sim or pi")
    return Backend(override) if override else None


def _faults(table: _Table) -> tuple[str, ...]:
    """``[hardware] faults``: the simulated faults the file lists (their text checked later)."""
    faults = table.take("faults", list, [])
    if not all(isinstance(f, str) for f in faults):
        raise ConfigError(f"{table.key('faults')}: expected a list of \"device:fault\" strings")
    return tuple(f.strip() for f in faults)


def env_faults(env: Mapping[str, str] = os.environ) -> tuple[str, ...]:
    """The simulated faults :data:`ENV_FAULTS` injects at start (``a:b,c:d``), for any command
    whose devices are simulated: a table's configuration, or the demo's own.

    >>> env_faults({ENV_FAULTS: " camera:drops, ,rfid:timeout@once"})
    ('camera:drops', 'rfid:timeout@once')
    """
    return tuple(f.strip() for f in env.get(ENV_FAULTS, "").split(",") if f.strip())


def parse_config(data: Mapping[str, Any], env: Mapping[str, str] | None = None,
                 path: Path | None = None) -> HardwareConfig:
    """Build a :class:`HardwareConfig` from parsed TOML ``data``, checking the whole of it: the
    ``[tray]`` and ``[zones]`` the camera reads too (see :data:`SECTIONS`).

    :raises ConfigError: a section or key is unknown, a value has the wrong type or is out of
        range, or the devices cannot be built from it; the message names the file at ``path``
        (:func:`in_file`) and the key's path. A mistake of the environment's (:data:`ENV_BACKEND`,
        :data:`ENV_FAULTS`) names the variable instead: the file is not at fault.
    """
    env = os.environ if env is None else env
    override = _env_backend(env)
    try:
        config = _read(data, override, path)
    except ConfigError as err:
        raise ConfigError(in_file(path, str(err))) from None
    injected = env_faults(env)
    _check_faults(config, [(ENV_FAULTS, text) for text in injected])
    return replace(config, faults=config.faults + injected)


def _read(data: Mapping[str, Any], override: Backend | None, path: Path | None) -> HardwareConfig:
    """The configuration ``data`` holds, checked whole; its refusals name the key, and
    :func:`parse_config` adds the file, in one place for every refusal."""
    top = dict(data)
    _check_sections(top)
    hardware = _Table(top.get("hardware", {}), "hardware")
    backend, listed = _backend(hardware, override), _faults(hardware)
    hardware.done()
    config = HardwareConfig(
        backend=backend, faults=listed,
        camera=_camera(_Table(top.get("camera", {}), "camera")),
        panel=_panel(_Table(top.get("panel", {}), "panel")),
        rfid=_rfid(_Table(top.get("rfid", {}), "rfid")),
        seatnodes=tuple(_seatnode(_Table(t, f"seatnodes[{i}]"))
                        for i, t in enumerate(_list(top, "seatnodes"))),
        console=_console(_Table(top.get("console", {}), "console")),
        path=path,
    )
    for check in BUILDABLE:
        check(config)
    config = config if config.seats else _with_default_seats(config)
    _check_pins(config)
    _check_faults(config, [(f"hardware.faults[{i}]", text) for i, text in enumerate(listed)])
    return config


def _gpio_panel_pins(config: HardwareConfig) -> None:
    """On the Pi a GPIO panel says its pins: with no ``[[panel.seats]]`` it opened the four
    default seats' pins (the example's wiring), driving lights on pins that may be wired to
    anything else (GPIO 14 is the serial console's TX), without a word. The simulated table
    keeps the defaults: it has no wires."""
    if config.backend is Backend.PI and config.panel.source == "gpio" and not config.panel.seats:
        raise ConfigError("panel.source: 'gpio' on the Pi needs a [[panel.seats]] entry per seat "
                          "with its pins, e.g. [[panel.seats]] seat = 0, buttons = { raise = 5, "
                          "call = 6, pass = 13 }, light = 19 (see table.example.toml); or "
                          "source = \"none\": the seats play from the dealer console")


def _rc522_readers(config: HardwareConfig) -> None:
    """On the Pi, RC522 readers on the SPI bus say their chip selects when no seat is named
    anywhere else: the Pi opened four default readers (chip selects GPIO 8, 7, 18 and 4, reset
    GPIO 25), driving pins that may be wired to anything else, without a word. With seats named
    (a panel's, a node's) a section of no readers has none, as before."""
    if config.backend is Backend.PI and config.rfid.source == "mfrc522" and \
            not config.rfid.readers and not config.seats:
        raise ConfigError("rfid.source: 'mfrc522' on the Pi needs a [[rfid.readers]] entry per "
                          "reader with its chip select, e.g. [[rfid.readers]] spot = \"seat0\", "
                          "chip_select = 8, seat = 0 (see table.example.toml); or source = "
                          "\"none\": the stones are entered at the dealer console")


def _panel_nodes(config: HardwareConfig) -> None:
    """A panel on seat nodes needs a node: without one the simulated table refused to build,
    and the Pi's panel had no seat at all."""
    if config.panel.source == "seatnode" and not config.seatnodes:
        raise ConfigError("panel.source: 'seatnode' needs [[seatnodes]] entries (one per seat "
                          "node: seat = N, url = \"/dev/ttyACM0\")")


def _unique_nodes(config: HardwareConfig) -> None:
    """One node per seat, port and spot: the devices kept one of two, silently (the simulated
    table the first node of a seat, the Pi the last; the reader the last of a spot's), and two
    nodes on one port would read each other's bytes."""
    nodes = config.seatnodes
    _check_unique("seatnodes", [n.seat for n in nodes], "seat")
    _check_unique("seatnodes", [n.url for n in nodes], "url")
    _check_unique("seatnodes", [n.spot for n in nodes if n.spot], "spot")


def _rfid_nodes(config: HardwareConfig) -> None:
    """A reader on seat nodes needs a node with a spot: without one it watched no spot at all."""
    if config.rfid.source == "seatnode" and not any(n.spot for n in config.seatnodes):
        raise ConfigError("rfid.source: 'seatnode' needs a [[seatnodes]] entry with a spot "
                          "(spot = \"NAME\": the spot its RC522 reads)")


PI_CAMERAS = ("picamera2", "opencv", "folder")
"""The ``camera.source`` values the Pi backend opens; ``sim`` is the simulated table's own."""


def require_pi_camera(camera: CameraConfig) -> None:
    """Refuse a ``camera.source`` the Pi backend cannot open (:data:`PI_CAMERAS`).

    :raises ConfigError: naming ``camera.source``.
    """
    if camera.source not in PI_CAMERAS:
        raise ConfigError(f"camera.source: {camera.source!r} is not a camera the Pi backend opens "
                          f"(give {', '.join(PI_CAMERAS)}, or rehearse with {ENV_BACKEND}=sim)")


def _pi_camera(config: HardwareConfig) -> None:
    if config.backend is Backend.PI:
        require_pi_camera(config.camera)


BUILDABLE = (_gpio_panel_pins, _panel_nodes, _unique_nodes, _rfid_nodes, _pi_camera, _rc522_readers)
"""The checks that the devices can be built from a configuration, in the order they refuse. Made
as the file is read, so a command refuses it before it makes a file: the devices refused some of
these only as they were built, after ``run`` had made its record, and built the others otherwise
than the file says, without a word."""


def _check_faults(config: HardwareConfig, faults: Sequence[tuple[str, str]]) -> None:
    """Every simulated fault, given as (where it came from, its text), parses and names a device
    and part the table has (its spots and seats are known now), on either backend: the same file
    serves both. Checked as the file is read, so a command refuses a bad one before it makes a
    file; the simulated table refused it only as it was built, after ``run`` had made its record
    and stone registry.

    :raises ConfigError: naming where the fault came from: the file's ``hardware.faults[i]``, or
        :data:`ENV_FAULTS`.
    """
    parts = table_parts(config)
    for where, text in faults:
        try:
            require(Fault.parse(text), parts, text)
        except InvalidInput as err:
            raise ConfigError(f"{where}: {err}") from None


def in_file(path: Path | None, said: str) -> str:
    """``said`` of the file at ``path``: ``'table.toml': said`` (``said`` alone: no file)."""
    return f"{shown(path)}: {said}" if path else said


def _check_sections(top: Mapping[str, Any]) -> None:
    """Every top-level table is one of :data:`SECTIONS`; ``[tray]`` and ``[zones]`` are checked
    by the camera's own reader of them."""
    unknown = [name for name in top if name not in SECTIONS]
    if unknown:
        close = get_close_matches(unknown[0], SECTIONS, n=1)
        hint = f"; did you mean [{close[0]}]?" if close else ""
        raise ConfigError(f"unknown configuration section [{unknown[0]}]{hint} (sections: "
                          f"{', '.join(SECTIONS)}; see table.example.toml)")
    if "tray" in top or "zones" in top:
        from vision.calibrate import tray_config_of  # OpenCV only when a tray is configured

        tray_config_of(top)


def _check_pins(config: HardwareConfig) -> None:
    """No GPIO may serve two purposes (a button wired to a chip select reads garbage)."""
    pins: list[int | None] = [config.rfid.reset_pin] if config.rfid.readers else []
    for seat in config.panel.seats:
        pins += [*seat.buttons.values(), seat.light]
    pins += [r.chip_select for r in config.rfid.readers]
    _check_unique("GPIO pins", [p for p in pins if p is not None], "pin")


def _list(top: Mapping[str, Any], name: str) -> list[Any]:
    value = top.get(name, [])
    if not isinstance(value, list):
        raise ConfigError(f"{name}: expected a list of tables ([[{name}]]), got {value!r}")
    return value


def _with_default_seats(config: HardwareConfig) -> HardwareConfig:
    """Four seats wired as in ``table.example.toml`` when the file names none: the GPIO panel's
    buttons and an RC522 under each seat's spot unless readers are listed (a simulated table's:
    on the Pi :func:`_gpio_panel_pins` and :func:`_rc522_readers` refused the file). A device the file says is ``none``
    is given none: a table of readers and no panel had the default buttons' pins, and was
    refused a chip select on one of them as a pin used twice."""
    seats = tuple(SeatPins(s, dict(zip(DEFAULT_BUTTONS, pins)), light)
                  for s, (pins, light) in enumerate(DEFAULT_PINS))
    readers = config.rfid.readers or tuple(ReaderPins(f"seat{s}", cs, s)
                                           for s, cs in enumerate(DEFAULT_CHIP_SELECTS))
    panel, rfid = config.panel, config.rfid
    return replace(config, panel=replace(panel, seats=seats) if panel.source == "gpio" else panel,
                   rfid=replace(rfid, readers=readers) if rfid.source == "mfrc522" else rfid)


DEFAULT_PINS = (((5, 6, 13), 19), ((12, 16, 20), 21), ((17, 27, 22), 26), ((23, 24, 3), 14))
DEFAULT_CHIP_SELECTS = (8, 7, 18, 4)


def load_config(path: str | Path | None = None,
                env: Mapping[str, str] | None = None) -> HardwareConfig:
    """Read ``path`` (a ``table.toml``); with no path, the defaults (a simulated 4-seat table).

    :raises ConfigError: the file is missing, is not TOML, or has a bad key.
    """
    if path is None:
        return parse_config({}, env)
    path = Path(path)
    return parse_config(read_toml(path), env, path)


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML file at ``path``.

    :raises ConfigError: it is missing, a folder, unreadable, not UTF-8 text, or not TOML.
    """
    if path.is_dir():
        raise ConfigError(f"{shown(path)}: is a folder, not a configuration file")
    try:
        return tomllib.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise NoConfigFile(f"{shown(path)}: no such configuration file") from None
    except OSError as err:
        raise ConfigError(f"{shown(path)}: cannot read it: {err.strerror}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{shown(path)}: not a UTF-8 text file (save the configuration as "
                          "UTF-8)") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{shown(path)}: not valid TOML: {err}") from None


TABLE_CONFIG = Path("/etc/dicetable/table.toml")
"""The table's configuration on the Pi: the file ``hardware/dicetable.service`` gives ``run`` and
``doctor`` (``hardware/README.md``)."""


def config_for_command(path: str | None, env: Mapping[str, str] | None = None) -> HardwareConfig:
    """The configuration a command uses: ``--config PATH``, else ``$DICETABLE_CONFIG``, else the
    defaults (a simulated table). Says on stderr when it gives simulated faults to real devices
    (:func:`ignored_faults`).

    :raises ConfigError: the file is refused, or ``DICETABLE_HW=pi`` names no file: the Pi's
        devices are wired as the table's file says, and the defaults' were refused by the first
        check of the Pi's pins (``panel.source: 'gpio' on the Pi needs ...``), a file's mistake
        where no file was given.
    """
    env = os.environ if env is None else env
    chosen = path or env.get(ENV_CONFIG) or None
    if chosen is None and _env_backend(env) is Backend.PI:
        raise ConfigError(f"{ENV_BACKEND}=pi needs the table's configuration, which says how its "
                          f"devices are wired: give --config FILE (the table's is "
                          f"{TABLE_CONFIG}, which hardware/dicetable.service runs) or set "
                          f"${ENV_CONFIG}")
    config = load_config(path, env) if path else _load_named(chosen, env)
    warning = ignored_faults(config)
    if warning is not None:
        print(warning, file=sys.stderr, flush=True)
    return config


def _load_named(path: str | None, env: Mapping[str, str]) -> HardwareConfig:
    """The file ``$DICETABLE_CONFIG`` names (None: the defaults). Missing, it is said to be the
    variable's, only then: a shell keeps the variable from an earlier session, and the file's name
    alone leaves its user looking for a file they never gave."""
    try:
        return load_config(path, env)
    except NoConfigFile as err:
        raise NoConfigFile(f"{err}, named by ${ENV_CONFIG} (point it at the table's file, or "
                           "unset it)") from None


def ignored_faults(config: HardwareConfig) -> str | None:
    """What a command says of simulated faults given to real devices, which ignore them (None:
    none given, or the devices are simulated). A warning, not a refusal: the same table.toml
    serves rehearsals under ``DICETABLE_HW=sim``, and a shell may keep ``DICETABLE_SIM_FAULTS``
    from one; a table that will not start on the Pi over faults it cannot have would be worse.

    >>> print(ignored_faults(parse_config({"hardware": {"faults": ["camera:drops"]},
    ...                                    "panel": {"source": "none"}, "rfid": {"source": "none"}},
    ...                                   {ENV_BACKEND: "pi"})))
    warning: simulated faults are ignored on real hardware (backend pi): camera:drops; remove them from [hardware] faults and $DICETABLE_SIM_FAULTS, or rehearse them with DICETABLE_HW=sim
    """
    if config.backend is Backend.SIM or not config.faults:
        return None
    return (f"warning: simulated faults are ignored on real hardware (backend pi): "
            f"{', '.join(config.faults)}; remove them from [hardware] faults and "
            f"${ENV_FAULTS}, or rehearse them with {ENV_BACKEND}=sim")
