"""Both RC522 drivers (the Pi's and the seat node's) and stones that come into a field already on:
a stone needs ISO/IEC 14443-3's power-up time (5.1: 5 ms) before it hears a frame."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from hardware.rc522_regs import START_SEND, Reg
from hardware.sim_rc522 import TAG_POWER_UP_S, EmulatedRC522, EmulatedTag
from tests.firmware.test_rc522 import EIGHT_STONES, STONE, node_scan, pi_scan

SIDES = pytest.mark.parametrize("side", [pi_scan, node_scan], ids=["pi", "seat-node"])


@SIDES
def test_the_pi_and_a_seat_node_read_a_stone_laid_as_a_scan_began_at_the_next(
        machine: ModuleType, side: Any) -> None:
    # the emulated stone placed on a spot whose field was on answered the WUPA sent at once
    chip = EmulatedRC522()
    scan = side(machine, chip)
    chip.place(EmulatedTag(STONE))
    assert scan() == ("clean", set())  # its WUPA within the stone's power-up time: unanswered
    chip.clock.advance(TAG_POWER_UP_S)
    assert scan() == ("clean", {STONE.hex().upper()})


class LaidMidScan(EmulatedRC522):
    """An emulated chip onto whose field a stone (``laid``) is placed as it is sent its frame
    number ``lay_at``, counted from the first frame after ``count_frames()``."""

    def __init__(self, laid: EmulatedTag) -> None:
        super().__init__()
        self.laid = laid
        self.frames: int | None = None
        self.lay_at = 0

    def count_frames(self) -> None:
        """Count the frames from now on."""
        self.frames = 0

    def transfer(self, data: bytes) -> bytes:
        if self.frames is not None and data[0] == Reg.BIT_FRAMING << 1 and data[1] & START_SEND:
            if self.frames == self.lay_at:
                self.place(self.laid)
            self.frames += 1
        return super().transfer(data)


@pytest.mark.parametrize("lay_at", range(19))  # a scan of the 4 stones: 19 frames on both sides
@SIDES
def test_the_pi_and_a_seat_node_read_every_stone_when_one_powers_up_amid_a_scan(
        machine: ModuleType, side: Any, lay_at: int) -> None:
    # a stone placed during a scan of 4 stones wakes, 5 ms later, at whatever frame of the walk
    # it is (a WUPA, an ANTICOLLISION, a SELECT, an HLTA): the scan still reads the 4, clean, and
    # the next one all 5
    four, laid = EIGHT_STONES[:4], EmulatedTag(bytes.fromhex(EIGHT_STONES[4]))
    chip = LaidMidScan(laid)
    for uid in four:
        chip.place(EmulatedTag(bytes.fromhex(uid)))  # before the set-up switches the field on
    scan = side(machine, chip)
    chip.count_frames()
    chip.lay_at = lay_at
    said, read = scan()
    assert chip.frames is not None and chip.frames > lay_at  # placed during this scan
    assert said == "clean" and set(four) <= read <= set(EIGHT_STONES[:5])
    assert scan() == ("clean", set(EIGHT_STONES[:5]))
