"""The MFRC522 driver against the emulated chip: request, anticollision, select, read, faults."""

import pytest

from controller.games.errors import DeviceError, DeviceTimeout
from hardware.clock import SimClock
from hardware.mfrc522 import MFRC522
from hardware.rfid import Mfrc522Reader
from hardware.devices import TagChange
from hardware.sim_rc522 import ChipFault, EmulatedRC522, EmulatedTag

FOUR = bytes.fromhex("DEADBEEF")
SEVEN = bytes.fromhex("04A1B2C3D4E5F6")


@pytest.fixture
def chip():
    return EmulatedRC522()


@pytest.fixture
def driver(chip):
    reader = MFRC522(chip, SimClock())
    reader.init()
    return reader


def test_init_reads_a_known_version(driver):
    assert driver.version() == 0x92


def test_init_refuses_a_chip_that_does_not_answer(chip):
    chip.fault = ChipFault.DEAD
    with pytest.raises(DeviceError, match="version 0x00"):
        MFRC522(chip, SimClock()).init()


def test_request_without_tag_is_false(driver):
    assert driver.request() is False


def test_request_with_tag_is_true(chip, driver):
    chip.place(EmulatedTag(FOUR))
    assert driver.request() is True


def test_four_byte_uid_is_read_at_cascade_level_1(chip, driver):
    chip.place(EmulatedTag(FOUR))
    assert driver.read_uid() == FOUR


def test_seven_byte_uid_is_read_through_cascade_level_2(chip, driver):
    chip.place(EmulatedTag(SEVEN))
    assert driver.read_uid() == SEVEN


def test_select_answers_sak_of_a_complete_uid(chip, driver):
    chip.place(EmulatedTag(FOUR))
    driver.request()
    cascade, others = driver.anticollision(0)
    assert cascade == FOUR + bytes([0xDE ^ 0xAD ^ 0xBE ^ 0xEF]) and others == []
    assert driver.select(0, cascade) == 0x08


def test_read_block_returns_tag_memory(chip, driver):
    tag = EmulatedTag(SEVEN)
    tag.memory[16:20] = b"ston"
    chip.place(tag)
    driver.read_uid()
    assert driver.read_block(4)[:4] == b"ston"


def test_collision_resolves_one_tag_and_reports_the_other_branch(chip, driver):
    chip.place(EmulatedTag(bytes.fromhex("01000000")))
    chip.place(EmulatedTag(bytes.fromhex("03000000")))
    driver.request()
    cascade, others = driver.anticollision(0)
    assert cascade[:4] == bytes.fromhex("03000000")
    assert others == [[1, 0]]


def test_inventory_finds_every_tag_despite_collisions(chip, driver):
    uids = [FOUR, SEVEN, bytes.fromhex("04A1B2C3D4E5F7"), bytes.fromhex("DEADBEEE")]
    for uid in uids:
        chip.place(EmulatedTag(uid))
    assert driver.inventory() == {uid.hex().upper() for uid in uids}


def test_inventory_finds_halted_tags_again(chip, driver):
    chip.place(EmulatedTag(FOUR))
    chip.place(EmulatedTag(SEVEN))
    driver.inventory()
    assert len(driver.inventory()) == 2


def test_stuck_chip_times_out(chip, driver):
    chip.fault = ChipFault.STUCK
    with pytest.raises(DeviceTimeout):
        driver.request()


def reader_for(chip):
    return Mfrc522Reader({"pot": MFRC522(chip, SimClock())}, SimClock())


def test_reader_reports_tag_arriving_and_leaving(chip):
    reader = reader_for(chip)
    chip.place(EmulatedTag(FOUR))
    arrived = reader.poll()
    chip.remove(FOUR)
    left = reader.poll()
    assert [(e.tag, e.change) for e in arrived] == [("DEADBEEF", TagChange.ARRIVE)]
    assert [(e.tag, e.change) for e in left] == [("DEADBEEF", TagChange.LEAVE)]
    assert reader.tags("pot") == frozenset()


def test_reader_check_names_the_spot_of_a_dead_chip(chip):
    chip.fault = ChipFault.DEAD
    status = reader_for(chip).check()
    assert not status.ok and "'pot'" in status.problem and "wiring" in status.fix


def test_reader_poll_timeout_names_the_spot(chip):
    reader = reader_for(chip)
    chip.fault = ChipFault.STUCK
    with pytest.raises(DeviceTimeout, match="'pot'"):
        reader.poll()
