"""A simulated seat node: the firmware's own code run in-process, with faults on demand.

:class:`SimSeatNode` runs ``firmware/main.py``'s :class:`SeatNode` on stand-in pins and
antennas, stepped every few simulated milliseconds by a :class:`~hardware.clock.SimClock` (or by
hand with :meth:`SimSeatNode.step`). The Pi side reaches it through :meth:`SimSeatNode.open`
(in-memory byte pipes with pyserial's errors), or through a real pty pair (:class:`PtyPort`).
Faults: :meth:`unplug`/:meth:`plug` (the node keeps running and keeps its unsent events),
:meth:`send_garbage`, and :class:`LineNoise` that damages the frames both ways.
"""

from __future__ import annotations

import errno
import os
import random
import tty
from enum import Enum
from typing import Any, Protocol

import serial  # type: ignore[import-untyped]

from hardware.clock import Clock, SimClock
from hardware.devices import LightState
from hardware.seatnode import SeatNodeLink
from hardware.seatnode_firmware import firmware

LIGHT_STATES = {0: LightState.OFF, 1: LightState.ON, 2: LightState.BLINK}


class NodeSerial(Protocol):
    """The node's serial port as the firmware sees it (a ``machine.UART``-like byte pipe)."""

    def read(self) -> bytes | None:
        """The bytes waiting, or ``None``."""
        ...

    def write(self, data: bytes) -> None:
        """Send ``data`` to the Pi."""
        ...


class SimPin:
    """A GPIO pin: ``value()`` reads it, ``value(v)`` drives it (buttons idle high, pulled up)."""

    def __init__(self, level: int = 1) -> None:
        self.level = level

    def value(self, level: int | None = None) -> int:
        """The level, after setting it when ``level`` is given."""
        if level is not None:
            self.level = 1 if level else 0
        return self.level


class ReaderFault(Enum):
    """How a node's RC522 misbehaves on demand: the ``seatnode:reader-...`` faults."""

    NONE = ""
    FAILED = "reader-failed"          # nothing answers on its SPI bus (its wiring broke)
    OVERHEATED = "reader-overheated"  # TempErr: it switched its antenna off
    NOISE = "reader-noise"            # the tags' answers drown in noise: each scan garbled


class SimAntenna:
    """A reader's antenna and the tags on it; answers like the firmware's ``RC522.read_uids``,
    and suffers :attr:`fault` as the chip would: a reader that overheats switches its antenna off,
    and reads no tag, until the firmware sets it up again (:meth:`init`)."""

    def __init__(self) -> None:
        self.uids: list[bytes] = []
        self.fault = ReaderFault.NONE
        self.switched_on = True

    def init(self) -> bool:
        """Set the reader up again, as the firmware does: its antenna switched on; False, doing
        nothing, while nothing answers on its SPI bus (``reader-failed``)."""
        if self.fault is ReaderFault.FAILED:
            return False
        self.switched_on = True
        return True

    def read_uids(self) -> tuple[int, list[bytes]]:
        """``(OK, uids)``: every tag on the antenna, in the order they were placed; ``(ERROR,
        [])`` while it fails, ``(OVERHEATED, [])`` while it overheats, ``(GARBLED, [])`` while
        noise drowns its tags' answers (an empty antenna has none to drown)."""
        status = firmware().rc522
        if self.fault is ReaderFault.FAILED:
            return status.ERROR, []
        if self.fault is ReaderFault.OVERHEATED:
            self.switched_on = False
            return status.OVERHEATED, []
        uids = list(self.uids) if self.switched_on else []
        if uids and self.fault is ReaderFault.NOISE:
            return status.GARBLED, []
        return status.OK, uids


class PipePort:
    """The Pi's end of the in-memory link: a pyserial-like port that fails while unplugged."""

    def __init__(self, node: SimSeatNode, generation: int) -> None:
        self._node = node
        self._generation = generation
        self._closed = False

    def _unplugged(self) -> bool:
        return self._generation != self._node.generation

    def _check(self) -> None:
        if self._closed or self._unplugged():
            raise serial.SerialException("device disconnected (simulated unplug)")

    @property
    def in_waiting(self) -> int:
        """Bytes the node has sent and the Pi not yet read. Unplugged, the ``OSError`` (EIO) of
        pyserial's bare TIOCINQ ioctl on the hung-up tty: it is no ``SerialException``, unlike
        what its read and write raise."""
        if self._unplugged() and not self._closed:
            raise OSError(errno.EIO, "Input/output error (simulated unplug)")
        self._check()
        return len(self._node.to_pi)

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes from the node, without waiting."""
        self._check()
        data = bytes(self._node.to_pi[:size])
        del self._node.to_pi[:size]
        return data

    def write(self, data: bytes, /) -> int:
        """Bytes to the node (through the line noise, if any)."""
        self._check()
        self._node.to_node.extend(self._node.damage(data))
        return len(data)

    def close(self) -> None:
        """Release the port."""
        self._closed = True


class PipeSerial:
    """The node's end of the in-memory link (its ``machine.UART`` stand-in)."""

    def __init__(self, node: SimSeatNode) -> None:
        self._node = node

    def read(self) -> bytes | None:
        """What the Pi sent, or ``None``."""
        data = bytes(self._node.to_node)
        self._node.to_node.clear()
        return data or None

    def write(self, data: bytes) -> None:
        """To the Pi (through the line noise, if any); lost while unplugged, as on a real cable."""
        if self._node.plugged:
            self._node.to_pi.extend(self._node.damage(data))


class PtyPort:
    """The node's end of a pty pair: the Pi opens :attr:`path` with pyserial like a real tty."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.set_blocking(self.master, False)
        self._slave = slave
        tty.setraw(slave)

    def read(self) -> bytes | None:
        """What the Pi wrote, or ``None``."""
        try:
            return os.read(self.master, 4096) or None
        except (BlockingIOError, OSError):
            return None

    def write(self, data: bytes) -> None:
        """Send ``data`` to the Pi."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.master, view):]
            except BlockingIOError:
                return

    def close(self) -> None:
        """Close both ends of the pair."""
        os.close(self.master)
        os.close(self._slave)


class Damage(Enum):
    """What line noise does to a frame."""

    FLIP = "flip"            # one to three bits flipped: bad CRC
    TRUNCATE = "truncate"    # cut short, the delimiter kept
    DROP = "drop"            # lost whole
    DUPLICATE = "duplicate"  # arrives twice
    REPLAY = "replay"        # an old frame from earlier in the session arrives again
    GARBAGE = "garbage"      # random bytes, zeros among them, before the frame


class LineNoise:
    """A bad cable: damages about ``rate`` of the frames written through it, in every :class:`Damage` way.

    ``damaged`` counts the frames damaged or injected (a replay or garbage counts one).
    """

    def __init__(self, rng: random.Random, rate: float = 0.5, history: int = 256) -> None:
        self.rng = rng
        self.rate = rate
        self.damaged = 0
        self.kinds = list(Damage)
        self._history: list[bytes] = []
        self._keep = history

    def apply(self, data: bytes) -> bytes:
        """``data`` (whole frames with their delimiters) as the far end receives it."""
        out = bytearray()
        for frame in data.split(b"\x00")[:-1]:
            out += self._pass(frame + b"\x00")
        return bytes(out)

    def _pass(self, frame: bytes) -> bytes:
        self._remember(frame)
        if self.rng.random() >= self.rate:
            return frame
        self.damaged += 1
        return self._damage(frame, self.rng.choice(self.kinds))

    def inject(self) -> bytes:
        """One more damaged frame out of nowhere: an old frame mangled or replayed, or garbage."""
        self.damaged += 1
        old = self.rng.choice(self._history) if self._history else b"\x00"
        kind = self.rng.choice(self.kinds)
        return self._damage(old, kind) if kind is not Damage.DROP else old

    def _damage(self, frame: bytes, kind: Damage) -> bytes:
        if kind is Damage.FLIP:
            return self._flip(frame)
        if kind is Damage.TRUNCATE:
            return frame[:self.rng.randrange(len(frame))] + b"\x00"
        if kind is Damage.DROP:
            return b""
        if kind is Damage.DUPLICATE:
            return frame + frame
        if kind is Damage.REPLAY and self._history:
            return self.rng.choice(self._history) + frame
        return self.rng.randbytes(self.rng.randrange(1, 40)) + frame

    def _flip(self, frame: bytes) -> bytes:
        damaged = bytearray(frame)
        for _ in range(self.rng.randrange(1, 4)):
            damaged[self.rng.randrange(max(1, len(frame) - 1))] ^= 1 << self.rng.randrange(8)
        return bytes(damaged)

    def _remember(self, frame: bytes) -> None:
        self._history.append(frame)
        if len(self._history) > self._keep:
            del self._history[:len(self._history) - self._keep]


class SimSeatNode:
    """One seat node's firmware running in-process.

    ``clock`` gives the node its millisecond ticks; with a :class:`SimClock` the node steps
    itself every ``step_every`` seconds as tests advance the clock. ``serial`` is where the
    firmware's bytes go (default: in-memory pipes reached with :meth:`open`).
    """

    def __init__(self, clock: Clock, *, buttons: int = 4, lights: int = 2, readers: int = 1,
                 session: int | None = None, serial_port: NodeSerial | None = None,
                 antennas: list[Any] | None = None, step_every: float = 0.005,
                 noise: LineNoise | None = None) -> None:
        self.clock = clock
        self.noise = noise
        self._rng = random.Random(session)
        self.generation = 0
        self.plugged = True
        self.to_pi = bytearray()
        self.to_node = bytearray()
        self.buttons = [SimPin(1) for _ in range(buttons)]
        self.lights = [SimPin(0) for _ in range(lights)]
        self.antennas = antennas if antennas is not None else [SimAntenna() for _ in range(readers)]
        self.serial = serial_port if serial_port is not None else PipeSerial(self)
        self.node = self._boot(session)
        self._step_every = step_every
        if isinstance(clock, SimClock):
            clock.call_later(step_every, self._tick)

    def _boot(self, session: int | None) -> Any:
        if session is None:
            session = random.SystemRandom().getrandbits(16)
        return firmware().main.SeatNode(self.serial, self.buttons, self.lights, self.antennas,
                                        self._now_ms, session)

    def reboot(self, session: int | None = None) -> None:
        """Power-cycle the node: the firmware starts afresh (a new session, nothing queued)."""
        self.node = self._boot(session)

    def _now_ms(self) -> int:
        return int(round(self.clock.now() * 1000)) & 0x3FFFFFFF

    def _tick(self) -> None:
        assert isinstance(self.clock, SimClock)
        self.step()
        self.clock.call_later(self._step_every, self._tick)

    def step(self) -> None:
        """Run one pass of the firmware's main loop."""
        self.node.step()

    def damage(self, data: bytes) -> bytes:
        """``data`` as it comes out of the cable: through :attr:`noise` when there is some."""
        return self.noise.apply(data) if self.noise is not None else data

    def open(self) -> PipePort:
        """The Pi's port to this node (what :class:`SeatNodeLink`'s ``open_port`` calls).

        :raises serial.SerialException: the node is unplugged.
        """
        if not self.plugged:
            raise serial.SerialException("could not open port: no such device (simulated unplug)")
        return PipePort(self, self.generation)

    def link(self, url: str = "sim://seatnode", **options: Any) -> SeatNodeLink:
        """A Pi-side driver connected to this node through :meth:`open`."""
        return SeatNodeLink(url, self.clock, open_port=self.open, **options)

    def press(self, button: int) -> None:
        """Hold ``button`` down (the pin reads 0)."""
        self.buttons[button].value(0)

    def release(self, button: int) -> None:
        """Let ``button`` go."""
        self.buttons[button].value(1)

    def place_tag(self, uid: bytes, reader: int = 0) -> None:
        """Put the tag ``uid`` on reader ``reader``'s antenna."""
        self.antennas[reader].uids.append(bytes(uid))

    def remove_tag(self, uid: bytes, reader: int = 0) -> None:
        """Take the tag ``uid`` off reader ``reader``'s antenna (no-op when it is not there)."""
        antenna = self.antennas[reader]
        antenna.uids = [other for other in antenna.uids if other != bytes(uid)]

    @property
    def reader_fault(self) -> ReaderFault:
        """How the node's readers misbehave (a ``seatnode:reader-...`` fault; NONE: they work)."""
        return next((antenna.fault for antenna in self.antennas
                     if getattr(antenna, "fault", ReaderFault.NONE) is not ReaderFault.NONE),
                    ReaderFault.NONE)

    @reader_fault.setter
    def reader_fault(self, fault: ReaderFault) -> None:
        for antenna in self.antennas:
            antenna.fault = fault

    def light(self, index: int = 0) -> LightState:
        """What the firmware set light ``index`` to."""
        return LIGHT_STATES[self.node.leds.modes()[index]]

    def unplug(self) -> None:
        """Pull the cable: the Pi's port fails and cannot be reopened; the node runs on."""
        self.plugged = False
        self.generation += 1
        self.to_pi.clear()
        self.to_node.clear()

    def plug(self) -> None:
        """Put the cable back: the Pi can open the port again."""
        self.plugged = True

    def send_garbage(self, data: bytes | None = None) -> None:
        """Line noise towards the Pi: ``data``, or 64 random bytes ending each 16 with a zero
        (the noise ends on a delimiter, so the node's next frame is not damaged by it)."""
        if data is None:
            data = bytes(self._rng.randrange(1, 256) if i % 16 != 15 else 0 for i in range(64))
        self.to_pi.extend(data)

    def pending(self) -> int:
        """Events the node holds that the Pi has not acknowledged yet."""
        return int(self.node.link.pending())

