"""End to end through a pty pair: the firmware's own code on one end, the Pi driver on pyserial at the other."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from hardware.clock import SimClock
from hardware.devices import ButtonEvent, LightState, PressKind, TagChange, TagEvent
from hardware.seatnode import SeatNodeLink, SeatNodePanel, SeatNodeReader
from hardware.seatnode_sim import PtyPort, SimSeatNode

STONE = bytes.fromhex("04112233445566")


class PtyTable:
    """A simulated node writing to a pty's master; the Pi opens the slave's path with pyserial."""

    def __init__(self) -> None:
        self.clock = SimClock()
        self.pty = PtyPort()
        self.node = SimSeatNode(self.clock, serial_port=self.pty, session=0x1234)
        self.link = SeatNodeLink(self.pty.path, self.clock, session=0x4321)
        self.panel = SeatNodePanel({0: self.link}, self.clock)
        self.reader = SeatNodeReader({"seat0": (self.link, 0)}, self.clock)

    def run(self, seconds: float) -> list[ButtonEvent | TagEvent]:
        """Poll every 10 simulated ms; the pty's bytes are there as soon as they are written."""
        events: list[ButtonEvent | TagEvent] = []
        for _ in range(round(seconds / 0.01)):
            self.clock.advance(0.01)
            events += self.panel.poll()
            events += self.reader.poll()
        return events

    def run_until(self, done: Callable[[list[ButtonEvent | TagEvent]], bool],
                  budget: float = 3.0) -> list[ButtonEvent | TagEvent]:
        """Poll until ``done(events so far)`` or ``budget`` simulated seconds (slack for a busy kernel)."""
        events: list[ButtonEvent | TagEvent] = []
        for _ in range(round(budget / 0.01)):
            events += self.run(0.01)
            if done(events):
                break
        return events

    def close(self) -> None:
        self.panel.close()
        self.pty.close()


@pytest.fixture
def pty_table() -> Iterator[PtyTable]:
    """A seat node on a pty, connected."""
    table = PtyTable()
    table.run_until(lambda _: table.link.connected)
    yield table
    table.close()


def test_the_link_comes_up_over_the_pty(pty_table: PtyTable) -> None:
    assert pty_table.link.connected and pty_table.panel.check().ok


def buttons(events: list[ButtonEvent | TagEvent]) -> list[tuple[str, PressKind]]:
    return [(e.button, e.kind) for e in events if isinstance(e, ButtonEvent)]


def tags(events: list[ButtonEvent | TagEvent]) -> list[tuple[str, str, TagChange]]:
    return [(e.spot, e.tag, e.change) for e in events if isinstance(e, TagEvent)]


def test_button_presses_arrive_once_each(pty_table: PtyTable) -> None:
    events = []
    for button in (0, 1, 2, 1):
        pty_table.node.press(button)
        events += pty_table.run(0.1)
        pty_table.node.release(button)
        events += pty_table.run(0.1)
    events += pty_table.run_until(lambda more: len(buttons(events + more)) >= 8)
    events += pty_table.run(1.0)
    assert buttons(events) == [(name, kind) for name in ("raise", "call", "pass", "call")
                               for kind in (PressKind.PRESS, PressKind.RELEASE)]


def test_light_commands_arrive_at_the_firmware(pty_table: PtyTable) -> None:
    seen = []
    for state in (LightState.ON, LightState.BLINK, LightState.OFF):
        pty_table.panel.set_light(0, state)
        pty_table.run_until(lambda _: pty_table.node.light(0) is state)
        seen.append(pty_table.node.light(0))
    assert seen == [LightState.ON, LightState.BLINK, LightState.OFF]


def test_tag_arrive_and_leave_cross_the_pty(pty_table: PtyTable) -> None:
    uid = STONE.hex().upper()
    pty_table.node.place_tag(STONE)
    events = pty_table.run_until(lambda more: bool(tags(more)))
    pty_table.node.remove_tag(STONE)
    events += pty_table.run_until(lambda more: bool(tags(more)))
    events += pty_table.run(0.5)
    assert tags(events) == [("seat0", uid, TagChange.ARRIVE), ("seat0", uid, TagChange.LEAVE)]
