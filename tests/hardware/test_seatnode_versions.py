"""Seat nodes and Pis of different link versions: flashed by hand, a node is often not the Pi's
version. This Pi reads every node from ``OLDEST_NODE`` to its own version; a node newer than
it, or an older Pi, is refused with one line saying so, never misread."""

from __future__ import annotations

from typing import Any

from hardware.clock import SimClock
from hardware.devices import ButtonEvent, PressKind
from hardware.seatnode import NodeAway, SeatNodeLink, SeatNodePanel, SerialPort
from hardware.seatnode_firmware import firmware
from hardware.seatnode_sim import NodeSerial, SimSeatNode

LINK = firmware().link


class Hellos:
    """Rewrites the hellos one end says and hears, so that it speaks link ``version`` as a
    build of that version did: its hellos say ``version``, and it hears only the hellos that
    say ``version`` (every build so far took no other); every other frame passes unchanged."""

    def __init__(self, version: int) -> None:
        self.version = version
        self._said = LINK.Decoder()
        self._heard = LINK.Decoder()

    def said(self, data: bytes) -> bytes:
        return self._rewrite(self._said, data, {LINK.VERSION: self.version})

    def heard(self, data: bytes) -> bytes:
        return self._rewrite(self._heard, data, {self.version: LINK.VERSION})

    @staticmethod
    def _rewrite(decoder: Any, data: bytes, versions: dict[int, int]) -> bytes:
        out = bytearray()
        for kind, seq, payload in decoder.feed(data):
            if kind & LINK.KIND_MASK == LINK.T_HELLO:
                if payload[0] not in versions:
                    continue
                payload = bytes((versions[payload[0]],)) + payload[1:]
            out += LINK.encode_frame(kind, seq, payload)
        return bytes(out)


class NodeOfVersion:
    """A node's serial port as a node flashed with link ``version``'s firmware uses it."""

    def __init__(self, port: NodeSerial, version: int) -> None:
        self.port = port
        self.hellos = Hellos(version)

    def read(self) -> bytes | None:
        data = self.port.read()
        return self.hellos.heard(data) or None if data else None

    def write(self, data: bytes) -> None:
        self.port.write(self.hellos.said(data))


class PiOfVersion:
    """The Pi's port to a node as a Pi whose dicetable speaks link ``version`` uses it."""

    def __init__(self, port: SerialPort, version: int) -> None:
        self.port = port
        self.hellos = Hellos(version)
        self.waiting = bytearray()

    @property
    def in_waiting(self) -> int:
        self.waiting += self.hellos.heard(self.port.read(self.port.in_waiting))
        return len(self.waiting)

    def read(self, size: int = 1) -> bytes:
        data, self.waiting = bytes(self.waiting[:size]), self.waiting[size:]
        return data

    def write(self, data: bytes, /) -> int | None:
        return self.port.write(self.hellos.said(data))

    def close(self) -> None:
        self.port.close()


def flashed(clock: SimClock, version: int) -> SimSeatNode:
    """A simulated node running link ``version``'s firmware."""
    node = SimSeatNode(clock, session=0x0A0A)
    node.serial = NodeOfVersion(node.serial, version)
    node.reboot(0x0A0A)
    return node


def run(clock: SimClock, panel: SeatNodePanel, seconds: float) -> list[ButtonEvent]:
    events: list[ButtonEvent] = []
    for _ in range(round(seconds / 0.02)):
        clock.advance(0.02)
        try:
            events += panel.poll()
        except NodeAway:
            pass
    return events


def tap(clock: SimClock, node: SimSeatNode, panel: SeatNodePanel) -> list[ButtonEvent]:
    node.press(1)
    events = run(clock, panel, 0.1)
    node.release(1)
    return events + run(clock, panel, 0.3)


def test_a_node_of_the_previous_version_works_with_this_pi() -> None:
    clock = SimClock()
    node = flashed(clock, LINK.VERSION - 1)
    link = node.link()
    panel = SeatNodePanel({2: link}, clock)
    events = tap(clock, node, panel)
    assert [(e.seat, e.button, e.kind) for e in events] == [
        (2, "call", PressKind.PRESS), (2, "call", PressKind.RELEASE)]
    assert link.status("panel").ok


def test_a_node_of_the_previous_version_answers_a_pi_restarted_while_it_ran() -> None:
    # it says no hello once it has heard one: the new driver's hello must be one it takes
    clock = SimClock()
    node = flashed(clock, LINK.VERSION - 1)
    first = node.link(session=0x0B0B)
    run(clock, SeatNodePanel({2: first}, clock), 0.5)
    first.close()
    again = SeatNodePanel({2: node.link(session=0x0C0C)}, clock)
    events = tap(clock, node, again)
    assert [(e.button, e.kind) for e in events] == [("call", PressKind.PRESS),
                                                    ("call", PressKind.RELEASE)]


def test_a_node_newer_than_this_pi_is_refused_saying_to_update_the_pi() -> None:
    clock = SimClock()
    node = flashed(clock, LINK.VERSION + 1)
    status = node.link("/dev/seatnode2").status("panel")
    assert not status.ok
    assert status.problem == (f"seat node on /dev/seatnode2 speaks link protocol "
                              f"v{LINK.VERSION + 1}, newer than this table's v{LINK.VERSION}")
    assert status.fix.startswith("update dicetable on this Pi")
    assert "flash this Pi's firmware/ onto the seat node" in status.fix


def test_a_node_older_than_this_pi_reads_is_refused_saying_to_flash_it() -> None:
    clock = SimClock()
    node = flashed(clock, LINK.OLDEST_NODE - 1)
    status = node.link("/dev/seatnode2").status("panel")
    assert status.problem == (f"seat node on /dev/seatnode2 speaks link protocol "
                              f"v{LINK.OLDEST_NODE - 1}, older than this table reads "
                              f"(v{LINK.OLDEST_NODE} to v{LINK.VERSION})")
    assert status.fix.startswith("flash firmware/ onto the seat node")


def test_a_pi_of_version_2_refuses_this_node_whose_readers_say_more_than_it_reads() -> None:
    # version 2's Pis read READER states 0 and 1 only: they must refuse this node, not drop
    # its overheated reader's message as malformed
    clock = SimClock()
    node = SimSeatNode(clock, session=0x0A0A)
    link = SeatNodeLink("/dev/seatnode2", clock, open_port=lambda: PiOfVersion(node.open(), 2))
    assert tap(clock, node, SeatNodePanel({2: link}, clock)) == []
    assert not link.connected and node.pending() == 2
