"""The seat node's main loop: buttons out, light commands in, and ``main()`` on a fake Pico."""

from __future__ import annotations

import io
import os
import struct
import sys
import time
import types
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from hardware.clock import SimClock
from hardware.seatnode_firmware import firmware
from hardware.sim_rc522 import EmulatedRC522, EmulatedTag

LINK = firmware().link
STONE = bytes.fromhex("0A0B0C0D")


class StopLoop(Exception):
    """Raised by the fake ``time.sleep_ms`` to end ``main()``'s endless loop."""


@pytest.fixture
def node(fw: SimpleNamespace, machine: ModuleType, ticks: Any) -> Any:
    """A SeatNode on a fake UART, two buttons and two lights, connected to no one yet."""
    buttons = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in (2, 3)]
    lights = [machine.Pin(n, machine.Pin.OUT) for n in (15, 14)]
    return fw.main.SeatNode(machine.UART(0), buttons, lights, [], ticks, 0xBEEF)


def pi_hello() -> bytes:
    hello = struct.pack(">BBHH", LINK.VERSION, LINK.HELLO_REPLY_WANTED, 0x0001, 0)
    frame: bytes = LINK.encode_frame(LINK.T_HELLO, 0, hello)
    return frame


def sent(node: Any) -> list[tuple[int, int, bytes]]:
    """The frames the node wrote since the last call, the sender bit taken off the type."""
    frames = LINK.Decoder().feed(bytes(node.serial.outgoing))
    node.serial.outgoing.clear()
    return [(kind & LINK.KIND_MASK, seq, payload) for kind, seq, payload in frames]


def test_node_says_hello_with_its_session(node: Any) -> None:
    node.step()
    (kind, _, payload), = sent(node)
    assert kind == LINK.T_HELLO and struct.unpack(">BBHHI", payload)[2] == 0xBEEF


def test_button_press_goes_out_as_a_button_frame(node: Any, ticks: Any) -> None:
    node.serial.incoming.extend(pi_hello())
    node.step()
    sent(node)
    node.buttons.buttons[1].pin.value(0)
    for ticks.ms in range(1, 40):
        node.step()
    frames = [f for f in sent(node) if f[0] == LINK.T_BUTTON]
    assert [struct.unpack(">BBI", f[2])[:2] for f in frames] == [(1, LINK.BUTTON_PRESS)]


def test_set_led_command_switches_the_light(node: Any) -> None:
    node.serial.incoming.extend(pi_hello() + LINK.encode_frame(LINK.T_SET_LED, 0, b"\x00\x01"))
    node.step()
    assert node.leds.modes()[0] == LINK.LED_ON
    acks = [f for f in sent(node) if f[0] == LINK.T_ACK]
    assert [f[2] for f in acks] == [b"\x00\x00"]


@pytest.fixture
def pico(machine: ModuleType, monkeypatch: pytest.MonkeyPatch) -> SimClock:
    """MicroPython's ``micropython`` module and ``time.ticks_ms``/``sleep_ms`` (50 loops, 5 ms
    each), ``ticks_us``/``sleep_us`` (the RC522 driver's) on a simulated clock, which the
    emulated RC522s wired to the Pico share."""
    monkeypatch.setitem(sys.modules, "micropython",
                        types.SimpleNamespace(kbd_intr=lambda _: None, const=lambda v: v))
    clock = SimClock()
    monkeypatch.setattr(time, "ticks_ms", lambda: int(clock.now() * 1000), raising=False)
    monkeypatch.setattr(time, "ticks_us", lambda: int(clock.now() * 1e6), raising=False)
    monkeypatch.setattr(time, "sleep_us", lambda us: clock.advance(us / 1e6), raising=False)
    calls = iter(range(50))

    def sleep_ms(_: int) -> None:
        clock.advance(0.005)
        if next(calls, None) is None:
            raise StopLoop

    monkeypatch.setattr(time, "sleep_ms", sleep_ms, raising=False)
    return clock


def usb_serial(monkeypatch: pytest.MonkeyPatch, from_pi: bytes) -> io.BytesIO:
    """The USB serial console: ``from_pi`` waiting on stdin (a pipe); stdout's bytes returned.

    Patched in the test body, not a fixture: pytest puts its own stdout back before the test.
    """
    read_end, write_end = os.pipe()
    os.write(write_end, from_pi)
    os.close(write_end)
    usb_in = io.FileIO(read_end, "r")
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=usb_in, fileno=usb_in.fileno))
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(buffer=out))
    return out


def test_main_runs_the_node_on_the_pico_pins(fw: SimpleNamespace, machine: ModuleType,
                                             monkeypatch: pytest.MonkeyPatch,
                                             pico: SimClock) -> None:
    chip = EmulatedRC522(clock=pico)
    chip.place(EmulatedTag(STONE))
    machine.WIRING[fw.main.READER_CS_PINS[0]] = chip
    out = usb_serial(monkeypatch, pi_hello() + LINK.encode_frame(LINK.T_SET_LED, 0, b"\x01\x02"))
    with pytest.raises(StopLoop):
        fw.main.main()
    monkeypatch.undo()
    frames = [(kind & LINK.KIND_MASK, seq, payload)
              for kind, seq, payload in LINK.Decoder().feed(out.getvalue())]
    assert [kind for kind, _, _ in frames[:2]] == [LINK.T_HELLO, LINK.T_ACK]
    tags = {(seq, payload[:2], payload[6:]) for kind, seq, payload in frames
            if kind == LINK.T_TAG}
    assert tags == {(0, bytes((0, LINK.TAG_ARRIVE)), STONE)}
    assert machine.WATCHDOGS[-1].feeds == 51  # every pass, the one that stopped it too


@pytest.mark.usefixtures("pico")
def test_main_leaves_the_repl_when_button_0_is_held_at_power_up(
        fw: SimpleNamespace, machine: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    machine.HELD.add(fw.main.BUTTON_PINS[0])
    out = usb_serial(monkeypatch, b"")
    assert fw.main.main() is None and out.getvalue() == b""


class BrokenBus:
    """An RC522 whose SPI transfers fail (a loose wire on the bus)."""

    def transfer(self, data: bytes) -> bytes:
        raise OSError(5, "SPI bus error")


def test_main_keeps_running_the_buttons_when_the_reader_bus_fails(
        fw: SimpleNamespace, machine: ModuleType, monkeypatch: pytest.MonkeyPatch,
        pico: SimClock) -> None:
    machine.WIRING[fw.main.READER_CS_PINS[0]] = BrokenBus()
    calls = iter(range(50))

    def press_then_stop(_: int) -> None:
        pico.advance(0.005)
        if next(calls, None) is None:
            raise StopLoop
        for pin in machine.PINS:
            if pin.number == fw.main.BUTTON_PINS[1]:
                pin.value(0)

    monkeypatch.setattr(time, "sleep_ms", press_then_stop, raising=False)
    out = usb_serial(monkeypatch, pi_hello())
    with pytest.raises(StopLoop):
        fw.main.main()
    monkeypatch.undo()
    kinds = {kind & LINK.KIND_MASK for kind, _, _ in LINK.Decoder().feed(out.getvalue())}
    assert LINK.T_BUTTON in kinds


class Failing:
    """A node whose every pass raises, as a bug would."""

    def __init__(self, fw: SimpleNamespace, node: Any) -> None:
        self.node, self.link = node, node.link
        self.steps = 0

    def step(self) -> None:
        self.steps += 1
        raise ZeroDivisionError("division by zero")

    def survive(self, error: Exception) -> bool:
        return bool(self.node.survive(error))


def test_loop_survives_any_exception_and_tells_the_pi(fw: SimpleNamespace, node: Any) -> None:
    failing, feeds, resets = Failing(fw, node), [], []
    fw.main.run(failing, lambda: feeds.append(1), lambda ms: None, lambda: resets.append(1),
                passes=5)
    notices = [p for _, _, p in [(0, 0, payload) for _, _, payload in node.link.queue]]
    assert failing.steps == 5 and len(feeds) == 5 and resets == []
    assert notices[0].startswith(b"error: ZeroDivisionError")


def test_loop_restarts_the_node_when_errors_keep_coming(fw: SimpleNamespace, node: Any) -> None:
    resets: list[int] = []
    fw.main.run(Failing(fw, node), lambda: None, lambda ms: None, lambda: resets.append(1),
                passes=fw.main.ERRORS_BEFORE_RESET)
    assert resets == [1]


def test_a_failed_reader_is_reported_to_the_pi_and_its_recovery_too(
        fw: SimpleNamespace, machine: ModuleType, ticks: Any) -> None:
    class Reader:
        status = fw.rc522.ERROR

        def init(self) -> bool:
            """Set up again: the node does so after a failure; its chip answers."""
            return True

        def read_uids(self) -> tuple[int, list[bytes]]:
            return self.status, []

    reader = Reader()
    node = fw.main.SeatNode(machine.UART(0), [], [], [reader], ticks, 0xBEEF)
    node.serial.incoming.extend(pi_hello())
    for ticks.ms in (0, 100, 200):
        node.step()
    reader.status = fw.rc522.OK
    ticks.ms = 300
    node.step()
    states = [payload[:2] for _, _, payload in node.link.queue if len(payload) == 6]
    assert [(kind, seq) for seq, kind, _ in node.link.queue] == [(LINK.T_READER, 0),
                                                                 (LINK.T_READER, 1)]
    assert states == [bytes((0, LINK.READER_FAILED)), bytes((0, LINK.READER_OK))]
