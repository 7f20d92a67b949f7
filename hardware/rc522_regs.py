"""The MFRC522's registers, commands and bits (NXP MFRC522 datasheet, section 9), and CRC_A.

Shared by the Pi driver (:mod:`hardware.mfrc522`) and the emulated chip
(:mod:`hardware.sim_rc522`) so both speak in the datasheet's names.
"""

from __future__ import annotations

from enum import IntEnum


class Reg(IntEnum):
    """Register addresses (6 bits)."""

    COMMAND = 0x01
    COM_IEN = 0x02
    DIV_IEN = 0x03
    COM_IRQ = 0x04
    DIV_IRQ = 0x05
    ERROR = 0x06
    STATUS1 = 0x07
    STATUS2 = 0x08
    FIFO_DATA = 0x09
    FIFO_LEVEL = 0x0A
    WATER_LEVEL = 0x0B
    CONTROL = 0x0C
    BIT_FRAMING = 0x0D
    COLL = 0x0E
    MODE = 0x11
    TX_MODE = 0x12
    RX_MODE = 0x13
    TX_CONTROL = 0x14
    TX_ASK = 0x15
    CRC_RESULT_H = 0x21
    CRC_RESULT_L = 0x22
    MOD_WIDTH = 0x24
    RF_CFG = 0x26
    T_MODE = 0x2A
    T_PRESCALER = 0x2B
    T_RELOAD_H = 0x2C
    T_RELOAD_L = 0x2D
    VERSION = 0x37


class Cmd(IntEnum):
    """CommandReg commands (low 4 bits)."""

    IDLE = 0x00
    MEM = 0x01
    GENERATE_RANDOM_ID = 0x02
    CALC_CRC = 0x03
    TRANSMIT = 0x04
    NO_CMD_CHANGE = 0x07
    RECEIVE = 0x08
    TRANSCEIVE = 0x0C
    MF_AUTHENT = 0x0E
    SOFT_RESET = 0x0F


RCV_OFF = 0x20               # CommandReg: the receiver's analog part switched off
POWER_DOWN = 0x10            # CommandReg: soft power-down (also set while a soft reset runs)
SET_BIT = 0x80               # ComIrqReg/DivIrqReg: 1 sets the marked bits, 0 clears them
TX_IRQ, RX_IRQ, IDLE_IRQ = 0x40, 0x20, 0x10
ERR_IRQ, TIMER_IRQ = 0x02, 0x01
CRC_IRQ = 0x04               # DivIrqReg
FLUSH_BUFFER = 0x80          # FIFOLevelReg
START_SEND = 0x80            # BitFramingReg
VALUES_AFTER_COLL = 0x80     # CollReg
COLL_POS_NOT_VALID = 0x20    # CollReg
ERR_TEMP = 0x40              # ErrorReg TempErr: the chip overheated and switched its antenna off
ERR_BUFFER_OVFL, ERR_COLL, ERR_CRC, ERR_PARITY, ERR_PROTOCOL = 0x10, 0x08, 0x04, 0x02, 0x01
ANTENNA_ON = 0x03            # TxControlReg: Tx1RFEn | Tx2RFEn
FIFO_SIZE = 64
KNOWN_VERSIONS = {0x12: "MFRC522 clone (works, but not NXP's)", 0x88: "FM17522 clone",
                  0x90: "MFRC522 v0.0", 0x91: "MFRC522 v1.0", 0x92: "MFRC522 v2.0",
                  0xB2: "FM17522 clone"}
NO_CHIP_VERSIONS = (0x00, 0xFF)  # MISO floating high or held low: nothing answers
T_AUTO = 0x80                # TModeReg: the timer starts when a transmission ends
RX_GAIN_MASK = 0x70          # RFCfgReg bits 6:4
RX_GAINS_DB = {18: 0x00, 23: 0x10, 33: 0x40, 38: 0x50, 43: 0x60, 48: 0x70}  # datasheet table 98
CLOCK_HZ = 13_560_000
BIT_S = 128 / CLOCK_HZ       # one bit on air at ISO 14443-3 type A's 106 kbit/s (9.4 us)
RESET_WAIT_S = 0.05          # oscillator start-up after a reset or power-up, generously
FIELD_ON_WAIT_S = 0.0051     # the field unmodulated before the first frame once the antenna is on:
                             # ISO/IEC 14443-3 (5.1) gives a tag 5 ms to accept a request, and has
                             # the reader wait 5.1 ms to find the slowest
FRAME_RELOAD = 59            # TReload in 25 us ticks: (59 + 1) ticks = 1.5 ms, the timeout of every
                             # ISO 14443-3 frame of a scan (REQA/WUPA, ANTICOLLISION, SELECT, HLTA):
                             # a tag answers the first three (n = 9) 86 or 91 us after the frame
                             # and the timer stops at its answer's 5th bit 47 us later (datasheet
                             # TModeReg's TAuto), a NAK to HLTA within 1 ms; NXP's reader library
                             # waits 145 us for the first three, 1.16 ms for HLTA
                             # (phpalI14443p3a_Sw_Int.h)
READ_RELOAD = 1000           # (1000 + 1) ticks = 25 ms for READ (read_block, no part of a scan): an
                             # NTAG's READ times out after 5 ms (NXP's NTAG21x datasheet), NXP's
                             # reader library waits 10 ms after SELECT; miguelbalboa/rfid's 25 ms
                             # cost a scan nothing


def timer_period(t_mode: int, t_prescaler: int, reload: int) -> float:
    """Seconds until the chip's timer underflows: (TReload + 1) * (2 * TPrescaler + 1) / 13.56 MHz.

    TPrescaler's 12 bits are TModeReg's low nibble and TPrescalerReg (datasheet 8.5, with
    TPrescalEven off).

    >>> round(timer_period(0x80, 0xA9, 1000) * 1000, 1)  # the Pi driver's 25 ms
    25.0
    >>> round(timer_period(0x8D, 0x3E, 30) * 1000, 2)    # what the firmware had: not 25 ms
    15.5
    >>> round(timer_period(0x80, 0xA9, FRAME_RELOAD) * 1000, 2)  # the Pi driver's scan frames
    1.5
    """
    prescaler = ((t_mode & 0x0F) << 8) | t_prescaler
    return (reload + 1) * (2 * prescaler + 1) / CLOCK_HZ

# ISO/IEC 14443-3 type A commands and answers.
REQA, WUPA = 0x26, 0x52      # 7-bit short frames
SEL_CL1, SEL_CL2 = 0x93, 0x95
CASCADE_TAG = 0x88
SAK_CASCADE = 0x04
HLTA = 0x50
READ = 0x30
CRC_PRESETS = {0b00: 0x0000, 0b01: 0x6363, 0b10: 0xA671, 0b11: 0xFFFF}  # ModeReg CRCPreset


def crc_a(data: bytes, preset: int = 0x6363) -> int:
    """ISO/IEC 14443-3 CRC_A of ``data``; sent low byte first.

    >>> hex(crc_a(bytes([0x50, 0x00])))  # HLTA is sent as 50 00 57 CD
    '0xcd57'
    """
    crc = preset
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return crc


def with_crc(data: bytes) -> bytes:
    """``data`` followed by its CRC_A, low byte first (what a tag or reader transmits)."""
    crc = crc_a(data)
    return data + bytes([crc & 0xFF, crc >> 8])
