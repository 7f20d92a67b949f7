"""MFRC522 (RC522) RFID reader on ``machine.SPI`` plus a chip-select pin (MicroPython subset).

Reads the UIDs of the ISO 14443A tags on the antenna: WUPA/REQA, bit-oriented anticollision
and SELECT for cascade levels 1 to 3 (4, 7 and 10 byte UIDs), then HLTA, one tag after another
(several stones can lie on one spot). :class:`TagWatch` turns successive reads into arrive/leave
events.

A garbled frame (ErrorReg's ParityErr, ProtocolErr or BufferOvfl, a collision CollReg cannot
place or that kept not one bit, a UID part failing its BCC, no SAK) is the tags' doing, not the
chip's: a stone half over the antenna garbles now and then. It is told apart from a failed
reader (the chip did not finish, or nothing answers on the bus) as the Pi's own driver
(``hardware/rfid.py``) and the library it follows (miguelbalboa/rfid) do: a garbled branch of
the UID tree is dropped, and its scan, garbled, finds no stone gone (the ones below that branch
were not read); a garbled WUPA ends the walk, a scan as garbled, with the stones read before
it; and only a chip whose version register then reads 0x00 or 0xFF (nothing drives MISO: every
register, ErrorReg too, reads all ones on a line floating high) has failed.
"""

from link import (const, ticks_diff, READER_FAILED, READER_GARBLING, READER_OK, READER_OVERHEATED,
                  TAG_ARRIVE, TAG_LEAVE)

COMMAND_REG = const(0x01)
COM_IRQ_REG = const(0x04)
DIV_IRQ_REG = const(0x05)
ERROR_REG = const(0x06)
FIFO_DATA_REG = const(0x09)
FIFO_LEVEL_REG = const(0x0A)
BIT_FRAMING_REG = const(0x0D)
COLL_REG = const(0x0E)
MODE_REG = const(0x11)
TX_CONTROL_REG = const(0x14)
TX_ASK_REG = const(0x15)
CRC_RESULT_H = const(0x21)
CRC_RESULT_L = const(0x22)
T_MODE_REG = const(0x2A)
T_PRESCALER_REG = const(0x2B)
T_RELOAD_H = const(0x2C)
T_RELOAD_L = const(0x2D)
VERSION_REG = const(0x37)

CMD_IDLE = const(0x00)
CMD_CALC_CRC = const(0x03)
CMD_TRANSCEIVE = const(0x0C)
CMD_SOFT_RESET = const(0x0F)

PICC_WUPA = const(0x52)
PICC_HLTA = const(0x50)
CASCADE = (0x93, 0x95, 0x97)
CASCADE_TAG = const(0x88)

IRQ_RX = const(0x20)
IRQ_IDLE = const(0x10)
IRQ_ERR = const(0x02)
IRQ_TIMER = const(0x01)
IRQ_CRC = const(0x04)
ERR_COLLISION = const(0x08)
ERR_FATAL = const(0x13)
ERR_TEMP = const(0x40)   # TempErr: the chip overheated and switched its antenna off itself
COLL_POS_NOT_VALID = const(0x20)
START_SEND = const(0x80)  # BitFramingReg: starts a Transceive's frame (datasheet 9.3.1.14)

OK = const(0)
NO_TAG = const(1)
COLLISION = const(2)
ERROR = const(3)      # the chip failed: it did not finish, or nothing answers on the bus
GARBLED = const(4)    # the tags' answer arrived garbled: this scan says nothing
OVERHEATED = const(5)  # the chip overheated (ErrorReg's TempErr): its antenna is off, it failed
FAILED = (ERROR, OVERHEATED)
NO_CHIP_VERSIONS = (0x00, 0xFF)  # what VersionReg reads when no chip drives MISO

MISS_LIMIT = const(3)
GARBLED_IN_A_ROW = const(20)  # garbled scans in a row before the reader garbles every scan: as the
                              # Pi's (hardware/rfid.py), where the docstring says why 20
MAX_TAGS = const(8)
HALT_TRIES = const(3)  # HLTAs sent to a tag that answers them (a NAK): as the Pi's driver
                       # (hardware/mfrc522.py's HALT_TRIES, which says why 3)
WAIT_US = const(5000)   # the chip's own 1.5 ms timer and a frame's air time (a SELECT's 0.8 ms),
                        # with room: only a dead or stuck chip reaches it (40 ms cost a stuck
                        # chip 44 ms of every poll, the buttons waiting)
POLL_US = const(1000)   # between reads of an interrupt register once a frame's answer and its
                        # timer are both due and neither came (a stuck chip), and for a reset or
                        # a CRC: as the Pi's driver (its POLL_INTERVAL_S)
FRAME_RELOAD = const(2)  # TReload in 0.5 ms ticks: (2 + 1) ticks = 1.5 ms, the timeout of every
                         # frame of a scan (WUPA, ANTICOLLISION, SELECT, HLTA), as the Pi's driver
                         # has it (hardware/rc522_regs.py's FRAME_RELOAD says why)
FRAME_TIMER_US = const(1501)  # that timer: (2 + 1) * (2 * 0xD3E + 1) / 13.56 MHz, rounded up
RESET_US = const(50000)  # oscillator start-up after a soft reset, generously
FIELD_ON_US = const(5100)  # the field unmodulated before the first frame once the antenna is on:
                          # ISO/IEC 14443-3 (5.1) gives a tag 5 ms to accept a request, and has
                          # the reader wait 5.1 ms (the Pi's FIELD_ON_WAIT_S)

BIT_CYCLES = const(128)        # one bit on air at ISO 14443-3 type A's 106 kbit/s: 128 / 13.56 MHz
FRAME_DELAY_CYCLES = const(9 * 128 + 84)  # ISO 14443-3's frame delay time before a tag answers
                               # REQA/WUPA, ANTICOLLISION or SELECT (n = 9), after a last bit of
                               # 1: 91 us, the longer of its two (86 us after a 0)


def cycles_us(cycles):
    """``cycles`` of the 13.56 MHz carrier in whole microseconds, rounded up: a driver that
    looks then never looks before the chip is done (the Pico has no double floats, and
    ``time.ticks_us`` counts whole microseconds)."""
    return (cycles * 100 + 1355) // 1356


def air_us(bits):
    """A frame of ``bits`` on air: a parity bit after each whole byte, a start and an end bit
    (``air_us(7)``, a WUPA: 85)."""
    return cycles_us((bits + bits // 8 + 2) * BIT_CYCLES)


def frame_ends_us(sent_bits, answer_bits, timer_us):
    """When a frame of ``sent_bits`` may be over, in microseconds from StartSend, soonest first:
    its answer of ``answer_bits`` received (None: no answer is expected; a tag answers at ISO
    14443-3's fixed frame delay time, so the chip is done then to a few us), and the chip's
    ``timer_us`` timer run out (TAuto starts it at the frame's end), which ends a frame no tag
    answers. Asked then, and not in a loop, the chip tells a frame's end at the first read of
    ComIrqReg, or the second when no tag answers. Both drivers wait by it: this firmware's and
    the Pi's (``hardware/mfrc522.py``), which loads this module."""
    sent = air_us(sent_bits)
    timer_ends = sent + timer_us
    if answer_bits is None:
        return (timer_ends,)
    answered = sent + cycles_us(FRAME_DELAY_CYCLES) + air_us(answer_bits)
    return (answered, timer_ends) if answered <= timer_ends else (timer_ends, answered)


class RC522:
    """One RC522 chip: ``spi`` is a ``machine.SPI``, ``cs`` its chip-select ``machine.Pin``.

    Waits on the chip end by time (``now_us`` and ``sleep_us``: ``time.ticks_us`` and
    ``time.sleep_us`` on the Pico): an unanswered frame by the chip's 1.5 ms timer, a dead chip
    after ``wait_us``; never after a count of reads, whose duration depends on the bus. A
    frame's end is read when it is due (:func:`frame_ends_us`), then every :data:`POLL_US`: the
    node read ComIrqReg back to back, some 30 SPI transfers for an empty spot's WUPA alone.
    """

    def __init__(self, spi, cs, now_us, sleep_us, wait_us=WAIT_US):
        self.spi = spi
        self.cs = cs
        self.now_us = now_us
        self.sleep_us = sleep_us
        self.wait_us = wait_us
        cs.value(1)

    def _wait_bits(self, reg, mask, limit_us, looks=()):
        """Read ``reg`` until a bit of ``mask`` is set: the value, or None after ``limit_us``,
        once a read begun past it found none: a pause between a read and the clock's look (a
        garbage collection) would take a frame that ended meanwhile for a dead chip. It is read
        first at each of ``looks`` (microseconds from now, when the chip is due to be done; at
        once when there are none), then every :data:`POLL_US`."""
        start = self.now_us()
        reads = 0
        while True:
            self._pause(start, looks, reads)
            late = ticks_diff(self.now_us(), start) > limit_us
            value = self._read(reg)
            if value & mask:
                return value
            if late:
                return None
            reads += 1

    def _pause(self, start, looks, reads):
        """Sleep before a wait's read number ``reads``: until its look, or :data:`POLL_US` once
        the looks are spent (the first read of a wait without looks at once)."""
        if reads < len(looks):
            pause = looks[reads] - ticks_diff(self.now_us(), start)
        else:
            pause = POLL_US if reads else 0
        if pause > 0:
            self.sleep_us(pause)

    def _write(self, reg, *values):
        """Write ``values`` to ``reg`` in one transfer: its address byte, then every value, each
        going to that register while chip select stays low (datasheet 8.1.2.3): a frame's bytes
        load the FIFO in one transfer, not one each (a SELECT's 9 chip-select cycles)."""
        self.cs.value(0)
        try:
            self.spi.write(bytes(((reg << 1) & 0x7E,) + values))
        finally:
            self.cs.value(1)

    def _read(self, reg):
        return self._read_many(reg, 1)[0]

    def _read_many(self, reg, count):
        """``count`` reads of ``reg`` in one transfer: its address byte ``count`` times, then 0;
        each byte clocks out the value at the address before it (datasheet 8.1.2.2), so the
        first byte back is not data. How an answer leaves the FIFO."""
        address = ((reg << 1) & 0x7E) | 0x80
        answer = bytearray(count + 1)
        self.cs.value(0)
        try:
            self.spi.write_readinto(bytes([address] * count + [0]), answer)
        finally:
            self.cs.value(1)
        return bytes(answer[1:])

    def _set_bits(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def init(self):
        """Reset the chip, set a 1.5 ms receive timeout and switch the antenna on; False, doing
        nothing, when no chip answers (its version register reads 0x00 or 0xFF), as the Pi's
        driver refuses one: on a MISO line floating high the reset's wait read busy for 50 ms.

        Timer: TPrescaler 0xD3E = 3390 gives 13.56 MHz / 6781 = 2 kHz ticks (0.5 ms), and
        TReload 2 ends it after (2 + 1) ticks = 1.5 ms (datasheet 8.5). The antenna on, it waits
        :data:`FIELD_ON_US` for the tags, which lost their power with the field, to power up.
        """
        if self.version() in NO_CHIP_VERSIONS:
            return False
        self._write(COMMAND_REG, CMD_SOFT_RESET)
        start = self.now_us()
        while self._read(COMMAND_REG) & 0x10 and ticks_diff(self.now_us(), start) < RESET_US:
            self.sleep_us(POLL_US)
        self._write(T_MODE_REG, 0x8D)
        self._write(T_PRESCALER_REG, 0x3E)
        self._write(T_RELOAD_H, 0)
        self._write(T_RELOAD_L, FRAME_RELOAD)
        self._write(TX_ASK_REG, 0x40)
        self._write(MODE_REG, 0x3D)
        self._set_bits(TX_CONTROL_REG, 0x03)
        self.sleep_us(FIELD_ON_US)  # the tags power up: their field was off since the reset
        return True

    def version(self):
        """The chip's VersionReg (0x91 or 0x92 for a genuine MFRC522; 0 or 0xFF: nothing there)."""
        return self._read(VERSION_REG)

    def _load_fifo(self, data):
        self._write(COMMAND_REG, CMD_IDLE)
        self._write(FIFO_LEVEL_REG, 0x80)
        self._write(FIFO_DATA_REG, *data)

    def transceive(self, data, last_bits=0, rx_align=0, answer_bits=None):
        """Send ``data`` to the tags; ``(status, answer)``: OK, NO_TAG, COLLISION, GARBLED (an
        answer with ErrorReg's errors), OVERHEATED (TempErr) or ERROR (the chip did not finish).

        ``last_bits`` is how many bits of the last byte to send (0: all 8), ``rx_align`` the bit
        position where the first received bit goes (both for bit-oriented anticollision frames),
        ``answer_bits`` how long the tags' answer is (None: no answer is expected), so the chip
        is asked when it is due.
        """
        self._write(COM_IRQ_REG, 0x7F)
        self._load_fifo(data)
        framing = ((rx_align & 0x07) << 4) | (last_bits & 0x07)
        self._write(COMMAND_REG, CMD_TRANSCEIVE)
        self._write(BIT_FRAMING_REG, START_SEND | framing)  # the framing and StartSend at once
        sent_bits = (len(data) - 1) * 8 + (last_bits or 8)
        status = self._wait_answer(frame_ends_us(sent_bits, answer_bits, FRAME_TIMER_US))
        self._write(BIT_FRAMING_REG, framing)  # StartSend cleared, with no read: the Pi's way
        if status != OK:
            return status, b""
        return self._answer()

    def _wait_answer(self, looks):
        """How the frame ended, looked for at ``looks``; an overheated chip sends nothing, so its
        frames end by the timer as an empty field's do, and only ErrorReg's TempErr (with ErrIRq)
        tells them apart."""
        irq = self._wait_bits(COM_IRQ_REG, IRQ_RX | IRQ_IDLE | IRQ_TIMER, self.wait_us, looks)
        if irq is None:
            return ERROR
        if irq & IRQ_ERR and self._read(ERROR_REG) & ERR_TEMP:
            return OVERHEATED
        return OK if irq & (IRQ_RX | IRQ_IDLE) else NO_TAG

    def _answer(self):
        error = self._read(ERROR_REG)
        if error & ERR_FATAL:
            return GARBLED, b""
        count = self._read(FIFO_LEVEL_REG) & 0x7F
        answer = self._read_many(FIFO_DATA_REG, count) if count else b""
        if error & ERR_COLLISION:  # no bit kept (an answer drowned in noise): no branch to take
            return (COLLISION if answer else GARBLED), answer
        if not answer:
            return NO_TAG, answer
        return OK, answer

    def crc_a(self, data):
        """The ISO 14443A CRC of ``data`` from the chip's coprocessor, low byte first."""
        self._write(DIV_IRQ_REG, IRQ_CRC)
        self._load_fifo(data)
        self._write(COMMAND_REG, CMD_CALC_CRC)
        self._wait_bits(DIV_IRQ_REG, IRQ_CRC, self.wait_us)
        self._write(COMMAND_REG, CMD_IDLE)
        return bytes((self._read(CRC_RESULT_L), self._read(CRC_RESULT_H)))

    def anticollision(self, level, prefix=b"", known=0):
        """One anticollision step at cascade ``level`` (0x93, 0x95, 0x97) after ``known`` bits.

        Only tags whose UID part starts with the first ``known`` bits of ``prefix`` answer.
        Returns ``(status, uid5, known)``: OK with the 5 bytes (UID part and BCC) of the one tag
        answering; COLLISION with the bits up to the first collided one (that bit set to 1) and
        their count; NO_TAG, GARBLED, OVERHEATED or ERROR with nothing.
        """
        uid5 = bytearray(5)
        uid5[:len(prefix)] = prefix
        _keep_bits(uid5, known)
        whole, bits = known // 8, known % 8
        frame = bytes((level, ((2 + whole) << 4) | bits)) + bytes(uid5[:whole + (1 if bits else 0)])
        status, answer = self.transceive(frame, bits, bits, 40 - known)
        if status not in (OK, COLLISION) or not answer:
            return (GARBLED if status == OK else status), b"", 0
        for i, byte in enumerate(answer[:5 - whole]):
            uid5[whole + i] |= byte
        if status == OK:
            return self._check_bcc(uid5) + (40,)
        known = self._collided_bit(whole)
        if not known_bits_valid(known, whole, bits):
            return GARBLED, b"", 0
        _keep_bits(uid5, known)
        uid5[(known - 1) // 8] |= 1 << ((known - 1) % 8)
        return COLLISION, bytes(uid5), known

    def _collided_bit(self, whole):
        """How many bits are known after a collision (up to and including the collided bit)."""
        coll = self._read(COLL_REG)
        if coll & COLL_POS_NOT_VALID:
            return -1
        return 8 * whole + (coll & 0x1F or 32)

    @staticmethod
    def _check_bcc(uid5):
        if uid5[0] ^ uid5[1] ^ uid5[2] ^ uid5[3] ^ uid5[4]:
            return GARBLED, b""
        return OK, bytes(uid5)

    def _select(self, level, uid5):
        """SELECT the tag with ``uid5`` at ``level``: ``(status, SAK)``; no SAK (a garbled one,
        or none: the tag left) is GARBLED, as the Pi's driver has it. A garbled SAK may have
        left the tag selected: :meth:`read_uids` ends the round with HLTA."""
        frame = bytes((level, 0x70)) + uid5
        status, sak = self.transceive(frame + self.crc_a(frame), answer_bits=24)  # SAK, CRC_A
        if status in FAILED:
            return status, 0
        if status != OK or not sak:
            return GARBLED, 0
        return OK, sak[0]

    def _part(self, level, prefix, known, parts, pending):
        """``(status, uid5)``: the 5 bytes (UID part and BCC) at ``level`` of one tag below the
        first ``known`` bits of ``prefix``. At each collision the 1 branch is taken at once, the
        tags that answered still READY, and the 0 branch kept in ``pending`` for a later round:
        a round that went back to WUPA at each collision found every tag READY, and a READY tag
        takes WUPA for an error and goes back to IDLE (HALT) unanswering (ISO/IEC 14443-3), so
        that round was lost. Each collision fixes one more bit: 40 end the loop."""
        while True:
            status, uid5, bits = self.anticollision(level, prefix, known)
            if status != COLLISION:
                return status, uid5
            zero = bytearray(uid5)
            zero[(bits - 1) // 8] &= ~(1 << ((bits - 1) % 8)) & 0xFF
            pending.append((list(parts), bytes(zero), bits))
            prefix, known = uid5, bits

    def _resolve(self, done, prefix, known, pending):
        """Select the one tag below a branch of the UID tree, the branches not taken on the way
        kept in ``pending`` (:meth:`_part`).

        ``done`` holds the 5-byte parts of the cascade levels already fixed for this branch,
        ``prefix``/``known`` the bits fixed at the next level. Returns ``(status, uid)``.
        """
        parts = list(done)
        for index, level in enumerate(CASCADE):
            if index == len(parts):
                status, uid5 = self._part(level, prefix if index == len(done) else b"",
                                          known if index == len(done) else 0, parts, pending)
                if status != OK:
                    return status, b""
                parts.append(uid5)
            status, sak = self._select(level, parts[index])
            if status != OK:
                return status, b""
            if not sak & 0x04:
                return OK, b"".join(part[1:4] for part in parts[:-1]) + parts[-1][:4]
        return GARBLED, b""

    def read_uids(self, most=MAX_TAGS):
        """``(status, [uid, ...])``: every tag on the antenna (up to ``most``), each left halted.

        A walk of the UID tree: every round wakes all tags (WUPA, halted ones too), narrows down
        with the bits fixed so far to one tag, taking the 1 branch at each collision and keeping
        the 0 branch for a later round, selects it, and ends with HLTA (:meth:`_round`). ``most``
        rounds find ``most`` tags; twice that are allowed. A garbled branch is dropped and the
        walk goes on, but the scan is ``(GARBLED, uids)``: the tags read, and no word of those
        below that branch, which were not read, not found gone. A garbled WUPA ends the walk,
        ``(GARBLED, uids)`` with the tags read before it (they were dropped, read a scan later);
        either is ``ERROR`` when the version register says no chip answers. A failed chip
        (ERROR, OVERHEATED) ends the walk with its status.
        """
        uids = []
        pending = [([], b"", 0)]
        rounds = 0
        garbled = False
        while pending and len(uids) < most and rounds < 2 * most + 1:
            rounds += 1
            woken, status, uid = self._round(pending)
            if woken == GARBLED:
                return self._unless_gone(GARBLED), uids
            if uid:
                uids.append(uid)
            if status in FAILED:
                return self._unless_gone(status), uids
            garbled = garbled or status == GARBLED
        return (self._unless_gone(GARBLED) if garbled else OK), uids

    def _round(self, pending):
        """One round of :meth:`read_uids` on the last branch of ``pending``: ``(woken, status,
        uid)``, the WUPA's status and the branch's. A round whose WUPA a tag answered ends with
        HLTA, unless the chip failed: it halts the tag selected, and sends back to IDLE (HALT,
        if woken from it) every tag left READY or ACTIVE (by a garbled WUPA, an ANTICOLLISION
        that garbled or found no tag below the branch, a garbled SAK), as ISO/IEC 14443-3 has a
        READY tag take any frame but ANTICOLLISION and SELECT for an error. Left READY, it would
        take the next round's WUPA (or the next scan's) for that error instead, and miss it.
        A chip that fails at the HLTA fails the round, the tag it read kept: an overheat there
        switched the antenna off, and a round said OK left the next scan clean and empty."""
        done, prefix, known = pending.pop()
        woken = self.transceive(bytes((PICC_WUPA,)), 7, answer_bits=16)[0]  # ATQA
        status, uid = woken, b""
        if woken == OK or woken == COLLISION:
            self._write(COLL_REG, 0)  # ValuesAfterColl 0 for the round's ANTICOLLISIONs, as the Pi
            status, uid = self._resolve(done, prefix, known, pending)
        if status not in FAILED and woken != NO_TAG:
            halted = self.halt()
            status = halted if halted in FAILED else status
        return woken, status, uid

    def _unless_gone(self, status):
        """``status``, or ERROR when the version register says no chip answers: on a MISO line
        floating high every register reads all ones, ErrorReg's garbled bits and TempErr too."""
        return ERROR if self.version() in NO_CHIP_VERSIONS else status

    def halt(self):
        """Put the selected tag to sleep (HLTA), so the next scan's first WUPA wakes it: left
        ACTIVE, it would take that WUPA for an error and go IDLE unanswering (ISO/IEC 14443-3).

        No tag answers HLTA, so the frame ends by the chip's 1.5 ms timer; any answer within
        the 1 ms ISO gives it is 'not acknowledge', the HLTA not taken: a stone at the field's
        edge NAKs an HLTA that reached it garbled and stays ACTIVE. The HLTA is sent again,
        :data:`HALT_TRIES` times at most, as the Pi's driver does; a tag that answers every one
        is read all the same. Returns the last HLTA's status: NO_TAG when it was taken, ERROR or
        OVERHEATED when the chip failed.
        """
        frame = bytes((PICC_HLTA, 0))
        frame += self.crc_a(frame)
        for _ in range(HALT_TRIES):
            status = self.transceive(frame)[0]
            if status == NO_TAG or status in FAILED:
                return status
        return status


def known_bits_valid(known, whole, bits):
    """True when a collision at ``known`` bits lies past the ``whole``/``bits`` already sent."""
    return 8 * whole + bits < known <= 40


def _keep_bits(data, count):
    """Clear every bit of ``data`` from bit ``count`` on (bits counted LSB first, as on air)."""
    for i in range(len(data)):
        low = count - 8 * i
        if low <= 0:
            data[i] = 0
        elif low < 8:
            data[i] &= (1 << low) - 1


class TagWatch:
    """Which tags lie on one reader's antenna, as arrive/leave events.

    A tag counts as gone after ``miss_limit`` polls in a row without it, so a read that fails
    once (a tag at the edge of the field) does not make it leave and arrive again. A poll where
    the reader failed (an error status or an ``OSError`` from the bus) counts as no poll for
    the tags it did not read; so does a garbled one (GARBLED: its WUPA or a branch of the UID
    tree came garbled), which is no failure, as on the Pi (``hardware/rfid.py``'s
    ``Mfrc522Reader``): a tag it did not read may lie below the garbled branch, so only a clean
    scan counts misses. After any failure the next poll sets the
    chip up again (``init``), as the Pi's driver does: a chip that lost its power for a moment (a
    loose wire pushed back) is back at its reset values, its antenna off and its timer stopped,
    and one that overheated switched its antenna off; either reads again once it answers, or
    has cooled, without a power cycle of the node. A reader whose
    last ``GARBLED_IN_A_ROW`` scans all came garbled works, but does not read all its stones: it
    garbles every scan (READER_GARBLING) until its first scan that is not garbled.
    """

    def __init__(self, reader, miss_limit=MISS_LIMIT):
        self.reader = reader
        self.miss_limit = miss_limit
        self.misses = {}
        self.status = OK
        self.failed = False
        self.garbled = 0  # scans in a row that came garbled

    def poll(self):
        """``[(TAG_ARRIVE or TAG_LEAVE, uid), ...]`` since the last poll."""
        try:
            status, uids = self._scan()
        except OSError:
            status, uids = ERROR, []
        self.status = status
        self.failed = status in FAILED
        if status == GARBLED:
            self.garbled += 1
        elif status == OK:
            self.garbled = 0
        events = []
        for uid in uids:
            if uid not in self.misses:
                events.append((TAG_ARRIVE, uid))
            self.misses[uid] = 0
        if status == OK:
            events.extend(self._count_misses(uids))
        return events

    def _scan(self):
        """``read_uids``, after setting a reader that failed up again; one whose version
        register says no chip answers (``init`` returns False) is not scanned but still failed:
        its interrupt register reads 0x00 too, and the WUPA waited ``WAIT_US`` for it at every
        poll (40 ms when it was 40), the buttons waiting. One SPI read a poll tells when it is
        back."""
        if self.failed and not self.reader.init():
            return ERROR, []
        return self.reader.read_uids()

    def _count_misses(self, uids):
        gone = []
        for uid in list(self.misses):
            if uid not in uids:
                self.misses[uid] += 1
                if self.misses[uid] >= self.miss_limit:
                    del self.misses[uid]
                    gone.append((TAG_LEAVE, uid))
        return gone

    def present(self):
        """The UIDs on the antenna now, in no particular order."""
        return list(self.misses)

    def state(self):
        """What the node tells the Pi of this reader: the link's READER_OK, READER_FAILED,
        READER_OVERHEATED or READER_GARBLING, as of the last poll."""
        if self.status == OVERHEATED:
            return READER_OVERHEATED
        if self.failed:
            return READER_FAILED
        return READER_GARBLING if self.garbled >= GARBLED_IN_A_ROW else READER_OK
