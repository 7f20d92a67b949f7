"""An emulated MFRC522 chip: answers SPI transfers as the real chip's registers and FIFO do.

The Pi driver (:mod:`hardware.mfrc522`) and the seat-node firmware's driver are tested against
it through :meth:`EmulatedRC522.transfer`, one chip-select-low transaction per call. Emulated:
register reads/writes (address byte ``1aaaaaa0`` to read, ``0aaaaaa0`` to write, several data
bytes per transaction), the 64-byte FIFO, ComIrqReg/DivIrqReg set/clear semantics, the
Transceive command started by BitFramingReg's StartSend with TxLastBits and RxAlign, ControlReg's
RxLastBits, ErrorReg's CollErr with CollReg's CollPos and ValuesAfterColl (the bits received
after a collision cleared or kept), ErrorReg's TempErr (an overheated chip
switches its antenna off), CalcCRC through the CRC coprocessor, SoftReset, the antenna switch,
and ISO 14443-3A tags (REQA/WUPA, anticollision and SELECT at cascade levels 1 and 2, READ, HLTA)
that arrive, leave and collide; a tag being resolved (READY) or selected (ACTIVE) takes REQA and
WUPA, as any frame it does not expect, for an error, and goes IDLE (HALT, if woken from it)
without answering, as ISO/IEC 14443-3 has it. The field powers the tags: whenever the antenna is
off (a soft reset, a power-up, an overheat, a driver's switch) they lose their power and forget
their state, each IDLE again (halted, selected or READY before) when the field comes back, and
deaf to frames for its first :data:`TAG_POWER_UP_S` (ISO/IEC 14443-3 gives a tag 5 ms), as is a
tag placed in a field already on.

CollPos counts from the first bit of the first received byte, RxAlign's skipped bits included,
so a driver finds the collided bit at ``8 * (known_bits // 8) + CollPos - 1``.
Timing is emulated on a :class:`~hardware.clock.SimClock`: every SPI transaction costs
``transfer_s`` seconds (50-500 us on a real bus, with the kernel's overhead), a tag's answer
begins ISO 14443-3's frame delay time after the frame (:func:`frame_delay_s`, some 90 us) and
arrives after its air time, and a frame nobody answers ends only when the chip's timer (TModeReg,
TPrescalerReg, TReloadReg) runs out, as on the chip: a driver that gives up after a number of
polls instead of the timer's time sees timeouts on every empty spot. The timer (TAuto) stops at
an answer's fifth bit (its start bit and 4 data bits, datasheet table 106): an answer that has
not reached it when the timer runs out comes after TimerIRq, as on the chip, however short the
timer; a command written to CommandReg (Idle too) cancels the one running and its answer still
to come, but NoCmdChange, which changes RcvOff and PowerDown only; with RcvOff set, the receiver
is off and an answer is lost, the timer running out; with PowerDown set (soft power-down) the
field is off, and the chip, woken, is deaf for its oscillator start-up, as after a soft reset.
Not emulated: MIFARE Classic authentication (tags answer READ like NTAG/Ultralight).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

from hardware.clock import SimClock
from hardware.rc522_regs import (
    T_AUTO, ANTENNA_ON, BIT_S, CASCADE_TAG, CLOCK_HZ, COLL_POS_NOT_VALID, CRC_IRQ, CRC_PRESETS,
    ERR_BUFFER_OVFL, ERR_COLL, ERR_IRQ, ERR_PARITY, ERR_PROTOCOL, ERR_TEMP, FIFO_SIZE, FLUSH_BUFFER,
    HLTA, POWER_DOWN, RCV_OFF, READ, REQA, RX_IRQ, SAK_CASCADE, SEL_CL1, SEL_CL2, SET_BIT,
    START_SEND, TIMER_IRQ, TX_IRQ, VALUES_AFTER_COLL, WUPA, Cmd, Reg, crc_a, timer_period,
    with_crc,
)

Bits = list[int]

RESET_VALUES = {Reg.COMMAND: RCV_OFF | Cmd.IDLE,  # 20h (table 23): the receiver off, Idle
                Reg.COM_IEN: 0x80, Reg.COM_IRQ: 0x14, Reg.CONTROL: 0x10, Reg.MODE: 0x3F,
                Reg.TX_CONTROL: 0x80, Reg.WATER_LEVEL: 0x08, Reg.TX_MODE: 0x00,
                Reg.RX_MODE: 0x00, Reg.MOD_WIDTH: 0x26, Reg.RF_CFG: 0x48,
                Reg.COLL: VALUES_AFTER_COLL | COLL_POS_NOT_VALID}  # CollReg: 101x xxxx (9.3.1.15)


def to_bits(data: bytes, nbits: int | None = None) -> Bits:
    """``data`` as bits, least significant bit of each byte first (the air order)."""
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]
    return bits if nbits is None else bits[:nbits]


def from_bits(bits: Bits, offset: int = 0) -> bytes:
    """Pack ``bits`` into bytes, the first bit going to bit ``offset`` of the first byte."""
    out = bytearray((offset + len(bits) + 7) // 8)
    for i, bit in enumerate(bits, start=offset):
        out[i // 8] |= bit << (i % 8)
    return bytes(out)


class TagState(Enum):
    """ISO 14443-3A card states."""

    IDLE = "idle"
    READY = "ready"
    ACTIVE = "active"
    HALT = "halt"


@dataclass
class EmulatedTag:
    """A type A tag with a 4- or 7-byte UID and 16 pages of 4 bytes (NTAG/Ultralight-like)."""

    uid: bytes
    memory: bytearray = field(default_factory=lambda: bytearray(64))
    state: TagState = TagState.IDLE
    level: int = 0
    halted: bool = False
    naks_halt: bool = False  # answers HLTA with a NAK, not halting (ISO 14443-3: any answer within
                             # 1 ms of HLTA is a NAK): what a reader must still see
    garbled_halts: int = 0   # HLTAs that reach it garbled (a stone at the field's edge): it NAKs
                             # each (its CRC check failed) and stays ACTIVE, then halts at the next
    hears_from: float = 0.0  # when a field has powered it up enough to hear a frame (the chip's
                             # clock: set as it comes into a field, or a field comes on)

    def __post_init__(self) -> None:
        if len(self.uid) not in (4, 7):
            raise ValueError(f"a UID has 4 or 7 bytes, not {len(self.uid)}: {self.uid.hex()}")
        self.memory[0:len(self.uid)] = self.uid

    def power_off(self) -> None:
        """The field that powers the tag is gone (or it has just come into one): it forgets
        being halted, selected or resolved, and answers REQA from IDLE when a field powers it
        (ISO/IEC 14443-3's POWER-OFF state, left for IDLE)."""
        self.state, self.level, self.halted = TagState.IDLE, 0, False

    @property
    def tag_id(self) -> str:
        """The UID in upper-case hex, as the registry names tags."""
        return self.uid.hex().upper()

    def cascade(self, level: int) -> bytes:
        """The 5 bytes (UID part and BCC) this tag sends at cascade ``level`` (0 or 1)."""
        part = self.uid if len(self.uid) == 4 else (
            bytes([CASCADE_TAG]) + self.uid[:3] if level == 0 else self.uid[3:])
        return part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])

    @property
    def levels(self) -> int:
        """How many cascade levels the UID needs."""
        return 1 if len(self.uid) == 4 else 2

    def hear(self, bits: Bits) -> Bits | None:
        """Answer a frame from the reader (None: stay silent)."""
        if len(bits) == 7:
            return self._short_frame(from_bits(bits)[0])
        if len(bits) < 16 or self.state in (TagState.IDLE, TagState.HALT):
            return None
        frame = from_bits(bits)
        if self.state is TagState.READY:
            return self._select(frame, bits)
        return self._active(frame)

    def _short_frame(self, command: int) -> Bits | None:
        """REQA or WUPA: a tag in READY (READY* if woken from HALT: ``halted``) or ACTIVE takes
        either for an error (ISO/IEC 14443-3) and goes back to IDLE (HALT) unanswering, so a
        second one wakes it; an IDLE tag answers either, a halted one WUPA only."""
        if self.state in (TagState.READY, TagState.ACTIVE):
            return self._confused()
        if command == WUPA or (command == REQA and self.state is not TagState.HALT):
            self.halted = self.halted and command == WUPA
            self.state, self.level = TagState.READY, 0
            return to_bits(bytes([0x04 if len(self.uid) == 4 else 0x44, 0x00]))
        return None

    def _select(self, frame: bytes, bits: Bits) -> Bits | None:
        if frame[0] != (SEL_CL1, SEL_CL2)[self.level]:
            return self._confused()
        if frame[1] == 0x70 and len(bits) == 72:
            return self._full_select(frame)
        known = (frame[1] >> 4) * 8 + (frame[1] & 0x0F) - 16
        mine = to_bits(self.cascade(self.level))
        if known != len(bits) - 16 or not 0 <= known < 40:
            return self._confused()
        return mine[known:] if bits[16:] == mine[:known] else None

    def _full_select(self, frame: bytes) -> Bits | None:
        if frame[2:7] != self.cascade(self.level) or crc_a(frame[:7]) != _crc_of(frame[7:9]):
            return self._confused()
        self.level += 1
        if self.level < self.levels:
            return to_bits(with_crc(bytes([SAK_CASCADE])))
        self.state = TagState.ACTIVE
        return to_bits(with_crc(bytes([0x08 if len(self.uid) == 4 else 0x00])))

    def _active(self, frame: bytes) -> Bits | None:
        if len(frame) != 4 or crc_a(frame[:2]) != _crc_of(frame[2:4]):
            return self._confused()
        if frame[0] == HLTA and frame[1] == 0:
            if self.naks_halt or self.garbled_halts:
                self.garbled_halts = max(0, self.garbled_halts - 1)
                return [0, 0, 0, 0]
            self.state, self.halted = TagState.HALT, True
            return None
        if frame[0] == READ:
            start = (frame[1] % 16) * 4
            page = (self.memory + self.memory)[start:start + 16]
            return to_bits(with_crc(bytes(page)))
        return self._confused()

    def _confused(self) -> Bits | None:
        """A frame the tag does not expect sends it back to IDLE (HALT if it was halted)."""
        self.state = TagState.HALT if self.halted else TagState.IDLE
        return None


def _crc_of(two: bytes) -> int:
    return two[0] | (two[1] << 8) if len(two) == 2 else -1


class ChipFault(Enum):
    """Ways the emulated chip misbehaves on demand."""

    NONE = "none"
    DEAD = "dead"          # no answer on SPI: every byte reads 0x00 (unpowered, MISO loose)
    FLOATING = "floating"  # no answer, MISO floating high: every byte reads 0xFF (no buffer)
    STUCK = "stuck"        # registers answer, but a Transceive never completes (no interrupt)
    GARBLED = "garbled"    # answers arrive with a parity error (noise, a tag at the field's edge)
    MISSED = "missed"      # the tags do not answer (a weak field, a tag tilted on the spot)
    OVERHEATED = "overheated"  # TempErr: at each Transceive the chip switches its antenna off
    NOISE = "noise"        # answers drown in noise (another RC522's field too near): a collision
                           # at their first bit, and not one bit kept (CollErr, an empty FIFO)


_SPECIAL_READS = frozenset({Reg.FIFO_DATA, Reg.FIFO_LEVEL, Reg.VERSION})
_SPECIAL_WRITES = frozenset({Reg.COM_IRQ, Reg.DIV_IRQ, Reg.FIFO_DATA, Reg.FIFO_LEVEL, Reg.COMMAND,
                             Reg.COLL, Reg.BIT_FRAMING, Reg.TX_CONTROL, Reg.ERROR, Reg.STATUS1,
                             Reg.VERSION, Reg.CRC_RESULT_H, Reg.CRC_RESULT_L})  # read-only ones ignore writes
AIR_BIT_S = BIT_S * 9 / 8    # a byte's bit, with its share of the parity bit
TIMER_STOP_BITS = 5          # TAuto's timer stops at an answer's 5th bit (start bit, 4 data bits)
STARTUP_S = 0.002            # after SoftReset (or a wake from soft power-down) the oscillator
                             # needs time; the chip reads as busy
TAG_POWER_UP_S = 0.005       # ISO/IEC 14443-3 (5.1): a tag accepts a REQA or WUPA within 5 ms of
                             # an unmodulated field; the emulated tags take all of it


def frame_delay_s(bits: Bits) -> float:
    """How long after the reader's last bit a tag starts its answer to the frame ``bits``: ISO/IEC
    14443-3's frame delay time for REQA, WUPA, ANTICOLLISION and SELECT, n = 9 (other commands
    at least that; the emulated tags answer every frame at it): (9 * 128 + 84) / fc after a last
    bit of 1, (9 * 128 + 20) / fc after a 0, a whole byte's last bit on air being its odd parity.

    >>> round(frame_delay_s(to_bits(bytes([WUPA]), 7)) * 1e6, 2)  # WUPA ends with a 1
    91.15
    >>> round(frame_delay_s(to_bits(bytes([REQA]), 7)) * 1e6, 2)  # REQA with a 0
    86.43
    """
    last = bits[-1] if len(bits) % 8 else 1 - sum(bits[-8:]) % 2
    return (9 * 128 + (84 if last else 20)) / CLOCK_HZ


class EmulatedRC522:
    """The chip behind one chip select: call :meth:`transfer` with what the master clocks out.

    ``clock`` (its own :class:`SimClock` when None) is advanced by ``transfer_s`` per transaction.
    ``garbles``, when set, is asked of every frame the tags answer (the frame's bits, as sent)
    whether their answer arrives garbled: a tag at the field's edge garbles now and then, some
    frames and not others, where :attr:`fault` ``GARBLED`` garbles every answer.
    """

    def __init__(self, version: int = 0x92, clock: SimClock | None = None,
                 transfer_s: float = 50e-6) -> None:
        self.version = version
        self.clock = clock or SimClock()
        self.transfer_s = transfer_s
        self.tags: list[EmulatedTag] = []
        self.fault = ChipFault.NONE
        self.garbles: Callable[[Bits], bool] | None = None
        self.transfers = 0
        self._due: list[tuple[float, Callable[[], None]]] = []  # what the chip does next, when
        self._awake_at = 0.0
        self._reset()

    def _reset(self) -> None:
        self.regs = [0] * 64
        for reg, value in RESET_VALUES.items():
            self.regs[reg] = value
        self.fifo: list[int] = []
        self._due = []
        self._switch_antenna(RESET_VALUES[Reg.TX_CONTROL])

    def _switch_antenna(self, tx_control: int) -> None:
        """TxControlReg takes ``tx_control``. With both antenna drivers off (Tx1RFEn, Tx2RFEn:
        after a reset, an overheat, or by a driver), or the chip in soft power-down
        (:meth:`_switch_power`), there is no field, and the tags, which only the field powers,
        lose their power: each comes back IDLE when a field powers it again,
        whether it was halted, selected or being resolved (:meth:`EmulatedTag.power_off`). A
        field switched on powers them up in :data:`TAG_POWER_UP_S`; until then none hears a frame.
        """
        was_on = self._field_on()
        self.regs[Reg.TX_CONTROL] = tx_control
        self._field_changed(was_on)

    def _field_on(self) -> bool:
        """An antenna driver on and the chip awake: in soft power-down it draws 10 uA at most
        from all its supplies (datasheet table 1), where a field takes 60-100 mA."""
        return bool(self.regs[Reg.TX_CONTROL] & ANTENNA_ON) and not self._powered_down()

    def _powered_down(self) -> bool:
        return bool(self.regs[Reg.COMMAND] & POWER_DOWN)

    def _field_changed(self, was_on: bool) -> None:
        """No field: the tags lose their power. A field back (when the chip is awake): they
        power up in :data:`TAG_POWER_UP_S`."""
        if not self._field_on():
            for tag in self.tags:
                tag.power_off()
        elif not was_on:
            for tag in self.tags:
                tag.hears_from = max(self.clock.now(), self._awake_at) + TAG_POWER_UP_S

    def power_up(self) -> None:
        """Its supply comes back after a moment without (a loose wire pushed back): every register
        at its reset value, the FIFO empty, so its antenna off and its timer stopped until a
        driver sets it up again; deaf while its oscillator starts, as after a soft reset."""
        self._reset()
        self._awake_at = self.clock.now() + STARTUP_S

    def place(self, tag: EmulatedTag) -> None:
        """A tag comes into the field: it starts IDLE, like any freshly powered tag, and hears no
        frame for its first :data:`TAG_POWER_UP_S` (ISO/IEC 14443-3, 5.1: 5 ms of unmodulated
        field to accept a request), as when the field comes on, so a stone laid on a spot while
        a driver scans it is read at the next scan."""
        tag.power_off()
        tag.hears_from = self.clock.now() + TAG_POWER_UP_S
        self.tags.append(tag)

    def lay(self, tag: EmulatedTag) -> None:
        """A tag placed and left to power up: :meth:`place`, then the clock runs on
        :data:`TAG_POWER_UP_S` when the field is on (when it is off, the field's coming on powers
        the tag up). A stone already lying on its spot when the next scan comes."""
        self.place(tag)
        if self._field_on():
            self.clock.advance(TAG_POWER_UP_S)

    def remove(self, uid: bytes) -> None:
        """The tag with ``uid`` leaves the field (no-op when it is not there)."""
        self.tags = [tag for tag in self.tags if tag.uid != uid]

    def transfer(self, data: bytes) -> bytes:
        """One SPI transaction (chip select low for all of ``data``); returns MISO's bytes."""
        self.transfers += 1
        self.clock.advance(self.transfer_s)
        self._run_due()
        if self.fault is ChipFault.DEAD or not data:
            return bytes(len(data))
        if self.fault is ChipFault.FLOATING:
            return bytes([0xFF] * len(data))
        if self.clock.now() < self._awake_at:  # still starting up: only PowerDown reads back
            return bytes([0]) + bytes([POWER_DOWN] * (len(data) - 1)) if data[0] & 0x80 else \
                bytes(len(data))
        if data[0] & 0x80:
            read = self._read
            return bytes([0, *[read((b >> 1) & 0x3F) for b in data[:-1]]])
        for value in data[1:]:
            self._write((data[0] >> 1) & 0x3F, value)
        return bytes(len(data))

    def _read(self, reg: int) -> int:
        if reg not in _SPECIAL_READS:
            return self.regs[reg]
        if reg == Reg.FIFO_DATA:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == Reg.FIFO_LEVEL:
            return len(self.fifo)
        if reg == Reg.VERSION:
            return self.version
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg not in _SPECIAL_WRITES:
            self.regs[reg] = value
        elif reg in (Reg.COM_IRQ, Reg.DIV_IRQ):
            mask = value & 0x7F
            self.regs[reg] = self.regs[reg] | mask if value & SET_BIT else self.regs[reg] & ~mask
        elif reg == Reg.FIFO_DATA:
            self._push_fifo([value])
        elif reg == Reg.FIFO_LEVEL:
            if value & FLUSH_BUFFER:
                self.fifo.clear()
                self.regs[Reg.ERROR] &= ~ERR_BUFFER_OVFL
        elif reg == Reg.COMMAND:
            self._command(value)
        elif reg == Reg.COLL:
            self.regs[reg] = (self.regs[reg] & 0x7F) | (value & VALUES_AFTER_COLL)
        elif reg == Reg.BIT_FRAMING:
            self.regs[reg] = value
            if value & START_SEND and self.regs[Reg.COMMAND] & 0x0F == Cmd.TRANSCEIVE and \
                    not self._powered_down():  # its clock stopped: nothing is sent
                self._transceive()
        elif reg == Reg.TX_CONTROL:
            self._switch_antenna(value)

    def _push_fifo(self, values: list[int]) -> None:
        for value in values:
            if len(self.fifo) >= FIFO_SIZE:
                self.regs[Reg.ERROR] |= ERR_BUFFER_OVFL
                return
            self.fifo.append(value)

    def _command(self, value: int) -> None:
        """CommandReg takes ``value``: its RcvOff and PowerDown bits, and a command that cancels
        the one running, its answer still to come, but NoCmdChange, which is no command: it
        "does not influence any running command in the CommandReg register. It can be used to
        manipulate any bit except the CommandReg register Command[3:0] bits, for example, the
        RcvOff bit or the PowerDown bit" (datasheet 10.3.1.6)."""
        command = value & 0x0F
        if command == Cmd.SOFT_RESET:
            self._reset()
            self._awake_at = self.clock.now() + STARTUP_S
            return
        was_down, was_on = self._powered_down(), self._field_on()
        if command != Cmd.NO_CMD_CHANGE:
            self._start(command)
        self.regs[Reg.COMMAND] = (self.regs[Reg.COMMAND] & 0x0F) | (value & (RCV_OFF | POWER_DOWN))
        if self._powered_down() != was_down:
            self._switch_power()
        self._field_changed(was_on)

    def _switch_power(self) -> None:
        """PowerDown set: soft power-down, "entered immediately [...] All internal current sinks
        are switched off, including the oscillator buffer", registers and FIFO kept (datasheet
        8.6.2): the field goes, so a tag's answer to come never comes, and the timer stops with
        the clock. PowerDown cleared: the wake-up, which the bit reads 1 through (table 24), the
        oscillator's start-up and "1024 clocks" (8.6.2), emulated as after a soft reset
        (:data:`STARTUP_S`). Left open by the datasheet: whether the timer goes on after the
        wake-up (the emulated one does not, nor the command it served)."""
        if self._powered_down():
            self._due = []
        else:
            self._awake_at = self.clock.now() + STARTUP_S

    def _start(self, command: int) -> None:
        self._due = []  # a command written cancels the one running, its answer still to come
        self.regs[Reg.COMMAND] = (self.regs[Reg.COMMAND] & ~0x0F) | command
        self.regs[Reg.ERROR] &= ERR_TEMP  # "Command execution clears all error bits except the
        # TempErr bit" (table 34), BufferOvfl too; Idle's as any other's: "A command is executed
        # by writing a command code (see Table 149)", which lists Idle (10.1)
        if command == Cmd.CALC_CRC:
            preset = CRC_PRESETS[self.regs[Reg.MODE] & 0x03]
            crc = crc_a(bytes(self.fifo), preset)
            self.fifo.clear()
            self.regs[Reg.CRC_RESULT_L], self.regs[Reg.CRC_RESULT_H] = crc & 0xFF, crc >> 8
            self.regs[Reg.DIV_IRQ] |= CRC_IRQ
        elif command == Cmd.MF_AUTHENT:
            self.regs[Reg.ERROR] |= ERR_PROTOCOL
            self.regs[Reg.COM_IRQ] |= ERR_IRQ

    def _transceive(self) -> None:
        framing = self.regs[Reg.BIT_FRAMING]
        tx_last, rx_align = framing & 0x07, (framing >> 4) & 0x07
        sent = bytes(self.fifo)
        self.fifo.clear()
        self.regs[Reg.ERROR] &= ERR_BUFFER_OVFL | ERR_TEMP  # the receiver's start-up clears
        # CollErr, CRCErr, ParityErr and ProtocolErr (9.3.1.7, each bit's line), not BufferOvfl,
        # which only a command started (:meth:`_start`) or FlushBuffer clears
        self.regs[Reg.COM_IRQ] |= TX_IRQ
        if self.fault is ChipFault.STUCK:
            return
        if self.fault is ChipFault.OVERHEATED:
            self._overheat()
        nbits = (len(sent) - 1) * 8 + (tx_last or 8) if sent else 0
        bits = to_bits(sent, nbits)
        answers = self._answers(bits)
        sent_at = self.clock.now() + nbits * AIR_BIT_S
        timer_ends = self._timer_end(sent_at)
        self._due = [] if timer_ends is None else [(timer_ends, self._time_out)]
        if answers:
            self._expect(answers, bits, sent_at, rx_align)

    def _expect(self, answers: list[Bits], bits: Bits, sent_at: float, rx_align: int) -> None:
        """The tags' ``answers`` to ``bits`` on their way: the receiver hears their fifth bit
        (:meth:`_hear`), then their end, the timer's end (TimerIRq) where it falls between."""
        begins = sent_at + frame_delay_s(bits)
        ends = begins + BIT_S + max(len(a) for a in answers) * AIR_BIT_S
        garbled = self.fault is ChipFault.GARBLED or bool(self.garbles and self.garbles(bits))
        answer = [(begins + TIMER_STOP_BITS * BIT_S, self._hear),
                  (ends, lambda: self._receive(answers, rx_align, garbled))]
        self._due = sorted(answer + self._due, key=lambda event: event[0])  # a tie: heard first

    def _hear(self) -> None:
        """An answer's fifth bit, where the timer stops (TAuto, table 106), the receiver on; with
        CommandReg's RcvOff set ("analog part of the receiver is switched off", table 24) the
        answer is lost and the timer runs out, as for a frame nobody answered. (RcvOff set after
        this bit, the datasheet does not say: the emulated receiver keeps the answer begun.)"""
        receiver_off = bool(self.regs[Reg.COMMAND] & RCV_OFF)
        self._due = [event for event in self._due if (event[1] == self._time_out) == receiver_off]

    def _overheat(self) -> None:
        """The temperature sensor tripped: TempErr (with ErrIRq), and the antenna drivers off,
        until a driver switches them on again (TxControlReg); the frame then goes unanswered."""
        self.regs[Reg.ERROR] |= ERR_TEMP
        self.regs[Reg.COM_IRQ] |= ERR_IRQ
        self._switch_antenna(self.regs[Reg.TX_CONTROL] & ~ANTENNA_ON & 0xFF)

    def _timer_end(self, sent_at: float) -> float | None:
        """When the timer started (TAuto) by a frame sent at ``sent_at`` runs out; None: it is
        not started."""
        mode = self.regs[Reg.T_MODE]
        if not mode & T_AUTO:
            return None
        reload = (self.regs[Reg.T_RELOAD_H] << 8) | self.regs[Reg.T_RELOAD_L]
        return sent_at + timer_period(mode, self.regs[Reg.T_PRESCALER], reload)

    def _time_out(self) -> None:
        self.regs[Reg.COM_IRQ] |= TIMER_IRQ

    def _run_due(self) -> None:
        while self._due and self.clock.now() >= self._due[0][0]:
            self._due.pop(0)[1]()

    def _answers(self, bits: Bits) -> list[Bits]:
        if not self._field_on() or not bits or self.fault is ChipFault.MISSED:
            return []
        now = self.clock.now()
        heard = [tag.hear(bits) for tag in self.tags if now >= tag.hears_from]
        return [answer for answer in heard if answer is not None]

    def _receive(self, answers: list[Bits], rx_align: int, garbled: bool) -> None:
        if self.fault is ChipFault.NOISE:
            self._drown()
            return
        longest = max(len(a) for a in answers)
        clash = next((i for i in range(longest)
                      if len({a[i] if i < len(a) else 0 for a in answers}) > 1), None)
        bits = answers[0] if clash is None else self._collided(answers, clash)
        if clash is None:
            self.regs[Reg.COLL] = (self.regs[Reg.COLL] & VALUES_AFTER_COLL) | COLL_POS_NOT_VALID
        else:
            self.regs[Reg.ERROR] |= ERR_COLL
            self.regs[Reg.COM_IRQ] |= ERR_IRQ
            position = (rx_align + clash + 1) % 32
            self.regs[Reg.COLL] = (self.regs[Reg.COLL] & VALUES_AFTER_COLL) | position
        if garbled:
            self.regs[Reg.ERROR] |= ERR_PARITY
            self.regs[Reg.COM_IRQ] |= ERR_IRQ
        self._push_fifo(list(from_bits(bits, rx_align)))
        self.regs[Reg.CONTROL] = (self.regs[Reg.CONTROL] & 0xF8) | ((rx_align + len(bits)) % 8)
        self.regs[Reg.COM_IRQ] |= RX_IRQ

    def _collided(self, answers: list[Bits], clash: int) -> Bits:
        """What the receiver keeps of ``answers`` colliding at bit ``clash``: the bits before it,
        then, to the longest answer's end, zeros when CollReg's ValuesAfterColl is 0 ("all
        received bits will be cleared after a collision", datasheet 9.3.1.15), or what it made
        of the answers on top of each other when it is 1, its reset value: a 1 wherever one of
        them sent a 1 (type A's Manchester 1 is a subcarrier in the bit's first half, ISO/IEC
        14443-2; what a chip reads of two answers the datasheet does not say: this is the
        emulator's guess). The collided bit is data to neither: a driver sets the branch it
        takes (ISO/IEC 14443-3, 6.4.3.1: the PCD decides on (0)b or (1)b)."""
        longest = max(len(a) for a in answers)
        if not self.regs[Reg.COLL] & VALUES_AFTER_COLL:
            return [*answers[0][:clash], *[0] * (longest - clash)]
        return [max(a[i] if i < len(a) else 0 for a in answers) for i in range(longest)]

    def _drown(self) -> None:
        """The answer drowned in noise: the chip saw a collision at its first bit and kept not
        one bit of it (CollErr, CollPos 1, an empty FIFO): there is no branch to take."""
        self.regs[Reg.ERROR] |= ERR_COLL
        self.regs[Reg.COLL] = (self.regs[Reg.COLL] & VALUES_AFTER_COLL) | 1
        self.regs[Reg.CONTROL] &= 0xF8
        self.regs[Reg.COM_IRQ] |= RX_IRQ | ERR_IRQ
