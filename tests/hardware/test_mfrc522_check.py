"""``Mfrc522Reader.check()`` (what ``doctor`` says of the Pi's RC522s) agrees with its poll: a
garbled scan says nothing, and only a chip that does not answer or overheats has failed."""

import pytest

from hardware.clock import SimClock
from hardware.mfrc522 import MFRC522
from hardware.rfid import OVERHEATED_FIX, Mfrc522Reader
from hardware.sim import SimTable
from hardware.sim_rc522 import ChipFault, EmulatedRC522, EmulatedTag

STONE = bytes.fromhex("DEADBEEF")


def reader_with_a_stone(fault):
    """The reader of one spot, 'pot', a stone on it and its chip suffering ``fault``."""
    chip = EmulatedRC522(clock=SimClock())
    chip.place(EmulatedTag(STONE))
    chip.fault = fault
    return Mfrc522Reader({"pot": MFRC522(chip, chip.clock)}, chip.clock), chip


@pytest.mark.parametrize("fault", [ChipFault.GARBLED, ChipFault.NOISE])
def test_a_garbled_scan_fails_neither_the_poll_nor_the_check(fault):
    # a stone half over the antenna during doctor failed the reader: "it does not finish a scan"
    reader, _ = reader_with_a_stone(fault)
    assert reader.poll() == []
    assert reader.check().ok and not reader.check().warns


@pytest.mark.parametrize("fault, words", [(ChipFault.STUCK, "does not finish a scan"),
                                          (ChipFault.DEAD, "no RC522 answers"),
                                          (ChipFault.FLOATING, "no RC522 answers (version register "
                                                               "reads 0xFF)"),
                                          (ChipFault.OVERHEATED, "overheated")])
def test_a_chip_that_does_not_answer_or_overheats_still_fails_the_check(fault, words):
    reader, _ = reader_with_a_stone(fault)
    status = reader.check()
    assert not status.ok and "'pot'" in status.problem and words in status.problem
    assert (status.fix == OVERHEATED_FIX) is (fault is ChipFault.OVERHEATED)


def test_doctors_check_of_the_simulated_table_passes_a_garbling_stone():
    table = SimTable()
    table.place("seat0", "DEADBEEF")
    table.inject("rfid[seat0]:garbled")
    assert table.rfid.check().ok
    table.inject("rfid[seat1]:timeout")
    assert "'seat1'" in table.rfid.check().problem
