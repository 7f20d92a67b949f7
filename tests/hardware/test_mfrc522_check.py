"""``Mfrc522Reader.check()`` (what ``doctor`` says of the Pi's RC522s) agrees with its poll: a
garbled scan says nothing, and only a chip that does not answer or overheats has failed."""

import random

import pytest

from hardware.clock import SimClock
from hardware.devices import DeviceStatus
from hardware.mfrc522 import MFRC522
from hardware.rfid import GARBLING, GARBLING_FIX, OVERHEATED_FIX, Mfrc522Reader
from hardware.sim import SimTable
from hardware.sim_rc522 import ChipFault, EmulatedRC522, EmulatedTag

STONE = bytes.fromhex("DEADBEEF")


def reader_with_a_stone(fault):
    """The reader of one spot, 'pot', a stone on it and its chip suffering ``fault``."""
    chip = EmulatedRC522(clock=SimClock())
    chip.place(EmulatedTag(STONE))
    chip.fault = fault
    return Mfrc522Reader({"pot": MFRC522(chip, chip.clock)}, chip.clock), chip


GARBLING_POT = DeviceStatus.warning("rfid", f"reader under 'pot' {GARBLING}", GARBLING_FIX)


@pytest.mark.parametrize("fault", [ChipFault.GARBLED, ChipFault.NOISE])
def test_a_garbled_scan_fails_neither_the_poll_nor_the_check(fault):
    # a stone half over the antenna during doctor failed the reader: "it does not finish a scan"
    reader, _ = reader_with_a_stone(fault)
    assert reader.poll() == []
    assert reader.check().ok


def test_a_stone_garbling_now_and_then_neither_fails_nor_warns_the_check():
    reader, chip = reader_with_a_stone(ChipFault.NONE)
    rng = random.Random(5)
    chip.garbles = lambda bits: len(bits) == 7 and rng.random() < 0.3  # its ATQA, 3 times in 10
    assert [reader.check() for _ in range(50)] == [DeviceStatus.healthy("rfid")] * 50


@pytest.mark.parametrize("fault", [ChipFault.GARBLED, ChipFault.NOISE])
def test_the_check_warns_of_a_reader_garbling_every_scan_as_a_seat_nodes_does(fault):
    # doctor said "OK" of a reader whose stones were never read; a seat node's check warned
    reader, chip = reader_with_a_stone(fault)
    assert reader.check() == GARBLING_POT and reader.warning() == GARBLING_POT
    chip.fault = ChipFault.NONE  # the first clean scan ends it, in the check as in the poll
    assert reader.check() == DeviceStatus.healthy("rfid") and reader.warning() is None


def test_the_check_warns_at_once_of_a_reader_the_polls_found_garbling():
    reader, chip = reader_with_a_stone(ChipFault.GARBLED)
    for _ in range(20):
        reader.poll()
    scanned = chip.transfers
    assert reader.check() == GARBLING_POT and reader.warning() == GARBLING_POT
    assert chip.transfers - scanned < 40  # one scan more, not 20: the polls counted the others


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
    assert table.rfid.check() == DeviceStatus.warning("rfid", f"reader under 'seat0' {GARBLING}",
                                                      GARBLING_FIX)
    table.inject("rfid[seat1]:timeout")
    assert "'seat1'" in table.rfid.check().problem
