"""MFRC522 RFID reader driver over SPI: request, anticollision (cascade levels 1-2), select, read.

The driver talks to one chip through a :class:`SpiTransport` (one chip-select-low transaction per
``transfer``), so several readers share one SPI bus, each with its own chip select
(:class:`SpidevBus` on the Pi), and tests drive it against :class:`~hardware.sim_rc522.EmulatedRC522`.
CRC_A is computed here (``rc522_regs.crc_a``), not by the chip's coprocessor (the firmware
still asks its chip). :meth:`MFRC522.inventory` finds every tag on the antenna by walking the
anticollision tree (each branch chosen after a WUPA), halting each found tag.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

from controller.games.errors import DeviceError, DeviceTimeout
from hardware.clock import Clock, RealClock
from hardware.rc522_regs import (
    ANTENNA_ON, CASCADE_TAG, COLL_POS_NOT_VALID, ERR_BUFFER_OVFL, ERR_COLL, ERR_IRQ,
    ERR_PARITY, ERR_PROTOCOL, ERR_TEMP, FIELD_ON_WAIT_S, FLUSH_BUFFER, FRAME_RELOAD, HLTA, IDLE_IRQ,
    KNOWN_VERSIONS, NO_CHIP_VERSIONS, POWER_DOWN, READ, READ_RELOAD, REQA, RESET_WAIT_S,
    RX_GAIN_MASK, RX_GAINS_DB, RX_IRQ, SAK_CASCADE, SEL_CL1, SEL_CL2, START_SEND, T_AUTO, TIMER_IRQ,
    WUPA, Cmd, Reg, crc_a, timer_period,
)
from hardware.seatnode_firmware import firmware

Bits = list[int]
log = logging.getLogger(__name__)
POLL_INTERVAL_S = 0.001  # between IRQ polls once a frame's answer and its timer are both due and
                         # neither came (a stuck chip), and for a reset or a CRC
WAIT_LIMIT_S = 0.05      # a soft reset's end or a CRC, the chip's own work: this is for a dead chip
FRAME_SLACK_S = 0.003    # a frame's wait past its timer: its air time both ways (a SELECT's 0.8 ms
                         # out, a READ's 1.5 ms back); only a stuck chip outlasts it
PRESCALER = 0xA9         # TPrescaler: 13.56 MHz / (2 * 169 + 1) = 40 kHz, 25 us ticks
BACKSTOP_POLLS = 100_000 # only a clock that never moves (a stalled test clock) ever reaches it
HALT_TRIES = 3           # HLTAs sent to a tag that answers them (its NAK: a garbled HLTA, 3 in 10
                         # at the field's edge, all 3 once in 37 stones); the firmware's number


class SpiTransport(Protocol):
    """One SPI device: ``transfer`` clocks ``data`` out with chip select low, returns MISO."""

    def transfer(self, data: bytes) -> bytes:
        """One transaction; the answer has as many bytes as ``data``."""
        ...


class TagProtocolError(DeviceError):
    """A frame from a tag was garbled (CRC, parity, protocol); the tag is usually re-read.

    ``found`` holds the tags a scan read all the same (:meth:`MFRC522.inventory`), on the
    branches of the UID tree that did not garble.
    """

    def __init__(self, message: str, found: frozenset[str] = frozenset()) -> None:
        super().__init__(message)
        self.found = found


class ChipOverheated(DeviceError):
    """The chip's temperature sensor tripped (ErrorReg TempErr): it switched its antenna off, so
    no tag answers until it has cooled and is set up again (:meth:`MFRC522.init`)."""


@dataclass(frozen=True)
class Reception:
    """What the chip received: ``data`` (RxAlign applied), ``last_bits`` valid bits in the last
    byte (0: all 8), and the 1-based ``collision`` position (None without collision)."""

    data: bytes
    last_bits: int
    collision: int | None


def describe_version(version: int) -> str:
    """What a VersionReg value means, for messages.

    >>> describe_version(0x12)
    "0x12 (MFRC522 clone (works, but not NXP's))"
    """
    return f"0x{version:02X} ({KNOWN_VERSIONS.get(version, 'unknown chip')})"


class MFRC522:
    """One MFRC522 chip.

    Every wait on the chip ends by the ``clock``: a transceive when the chip's own timer (1.5 ms
    for a scan's frames, 25 ms for READ) says nobody answered, or :data:`FRAME_SLACK_S` after
    it (which only a stuck chip makes happen), a reset or a CRC after ``timeout`` seconds; never
    after a count of register reads, whose duration depends on the bus. A transceive's ComIrqReg
    is read when its answer is due (the air time both ways and ISO 14443-3's frame delay), then
    when its timer's end is, then every ``poll_interval``: each SPI read costs the Pi's CPU
    and bus, a sleep nothing, and the IRQ pin is not wired. ``rx_gain_db`` sets the
    receiver gain (RFCfgReg; the chip's reset value is 33 dB, 48 dB reads tags further away).
    """

    def __init__(self, spi: SpiTransport, clock: Clock | None = None,
                 timeout: float = WAIT_LIMIT_S, rx_gain_db: int | None = None,
                 poll_interval: float = POLL_INTERVAL_S) -> None:
        if rx_gain_db is not None and rx_gain_db not in RX_GAINS_DB:
            raise ValueError(f"receiver gain {rx_gain_db} dB: one of {sorted(RX_GAINS_DB)}")
        self.spi = spi
        self.clock = clock or RealClock()
        self.timeout = timeout
        self.rx_gain_db = rx_gain_db
        self.poll_interval = poll_interval
        self.chip_version: int | None = None
        self._timer_s = timeout  # until init sets the timer up
        self._frame_limit = timeout

    def read(self, reg: Reg) -> int:
        """One register's value."""
        return self.spi.transfer(bytes([0x80 | (reg << 1), 0]))[1]

    def read_many(self, reg: Reg, count: int) -> bytes:
        """``count`` reads of ``reg`` in one transaction (how the FIFO is emptied)."""
        address = 0x80 | (reg << 1)
        return self.spi.transfer(bytes([address] * count + [0]))[1:]

    def write(self, reg: Reg, *values: int) -> None:
        """Write ``values`` to ``reg`` in one transaction."""
        self.spi.transfer(bytes([(reg << 1) & 0x7E, *values]))

    def set_bits(self, reg: Reg, mask: int) -> None:
        """Set ``mask``'s bits of ``reg``."""
        self.write(reg, self.read(reg) | mask)

    def version(self) -> int:
        """VersionReg: 0x91/0x92 for genuine chips, 0x12 for common clones, 0x00 or 0xFF when
        nothing answers."""
        return self.read(Reg.VERSION)

    def init(self) -> None:
        """Soft-reset and set up: 1.5 ms receive timeout (a scan's frames, :data:`FRAME_RELOAD`),
        100 % ASK, CRC preset 0x6363, antenna on, then :data:`FIELD_ON_WAIT_S` for the tags,
        which lost their power with the field, to power up again.

        A version other than the known ones is logged as a warning, not refused: clones that
        answer 0x12 read tags like the genuine chip.

        :raises DeviceError: nothing answers on this chip select (0x00 or 0xFF).
        """
        version = self.version()
        if version in NO_CHIP_VERSIONS:
            raise DeviceError(f"RC522 answers version 0x{version:02X}: not a reader "
                              "(check its power, chip-select and MISO wiring)")
        if version not in KNOWN_VERSIONS or version == 0x12:
            log.warning("RC522 reports version %s; trying it as an MFRC522",
                        describe_version(version))
        self.chip_version = version
        self.write(Reg.COMMAND, Cmd.SOFT_RESET)
        self.clock.sleep(RESET_WAIT_S)  # the datasheet gives no reset time; the oscillator starts
        self._wait_for(Reg.COMMAND, POWER_DOWN, "soft reset", clear=True)
        self.write(Reg.T_MODE, T_AUTO)        # the timer starts at the end of sending
        self.write(Reg.T_PRESCALER, PRESCALER)
        self._set_timer(FRAME_RELOAD)         # (59 + 1) ticks = 1.5 ms
        self.write(Reg.TX_ASK, 0x40)
        self.write(Reg.MODE, 0x3D)
        if self.rx_gain_db is not None:
            gain = RX_GAINS_DB[self.rx_gain_db]
            self.write(Reg.RF_CFG, (self.read(Reg.RF_CFG) & ~RX_GAIN_MASK & 0xFF) | gain)
        self.set_bits(Reg.TX_CONTROL, ANTENNA_ON)
        self.clock.sleep(FIELD_ON_WAIT_S)  # the tags power up: their field was off since the reset

    def _set_timer(self, reload: int) -> None:
        """TReloadReg: the timer's 25 us ticks for the frames sent from now on (the chip loads it
        when a frame has been sent)."""
        self.write(Reg.T_RELOAD_H, reload >> 8)
        self.write(Reg.T_RELOAD_L, reload & 0xFF)
        self._timer_s = timer_period(T_AUTO, PRESCALER, reload)
        self._frame_limit = self._timer_s + FRAME_SLACK_S

    def _wait_for(self, reg: Reg, mask: int, what: str, clear: bool = False,
                  limit: float | None = None, looks: tuple[float, ...] = ()) -> int:
        """Poll ``reg`` until a bit of ``mask`` is set (``clear``: until all are clear); returns
        the last value read. It is read first at each of ``looks`` (seconds from now: when the
        chip is due to be done; at once when there are none), then every ``poll_interval``.
        The wait ends by the clock, never by a count of reads, and only after a read begun past
        the deadline: a thread paused between a read and the clock's look (the kernel running
        the camera's) would take a frame that ended meanwhile for a dead chip.

        :raises DeviceTimeout: ``limit`` seconds passed (``timeout`` when None).
        """
        limit = self.timeout if limit is None else limit
        start = self.clock.now()
        for reads in range(BACKSTOP_POLLS):
            self._pause(start, looks, reads)
            late = self.clock.now() > start + limit
            value = self.read(reg)
            if bool(value & mask) != clear:
                return value
            if late:
                break
        raise DeviceTimeout(f"RC522 did not finish {what} in {limit * 1000:g} ms")

    def _pause(self, start: float, looks: tuple[float, ...], reads: int) -> None:
        """Wait before a wait's read number ``reads``: until its look, or ``poll_interval`` once
        the looks are spent (the first read of a wait without looks at once)."""
        if reads < len(looks):
            pause = start + looks[reads] - self.clock.now()
        else:
            pause = self.poll_interval if reads else 0.0
        if pause > 0:
            self.clock.sleep(pause)

    def calc_crc(self, data: bytes) -> bytes:
        """CRC_A of ``data``, low byte first, computed here (:func:`hardware.rc522_regs.crc_a`,
        the chip's preset 0x6363 that ``init`` sets in ModeReg): the chip's coprocessor took 9
        SPI transfers and a wait for each, 3 to 5 a stone, about a third of a poll's transfers,
        where a few bytes cost the Pi's CPU microseconds."""
        crc = crc_a(data)
        return bytes([crc & 0xFF, crc >> 8])

    def transceive(self, data: bytes, tx_last_bits: int = 0, rx_align: int = 0,
                   answer_bits: int | None = None) -> Reception | None:
        """Send ``data`` to the tags and return their answer (None: no tag answered in time).
        ``answer_bits``: how long the tags' answer is (None: no answer is expected), so the
        chip is asked when the answer is due, not every :data:`POLL_INTERVAL_S`.

        :raises DeviceTimeout: the chip itself did not finish.
        :raises ChipOverheated: the chip overheated; its frames end by the timer, unanswered, as
            an empty field's do, and only ErrorReg (with ErrIRq) tells them apart.
        :raises TagProtocolError: the answer was garbled.
        """
        self.write(Reg.COMMAND, Cmd.IDLE)
        self.write(Reg.COM_IRQ, 0x7F)
        self.write(Reg.FIFO_LEVEL, FLUSH_BUFFER)
        self.write(Reg.FIFO_DATA, *data)
        self.write(Reg.COMMAND, Cmd.TRANSCEIVE)
        framing = (rx_align << 4) | tx_last_bits
        self.write(Reg.BIT_FRAMING, START_SEND | framing)
        sent_bits = (len(data) - 1) * 8 + (tx_last_bits or 8)
        irq = self._wait_irq(self._frame_ends(sent_bits, answer_bits))
        self.write(Reg.BIT_FRAMING, framing)  # StartSend cleared: the register's other bits are
                                              # the framing written above, no read needed
        unanswered = irq & TIMER_IRQ and not irq & RX_IRQ
        error = self.read(Reg.ERROR) if irq & ERR_IRQ or not unanswered else 0
        if error & ERR_TEMP:
            raise ChipOverheated(f"RC522 overheated (ErrorReg 0x{error:02X}: TempErr) and switched "
                                 "its antenna off")
        if unanswered:
            return None
        if error & (ERR_BUFFER_OVFL | ERR_PARITY | ERR_PROTOCOL):
            raise TagProtocolError(f"RC522 receive error 0x{error:02X}")
        received = self.read_many(Reg.FIFO_DATA, self.read(Reg.FIFO_LEVEL))
        return Reception(received, self.read(Reg.CONTROL) & 0x07, self._collision(error, received))

    def _wait_irq(self, looks: tuple[float, ...]) -> int:
        """The frame's end, looked for at ``looks``: a stuck chip is told a few ms after the
        frame's timer, not after the reset's ``timeout``, which cost a stuck chip 50 ms of every
        poll."""
        return self._wait_for(Reg.COM_IRQ, RX_IRQ | IDLE_IRQ | TIMER_IRQ,
                              "a transceive (no interrupt, not even its timer's)",
                              limit=self._frame_limit, looks=looks)

    def _frame_ends(self, sent_bits: int, answer_bits: int | None) -> tuple[float, ...]:
        """When a frame of ``sent_bits`` may be over, in seconds from StartSend, soonest first:
        its answer of ``answer_bits`` received, and the chip's timer run out. The seat-node
        firmware's sums (``firmware/rc522.py``'s ``frame_ends_us``, in whole microseconds
        rounded up), so both drivers wait alike. Asked then, not every 1 ms, the chip tells a
        frame's end at the first read of ComIrqReg, or the second when no tag answers.
        """
        timer_us = math.ceil(self._timer_s * 1e6)
        ends: tuple[int, ...] = firmware().rc522.frame_ends_us(sent_bits, answer_bits, timer_us)
        return tuple(end / 1e6 for end in ends)

    def _collision(self, error: int, received: bytes) -> int | None:
        """The collided bit's position; a collision with not one bit received (an answer drowned
        in noise) has no branch to take, and is garbled, as the seat-node firmware has it."""
        if not error & ERR_COLL:
            return None
        if not received:
            raise TagProtocolError("RC522 reports a collision and received nothing")
        coll = self.read(Reg.COLL)
        if coll & COLL_POS_NOT_VALID:
            raise TagProtocolError("RC522 reports a collision outside the data bits")
        return (coll & 0x1F) or 32

    def request(self, wakeup: bool = False) -> bool:
        """REQA (or WUPA, which also wakes halted tags): True when any tag answers."""
        return self.transceive(bytes([WUPA if wakeup else REQA]), tx_last_bits=7,
                               answer_bits=16) is not None  # ATQA

    def anticollision(self, level: int,
                      prefix: Bits | None = None) -> tuple[bytes, list[Bits]] | None:
        """Resolve one tag's 5 bytes at cascade ``level`` (0 or 1), starting from ``prefix`` bits.

        At each collision the 1 branch is taken; the returned list holds the 0 branches not
        taken (prefixes to explore later). None: no tag with that prefix answered.
        """
        known: Bits = list(prefix or [])
        others: list[Bits] = []
        for _ in range(41):
            full, extra = divmod(len(known), 8)
            frame = bytes([(SEL_CL1, SEL_CL2)[level], ((2 + full) << 4) | extra])
            rx = self.transceive(frame + _pack(known), tx_last_bits=extra, rx_align=extra,
                                 answer_bits=40 - len(known))
            if rx is None:
                return None
            bits = known + _unpack(rx.data, len(rx.data) * 8)[extra:]
            if rx.collision is None:
                return _checked_cascade(bits[:40]), others
            clash = full * 8 + rx.collision - 1
            if clash < len(known) or clash >= 40:
                raise TagProtocolError(f"RC522 collision at bit {clash} with {len(known)} known")
            others.append(bits[:clash] + [0])
            known = bits[:clash] + [1]
        raise TagProtocolError("anticollision did not converge")

    def select(self, level: int, cascade: bytes) -> int:
        """SELECT the tag whose 5 cascade bytes are ``cascade``; returns its SAK. A SAK that came
        garbled may have left the tag selected: :meth:`inventory` ends such a branch with HLTA.

        :raises TagProtocolError: no valid SAK came back.
        """
        frame = bytes([(SEL_CL1, SEL_CL2)[level], 0x70]) + cascade
        rx = self.transceive(frame + self.calc_crc(frame), answer_bits=24)  # SAK, CRC_A
        if rx is None or len(rx.data) != 3 or rx.collision is not None:
            raise TagProtocolError(f"no SAK for SELECT at cascade level {level + 1}")
        if self.calc_crc(rx.data[:1]) != rx.data[1:]:
            raise TagProtocolError("SAK with a bad CRC")
        return rx.data[0]

    def read_uid(self) -> bytes | None:
        """REQA, then anticollision and SELECT through the cascade levels: one tag's UID.

        With several tags present the one chosen by taking the 1 branch at each collision.
        """
        if not self.request():
            return None
        found = self._select_path([], [], [])
        return found[0] if found else None

    def _select_path(self, chosen: list[bytes], prefix: Bits,
                     pending: list[tuple[list[bytes], Bits]]) -> tuple[bytes, int] | None:
        """Select the levels in ``chosen``, then resolve the rest from ``prefix``; returns
        the UID and final SAK. Branches not taken are appended to ``pending``.

        CollReg's ValuesAfterColl is cleared first (bits received after a collision cleared, as
        bitwise anticollision wants) with one write of 0, as the seat-node firmware does: the
        register's other bits are read-only (CollPosNotValid, CollPos) or reserved (bit 6, 0
        after reset), so a write of 0 changes nothing else (datasheet 9.3.1.15). Once a branch
        whose WUPA a tag answered, not before every WUPA: an empty spot's poll needs it not.
        """
        self.write(Reg.COLL, 0)
        for level, cascade in enumerate(chosen):
            self.select(level, cascade)
        uid, level = b"".join(c[1:4] for c in chosen), len(chosen)
        while level < 2:
            resolved = self.anticollision(level, prefix)
            if resolved is None:
                return None
            cascade, others = resolved
            pending += [(list(chosen), other) for other in others]
            sak = self.select(level, cascade)
            if not sak & SAK_CASCADE:
                return uid + cascade[:4], sak
            if cascade[0] != CASCADE_TAG:
                raise TagProtocolError("SAK asks for another level but no cascade tag was sent")
            chosen, prefix, uid, level = chosen + [cascade], [], uid + cascade[1:4], level + 1
        raise TagProtocolError("UID longer than 7 bytes (cascade level 3 is not supported)")

    def halt(self) -> None:
        """HLTA, until no tag answers it (:data:`HALT_TRIES` at most): the selected tag stops
        answering REQA until woken by WUPA or taken away.

        Left ACTIVE, it would let the next scan's first WUPA pass unanswered (ISO/IEC 14443-3:
        an ACTIVE tag takes it for an error and goes IDLE), and be missed every other scan. No
        tag answers HLTA, so the frame ends by the chip's 1.5 ms timer (:data:`FRAME_RELOAD`),
        which still sees a NAK: ISO has any answer within 1 ms of HLTA mean 'not acknowledge',
        the HLTA not taken. A stone at the field's edge NAKs an HLTA that reached it garbled
        (its CRC check failed) and stays ACTIVE, so the HLTA is sent again; an answer that came
        garbled is sent again too, being a NAK or noise.

        :raises TagProtocolError: a tag answered every HLTA (it is not halted).
        """
        frame = bytes([HLTA, 0])
        frame += self.calc_crc(frame)
        answer = ""
        for _ in range(HALT_TRIES):
            try:
                if self.transceive(frame) is None:
                    return
                answer = "a NAK"
            except TagProtocolError as err:
                answer = str(err)
        raise TagProtocolError(f"a tag answered HLTA {HALT_TRIES} times (the last: {answer})")

    def _wake(self, found: set[str]) -> bool:
        """WUPA, opening a branch of the walk: whether a tag answered. A WUPA whose answer came
        garbled left the tags it woke READY: they are sent back before the walk stops
        (:meth:`_halt_quietly`), or the next scan's WUPA would find them READY and silence them.

        :raises TagProtocolError: the answer to WUPA came garbled; its ``found`` holds ``found``,
            the tags the walk read before it, which a garbled WUPA does not unread.
        """
        try:
            return self.request(wakeup=True)
        except TagProtocolError as err:
            self._halt_quietly()
            raise TagProtocolError(f"the answer to WUPA came garbled ({err})",
                                   frozenset(found)) from err

    def _halt_quietly(self) -> None:
        """HLTA at the end of a branch of the walk. It halts the tag the branch selected, and
        sends back to IDLE (HALT, if woken from it) every tag the branch left READY or ACTIVE:
        woken by its WUPA and then left unselected (an ANTICOLLISION that garbled or found no
        tag below its prefix), or selected by a SELECT whose SAK garbled. ISO/IEC 14443-3 has a
        READY tag take any frame but ANTICOLLISION and SELECT for an error, HLTA too, and go
        back unanswering; left READY, it would take the next branch's WUPA (or the next scan's)
        for that error instead and miss it. A tag already IDLE or halted ignores the HLTA."""
        try:
            self.halt()
        except TagProtocolError:
            pass  # answered every HLTA: the tag is found all the same

    def read_block(self, block: int) -> bytes:
        """READ ``block`` of the selected tag: 16 bytes, CRC checked by the chip. The tag may take
        longer than a scan's frames' 1.5 ms (its memory), so READ waits 25 ms
        (:data:`READ_RELOAD`), and the timer is set back for the scan's frames, even when READ
        fails.

        :raises TagProtocolError: NAK, short answer or bad CRC.
        """
        frame = bytes([READ, block & 0xFF])
        frame += self.calc_crc(frame)
        self._set_timer(READ_RELOAD)
        try:
            rx = self.transceive(frame, answer_bits=18 * 8)
        finally:
            self._set_timer(FRAME_RELOAD)
        if rx is None or len(rx.data) != 18:
            raise TagProtocolError(f"READ of block {block} got no 16-byte answer")
        if self.calc_crc(rx.data[:16]) != rx.data[16:]:
            raise TagProtocolError(f"READ of block {block}: bad CRC")
        return rx.data[:16]

    def inventory(self, limit: int = 16) -> frozenset[str]:
        """Every tag on the antenna (upper-case hex UIDs), each left halted.

        Walks the anticollision tree: each branch starts with a WUPA, which also wakes the tags
        halted by earlier branches, is then steered by its prefix to a tag not found yet, and
        ends with HLTA, found or not (:meth:`_halt_quietly`), so that no tag is READY at the
        next WUPA. A garbled branch is dropped and the walk goes on, as the seat-node firmware's
        does; a garbled WUPA ends the walk.

        :raises TagProtocolError: a WUPA or a branch came garbled: the tags below it were not
            read, which says nothing of whether they are there; ``found`` holds the tags read,
            before a garbled WUPA too (they were dropped, and arrived only a scan later).
        """
        found: set[str] = set()
        garbled = 0
        pending: list[tuple[list[bytes], Bits]] = [([], [])]
        while pending and len(found) < limit:
            chosen, prefix = pending.pop()
            if not self._wake(found):
                break
            try:
                hit = self._select_path(chosen, prefix, pending)
            except TagProtocolError:
                garbled += 1
                hit = None
            if hit is not None:
                found.add(hit[0].hex().upper())
            self._halt_quietly()
        if garbled:
            raise TagProtocolError(f"{garbled} branches of the UID tree came garbled",
                                   frozenset(found))
        return frozenset(found)


def _pack(bits: Bits) -> bytes:
    out = bytearray((len(bits) + 7) // 8)
    for i, bit in enumerate(bits):
        out[i // 8] |= bit << (i % 8)
    return bytes(out)


def _unpack(data: bytes, count: int) -> Bits:
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(min(count, len(data) * 8))]


def _checked_cascade(bits: Bits) -> bytes:
    cascade = _pack(bits)
    if len(cascade) != 5 or cascade[0] ^ cascade[1] ^ cascade[2] ^ cascade[3] != cascade[4]:
        raise TagProtocolError(f"UID part {cascade.hex()} fails its BCC check")
    return cascade


class SpidevBus:
    """The Pi's SPI bus with chip selects driven as plain GPIOs, so any number of readers fit.

    ``spidev`` is imported only when the bus opens (it exists on the Pi only); the kernel's own
    chip selects must be off (``dtoverlay=spi0-0cs`` in ``config.txt``) to free GPIO 7 and 8.
    """

    def __init__(self, bus: int, speed_hz: int, pin_factory: Any = None,
                 reset_pin: int | None = None) -> None:
        import spidev  # type: ignore[import-not-found]  # Pi only: imported on use
        from gpiozero import DigitalOutputDevice  # type: ignore[import-untyped]
        self._spi = spidev.SpiDev()
        self._spi.open(bus, 0)
        self._spi.max_speed_hz = speed_hz
        self._spi.mode = 0
        self._pin_factory = pin_factory
        self._lock = threading.Lock()
        self._selects: list[Any] = []
        if reset_pin is not None:  # NRSTPD held high keeps every reader powered up
            reset = DigitalOutputDevice(reset_pin, initial_value=False, pin_factory=pin_factory)
            self._selects.append(reset)
            time.sleep(0.001)   # a hard reset needs NRSTPD low for at least 100 ns
            reset.on()
            time.sleep(RESET_WAIT_S)  # oscillator start-up before the first SPI transfer

    def channel(self, chip_select: int) -> SpidevChannel:
        """The reader whose SDA (chip select) is wired to GPIO ``chip_select``."""
        from gpiozero import DigitalOutputDevice
        select = DigitalOutputDevice(chip_select, initial_value=True,
                                     pin_factory=self._pin_factory)
        self._selects.append(select)
        return SpidevChannel(self, select)

    def exchange(self, select: Any, data: bytes) -> bytes:
        """Clock ``data`` with ``select`` held low."""
        with self._lock:
            select.off()
            try:
                return bytes(self._spi.xfer2(list(data)))
            finally:
                select.on()

    def close(self) -> None:
        """Release the bus, the chip-select pins and the reset pin."""
        for select in self._selects:
            select.close()
        self._spi.close()


@dataclass(frozen=True)
class SpidevChannel:
    """One reader on a :class:`SpidevBus`: a :class:`SpiTransport`."""

    bus: SpidevBus
    select: Any

    def transfer(self, data: bytes) -> bytes:
        """One transaction with this reader's chip select low."""
        return self.bus.exchange(self.select, data)
