"""The firmware's RC522 driver against the emulated chip (``hardware/sim_rc522.py``) on a fake SPI bus."""

from __future__ import annotations

import contextlib
from types import ModuleType
from typing import Any

import pytest

from hardware.clock import SimClock
from hardware.seatnode import ReaderFailed, SeatNodeReader
from hardware.seatnode_firmware import firmware
from hardware.seatnode_sim import SimSeatNode
from hardware.devices import TagChange
from hardware.rc522_regs import timer_period
from hardware.sim_rc522 import ChipFault, EmulatedRC522, EmulatedTag

RC522 = firmware().rc522
LINK = firmware().link
STONE = bytes.fromhex("DEADBEEF")
CHIP = bytes.fromhex("04A1B2C3D4E5F6")


def ticks_of(chip: EmulatedRC522) -> Any:
    """The Pico's ``time.ticks_ms`` on the chip's simulated clock (SPI transfers move it)."""
    return lambda: int(chip.clock.now() * 1000)


def test_empty_field_is_no_tag_at_every_bus_speed(machine: ModuleType) -> None:
    for transfer_us in (50, 200, 500):
        chip = EmulatedRC522(transfer_s=transfer_us * 1e-6)
        spi, cs = machine.SPI(0), machine.Pin(17, machine.Pin.OUT)
        spi.attach(cs, chip)
        driver = RC522.RC522(spi, cs, ticks_of(chip))
        driver.init()
        assert driver.transceive(bytes((RC522.PICC_WUPA,)), 7)[0] == RC522.NO_TAG


def test_timer_is_set_to_25_ms(machine: ModuleType, chip: EmulatedRC522) -> None:
    spi, cs = machine.SPI(0), machine.Pin(17, machine.Pin.OUT)
    spi.attach(cs, chip)
    RC522.RC522(spi, cs, ticks_of(chip)).init()
    regs = chip.regs
    period = timer_period(regs[0x2A], regs[0x2B], (regs[0x2C] << 8) | regs[0x2D])
    assert period == pytest.approx(0.025, abs=0.0001)


@pytest.fixture
def chip() -> EmulatedRC522:
    """An emulated RC522 with an empty field."""
    return EmulatedRC522()


@pytest.fixture
def reader(machine: ModuleType, chip: EmulatedRC522) -> Any:
    """The firmware's driver on SPI0, chip select GP17, talking to ``chip``."""
    spi = machine.SPI(0)
    cs = machine.Pin(17, machine.Pin.OUT)
    spi.attach(cs, chip)
    driver = RC522.RC522(spi, cs, ticks_of(chip))
    driver.init()
    return driver


def test_reads_the_chip_version(reader: Any) -> None:
    assert reader.version() == 0x92


def test_empty_field_reads_no_tag(reader: Any) -> None:
    assert reader.read_uids() == (RC522.OK, [])


def test_reads_a_four_byte_uid(reader: Any, chip: EmulatedRC522) -> None:
    chip.place(EmulatedTag(STONE))
    assert reader.read_uids() == (RC522.OK, [STONE])


def test_reads_a_seven_byte_uid_through_cascade_level_two(reader: Any, chip: EmulatedRC522) -> None:
    chip.place(EmulatedTag(CHIP))
    assert reader.read_uids() == (RC522.OK, [CHIP])


def test_halted_tag_is_read_again_on_the_next_poll(reader: Any, chip: EmulatedRC522) -> None:
    chip.place(EmulatedTag(STONE))
    reader.read_uids()
    assert reader.read_uids() == (RC522.OK, [STONE])


def test_colliding_tags_are_all_read(reader: Any, chip: EmulatedRC522) -> None:
    uids = [STONE, bytes.fromhex("DEADBEE0"), CHIP, bytes.fromhex("04A1B2C3D4E5F7")]
    for uid in uids:
        chip.place(EmulatedTag(uid))
    status, read = reader.read_uids()
    assert status == RC522.OK and sorted(read) == sorted(uids)


def test_crc_coprocessor_gives_the_hlta_crc(reader: Any) -> None:
    assert reader.crc_a(bytes((0x50, 0x00))) == bytes((0x57, 0xCD))


def test_dead_chip_reports_an_error(reader: Any, chip: EmulatedRC522) -> None:
    chip.fault = ChipFault.DEAD
    assert reader.read_uids()[0] == RC522.ERROR


def test_stuck_chip_reports_an_error(reader: Any, chip: EmulatedRC522) -> None:
    chip.place(EmulatedTag(STONE))
    chip.fault = ChipFault.STUCK
    assert reader.read_uids()[0] == RC522.ERROR


def test_two_readers_share_the_bus_with_their_own_chip_selects(machine: ModuleType) -> None:
    spi = machine.SPI(0)
    chips = [EmulatedRC522(), EmulatedRC522()]
    readers = []
    for number, chip in zip((17, 20), chips):
        cs = machine.Pin(number, machine.Pin.OUT)
        spi.attach(cs, chip)
        readers.append(RC522.RC522(spi, cs, ticks_of(chip)))
        readers[-1].init()
    chips[1].place(EmulatedTag(STONE))
    assert [r.read_uids()[1] for r in readers] == [[], [STONE]]


def test_watch_reports_arrival_then_leave_after_missed_polls(reader: Any, chip: EmulatedRC522) -> None:
    watch = RC522.TagWatch(reader, miss_limit=3)
    chip.place(EmulatedTag(STONE))
    assert watch.poll() == [(LINK.TAG_ARRIVE, STONE)]
    chip.remove(STONE)
    assert watch.poll() == [] and watch.poll() == []
    assert watch.poll() == [(LINK.TAG_LEAVE, STONE)]


def test_watch_keeps_a_tag_missed_once(reader: Any, chip: EmulatedRC522) -> None:
    watch = RC522.TagWatch(reader, miss_limit=3)
    chip.place(EmulatedTag(STONE))
    watch.poll()
    chip.remove(STONE)
    watch.poll()
    chip.place(EmulatedTag(STONE))
    assert [watch.poll() for _ in range(5)] == [[]] * 5


def test_watch_does_not_count_a_failed_read_as_a_miss(reader: Any, chip: EmulatedRC522) -> None:
    watch = RC522.TagWatch(reader, miss_limit=2)
    chip.place(EmulatedTag(STONE))
    watch.poll()
    chip.fault = ChipFault.DEAD
    assert [watch.poll() for _ in range(4)] == [[]] * 4 and watch.present() == [STONE]


def test_tag_arriving_and_leaving_is_reported_over_the_link(reader: Any, chip: EmulatedRC522) -> None:
    clock = SimClock()
    node = SimSeatNode(clock, antennas=[reader])
    spots = SeatNodeReader({"pot": (node.link(), 0)}, clock)
    chip.place(EmulatedTag(CHIP))
    clock.advance(0.3)
    arrived = spots.poll()
    clock.advance(0.02)
    assert spots.poll() == [] and spots.tags("pot") == {CHIP.hex().upper()}
    chip.remove(CHIP)
    clock.advance(0.6)
    left = spots.poll()
    assert [(e.tag, e.change) for e in arrived + left] == [
        (CHIP.hex().upper(), TagChange.ARRIVE), (CHIP.hex().upper(), TagChange.LEAVE)]
    assert spots.tags("pot") == frozenset()


def test_a_dead_chip_is_said_by_the_pis_poll_until_it_answers_again(reader: Any,
                                                                    chip: EmulatedRC522) -> None:
    # the firmware's own driver finds the chip dead and sends T_READER; the table only polls
    clock = SimClock()
    node = SimSeatNode(clock, antennas=[reader])
    spots = SeatNodeReader({"pot": (node.link(), 0)}, clock)
    clock.advance(0.3)
    assert spots.poll() == []
    chip.fault = ChipFault.DEAD
    clock.advance(0.3)
    with pytest.raises(ReaderFailed, match=r"sim://seatnode: its RC522 reader 0 \(spot 'pot'\)"):
        spots.poll()
    chip.fault = ChipFault.NONE
    reader.init()  # what a power cycle of the node does to the chip
    chip.place(EmulatedTag(STONE))
    arrived = []
    for _ in range(5):  # the table's loop polls on; the node's next reads say the chip is back
        clock.advance(0.1)
        with contextlib.suppress(ReaderFailed):
            arrived += spots.poll()
    assert spots.poll() == [] and [(e.tag, e.change) for e in arrived] == [
        (STONE.hex().upper(), TagChange.ARRIVE)]
