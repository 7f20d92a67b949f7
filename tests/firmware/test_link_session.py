"""The link's sessions: hello, acknowledgement, resend, duplicate suppression, heartbeats."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from hardware.seatnode_firmware import firmware

LINK = firmware().link


class Wire:
    """One direction of a cable: what one end wrote and the other has not read yet."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.cut = False

    def write(self, data: bytes) -> None:
        if not self.cut:
            self.data.extend(data)

    def take(self) -> bytes:
        data, self.data = bytes(self.data), bytearray()
        return data


class Pair:
    """A node link and a Pi link on two wires, sharing a hand-driven millisecond clock."""

    def __init__(self) -> None:
        self.ms = 0
        self.to_pi = Wire()
        self.to_node = Wire()
        self.node = LINK.Link(self.to_pi.write, self.now, 0x1111, LINK.ROLE_NODE)
        self.pi = LINK.Link(self.to_node.write, self.now, 0x2222, LINK.ROLE_PI)
        self.at_pi: list[tuple[int, bytes]] = []
        self.at_node: list[tuple[int, bytes]] = []

    def now(self) -> int:
        return self.ms

    def exchange(self, rounds: int = 4, step_ms: int = 10) -> None:
        for _ in range(rounds):
            self.at_pi += self.pi.feed(self.to_pi.take())
            self.at_node += self.node.feed(self.to_node.take())
            self.pi.poll()
            self.node.poll()
            self.ms += step_ms

    def connect(self) -> None:
        self.pi.hello(True)
        self.exchange()


@pytest.fixture
def pair() -> Pair:
    """Two link ends, connected (hello exchanged both ways)."""
    linked = Pair()
    linked.connect()
    return linked


def press(index: int) -> bytes:
    return struct.pack(">BBI", index, LINK.BUTTON_PRESS, 0)


def test_hello_connects_both_ends(pair: Pair) -> None:
    assert pair.pi.alive() and pair.node.alive()
    assert pair.pi.peer_session == 0x1111 and pair.node.peer_session == 0x2222


def test_messages_arrive_in_order_once(pair: Pair) -> None:
    for index in range(5):
        pair.node.send(LINK.T_BUTTON, press(index))
    pair.exchange(rounds=20)
    assert pair.at_pi == [(LINK.T_BUTTON, press(index)) for index in range(5)]
    assert pair.node.pending() == 0


def test_lost_frame_is_resent_after_resend_time(pair: Pair) -> None:
    pair.to_pi.cut = True
    pair.node.send(LINK.T_BUTTON, press(1))
    pair.to_pi.cut = False
    pair.exchange(rounds=1, step_ms=pair.node.resend_ms - 20)
    assert pair.at_pi == []
    pair.exchange(rounds=3, step_ms=20)
    assert pair.at_pi == [(LINK.T_BUTTON, press(1))] and pair.node.resends >= 1


def test_lost_ack_makes_a_resend_that_is_not_delivered_twice(pair: Pair) -> None:
    pair.node.send(LINK.T_BUTTON, press(2))
    pair.at_pi += pair.pi.feed(pair.to_pi.take())
    pair.to_node.take()
    pair.exchange(rounds=10, step_ms=100)
    assert pair.at_pi == [(LINK.T_BUTTON, press(2))]
    assert pair.node.resends >= 1 and pair.node.pending() == 0


def test_replayed_old_frame_is_not_delivered(pair: Pair) -> None:
    pair.node.send(LINK.T_BUTTON, press(0))
    old = bytes(pair.to_pi.data)
    pair.exchange()
    pair.node.send(LINK.T_BUTTON, press(1))
    pair.exchange()
    pair.at_pi += pair.pi.feed(old)
    assert pair.at_pi == [(LINK.T_BUTTON, press(0)), (LINK.T_BUTTON, press(1))]


def test_frame_from_the_future_is_ignored_and_not_acked(pair: Pair) -> None:
    pair.to_node.take()
    future = LINK.encode_frame(LINK.T_BUTTON | LINK.ROLE_NODE, pair.pi.expected + 5, press(3))
    assert pair.pi.feed(future) == []
    assert pair.to_node.take() == b""


def test_heartbeat_goes_out_when_the_link_is_idle(pair: Pair) -> None:
    pair.to_pi.take()
    pair.ms += pair.node.heartbeat_ms
    pair.node.poll()
    now = struct.pack(">I", pair.ms)
    assert LINK.Decoder().feed(pair.to_pi.take()) == [(LINK.T_HEARTBEAT | LINK.ROLE_NODE, 0, now)]


def test_heartbeat_tells_the_peer_the_senders_time(pair: Pair) -> None:
    pair.ms += pair.node.heartbeat_ms
    pair.node.poll()
    pair.pi.feed(pair.to_pi.take())
    assert pair.pi.peer_clock == (pair.ms, pair.ms)


def test_peer_is_dead_after_the_timeout_without_frames(pair: Pair) -> None:
    pair.ms += pair.pi.peer_timeout_ms
    assert not pair.pi.alive()


def test_heartbeats_keep_an_idle_link_alive(pair: Pair) -> None:
    pair.exchange(rounds=100, step_ms=100)
    assert pair.pi.alive() and pair.node.alive()


def test_rebooted_node_restarts_the_numbering(pair: Pair) -> None:
    for index in range(3):
        pair.node.send(LINK.T_BUTTON, press(index))
    pair.exchange(rounds=12)
    pair.node = LINK.Link(pair.to_pi.write, pair.now, 0x3333, LINK.ROLE_NODE)
    pair.node.send(LINK.T_BUTTON, press(7))
    pair.exchange(rounds=12, step_ms=100)
    assert pair.at_pi[-1] == (LINK.T_BUTTON, press(7)) and len(pair.at_pi) == 4


def test_data_before_any_hello_is_held_back_and_a_hello_asked_for() -> None:
    pair = Pair()
    pair.node.send(LINK.T_BUTTON, press(4))
    assert pair.pi.feed(pair.to_pi.take()) == []
    hellos = LINK.Decoder().feed(pair.to_node.take())
    assert [(kind, payload[:2]) for kind, _, payload in hellos] == [
        (LINK.T_HELLO | LINK.ROLE_PI, bytes((version, 1)))
        for version in range(LINK.VERSION, LINK.OLDEST_NODE - 1, -1)]


def test_data_held_back_for_the_hello_arrives_once_after_it() -> None:
    pair = Pair()
    pair.node.send(LINK.T_BUTTON, press(4))
    pair.exchange(rounds=40)
    assert pair.at_pi == [(LINK.T_BUTTON, press(4))]


def test_hello_of_another_version_does_not_connect() -> None:
    pair = Pair()
    hello = struct.pack(">BBHH", LINK.VERSION + 1, 0, 0x5555, 0)
    pair.pi.feed(LINK.encode_frame(LINK.T_HELLO | LINK.ROLE_NODE, 0, hello))
    assert pair.pi.peer_version == LINK.VERSION + 1 and not pair.pi.alive()


def test_echo_of_its_own_hello_is_ignored() -> None:
    looped: list[bytes] = []
    link: Any = LINK.Link(looped.append, lambda: 0, 0x4444, LINK.ROLE_PI)
    link.hello(True)
    hellos = len(looped)
    link.feed(b"".join(looped))
    assert link.peer_session is None and len(looped) == hellos and link.echoes == hellos


def test_echo_of_its_own_ack_does_not_ack_its_own_message(pair: Pair) -> None:
    pair.pi.send(LINK.T_SET_LED, b"\x00\x01")
    pair.to_node.take()
    pair.pi.feed(LINK.encode_frame(LINK.T_ACK | LINK.ROLE_PI, 0, struct.pack(">H", 0)))
    assert pair.pi.pending() == 1


def test_full_queue_refuses_and_counts(pair: Pair) -> None:
    pair.to_pi.cut = True
    accepted = [pair.node.send(LINK.T_BUTTON, press(0)) for _ in range(pair.node.queue_max + 2)]
    assert accepted.count(False) == 2 and pair.node.dropped == 2
