"""The Pi's side of a seat node: the serial link driver and the SeatPanel/TagReader backends on it.

A seat node is a Pico running ``firmware/`` that does one seat's buttons, lights and RFID reader
and talks to the Pi over USB serial. :class:`SeatNodeLink` speaks the link protocol with the
firmware's own ``link.py`` code (one implementation on both ends), opens the port through
pyserial's ``serial_for_url`` (so tests use ``loop://``, a pty or ``socket://``), reopens it after a
disconnect and never delivers a message twice. Nothing here runs in a thread: every call to
``pump()`` (made by ``poll()`` and ``check()``) exchanges what is due.
"""

from __future__ import annotations

import errno
import logging
import os
import random
import struct
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Protocol

import serial  # type: ignore[import-untyped]

from controller.games.errors import DeviceDisconnected, DeviceError
from hardware.clock import Clock
from hardware.devices import (
    EMPTY_SEAT_FIX,
    ButtonEvent,
    DeviceStatus,
    LightState,
    PressKind,
    TagChange,
    TagEvent,
)
from hardware.rfid import GARBLING, GARBLING_FIX, OVERHEATED, OVERHEATED_FIX
from hardware.seatnode_firmware import firmware

log = logging.getLogger(__name__)
BAUD = 115200
FLASH_FIX = "flash firmware/ onto the seat node with mpremote (see firmware/README.md)"
UNREADABLE_FIX = ("flash this Pi's firmware/ onto the node with mpremote (see firmware/README.md), "
                  "or, if the node's firmware is the newer, update dicetable on this Pi "
                  "(hardware/README.md, 'Updating')")
UPDATE_FIX = ("update dicetable on this Pi (hardware/README.md, 'Updating'), or flash this Pi's "
              "firmware/ onto the seat node with mpremote (see firmware/README.md)")
PRESS_KINDS = {1: PressKind.PRESS, 2: PressKind.RELEASE, 3: PressKind.LONG_PRESS}
TAG_CHANGES = {1: TagChange.ARRIVE, 2: TagChange.LEAVE}
LIGHT_MODES = {LightState.OFF: 0, LightState.ON: 1, LightState.BLINK: 2}
DEFAULT_BUTTONS = ("raise", "call", "pass", "fold")


class SerialPort(Protocol):
    """What the driver needs of a pyserial port (or the simulated node's stand-in)."""

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read."""
        ...

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes, without waiting (the port is opened with ``timeout=0``)."""
        ...

    def write(self, data: bytes, /) -> int | None:
        """Send ``data``."""
        ...

    def close(self) -> None:
        """Release the port."""
        ...


OpenPort = Callable[[], SerialPort]


@dataclass(frozen=True)
class NodeButton:
    """A debounced button event from a node: button ``index`` (wiring order), ``kind``, node time.

    ``session`` and ``sequence`` are the node's boot session and the message's number in it;
    ``at`` is the node's time of the event on the Pi's clock (see :meth:`SeatNodeLink.node_time`).
    """

    index: int
    kind: PressKind
    node_ms: int
    session: int = 0
    sequence: int = 0
    at: float = 0.0


@dataclass(frozen=True)
class NodeTag:
    """A tag ``uid`` (upper-case hex) arrived on or left the antenna of reader ``reader``."""

    reader: int
    change: TagChange
    uid: str
    node_ms: int = 0
    session: int = 0
    sequence: int = 0
    at: float = 0.0


class ReaderState(Enum):
    """What a node says of one of its RC522 readers (the ``state`` of a READER message)."""

    WORKS = "works"
    NO_ANSWER = "no answer"     # nothing answers on the node's SPI bus: failed
    OVERHEATED = "overheated"   # TempErr: the chip switched its antenna off: failed
    GARBLING = "garbling"       # it answers, but every scan comes garbled: a warning

    @property
    def failed(self) -> bool:
        """True for a reader that failed (the table waits for it), not one that only warns."""
        return self in (ReaderState.NO_ANSWER, ReaderState.OVERHEATED)


READER_STATES = {0: ReaderState.WORKS, 1: ReaderState.NO_ANSWER, 2: ReaderState.OVERHEATED,
                 3: ReaderState.GARBLING}


@dataclass(frozen=True)
class NodeReader:
    """Reader ``reader`` of a node is in ``state`` since the node's ``node_ms``: it failed (no
    answer on its SPI bus, overheated), garbles every scan, or works again."""

    reader: int
    state: ReaderState
    node_ms: int


@dataclass(frozen=True)
class NodeNotice:
    """A line of text from the node: an error it survived, a watchdog restart."""

    text: str


NodeEvent = NodeButton | NodeTag | NodeReader | NodeNotice
UID_LENGTHS = (4, 7, 10)


def decode_event(kind: int, payload: bytes) -> NodeEvent | None:
    """The event a delivered message from the node carries (None if it is not one we know)."""
    link = firmware().link
    if kind == link.T_BUTTON and len(payload) == 6 and payload[1] in PRESS_KINDS:
        index, press, node_ms = struct.unpack(">BBI", payload)
        return NodeButton(index, PRESS_KINDS[press], node_ms)
    if kind == link.T_TAG and len(payload) - 6 in UID_LENGTHS and payload[1] in TAG_CHANGES:
        reader, change, node_ms = struct.unpack(">BBI", payload[:6])
        return NodeTag(reader, TAG_CHANGES[change], payload[6:].hex().upper(), node_ms)
    if kind == link.T_READER and len(payload) == 6 and payload[1] in READER_STATES:
        reader, state, node_ms = struct.unpack(">BBI", payload)
        return NodeReader(reader, READER_STATES[state], node_ms)
    if kind == link.T_NOTICE:
        return NodeNotice(payload.decode("utf-8", "replace"))
    return None


def serial_opener(url: str) -> OpenPort:
    """A function opening ``url`` with pyserial, non-blocking (``/dev/ttyACM0``, ``loop://``, ...)."""

    def open_port() -> SerialPort:
        port: SerialPort = serial.serial_for_url(url, baudrate=BAUD, timeout=0, write_timeout=1)
        return port

    return open_port


class SeatNodeLink:
    """The Pi's end of the link to one seat node on serial port ``url``.

    ``open_port`` defaults to pyserial on ``url``; the simulated node passes its own. A lost port
    is reopened every ``retry_after`` seconds; the node keeps unacknowledged events and resends
    them, and the sequence numbers make sure each one is delivered exactly once.
    """

    def __init__(self, url: str, clock: Clock, *, open_port: OpenPort | None = None,
                 session: int | None = None, retry_after: float = 1.0,
                 answer_within: float = 1.5) -> None:
        self.url = url
        self._clock = clock
        self._open_port = open_port or serial_opener(url)
        self._retry_after = retry_after
        self._answer_within = answer_within
        self._port: SerialPort | None = None
        self._next_open = clock.now()
        self._opened: float | None = None  # when the port last opened
        self._first_pump: float | None = None
        self._answered = False
        self._problem = ""
        self._open_errno: int | None = None  # why the port could not be opened, when the system said
        self._buttons: deque[NodeButton] = deque()
        self._tags: deque[NodeTag] = deque()
        self.unread: dict[int, int] = {}  # by type, the messages of the node's session not read
        self._unread_session: int | None = None
        self.reader_trouble: dict[int, ReaderState] = {}  # the readers that do not work, and why
        self.notices: deque[str] = deque(maxlen=20)
        self._anchor: tuple[int | None, int, int] | None = None
        if session is None:
            session = random.SystemRandom().getrandbits(16)
        link = firmware().link
        self._link: Any = link.Link(self._write, self._now_ms, session, link.ROLE_PI)

    def _now_ms(self) -> int:
        return int(round(self._clock.now() * 1000))

    @property
    def connected(self) -> bool:
        """True while the port is open and the node answers."""
        return self._port is not None and bool(self._link.alive())

    @property
    def unacknowledged(self) -> int:
        """How many commands to the node still wait for its acknowledgement."""
        return int(self._link.pending())

    @property
    def resends(self) -> int:
        """How many times a command to the node was sent again for want of an acknowledgement."""
        return int(self._link.resends)

    @property
    def damaged_frames(self) -> int:
        """How many frames from the node were thrown away as damaged (bad CRC, cut short, ...)."""
        return int(self._link.decoder.bad)

    def pump(self) -> None:
        """Exchange what is due now: (re)open the port, read, acknowledge, resend, heartbeat."""
        if self._first_pump is None:
            self._first_pump = self._clock.now()
        if self._port is None and not self._reopen():
            return
        data = self._read()
        if data:
            for kind, seq, payload in self._link.feed_numbered(data):
                self._deliver(kind, seq, bytes(payload))
        if self._port is not None:
            self._link.poll()
        self._answered = self._answered or self.connected

    @property
    def answered(self) -> bool:
        """True once the node has answered since this driver started."""
        return self._answered

    @property
    def away(self) -> bool:
        """True when the node should be answering and is not: it answered and stopped, or it
        has not answered within ``answer_within`` seconds of the first exchange.

        That is :meth:`wait_answer`'s deadline, the time ``doctor`` gives a node, and it is
        ample: the Pi says hello when it opens the port and again every second until answered
        (the link's ``heartbeat_ms``); a running node answers at its next loop pass, and one
        still booting says hello itself as soon as its loop runs, and every second after. It is
        counted from the first ``pump()``, not from this driver's creation, because nothing is
        sent before it: a table slow to poll first must not take a working node for a dead one.
        """
        if self.connected:
            return False
        if self._answered:
            return True
        return (self._first_pump is not None
                and self._clock.now() >= self._first_pump + self._answer_within)

    @property
    def unplugged(self) -> bool:
        """True while the node's port is closed, and, once it was not found or lost, after it
        opens again until the node answers on it or ``answer_within`` seconds pass: a port
        appears before the node behind it replies (a cable plugged in, a node booting), and the
        time a node is given to answer is no new outage. Said as "not answering" at once, it was
        a second fault of one outage, a moment before the node answered; a node that stays
        silent is "not answering" after its time."""
        if self._port is None:
            return True
        return (bool(self._problem) and not self.connected and self._opened is not None
                and self._clock.now() < self._opened + self._answer_within)

    def _read(self) -> bytes:
        assert self._port is not None
        try:
            return self._port.read(max(1, self._port.in_waiting))
        except (serial.SerialException, OSError) as exc:
            self._lost(exc)
            return b""

    def _write(self, data: bytes) -> None:
        if self._port is None:
            return
        try:
            self._port.write(data)
        except (serial.SerialException, OSError) as exc:
            self._lost(exc)

    def _reopen(self) -> bool:
        if self._clock.now() < self._next_open:
            return False
        try:
            self._port = self._open_port()
        except (serial.SerialException, OSError) as exc:
            self._open_errno = exc.errno if isinstance(exc.errno, int) else None
            self._problem = os.strerror(self._open_errno) if self._open_errno else str(exc)
            self._next_open = self._clock.now() + self._retry_after
            return False
        self._opened = self._clock.now()  # why it was not found is said while it is unplugged
        self._link.hello(True)
        return self._port is not None

    def _lost(self, exc: Exception) -> None:
        port, self._port = self._port, None
        self._problem, self._open_errno = f"lost {self.url}: {exc}", None
        self._next_open = self._clock.now() + self._retry_after
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _deliver(self, kind: int, seq: int, payload: bytes) -> None:
        event = decode_event(kind, payload)
        session = int(self._link.peer_session or 0)
        if isinstance(event, NodeButton):
            self._buttons.append(replace(event, session=session, sequence=seq,
                                         at=self.node_time(event.node_ms)))
        elif isinstance(event, NodeTag):
            self._tags.append(replace(event, session=session, sequence=seq,
                                      at=self.node_time(event.node_ms)))
        elif isinstance(event, NodeReader):
            self.reader_trouble.pop(event.reader, None)
            if event.state is not ReaderState.WORKS:
                self.reader_trouble[event.reader] = event.state
        elif isinstance(event, NodeNotice):
            log.warning("seat node on %s: %s", self.url, event.text)
            self.notices.append(event.text)
        else:
            self._unreadable(kind, payload)

    def _unreadable(self, kind: int, payload: bytes) -> None:
        """Count a message this Pi cannot read (a node whose firmware breaks firmware/README.md's
        rule for versions), logging the first of its type in the node's session."""
        if self._unread_session != self._link.peer_session:
            self.unread, self._unread_session = {}, self._link.peer_session
        if kind not in self.unread:
            log.warning("seat node on %s sent a message this table cannot read: type 0x%02X, %s",
                        self.url, kind, payload.hex())
        self.unread[kind] = self.unread.get(kind, 0) + 1

    def unreadable(self, name: str, theirs: Collection[int] = ()) -> DeviceStatus | None:
        """A warning, as device ``name``, when the node sent in its session (until it restarts,
        reflashed) a message this Pi could not read, of a type not in ``theirs`` (another
        device's to tell: a press is the panel's, a stone or a reader the reader's); what it
        said is lost. Worded without a count, so the table says it once, not once a message."""
        if self._unread_session != self._link.peer_session:
            return None
        if all(kind in theirs for kind in self.unread):
            return None
        return DeviceStatus.warning(name, f"seat node on {self.url} sends messages this table "
                                    "cannot read (its firmware is not this dicetable's): what "
                                    "they say is lost", UNREADABLE_FIX)

    def node_time(self, node_ms: int) -> float:
        """The Pi-clock time (seconds) at which the node's tick counter read ``node_ms``.

        The offset between the two clocks is the smallest delay seen so far in this node
        session: a message held back by an outage arrives late, but cannot make the estimate
        later than the truth; a prompt one corrects it. So an event keeps the time it happened.
        """
        session = self._link.peer_session
        if self._anchor is not None and self._anchor[0] != session:
            self._anchor = None  # the node rebooted: its tick counter started again
        if self._link.peer_clock is not None:  # its hellos and heartbeats carry its time
            self._anchor_at(session, *self._link.peer_clock)
        self._anchor_at(session, node_ms, self._now_ms())
        assert self._anchor is not None
        _, node_then, pi_then = self._anchor
        return (pi_then + int(firmware().link.ticks_diff(node_ms, node_then))) / 1000

    def _anchor_at(self, session: int | None, node_ms: int, pi_ms: int) -> None:
        """Keep the pair of readings with the smallest delay (``node_ms`` seen at ``pi_ms``)."""
        if self._anchor is not None:
            _, node_then, pi_then = self._anchor
            if pi_then + int(firmware().link.ticks_diff(node_ms, node_then)) <= pi_ms:
                return
        self._anchor = (session, node_ms, pi_ms)

    def take_buttons(self) -> list[NodeButton]:
        """The button events received since the last call, oldest first."""
        events = list(self._buttons)
        self._buttons.clear()
        return events

    def take_tags(self) -> list[NodeTag]:
        """The tag events received since the last call, oldest first."""
        events = list(self._tags)
        self._tags.clear()
        return events

    def set_led(self, index: int, state: LightState) -> None:
        """Ask the node to switch light ``index`` (delivered once, after a reconnect if need be).

        :raises DeviceDisconnected: the node has not acknowledged the last 64 commands.
        """
        link = firmware().link
        if not self._link.send(link.T_SET_LED, bytes((index, LIGHT_MODES[state]))):
            raise DeviceDisconnected(
                f"seat node on {self.url} not answering: {self.unacknowledged} light commands "
                "wait for it; check the USB cable")
        self.pump()

    def wait_answer(self) -> bool:
        """Pump until the node answers or ``answer_within`` seconds pass; True if it answers."""
        deadline = self._clock.now() + self._answer_within
        self.pump()
        while not self.connected and self._clock.now() < deadline:
            self._clock.sleep(0.01)
            self.pump()
        return self.connected

    def status(self, name: str) -> DeviceStatus:
        """Probe the node now and say, as device ``name``, whether it works and how to fix it."""
        if self.wait_answer():
            return DeviceStatus.healthy(name)
        return DeviceStatus.failing(name, *self.silence())

    def silence(self) -> tuple[str, str]:
        """Why the node does not answer, as far as the link can tell now, and the fix: the port
        is not found, the node speaks another protocol version, the port sends only data that
        does not decode, or it is silent."""
        version = self._link.peer_version
        if version is not None and not self._link.speaks(version):
            return self._other_version(version)
        if self.unplugged and self._open_errno in (errno.EACCES, errno.EPERM):
            return (f"seat node on {self.url} cannot be opened: permission denied",
                    "let this user use serial ports: sudo usermod -aG dialout $USER, then log in again "
                    "(the service's user is in dialout: hardware/README.md)")
        if self.unplugged:
            return (f"seat node on {self.url} not found ({self._problem})",
                    f"check the USB cable and that the node appears as {self.url}")
        if self.damaged_frames:
            return (f"seat node on {self.url} sends data the table cannot read "
                    f"({self.damaged_frames} damaged frames)",
                    f"check that nothing else uses {self.url}; {FLASH_FIX}")
        return (f"seat node on {self.url} not answering: check the USB cable",
                f"check the USB cable; if the node's light stays dark, {FLASH_FIX}")

    def _other_version(self, version: int) -> tuple[str, str]:
        """The node speaks a link version this Pi does not: newer (update the Pi, or put the
        Pi's firmware on the node) or older than the oldest it reads (flash the node)."""
        link = firmware().link
        said = f"seat node on {self.url} speaks link protocol v{version}"
        if version > link.VERSION:
            return f"{said}, newer than this table's v{link.VERSION}", UPDATE_FIX
        reads = f"v{link.OLDEST_NODE} to v{link.VERSION}"
        return f"{said}, older than this table reads ({reads})", FLASH_FIX

    def close(self) -> None:
        """Close the port (harmless twice); a later ``pump()`` would open it again."""
        port, self._port = self._port, None
        if port is not None:
            port.close()


class NodeAway(DeviceDisconnected):
    """A seat node is :attr:`~SeatNodeLink.away`: ``problem`` and ``fix`` for the dealer.
    ``whose`` says which node it is to the dealer ("seat 3's node", "the node of spot 'pot'").
    A node that answered before is unplugged or silent now; one that never answered is told
    with ``doctor``'s words (not found, another protocol version, not answering). ``waited``:
    the node of a seat in play, which holds the table (a fault); else the node of an empty seat,
    which the table plays on without (a warning), and the fix says so. ``remedy`` is the fix
    alone, for a command that does not go on by itself (``dicetable stones enroll``)."""

    def __init__(self, node: SeatNodeLink, whose: str, *, waited: bool = True) -> None:
        if node.answered:
            how = "is unplugged" if node.unplugged else "does not answer"
            self.problem = f"{whose} on {node.url} {how}"
            fix = f"check the USB cable of {whose}"
        else:
            problem, fix = node.silence()
            self.problem = f"{whose} has never answered: {problem}"
        self.remedy = fix
        again = " again" if node.answered else ""
        self.fix = (f"{fix}; the table goes on by itself when it answers{again}" if waited
                    else f"{fix}; {EMPTY_SEAT_FIX}")
        super().__init__(f"{self.problem}; {self.fix}")


class ReaderFailed(DeviceError):
    """A seat node says one of its RC522 readers failed (the firmware's ``T_READER`` message):
    ``problem`` and ``fix`` for the dealer, naming the node and the spot. An RC522 that
    overheated is told in the words of the Pi's own readers (:data:`~hardware.rfid.OVERHEATED`),
    with its fix: its cooling, not its wiring."""

    def __init__(self, node: SeatNodeLink, reader: int, spot: str,
                 state: ReaderState = ReaderState.NO_ANSWER) -> None:
        which = reader_on(node, reader, spot)
        if state is ReaderState.OVERHEATED:
            self.problem, self.fix = f"{which} {OVERHEATED}", OVERHEATED_FIX
        else:
            self.problem = f"{which} does not answer on the node's SPI bus"
            self.fix = ("check that reader's wiring to the Pico (3.3 V, GND, SCK GP18, MOSI GP19, "
                        "MISO GP16, SDA GP17, see firmware/README.md); the node sets the reader "
                        "up again by itself once it answers (a node flashed before this table's "
                        "firmware needs powering off and on)")
        super().__init__(f"{self.problem}; {self.fix}")


def unreadable(nodes: Iterable[SeatNodeLink], name: str,
               theirs: Collection[int]) -> DeviceStatus | None:
    """:meth:`SeatNodeLink.unreadable`'s warning for the first of ``nodes`` that has one."""
    return next(filter(None, (node.unreadable(name, theirs) for node in nodes)), None)


def told_by_panel() -> tuple[int]:
    """The types of the node's messages the panel tells of, not the reader: a press."""
    return (firmware().link.T_BUTTON,)


def told_by_reader() -> tuple[int, int]:
    """The types of the node's messages the reader tells of, not the panel: a stone, a reader."""
    link = firmware().link
    return (link.T_TAG, link.T_READER)


def reader_on(node: SeatNodeLink, reader: int, spot: str) -> str:
    """A node's RC522 as the dealer is told of it: the node's port, the reader, its spot."""
    return f"seat node on {node.url}: its RC522 reader {reader} (spot {spot!r})"


class SeatNodePanel:
    """:class:`~hardware.devices.SeatPanel` on seat nodes: one node per seat, light 0 is the turn light.

    The node of a seat where no one plays (:meth:`set_seats_in_play`) is not waited for: when it
    is away the panel warns (:meth:`warning`) and gives the other seats' events as they come.
    """

    def __init__(self, nodes: Mapping[int, SeatNodeLink], clock: Clock,
                 buttons: Sequence[str] = DEFAULT_BUTTONS, name: str = "panel") -> None:
        self._nodes = dict(nodes)
        self._clock = clock
        self._button_names = tuple(buttons)
        self._name = name
        self._held: list[ButtonEvent] = []
        self._empty: frozenset[int] = frozenset()  # the seats with a node where no one plays

    @property
    def name(self) -> str:
        """The panel's name for ``doctor``."""
        return self._name

    def set_seats_in_play(self, seats: frozenset[int]) -> None:
        """Players sit at ``seats``: the other seats' nodes are no longer waited for."""
        self._empty = frozenset(self._nodes) - seats

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats that have a node, in order."""
        return tuple(sorted(self._nodes))

    def buttons(self, seat: int) -> tuple[str, ...]:
        """The button names of every seat (wiring order on the node)."""
        self._node(seat)
        return self._button_names

    def _node(self, seat: int) -> SeatNodeLink:
        if seat not in self._nodes:
            raise KeyError(f"no seat node for seat {seat!r}; seats: {self.seats}")
        return self._nodes[seat]

    def _button_name(self, index: int) -> str:
        return self._button_names[index] if index < len(self._button_names) else f"button{index}"

    def poll(self) -> list[ButtonEvent]:
        """Every button event the nodes sent since the last poll, seat by seat, each once.

        :raises NodeAway: the node of a seat in play is away (:attr:`SeatNodeLink.away`): it
            was answering and no longer does (a pulled cable, a crashed node), or it never
            answered (unplugged, dead, another port or firmware); the other nodes' events are
            kept for the next poll, so none is lost.
        """
        events, self._held = self._held, []
        for seat in self.seats:
            node = self._nodes[seat]
            node.pump()
            events += [ButtonEvent(seat, self._button_name(b.index), b.kind, b.at, node.url,
                                   b.session, b.sequence) for b in node.take_buttons()]
        away = self._away(playing=True)
        if away:
            self._held = events
            raise away[0]
        return events

    def warning(self) -> DeviceStatus | None:
        """The first node of a seat where no one plays that is away, as of the last poll; else
        the first node that sent a message this Pi cannot read (not a stone's or a reader's:
        the reader tells those)."""
        away = self._away(playing=False)
        if away:
            return DeviceStatus.warning(self._name, away[0].problem, away[0].fix)
        return unreadable(self._nodes.values(), self._name, told_by_reader())

    def _away(self, playing: bool) -> list[NodeAway]:
        return [NodeAway(self._nodes[seat], f"seat {seat}'s node", waited=playing)
                for seat in self.seats
                if (seat not in self._empty) is playing and self._nodes[seat].away]

    def set_light(self, seat: int, state: LightState) -> None:
        """Switch ``seat``'s turn light (light 0 of its node)."""
        self._node(seat).set_led(0, state)

    def check(self) -> DeviceStatus:
        """OK when every node answers, else the first that does not, with the fix; a node of a
        seat where no one plays that does not answer is a warning, in :meth:`warning`'s words,
        as is one that sent a message this Pi cannot read."""
        return DeviceStatus.first_wrong(self._name, map(self._check_node, self.seats))

    def _check_node(self, seat: int) -> DeviceStatus:
        status = self._nodes[seat].status(f"{self._name} seat {seat}")
        if status.ok:
            said = self._nodes[seat].unreadable(self._name, told_by_reader())
            return said or DeviceStatus.healthy(self._name)
        if seat in self._empty:
            away = NodeAway(self._nodes[seat], f"seat {seat}'s node", waited=False)
            return DeviceStatus.warning(self._name, away.problem, away.fix)
        return DeviceStatus.failing(self._name, status.problem, status.fix)

    def close(self) -> None:
        """Close every node's port."""
        for node in self._nodes.values():
            node.close()


class SeatNodeReader:
    """:class:`~hardware.devices.TagReader` on seat nodes: ``spots`` maps a spot to (node, reader).

    ``seats`` names the seat each node serves (a node not in it is always waited for): the node
    of a seat where no one plays (:meth:`set_seats_in_play`) is not waited for, as on the panel.
    """

    def __init__(self, spots: Mapping[str, tuple[SeatNodeLink, int]], clock: Clock,
                 name: str = "rfid", seats: Mapping[int, SeatNodeLink] | None = None) -> None:
        self._spots = dict(spots)
        self._clock = clock
        self._name = name
        self._tags: dict[str, set[str]] = {spot: set() for spot in self._spots}
        self._nodes = list({id(node): node for node, _ in self._spots.values()}.values())
        self._held: list[TagEvent] = []
        self._seats = dict(seats or {})
        self._empty: set[int] = set()  # id() of the nodes of seats where no one plays

    @property
    def name(self) -> str:
        """The reader's name for ``doctor``."""
        return self._name

    def set_seats_in_play(self, seats: frozenset[int]) -> None:
        """Players sit at ``seats``: the other seats' nodes are no longer waited for."""
        self._empty = {id(node) for seat, node in self._seats.items() if seat not in seats}

    @property
    def spots(self) -> tuple[str, ...]:
        """The spots watched, in configuration order."""
        return tuple(self._spots)

    def tags(self, spot: str) -> frozenset[str]:
        """The tags on ``spot`` as of the last poll."""
        if spot not in self._tags:
            raise KeyError(f"unknown spot {spot!r}; spots: {self.spots}")
        return frozenset(self._tags[spot])

    def _spot_of(self, node: SeatNodeLink, reader: int) -> str | None:
        for spot, where in self._spots.items():
            if where == (node, reader):
                return spot
        return None

    def poll(self) -> list[TagEvent]:
        """The arrivals and departures the nodes reported since the last poll, oldest first.

        Every node is read even when one fails; the events found are then kept for the next
        poll, so none is lost, and the first failure is raised (as the SPI readers do).

        :raises NodeAway: a node of a seat in play (or of no seat) is away
            (:attr:`SeatNodeLink.away`: it stopped answering, or never answered): its tags are
            not seen while it is away.
        :raises ReaderFailed: such a node says the RC522 under one of the spots failed.
        """
        events, self._held = self._held, []
        for node in self._nodes:
            node.pump()
            for tag in node.take_tags():
                spot = self._spot_of(node, tag.reader)
                if spot is not None:
                    events.append(self._record(spot, tag))
        failure = next(self._failures(playing=True), None)
        if failure is not None:
            self._held = events
            raise failure
        return events

    def warning(self) -> DeviceStatus | None:
        """What fails in the first node of a seat where no one plays, as of the last poll: it is
        away, or it says an RC522 failed; else the first RC522 of any node that garbles every
        scan, as the node says (:data:`~hardware.rfid.GARBLING`, as the Pi's readers say it);
        else the first node that sent a message this Pi cannot read (not a press: the panel
        tells those)."""
        failure = next(self._failures(playing=False), None)
        if failure is not None:
            return self._warning(failure)
        garbling = next((said for node in self._nodes for said in self._garbling(node)), None)
        return garbling or unreadable(self._nodes, self._name, told_by_panel())

    def _garbling(self, node: SeatNodeLink) -> Iterator[DeviceStatus]:
        """A warning for each RC522 of ``node`` that garbles every scan, as the node says."""
        for reader, state in sorted(node.reader_trouble.items()):
            if state is ReaderState.GARBLING:
                spot = self._spot_of(node, reader) or "no spot"
                yield DeviceStatus.warning(self._name, f"{reader_on(node, reader, spot)} {GARBLING}",
                                           GARBLING_FIX)

    def _failures(self, playing: bool) -> Iterator[NodeAway | ReaderFailed]:
        """What fails now in the nodes of seats in play (``playing``) or of the others: each node
        that is away, each reader its node says failed."""
        for node in self._nodes:
            if (id(node) not in self._empty) is not playing:
                continue
            if node.away:
                yield NodeAway(node, self._whose(node), waited=playing)
            yield from self._failed_readers(node)

    def _failed_readers(self, node: SeatNodeLink) -> Iterator[ReaderFailed]:
        for reader, state in sorted(node.reader_trouble.items()):
            if state.failed:
                yield ReaderFailed(node, reader, self._spot_of(node, reader) or "no spot", state)

    def _whose(self, node: SeatNodeLink) -> str:
        return f"the node of spot {self._spots_of(node)}"

    def _spots_of(self, node: SeatNodeLink) -> str:
        return ", ".join(repr(spot) for spot, (on, _) in self._spots.items() if on is node)

    def _record(self, spot: str, tag: NodeTag) -> TagEvent:
        if tag.change is TagChange.ARRIVE:
            self._tags[spot].add(tag.uid)
        else:
            self._tags[spot].discard(tag.uid)
        node = self._spots[spot][0]
        return TagEvent(spot, tag.uid, tag.change, tag.at, node.url, tag.session, tag.sequence)

    def check(self) -> DeviceStatus:
        """OK when every node answers and no node reports a failed RC522, else the first
        problem, with the fix; in the node of a seat where no one plays, a warning in
        :meth:`warning`'s words, as is an RC522 a node says garbles every scan, and a node that
        sent a message this Pi cannot read."""
        return DeviceStatus.first_wrong(self._name, map(self._check_node, self._nodes))

    def _check_node(self, node: SeatNodeLink) -> DeviceStatus:
        status = node.status(self._name)
        empty = id(node) in self._empty
        if not status.ok:
            return self._warning(NodeAway(node, self._whose(node), waited=False)) if empty else status
        failed = next(self._failed_readers(node), None)
        if failed is None:
            said = node.unreadable(self._name, told_by_panel())
            return next(self._garbling(node), said or status)
        return self._warning(failed) if empty else DeviceStatus.failing(self._name, failed.problem,
                                                                        failed.fix)

    def _warning(self, failure: NodeAway | ReaderFailed) -> DeviceStatus:
        return DeviceStatus.warning(self._name, failure.problem, failure.fix)

    def close(self) -> None:
        """Close every node's port."""
        for node in self._nodes:
            node.close()
