"""MFRC522 (RC522) RFID reader on ``machine.SPI`` plus a chip-select pin (MicroPython subset).

Reads the UID of the ISO 14443A tag on the antenna: WUPA, anticollision and SELECT for cascade
levels 1 to 3 (4, 7 and 10 byte UIDs), then HLTA so the next poll wakes it again. Two tags on one
antenna at once are reported as a collision, not resolved: a bet spot holds one stone.
:class:`TagWatch` turns successive reads into arrive/leave events.
"""

from link import const, TAG_ARRIVE, TAG_LEAVE

COMMAND_REG = const(0x01)
COM_IRQ_REG = const(0x04)
DIV_IRQ_REG = const(0x05)
ERROR_REG = const(0x06)
FIFO_DATA_REG = const(0x09)
FIFO_LEVEL_REG = const(0x0A)
CONTROL_REG = const(0x0C)
BIT_FRAMING_REG = const(0x0D)
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
IRQ_TIMER = const(0x01)
IRQ_CRC = const(0x04)
ERR_COLLISION = const(0x08)
ERR_FATAL = const(0x13)

OK = const(0)
NO_TAG = const(1)
COLLISION = const(2)
ERROR = const(3)

MISS_LIMIT = const(3)


class RC522:
    """One RC522 chip: ``spi`` is a ``machine.SPI``, ``cs`` its chip-select ``machine.Pin``."""

    def __init__(self, spi, cs, wait_polls=100):
        self.spi = spi
        self.cs = cs
        self.wait_polls = wait_polls
        cs.value(1)

    def _write(self, reg, value):
        self.cs.value(0)
        try:
            self.spi.write(bytes(((reg << 1) & 0x7E, value)))
        finally:
            self.cs.value(1)

    def _read(self, reg):
        answer = bytearray(2)
        self.cs.value(0)
        try:
            self.spi.write_readinto(bytes((((reg << 1) & 0x7E) | 0x80, 0)), answer)
        finally:
            self.cs.value(1)
        return answer[1]

    def _set_bits(self, reg, mask):
        self._write(reg, self._read(reg) | mask)

    def _clear_bits(self, reg, mask):
        self._write(reg, self._read(reg) & ~mask & 0xFF)

    def init(self):
        """Reset the chip, set a 25 ms receive timeout and switch the antenna on."""
        self._write(COMMAND_REG, CMD_SOFT_RESET)
        for _ in range(self.wait_polls):
            if not self._read(COMMAND_REG) & 0x10:
                break
        self._write(T_MODE_REG, 0x8D)
        self._write(T_PRESCALER_REG, 0x3E)
        self._write(T_RELOAD_H, 0)
        self._write(T_RELOAD_L, 30)
        self._write(TX_ASK_REG, 0x40)
        self._write(MODE_REG, 0x3D)
        self._set_bits(TX_CONTROL_REG, 0x03)

    def version(self):
        """The chip's VersionReg (0x91 or 0x92 for a genuine MFRC522; 0 or 0xFF: nothing there)."""
        return self._read(VERSION_REG)

    def _load_fifo(self, data):
        self._write(COMMAND_REG, CMD_IDLE)
        self._write(FIFO_LEVEL_REG, 0x80)
        for byte in data:
            self._write(FIFO_DATA_REG, byte)

    def transceive(self, data, last_bits=0):
        """Send ``data`` to the tag; ``(status, answer bytes)`` with status OK/NO_TAG/COLLISION/ERROR."""
        self._write(COM_IRQ_REG, 0x7F)
        self._load_fifo(data)
        self._write(BIT_FRAMING_REG, last_bits & 0x07)
        self._write(COMMAND_REG, CMD_TRANSCEIVE)
        self._set_bits(BIT_FRAMING_REG, 0x80)
        status = self._wait_answer()
        self._clear_bits(BIT_FRAMING_REG, 0x80)
        if status != OK:
            return status, b""
        return self._answer()

    def _wait_answer(self):
        for _ in range(self.wait_polls):
            irq = self._read(COM_IRQ_REG)
            if irq & (IRQ_RX | IRQ_IDLE):
                return OK
            if irq & IRQ_TIMER:
                return NO_TAG
        return ERROR

    def _answer(self):
        error = self._read(ERROR_REG)
        if error & ERR_FATAL:
            return ERROR, b""
        count = self._read(FIFO_LEVEL_REG) & 0x7F
        answer = bytes(self._read(FIFO_DATA_REG) for _ in range(count))
        if error & ERR_COLLISION:
            return COLLISION, answer
        if not answer:
            return NO_TAG, answer
        return OK, answer

    def crc_a(self, data):
        """The ISO 14443A CRC of ``data`` from the chip's coprocessor, low byte first."""
        self._write(DIV_IRQ_REG, IRQ_CRC)
        self._load_fifo(data)
        self._write(COMMAND_REG, CMD_CALC_CRC)
        for _ in range(self.wait_polls):
            if self._read(DIV_IRQ_REG) & IRQ_CRC:
                break
        self._write(COMMAND_REG, CMD_IDLE)
        return bytes((self._read(CRC_RESULT_L), self._read(CRC_RESULT_H)))

    def _select_level(self, level):
        status, uid5 = self.transceive(bytes((level, 0x20)))
        if status != OK:
            return status, b"", 0
        if len(uid5) != 5 or uid5[0] ^ uid5[1] ^ uid5[2] ^ uid5[3] ^ uid5[4]:
            return ERROR, b"", 0
        frame = bytes((level, 0x70)) + uid5
        status, sak = self.transceive(frame + self.crc_a(frame))
        if status != OK or not sak:
            return ERROR if status == OK else status, b"", 0
        return OK, uid5[:4], sak[0]

    def read_uid(self):
        """``(status, uid bytes)`` of the tag on the antenna; the tag is halted afterwards."""
        status, atqa = self.transceive(bytes((PICC_WUPA,)), 7)
        if status != OK:
            return status, b""
        uid = b""
        for level in CASCADE:
            status, part, sak = self._select_level(level)
            if status != OK:
                return status, b""
            if not sak & 0x04:
                uid += part
                self.halt()
                return OK, uid
            uid += part[1:]
        return ERROR, b""

    def halt(self):
        """Put the selected tag to sleep (HLTA; a tag does not answer it)."""
        frame = bytes((PICC_HLTA, 0))
        self.transceive(frame + self.crc_a(frame))


class TagWatch:
    """Which tag lies on one reader's antenna, as arrive/leave events.

    A tag counts as gone after ``miss_limit`` polls in a row without it, so a read that fails
    once (a tag at the edge of the field) does not make it leave and arrive again.
    """

    def __init__(self, reader, miss_limit=MISS_LIMIT):
        self.reader = reader
        self.miss_limit = miss_limit
        self.present = None
        self.misses = 0

    def poll(self):
        """``[(TAG_ARRIVE or TAG_LEAVE, uid), ...]`` since the last poll."""
        status, uid = self.reader.read_uid()
        if status == OK:
            return self._seen(uid)
        if status == NO_TAG:
            return self._missed()
        return []

    def _seen(self, uid):
        self.misses = 0
        if uid == self.present:
            return []
        events = [(TAG_LEAVE, self.present)] if self.present is not None else []
        self.present = uid
        events.append((TAG_ARRIVE, uid))
        return events

    def _missed(self):
        if self.present is None:
            return []
        self.misses += 1
        if self.misses < self.miss_limit:
            return []
        gone = self.present
        self.present = None
        self.misses = 0
        return [(TAG_LEAVE, gone)]
