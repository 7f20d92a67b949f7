"""The driver over ``socket://`` (a seat node behind a serial-to-TCP bridge such as ser2net)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from hardware.clock import SimClock
from hardware.devices import ButtonEvent, PressKind
from hardware.seatnode import SeatNodeLink, SeatNodePanel
from hardware.seatnode_sim import SimSeatNode


class SocketSerial:
    """The node's end of a TCP connection, as the firmware's serial port."""

    def __init__(self, connection: socket.socket) -> None:
        self.connection = connection
        connection.setblocking(False)

    def read(self) -> bytes | None:
        try:
            return self.connection.recv(4096) or None
        except BlockingIOError:
            return None

    def write(self, data: bytes) -> None:
        self.connection.sendall(data)


@pytest.fixture
def bridge() -> Iterator[tuple[socket.socket, str]]:
    """A listening TCP socket on localhost and the ``socket://`` URL that reaches it."""
    server = socket.create_server(("127.0.0.1", 0))
    yield server, f"socket://127.0.0.1:{server.getsockname()[1]}"
    server.close()


def test_presses_cross_a_tcp_bridge_once(bridge: tuple[socket.socket, str]) -> None:
    server, url = bridge
    clock = SimClock()
    link = SeatNodeLink(url, clock)
    link.pump()
    connection, _ = server.accept()
    node = SimSeatNode(clock, serial_port=SocketSerial(connection))
    panel = SeatNodePanel({0: link}, clock)
    events: list[ButtonEvent] = []
    for step in range(300):
        if step in (10, 30):
            (node.press if step == 10 else node.release)(1)
        clock.advance(0.01)
        events += panel.poll()
    connection.close()
    assert [(e.button, e.kind) for e in events] == [("call", PressKind.PRESS),
                                                    ("call", PressKind.RELEASE)]
