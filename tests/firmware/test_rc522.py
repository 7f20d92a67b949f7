"""The firmware's RC522 driver against the emulated chip (``hardware/sim_rc522.py``) on a fake SPI bus."""

from __future__ import annotations

import contextlib
import math
import random
from types import ModuleType
from typing import Any, Callable

import pytest

from controller.games.errors import DeviceError
from hardware.clock import SimClock
from hardware.mfrc522 import HALT_TRIES, MFRC522, TagProtocolError
from hardware.rfid import (
    FAILED_RETRY_S, GARBLED_IN_A_ROW, GARBLING_FIX, OVERHEATED_FIX, Mfrc522Reader,
)
from hardware.seatnode import ReaderFailed, SeatNodeReader
from hardware.seatnode_firmware import firmware
from hardware.seatnode_sim import SimSeatNode
from hardware.devices import TagChange
from hardware.rc522_regs import (
    BIT_S, ERR_BUFFER_OVFL, ERR_COLL, ERR_PARITY, ERR_PROTOCOL, ERR_TEMP, FIELD_ON_WAIT_S,
    FRAME_RELOAD, START_SEND, T_AUTO, Cmd, Reg, timer_period,
)
from hardware.sim_rc522 import (
    ChipFault, EmulatedRC522, EmulatedTag, TagState, frame_delay_s, from_bits, to_bits,
)

RC522 = firmware().rc522
LINK = firmware().link
STONE = bytes.fromhex("DEADBEEF")
FRAME_TIMER_S = timer_period(T_AUTO, 0xA9, FRAME_RELOAD)  # the Pi driver's 1.5 ms
CHIP = bytes.fromhex("04A1B2C3D4E5F6")


def clock_of(chip: EmulatedRC522) -> tuple[Callable[[], int], Callable[[int], None]]:
    """The Pico's ``time.ticks_us`` and ``time.sleep_us`` on the chip's simulated clock (SPI
    transfers and sleeps move it)."""
    return (lambda: int(chip.clock.now() * 1e6)), (lambda us: chip.clock.advance(us / 1e6))


def _struck(reader: Any, chip: EmulatedRC522, fault: ChipFault, miss_limit: int = RC522.MISS_LIMIT) -> Any:
    """A watch of ``reader`` that has seen a stone on its chip, which ``fault`` then strikes."""
    watch = RC522.TagWatch(reader, miss_limit=miss_limit)
    chip.lay(EmulatedTag(STONE))
    watch.poll()
    chip.fault = fault
    return watch


def _pot_node(reader: Any) -> tuple[SimClock, SeatNodeReader]:
    """A simulated seat node whose one antenna, ``reader``, lies under the pot, and the Pi's
    reader of it, on a simulated clock."""
    clock = SimClock()
    node = SimSeatNode(clock, antennas=[reader])
    return clock, SeatNodeReader({"pot": (node.link(), 0)}, clock)


def _node_struck(reader: Any, chip: EmulatedRC522, fault: ChipFault) -> tuple[SimClock, SeatNodeReader]:
    """The Pi's side of a seat node whose ``reader`` read a stone on the pot, then ``fault`` struck
    its chip: the simulated clock and the Pi's reader of the node."""
    clock, spots = _pot_node(reader)
    chip.lay(EmulatedTag(STONE))
    clock.advance(0.3)
    spots.poll()
    chip.fault = fault
    return clock, spots


def test_empty_field_is_no_tag_at_every_bus_speed(machine: ModuleType) -> None:
    for transfer_us in (50, 200, 500):
        chip = EmulatedRC522(transfer_s=transfer_us * 1e-6)
        spi, cs = machine.SPI(0), machine.Pin(17, machine.Pin.OUT)
        spi.attach(cs, chip)
        driver = RC522.RC522(spi, cs, *clock_of(chip))
        driver.init()
        assert driver.transceive(bytes((RC522.PICC_WUPA,)), 7)[0] == RC522.NO_TAG


def test_timer_is_set_to_1_5_ms_as_the_pis(machine: ModuleType, chip: EmulatedRC522) -> None:
    # every frame of a scan ends by it (it was 25 ms, with 1.5 ms for HLTA only): the firmware's
    # prescaler is not the Pi's, so its period is checked against the Pi driver's
    spi, cs = machine.SPI(0), machine.Pin(17, machine.Pin.OUT)
    spi.attach(cs, chip)
    RC522.RC522(spi, cs, *clock_of(chip)).init()
    regs = chip.regs
    period = timer_period(regs[0x2A], regs[0x2B], (regs[0x2C] << 8) | regs[0x2D])
    assert period == pytest.approx(0.0015, abs=0.0001)
    assert period == pytest.approx(timer_period(T_AUTO, 0xA9, FRAME_RELOAD), abs=0.0001)
    assert RC522.FRAME_TIMER_US == math.ceil(period * 1e6)  # when the driver looks for its end


def test_a_frames_sums_are_whole_microseconds_never_before_the_chip_is_done() -> None:
    wupa = to_bits(bytes((RC522.PICC_WUPA,)), 7)
    assert RC522.air_us(7) == 85 >= 9 * BIT_S * 1e6  # a start bit, 7 bits, an end bit
    assert RC522.cycles_us(RC522.FRAME_DELAY_CYCLES) == 92 >= frame_delay_s(wupa) * 1e6
    assert RC522.frame_ends_us(7, 16, 1501) == (85 + 92 + 189, 85 + 1501)  # an ATQA's 16 bits
    assert RC522.frame_ends_us(32, None, 1501) == (359 + 1501,)  # HLTA: no answer, the timer


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
    driver = RC522.RC522(spi, cs, *clock_of(chip))
    driver.init()
    return driver


def test_reads_the_chip_version(reader: Any) -> None:
    assert reader.version() == 0x92


def test_empty_field_reads_no_tag(reader: Any) -> None:
    assert reader.read_uids() == (RC522.OK, [])


def test_reads_a_four_byte_uid(reader: Any, chip: EmulatedRC522) -> None:
    chip.lay(EmulatedTag(STONE))
    assert reader.read_uids() == (RC522.OK, [STONE])


def test_reads_a_seven_byte_uid_through_cascade_level_two(reader: Any, chip: EmulatedRC522) -> None:
    chip.lay(EmulatedTag(CHIP))
    assert reader.read_uids() == (RC522.OK, [CHIP])


def test_halted_tag_is_read_again_on_the_next_poll(reader: Any, chip: EmulatedRC522) -> None:
    chip.lay(EmulatedTag(STONE))
    reader.read_uids()
    assert reader.read_uids() == (RC522.OK, [STONE])


def test_colliding_tags_are_all_read(reader: Any, chip: EmulatedRC522) -> None:
    uids = [STONE, bytes.fromhex("DEADBEE0"), CHIP, bytes.fromhex("04A1B2C3D4E5F7")]
    for uid in uids:
        chip.lay(EmulatedTag(uid))
    status, read = reader.read_uids()
    assert status == RC522.OK and sorted(read) == sorted(uids)


def test_crc_coprocessor_gives_the_hlta_crc(reader: Any) -> None:
    assert reader.crc_a(bytes((0x50, 0x00))) == bytes((0x57, 0xCD))


def test_dead_chip_reports_an_error(reader: Any, chip: EmulatedRC522) -> None:
    chip.fault = ChipFault.DEAD
    assert reader.read_uids()[0] == RC522.ERROR


def test_stuck_chip_reports_an_error(reader: Any, chip: EmulatedRC522) -> None:
    chip.lay(EmulatedTag(STONE))
    chip.fault = ChipFault.STUCK
    assert reader.read_uids()[0] == RC522.ERROR


def test_two_readers_share_the_bus_with_their_own_chip_selects(machine: ModuleType) -> None:
    spi = machine.SPI(0)
    chips = [EmulatedRC522(), EmulatedRC522()]
    readers = []
    for number, chip in zip((17, 20), chips):
        cs = machine.Pin(number, machine.Pin.OUT)
        spi.attach(cs, chip)
        readers.append(RC522.RC522(spi, cs, *clock_of(chip)))
        readers[-1].init()
    chips[1].lay(EmulatedTag(STONE))
    assert [r.read_uids()[1] for r in readers] == [[], [STONE]]


def test_watch_reports_arrival_then_leave_after_missed_polls(reader: Any, chip: EmulatedRC522) -> None:
    watch = RC522.TagWatch(reader, miss_limit=3)
    chip.lay(EmulatedTag(STONE))
    assert watch.poll() == [(LINK.TAG_ARRIVE, STONE)]
    chip.remove(STONE)
    assert watch.poll() == [] and watch.poll() == []
    assert watch.poll() == [(LINK.TAG_LEAVE, STONE)]


def test_watch_keeps_a_tag_missed_once(reader: Any, chip: EmulatedRC522) -> None:
    watch = RC522.TagWatch(reader, miss_limit=3)
    chip.lay(EmulatedTag(STONE))
    watch.poll()
    chip.remove(STONE)
    watch.poll()
    chip.lay(EmulatedTag(STONE))
    assert [watch.poll() for _ in range(5)] == [[]] * 5


def test_watch_does_not_count_a_failed_read_as_a_miss(reader: Any, chip: EmulatedRC522) -> None:
    watch = _struck(reader, chip, ChipFault.DEAD, miss_limit=2)
    assert [watch.poll() for _ in range(4)] == [[]] * 4 and watch.present() == [STONE]


def test_tag_arriving_and_leaving_is_reported_over_the_link(reader: Any, chip: EmulatedRC522) -> None:
    clock, spots = _pot_node(reader)
    chip.lay(EmulatedTag(CHIP))
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
    clock, spots = _pot_node(reader)
    clock.advance(0.3)
    assert spots.poll() == []
    chip.fault = ChipFault.DEAD
    clock.advance(0.3)
    with pytest.raises(ReaderFailed, match=r"sim://seatnode: its RC522 reader 0 \(spot 'pot'\)"):
        spots.poll()
    chip.fault = ChipFault.NONE
    reader.init()  # what a power cycle of the node does to the chip
    chip.lay(EmulatedTag(STONE))
    arrived = []
    for _ in range(5):  # the table's loop polls on; the node's next reads say the chip is back
        clock.advance(0.1)
        with contextlib.suppress(ReaderFailed):
            arrived += spots.poll()
    assert spots.poll() == [] and [(e.tag, e.change) for e in arrived] == [
        (STONE.hex().upper(), TagChange.ARRIVE)]


def test_a_garbled_read_is_no_failed_reader_and_changes_nothing(reader: Any, chip: EmulatedRC522) -> None:
    # a stone half over the antenna garbles now and then (ErrorReg's ParityErr): the node said its
    # reader failed, and the Pi faulted the seat, where the Pi's own driver ignores such a scan
    watch = _struck(reader, chip, ChipFault.GARBLED, miss_limit=2)
    assert [watch.poll() for _ in range(4)] == [[]] * 4
    assert not watch.failed and watch.present() == [STONE]


def test_a_chip_gone_on_a_floating_miso_is_still_a_failed_reader(reader: Any,
                                                                 chip: EmulatedRC522) -> None:
    # every register reads 0xFF, ErrorReg too: garbled to the driver, but the version says no chip
    watch = _struck(reader, chip, ChipFault.FLOATING)
    assert watch.poll() == [] and watch.failed and watch.present() == [STONE]
    assert watch.state() == LINK.READER_FAILED  # not overheated: TempErr reads 1 as all bits do


def test_a_collision_with_nothing_received_drops_the_branch(reader: Any, chip: EmulatedRC522) -> None:
    # CollErr with an empty FIFO gave _resolve a collision at bit 0 of nothing: an IndexError, which
    # the node's loop survived at every poll (a NOTICE to the Pi each 100 ms), reading no tag
    chip.lay(EmulatedTag(STONE))
    assert reader.transceive(bytes((RC522.PICC_WUPA,)), 7)[0] == RC522.OK
    chip.fault = ChipFault.NOISE
    pending: list[Any] = []
    assert reader._resolve([], b"", 0, pending) == (RC522.GARBLED, b"") and pending == []


def test_a_scan_drowned_in_noise_is_garbled_not_a_crash(reader: Any, chip: EmulatedRC522) -> None:
    watch = _struck(reader, chip, ChipFault.NOISE, miss_limit=2)
    assert [watch.poll() for _ in range(4)] == [[]] * 4
    assert not watch.failed and watch.present() == [STONE]


def test_an_overheated_chip_is_a_failed_reader_until_it_cools(reader: Any, chip: EmulatedRC522) -> None:
    # TempErr: the chip switched its antenna off; its frames ended by the timer as an empty
    # field's do, so the stones left after three polls and the reader was said to work
    watch = _struck(reader, chip, ChipFault.OVERHEATED)
    assert [watch.poll() for _ in range(4)] == [[]] * 4
    assert watch.failed and watch.state() == LINK.READER_OVERHEATED and watch.present() == [STONE]
    chip.fault = ChipFault.NONE  # cooled: the next poll sets it up again, its antenna on
    assert watch.poll() == [] and watch.state() == LINK.READER_OK and watch.present() == [STONE]


def test_an_overheated_chip_is_said_by_the_pis_poll_with_its_fix(reader: Any,
                                                                 chip: EmulatedRC522) -> None:
    clock, spots = _node_struck(reader, chip, ChipFault.OVERHEATED)
    clock.advance(0.3)
    with pytest.raises(ReaderFailed) as caught:
        spots.poll()
    assert caught.value.problem == ("seat node on sim://seatnode: its RC522 reader 0 (spot 'pot') "
                                    "overheated and switched its antenna off (its ErrorReg says "
                                    "TempErr)")
    assert caught.value.fix == OVERHEATED_FIX
    chip.fault = ChipFault.NONE  # cooled: the node switches it on again by itself
    clock.advance(0.3)
    assert spots.poll() == [] and spots.tags("pot") == {STONE.hex().upper()}


def garbled_select_of(uid: bytes) -> Callable[[list[int]], bool]:
    """The emulated chip's ``garbles``: the SAK of the tag ``uid`` (4 bytes) arrives garbled."""
    cascade = EmulatedTag(uid).cascade(0)
    return lambda bits: len(bits) == 72 and from_bits(bits)[2:7] == cascade


def test_a_garbled_sak_drops_that_tag_and_reads_the_others_in_a_garbled_scan(
        reader: Any, chip: EmulatedRC522) -> None:
    edge = bytes.fromhex("DEADBEE0")
    chip.lay(EmulatedTag(STONE))
    chip.lay(EmulatedTag(edge))
    chip.garbles = garbled_select_of(edge)
    assert reader.read_uids() == (RC522.GARBLED, [STONE])


def pi_spot(machine: ModuleType, chip: EmulatedRC522,
            miss_limit: int = RC522.MISS_LIMIT) -> Callable[[], Any]:
    """One poll of the chip's spot by the Pi's driver: its events, or "failed"; a stone leaves
    after ``miss_limit`` scans in a row without it."""
    reader = Mfrc522Reader({"pot": MFRC522(chip, chip.clock)}, chip.clock, leave_after=miss_limit)

    def poll() -> Any:
        try:
            events = sorted((e.change.value, e.tag) for e in reader.poll())
        except DeviceError:
            return "failed"
        return "garbling" if reader.warning() is not None and not events else events
    return poll


def stone_spot(machine: ModuleType, side: Callable[[ModuleType, EmulatedRC522], Callable[[], Any]]
               ) -> tuple[EmulatedRC522, Callable[[], Any]]:
    """A chip with one stone (:data:`STONE`) on its spot, and one poll of the spot by ``side``
    (:func:`pi_spot` or :func:`node_spot`)."""
    chip = EmulatedRC522()
    poll = side(machine, chip)
    chip.lay(EmulatedTag(STONE))
    return chip, poll


def node_spot(machine: ModuleType, chip: EmulatedRC522,
              miss_limit: int = RC522.MISS_LIMIT) -> Callable[[], Any]:
    """One poll of the chip's spot by the seat node's firmware: its events, or "failed"; a stone
    leaves after ``miss_limit`` scans in a row without it."""
    spi, cs = machine.SPI(0), machine.Pin(17, machine.Pin.OUT)
    spi.attach(cs, chip)
    driver = RC522.RC522(spi, cs, *clock_of(chip))
    driver.init()
    watch = RC522.TagWatch(driver, miss_limit=miss_limit)
    names = {LINK.TAG_ARRIVE: "arrive", LINK.TAG_LEAVE: "leave"}

    def poll() -> Any:
        events = sorted((names[change], uid.hex().upper()) for change, uid in watch.poll())
        if watch.failed:
            return "failed"
        return "garbling" if watch.state() == LINK.READER_GARBLING and not events else events
    return poll


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_read_garbled_scans_alike(machine: ModuleType, side: Any) -> None:
    chip = EmulatedRC522()
    poll = side(machine, chip)
    edge = bytes.fromhex("DEADBEE0")
    chip.lay(EmulatedTag(STONE))
    chip.lay(EmulatedTag(edge))
    seen = [poll()]
    chip.fault = ChipFault.GARBLED          # every answer garbled: the scans say nothing
    seen += [poll() for _ in range(4)]
    chip.fault = ChipFault.NOISE            # every answer drowned: a collision, nothing kept
    seen += [poll() for _ in range(4)]
    chip.fault = ChipFault.NONE
    chip.garbles = garbled_select_of(edge)  # one stone's SAK garbled: not read, and not gone
    seen += [poll() for _ in range(3)]
    chip.garbles = None
    seen.append(poll())
    chip.fault = ChipFault.OVERHEATED       # TempErr, the antenna off: a failed reader, no miss
    seen += [poll() for _ in range(3)]
    chip.fault = ChipFault.NONE             # cooled: switched on again, the stones still there
    chip.clock.advance(FAILED_RETRY_S)      # (the Pi tries a chip failing every try that often)
    seen.append(poll())
    chip.fault = ChipFault.FLOATING         # the chip gone: a failed reader
    seen.append(poll())
    assert seen == [[("arrive", "DEADBEE0"), ("arrive", "DEADBEEF")], [], [], [], [], [], [], [], [],
                    [], [], [], [], "failed", "failed", "failed", [], "failed"]


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_halt_a_stone_whose_sak_came_garbled(machine: ModuleType,
                                                                   side: Any) -> None:
    # its SELECT had selected it and it stayed ACTIVE: a tag takes the next WUPA for an error
    # then and goes IDLE unanswering (ISO/IEC 14443-3), so a lone stone's next scan is clean and
    # empty, a miss, and a stone garbling every other scan leaves the spot while it lies there
    chip = EmulatedRC522()
    poll = side(machine, chip)
    edge = EmulatedTag(bytes.fromhex("DEADBEE0"))
    chip.lay(edge)
    chip.garbles = garbled_select_of(edge.uid)
    assert poll() == [] and edge.state is TagState.HALT


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_find_no_stone_gone_in_a_scan_that_garbled(machine: ModuleType,
                                                                         side: Any) -> None:
    # a lone stone whose SELECT garbles: the scan read nothing, with its WUPA answered, so the
    # stone left after MISS_LIMIT such scans, on both sides, and no warning ever came
    chip = EmulatedRC522()
    poll = side(machine, chip)
    edge = bytes.fromhex("DEADBEE0")
    chip.lay(EmulatedTag(edge))
    seen = [poll()]
    chip.garbles = garbled_select_of(edge)  # its SAK garbled at every scan: it is never read
    seen += [poll() for _ in range(RC522.MISS_LIMIT + 1)]
    chip.lay(EmulatedTag(STONE))  # a stone put beside it is read all the same
    seen += [poll() for _ in range(GARBLED_IN_A_ROW - RC522.MISS_LIMIT - 1)]
    chip.garbles = None  # the first clean scan ends the warning; the stone never left
    seen.append(poll())
    chip.remove(edge)  # clean scans still count misses
    seen += [poll() for _ in range(RC522.MISS_LIMIT)]
    assert seen == ([[("arrive", "DEADBEE0")]] + [[]] * (RC522.MISS_LIMIT + 1)
                    + [[("arrive", "DEADBEEF")]] + [[]] * (GARBLED_IN_A_ROW - RC522.MISS_LIMIT - 3)
                    + ["garbling"] + [[]] * RC522.MISS_LIMIT + [[("leave", "DEADBEE0")]])


def test_a_stone_garbling_now_and_then_raises_no_reader_fault_on_the_pi(reader: Any,
                                                                        chip: EmulatedRC522) -> None:
    clock, spots = _pot_node(reader)
    chip.lay(EmulatedTag(STONE))
    rng = random.Random(7)
    chip.garbles = lambda bits: len(bits) == 7 and rng.random() < 0.3  # its ATQA, 3 times in 10
    garbled = chip.transfers
    for _ in range(30):  # 3 s of the table's polls, the node reading its antenna every 100 ms
        clock.advance(0.1)
        spots.poll()
    assert chip.transfers > garbled and spots.warning() is None
    assert spots.tags("pot") == {STONE.hex().upper()}


def test_the_seat_node_counts_the_pis_garbled_scans_before_it_warns() -> None:
    assert RC522.GARBLED_IN_A_ROW == GARBLED_IN_A_ROW


def test_the_seat_node_reads_errorreg_with_the_bits_the_pi_reads() -> None:
    # the firmware cannot import the Pi's modules: its consts are checked against the datasheet's
    assert RC522.ERR_TEMP == ERR_TEMP and RC522.ERR_COLLISION == ERR_COLL
    assert RC522.ERR_FATAL == ERR_BUFFER_OVFL | ERR_PARITY | ERR_PROTOCOL


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_warn_alike_of_a_reader_garbling_every_scan(machine: ModuleType,
                                                                          side: Any) -> None:
    # a noisy MISO or a detuned antenna: the version reads fine, so it was never failed, and the
    # stones on it were never seen, without a word
    chip, poll = stone_spot(machine, side)
    seen = [poll()]
    chip.fault = ChipFault.GARBLED
    seen += [poll() for _ in range(GARBLED_IN_A_ROW + 2)]
    chip.fault = ChipFault.NONE  # the first clean scan ends the warning
    seen.append(poll())
    assert seen == [[("arrive", "DEADBEEF")]] + [[]] * (GARBLED_IN_A_ROW - 1) + ["garbling"] * 3 + [[]]


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_a_stone_garbling_3_scans_in_10_never_warns(machine: ModuleType, side: Any) -> None:
    chip, poll = stone_spot(machine, side)
    rng = random.Random(11)
    chip.garbles = lambda bits: len(bits) == 7 and rng.random() < 0.3  # its ATQA, 3 times in 10
    seen = [poll() for _ in range(600)]  # a minute of the node's polls
    assert seen[0] == [("arrive", "DEADBEEF")] and seen[1:] == [[]] * 599


def test_a_reader_garbling_every_scan_is_a_warning_of_the_pis_poll(reader: Any,
                                                                  chip: EmulatedRC522) -> None:
    clock, spots = _node_struck(reader, chip, ChipFault.GARBLED)
    clock.advance(0.1 * (GARBLED_IN_A_ROW - 2))  # the node reads its antenna every 100 ms
    assert spots.poll() == [] and spots.warning() is None
    clock.advance(0.3)
    assert spots.poll() == []  # a warning: the table plays on
    warning = spots.warning()
    assert warning is not None
    assert warning.problem == ("seat node on sim://seatnode: its RC522 reader 0 (spot 'pot') garbles "
                               "every scan (20 in a row): the stones on it are not read")
    assert warning.fix == GARBLING_FIX and spots.check() == warning
    chip.fault = ChipFault.NONE
    clock.advance(0.3)
    assert spots.poll() == [] and spots.warning() is None
    assert spots.tags("pot") == {STONE.hex().upper()}


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_read_a_chip_again_after_it_lost_power(machine: ModuleType,
                                                                       side: Any) -> None:
    # a loose 3.3 V wire pushed back: the chip is back at its reset values (antenna off, timer
    # stopped); the Pi set it up again, the node only after an overheat, so it stayed failed
    chip, poll = stone_spot(machine, side)
    seen = [poll()]
    chip.fault = ChipFault.DEAD  # its power gone: every register reads 0x00
    seen.append(poll())
    chip.fault = ChipFault.NONE
    chip.power_up()
    seen += [poll() for _ in range(6)]  # the node's scans garbled, then failed for good
    assert seen == [[("arrive", "DEADBEEF")], "failed"] + [[]] * 6


def test_a_seat_node_whose_chip_lost_power_is_read_again_without_a_power_cycle(
        reader: Any, chip: EmulatedRC522) -> None:
    clock, spots = _pot_node(reader)
    clock.advance(0.3)
    assert spots.poll() == []
    chip.fault = ChipFault.DEAD
    clock.advance(0.3)
    with pytest.raises(ReaderFailed) as failed:
        spots.poll()
    assert "sets the reader up again by itself once it answers" in failed.value.fix
    chip.fault = ChipFault.NONE
    chip.power_up()
    chip.lay(EmulatedTag(STONE))
    arrived = []
    for _ in range(5):  # the node's next poll sets the chip up and reads it; the link says so
        clock.advance(0.1)
        with contextlib.suppress(ReaderFailed):
            arrived += spots.poll()
    assert spots.poll() == [] and spots.check().ok
    assert [(e.tag, e.change) for e in arrived] == [(STONE.hex().upper(), TagChange.ARRIVE)]


@pytest.mark.parametrize("fault", [ChipFault.DEAD, ChipFault.FLOATING])
def test_a_chip_that_does_not_answer_is_not_set_up(reader: Any, chip: EmulatedRC522,
                                                   fault: ChipFault) -> None:
    chip.fault = fault
    assert reader.init() is False
    chip.fault = ChipFault.NONE
    assert reader.init() is True


def test_a_chip_gone_on_a_floating_miso_costs_no_reset_wait_at_every_poll(reader: Any,
                                                                          chip: EmulatedRC522) -> None:
    # set up again after each failure, it read busy for the reset's whole 50 ms wait on all ones:
    # half of every 100 ms of the node's loop, its buttons waiting
    watch = RC522.TagWatch(reader)
    chip.fault = ChipFault.FLOATING
    watch.poll()
    start = chip.clock.now()
    watch.poll()
    assert watch.failed and chip.clock.now() - start < 0.005  # a few SPI reads on the SimClock


@pytest.mark.parametrize("fault", [ChipFault.DEAD, ChipFault.FLOATING])
def test_a_chip_that_does_not_answer_costs_one_spi_read_a_poll(reader: Any, chip: EmulatedRC522,
                                                               fault: ChipFault) -> None:
    # a dead chip's interrupt register reads 0x00 as all its registers do: each poll's WUPA waited
    # out WAIT_MS for it, 820 SPI reads and 40 ms of every 100 ms poll, the node's buttons waiting
    watch = _struck(reader, chip, fault)
    watch.poll()  # the poll that finds it failed
    read = chip.transfers
    assert [watch.poll() for _ in range(5)] == [[]] * 5 and watch.failed
    assert chip.transfers - read == 5 and watch.present() == [STONE]  # its version, once a poll
    chip.fault = ChipFault.NONE
    chip.power_up()  # back: the next poll sets it up and reads its stone
    assert watch.poll() == [] and not watch.failed and watch.present() == [STONE]


EIGHT_STONES = ["DEADBEEF", "DEADBEE0", "01020304", "8F00AA55", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7",
                "04C0FFEE000001", "0455AA55AA55AA"]


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_halt_every_stone_without_waiting_25_ms_for_each(
        machine: ModuleType, side: Any) -> None:
    # no tag answers HLTA, and each stone's waited out the chip's whole 25 ms scan timer: 8 stones
    # cost 287 ms of every poll on the Pi, 277 ms on a node (35 ms a stone), the buttons waiting
    chip = EmulatedRC522()
    poll = side(machine, chip)
    stones = [EmulatedTag(bytes.fromhex(uid)) for uid in EIGHT_STONES]
    for stone in stones:
        chip.lay(stone)
    costs, seen = [], []
    for _ in range(RC522.MISS_LIMIT + 1):  # a stone not seen again would leave
        started = chip.clock.now()
        seen.append(poll())
        costs.append(chip.clock.now() - started)
        assert all(stone.state is TagState.HALT for stone in stones)
    assert seen == [sorted(("arrive", uid) for uid in EIGHT_STONES)] + [[]] * RC522.MISS_LIMIT
    # the polls after the first (the Pi's sets its chip up: a 50 ms reset) cost 115 ms on the Pi,
    # 110 ms on a node, where the HLTAs alone waited 8 x 25 ms; an HLTA ends by a 1.5 ms timer
    assert max(costs[1:]) < len(stones) * 0.0175
    nak = EmulatedTag(bytes.fromhex("0A0B0C0D"), naks_halt=True)
    chip.lay(nak)  # a stone that answers HLTA (a NAK): read all the same, each scan clean
    seen = [poll()]
    chip.remove(stones[0].uid)  # so a stone taken away leaves after MISS_LIMIT scans
    seen += [poll() for _ in range(RC522.MISS_LIMIT)]
    assert seen == [[("arrive", "0A0B0C0D")]] + [[]] * (RC522.MISS_LIMIT - 1) + [
        [("leave", "DEADBEEF")]]
    assert nak.state is not TagState.HALT


def pi_scan(machine: ModuleType, chip: EmulatedRC522) -> Callable[[], tuple[str, set[str]]]:
    """One scan of the chip's antenna by the Pi's driver: "clean" or "garbled", and the tags read."""
    driver = MFRC522(chip, chip.clock)
    driver.init()

    def scan() -> tuple[str, set[str]]:
        try:
            return "clean", set(driver.inventory())
        except TagProtocolError as err:
            return "garbled", set(err.found)
    return scan


def node_scan(machine: ModuleType, chip: EmulatedRC522) -> Callable[[], tuple[str, set[str]]]:
    """One scan of the chip's antenna by the seat node's firmware: "clean" or "garbled", and the
    tags read."""
    spi, cs = machine.SPI(0), machine.Pin(17, machine.Pin.OUT)
    spi.attach(cs, chip)
    driver = RC522.RC522(spi, cs, *clock_of(chip))
    driver.init()

    def scan() -> tuple[str, set[str]]:
        status, uids = driver.read_uids()
        said = {RC522.OK: "clean", RC522.GARBLED: "garbled"}[status]
        return said, {uid.hex().upper() for uid in uids}
    return scan


@pytest.mark.parametrize("side", [pi_scan, node_scan], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_read_every_stone_as_stones_come_and_go(machine: ModuleType,
                                                                       side: Any) -> None:
    # a tag that answered an ANTICOLLISION is READY, and takes a WUPA for an error (ISO/IEC
    # 14443-3): the node went back to WUPA at each collision, which no tag answered then, and
    # the branch left for it was lost: of 2, 4 or 8 stones it read one, its scan clean, so the
    # others left the spot
    chip = EmulatedRC522()
    scan = side(machine, chip)
    stones = {uid: EmulatedTag(bytes.fromhex(uid)) for uid in EIGHT_STONES}
    on_spot: set[str] = set()
    for put, taken in [(EIGHT_STONES[:4], []), (EIGHT_STONES[4:], []),
                       ([], ["DEADBEE0", "04A1B2C3D4E5F6", "0455AA55AA55AA"]),
                       (["DEADBEE0"], ["01020304"]), ([], []), (["0455AA55AA55AA"], EIGHT_STONES[:6])]:
        for uid in put:
            chip.lay(stones[uid])
        for uid in taken:
            chip.remove(stones[uid].uid)
        on_spot = (on_spot | set(put)) - set(taken)
        assert [scan(), scan()] == [("clean", on_spot)] * 2


@pytest.mark.parametrize("frame", ["wupa", "anticollision"])
@pytest.mark.parametrize("side", [pi_scan, node_scan], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_leave_no_stone_ready_after_a_garbled_frame(
        machine: ModuleType, side: Any, frame: str) -> None:
    # the tags that answered a WUPA or an ANTICOLLISION whose answer came garbled were left READY,
    # took the next WUPA for an error and went IDLE unanswering (ISO/IEC 14443-3): the next scan
    # was clean and missed them, each stone leaving after MISS_LIMIT such pairs of scans
    chip = EmulatedRC522()
    scan = side(machine, chip)
    stones = ["DEADBEEF", "DEADBEE0", "04A1B2C3D4E5F6"]
    for uid in stones:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    garbled = []

    def first(bits: list[int]) -> bool:
        sent = from_bits(bits)
        hit = bits == to_bits(bytes([0x52]), 7) if frame == "wupa" else \
            len(bits) >= 16 and sent[0] == 0x93 and sent[1] != 0x70
        garbled.append(hit)
        return hit and garbled.count(True) == 1
    chip.garbles = first
    said, read = scan()
    assert said == "garbled" and read < set(stones)
    chip.garbles = None
    assert scan() == ("clean", set(stones))
    assert all(tag.state is TagState.HALT for tag in chip.tags)


@pytest.mark.parametrize("garbled_halts", [1, HALT_TRIES - 1])
@pytest.mark.parametrize("side", [pi_scan, node_scan], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_halt_a_stone_that_naks_a_garbled_hlta(
        machine: ModuleType, side: Any, garbled_halts: int) -> None:
    # its HLTA reached it garbled, and it NAKed it, ACTIVE still (ISO/IEC 14443-3: an answer to
    # HLTA is 'not acknowledge'); the drivers took the NAK for a stone read, and the next scan's
    # WUPA found it ACTIVE, which sent it IDLE unanswering: read every other scan
    assert RC522.HALT_TRIES == HALT_TRIES  # the node tries as often as the Pi
    chip = EmulatedRC522()
    scan = side(machine, chip)
    edge = EmulatedTag(STONE)
    chip.lay(edge)
    seen = []
    for _ in range(4):
        edge.garbled_halts = garbled_halts  # at every scan, a clean one at last
        seen.append(scan())
    assert seen == [("clean", {"DEADBEEF"})] * 4
    assert edge.state is TagState.HALT


class PausedAfterARead(EmulatedRC522):
    """A chip whose driver is paused for ``pause_s`` (a garbage collection on the Pico, the kernel
    running another thread on the Pi) right after its first read of ComIrqReg in a frame."""

    def __init__(self, pause_s: float) -> None:
        super().__init__()
        self.pause_s = pause_s
        self.paused = False

    def transfer(self, data: bytes) -> bytes:
        answer = super().transfer(data)
        if not self.paused and data[0] == 0x80 | (Reg.COM_IRQ << 1) and \
                self.regs[Reg.COMMAND] & 0x0F == Cmd.TRANSCEIVE:
            self.paused = True
            self.clock.advance(self.pause_s)
        return answer


@pytest.mark.parametrize("stones", [[STONE], []], ids=["a-stone", "empty"])
@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_a_pause_between_a_read_and_the_clock_is_no_dead_chip(machine: ModuleType, side: Any,
                                                              stones: list[bytes]) -> None:
    # the WUPA was answered (or its timer ran out) during the pause, but the wait looked at the
    # clock after its read of "nothing yet" and found its limit passed: the reader failed, the
    # seat's table paused. The Pi's driver reads a WUPA's end first when its answer is due, so
    # its read of "nothing yet" is an empty spot's
    chip = PausedAfterARead(pause_s=0.1)
    poll = side(machine, chip)
    for uid in stones:
        chip.lay(EmulatedTag(uid))
    assert poll() == [("arrive", uid.hex().upper()) for uid in stones] and chip.paused


STONES_ON_A_SPOT = {0: [], 1: ["04A1B2C3D4E5F6"], 8: EIGHT_STONES,
                    4: ["DEADBEEF", "DEADBEE0", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7"]}


@pytest.mark.parametrize("count", [0, 1, 4, 8])
@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_scan_a_spot_on_the_chips_1_5_ms_timer(
        machine: ModuleType, side: Any, count: int) -> None:
    # every frame of a scan but HLTA waited up to the chip's 25 ms timer: an empty spot's WUPA,
    # which no tag answers, waited all of it, 25.7 ms of every poll on both sides, where one stone
    # cost 10 ms; a tag answers WUPA, ANTICOLLISION and SELECT some 0.1 ms after the frame
    chip = EmulatedRC522()
    poll = side(machine, chip)
    uids = STONES_ON_A_SPOT[count]
    for uid in uids:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    seen, costs = [], []
    for _ in range(RC522.MISS_LIMIT + 1):  # a stone not seen again would leave
        started = chip.clock.now()
        seen.append(poll())
        costs.append(chip.clock.now() - started)
    assert seen == [sorted(("arrive", uid) for uid in uids)] + [[]] * RC522.MISS_LIMIT
    # after the first poll (the Pi's sets its chip up): an empty spot 2.7 ms on the Pi, 2.1 ms on
    # a node; 1, 4 and 8 stones 10, 46 and 114 ms on the Pi, 9, 43 and 110 ms on a node
    assert max(costs[1:]) < 0.004 + count * 0.015


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_find_a_stuck_chip_failed_in_a_few_ms(machine: ModuleType,
                                                                      side: Any) -> None:
    # a chip that answers its registers but never ends a transceive: the drivers waited for it
    # 50 ms (the Pi) and 40 ms (a node) where its timer would have ended the frame in 1.5 ms
    chip, poll = stone_spot(machine, side)
    seen = [poll(), poll()]
    chip.fault = ChipFault.STUCK
    started = chip.clock.now()
    seen.append(poll())
    stuck = chip.clock.now() - started  # 50.8 ms on the Pi, 40.9 ms on a node
    chip.fault = ChipFault.NONE  # it works again: set up again, its stone never left
    seen += [poll() for _ in range(RC522.MISS_LIMIT)]
    assert seen == [[("arrive", "DEADBEEF")], [], "failed"] + [[]] * RC522.MISS_LIMIT
    assert stuck < 0.008


class FifoCounted(EmulatedRC522):
    """An emulated chip that keeps, for each SPI transfer, whether it wrote or read FIFODataReg,
    and the most bytes a transfer wrote there."""

    def __init__(self) -> None:
        super().__init__()
        self.fifo_transfers: list[str] = []
        self.most_loaded = 0

    def transfer(self, data: bytes) -> bytes:
        kind = {Reg.FIFO_DATA << 1: "load", 0x80 | (Reg.FIFO_DATA << 1): "empty"}.get(data[0], "")
        self.fifo_transfers.append(kind)
        if kind == "load":
            self.most_loaded = max(self.most_loaded, len(data) - 1)
        return super().transfer(data)


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_load_and_empty_the_fifo_in_one_transfer(machine: ModuleType,
                                                                        side: Any) -> None:
    # the node wrote a frame to the FIFO a byte a transfer (a SELECT's 9 chip-select cycles) and
    # read an answer back a byte a transfer, where the datasheet (8.1.2) lets one transfer carry
    # them all, as the Pi's driver does: a 4-byte stone's scan took the node 175 transfers
    chip = FifoCounted()
    poll = side(machine, chip)
    chip.lay(EmulatedTag(STONE))
    assert poll() == [("arrive", "DEADBEEF")]
    kinds = chip.fifo_transfers
    assert chip.most_loaded == 9  # a SELECT: its command, NVB, the UID part, BCC and CRC_A
    assert not [i for i in range(1, len(kinds)) if kinds[i] and kinds[i] == kinds[i - 1]]


class FramesCounted(EmulatedRC522):
    """An emulated chip that counts the frames sent (StartSend), the WUPAs loaded into its FIFO,
    the reads of ComIrqReg, the reads and writes of BitFramingReg and the reads of CollReg, and
    keeps what was written to CollReg."""

    def __init__(self) -> None:
        super().__init__()
        self.frames = self.irq_reads = self.framing_reads = self.framing_writes = 0
        self.coll_reads = self.wupas = 0
        self.coll_writes: list[bytes] = []

    def transfer(self, data: bytes) -> bytes:
        self.frames += data[0] == Reg.BIT_FRAMING << 1 and bool(data[1] & START_SEND)
        self.irq_reads += data[0] == 0x80 | (Reg.COM_IRQ << 1)
        self.framing_reads += data[0] == 0x80 | (Reg.BIT_FRAMING << 1)
        self.framing_writes += data[0] == Reg.BIT_FRAMING << 1
        self.coll_reads += data[0] == 0x80 | (Reg.COLL << 1)
        self.wupas += data == bytes([Reg.FIFO_DATA << 1, RC522.PICC_WUPA])
        if data[0] == Reg.COLL << 1:
            self.coll_writes.append(data[1:])
        return super().transfer(data)


@pytest.mark.parametrize("count", [0, 1, 4, 8])
@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_read_a_frames_end_when_it_is_due(machine: ModuleType, side: Any,
                                                                  count: int) -> None:
    # the Pi's driver read ComIrqReg, slept 1 ms and read it again: a 7-byte stone's poll read it
    # 15 times for its 6 frames and waited 9 ms. The node read it back to back: 32 times for an
    # empty spot's one WUPA, 118 for a 7-byte stone's 6 frames, 952 for 8 stones' 54
    chip = FramesCounted()
    poll = side(machine, chip)
    uids = STONES_ON_A_SPOT[count]
    for uid in uids:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    assert poll() == sorted(("arrive", uid) for uid in uids)  # the Pi's sets its chip up
    chip.frames = chip.irq_reads = 0
    started, transfers = chip.clock.now(), chip.transfers
    assert poll() == []  # each stone read again, none left
    waited = chip.clock.now() - started - (chip.transfers - transfers) * chip.transfer_s
    # once when its answer or its timer is due, which ends it (an HLTA's: its timer's); an
    # empty spot's WUPA twice, when its answer was due and when its timer was
    assert chip.irq_reads == chip.frames + (count == 0)
    # what the frames take on air, HLTA's 1.5 ms timer the most: on the Pi 6.0, 21.5 and 44.5 ms
    # for 1, 4 and 8 stones; an empty spot its WUPA's timer
    assert waited < (chip.frames * 0.0011 if count else FRAME_TIMER_S + 0.0001)


def _polled_again(machine: ModuleType, side: Any, count: int) -> Any:
    """A chip under ``count`` stones polled twice by ``side``, its counts those of the second poll
    (the first sets the Pi's chip up), which finds every stone read again and none left."""
    chip = FramesCounted()
    poll = side(machine, chip)
    for uid in STONES_ON_A_SPOT[count]:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    poll()
    chip.frames = chip.framing_reads = chip.framing_writes = chip.coll_reads = 0
    chip.coll_writes = []
    assert poll() == []
    return chip


@pytest.mark.parametrize("count", [0, 1, 8])
@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_start_and_end_a_frame_with_a_write_each(machine: ModuleType,
                                                                         side: Any,
                                                                         count: int) -> None:
    # StartSend was cleared with a read and a write of BitFramingReg, where its other bits are
    # the framing the driver has just written; the node also set it with a read and a write
    # after writing the framing: per poll of 8 stones 46 SPI transfers more on the Pi, 138 on
    # a node (597 and 840 transfers, now 551 and 702)
    chip = _polled_again(machine, side, count)
    assert chip.frames > 0 and chip.framing_writes == 2 * chip.frames and chip.framing_reads == 0


@pytest.mark.parametrize("count", [0, 1])
@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_clear_values_after_coll_with_one_write(machine: ModuleType,
                                                                       side: Any,
                                                                       count: int) -> None:
    # the Pi cleared CollReg's ValuesAfterColl with a read and a write before each WUPA, where
    # the register's other bits are read-only or reserved (datasheet 9.3.1.15): a write of 0, as
    # the node's, does it. Without a collision CollReg is never read (its CollPos says nothing)
    chip = _polled_again(machine, side, count)
    assert set(chip.coll_writes) <= {bytes([0])} and len(chip.coll_writes) >= count
    assert chip.coll_reads == 0


@pytest.mark.parametrize("count", [0, 1, 4, 8])
@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_clear_values_after_coll_once_a_round(machine: ModuleType,
                                                                      side: Any,
                                                                      count: int) -> None:
    # the node cleared it before each ANTICOLLISION, every collision's too (18 writes for 8
    # stones' 8 rounds), where nothing but a reset sets it again; the Pi before each WUPA, an
    # empty spot's too. Now once a round whose WUPA a stone answered, on both sides
    chip = FramesCounted()
    poll = side(machine, chip)
    for uid in STONES_ON_A_SPOT[count]:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    poll()  # the Pi's sets its chip up
    chip.coll_writes, chip.wupas = [], 0
    assert poll() == []
    assert len(chip.coll_writes) == count and chip.wupas == max(count, 1)


class StruckMidScan(EmulatedRC522):
    """An emulated chip that counts the frames sent (StartSend) and is struck by ``fault`` as it
    is sent its frame number ``strike_at`` (counted from its first): in the middle of a scan,
    its tags then halted, READY or selected."""

    def __init__(self, fault: ChipFault) -> None:
        super().__init__()
        self.strike = fault
        self.frames = 0
        self.strike_at: int | None = None

    def transfer(self, data: bytes) -> bytes:
        if data[0] == Reg.BIT_FRAMING << 1 and data[1] & START_SEND:
            if self.frames == self.strike_at:
                self.fault = self.strike
            self.frames += 1
        return super().transfer(data)


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_fail_a_scan_whose_last_hlta_overheated(machine: ModuleType,
                                                                        side: Any) -> None:
    # the node ignored the HLTA's status: an overheat there, which switched the antenna off, left
    # the scan OK and the chip unset, so the next scan, no field, was clean and empty, a miss
    chip = StruckMidScan(ChipFault.OVERHEATED)
    poll = side(machine, chip, miss_limit=1)  # a stone missed once leaves
    chip.lay(EmulatedTag(STONE))
    seen = [poll()]
    chip.strike_at = chip.frames + 3  # WUPA, ANTICOLLISION, SELECT, then its HLTA
    seen.append(poll())
    chip.fault = ChipFault.NONE  # cooled: set up again at the next poll
    seen += [poll(), poll()]
    assert chip.frames > chip.strike_at
    assert seen == [[("arrive", "DEADBEEF")], "failed", [], []]


@pytest.mark.parametrize("fault", [ChipFault.OVERHEATED, ChipFault.DEAD],
                         ids=["overheat", "power-loss"])
@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_read_every_stone_after_a_fault_at_any_frame_of_a_scan(
        machine: ModuleType, side: Any, fault: ChipFault) -> None:
    # an overheat switches the antenna off, a power loss takes the chip's registers with it: with
    # no field the stones lose their power and are IDLE when it is back (ISO/IEC 14443-3), where
    # the emulated ones stayed as the fault found them: READY or selected, they took the first
    # WUPA after the driver set the chip up again for an error, unanswering, and were missed
    chip = StruckMidScan(fault)
    poll = side(machine, chip, miss_limit=1)  # a stone missed once leaves
    stones = EIGHT_STONES[2:6]  # two 4-byte UIDs, two 7-byte ones
    for uid in stones:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    assert poll() == sorted(("arrive", uid) for uid in stones)
    started = chip.frames
    assert poll() == []
    seen = []
    for frame in range(chip.frames - started):  # every frame of a scan
        chip.strike_at = chip.frames + frame
        seen.append(poll())
        chip.fault = ChipFault.NONE  # cooled, or its power back: set up again at the next poll
        if fault is ChipFault.DEAD:
            chip.power_up()
        seen.append(poll())
    assert len(seen) > 40 and seen == ["failed", []] * (len(seen) // 2)


def garbled_wupa(number: int) -> Callable[[list[int]], bool]:
    """The emulated chip's ``garbles``: the answer to its WUPA number ``number`` (from 1) from
    now arrives garbled, and no other."""
    wupas = []

    def garbles(bits: list[int]) -> bool:
        wupas.append(bits == to_bits(bytes([RC522.PICC_WUPA]), 7))
        return wupas[-1] and wupas.count(True) == number
    return garbles


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_keep_the_stones_read_before_a_garbled_wupa(machine: ModuleType,
                                                                          side: Any) -> None:
    # the Pi raised without them, the node returned none: a stone put on the spot arrived a
    # poll late, though read. The scan is garbled all the same: no stone it did not read leaves
    chip = EmulatedRC522()
    poll = side(machine, chip, miss_limit=1)  # a stone missed once, in a clean scan, leaves
    stones = ["DEADBEEF", "04A1B2C3D4E5F6", "01020304"]
    for uid in stones:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    chip.garbles = garbled_wupa(2)  # the WUPA after the first stone read
    seen = [poll()]
    chip.garbles = None
    seen.append(poll())
    chip.garbles = garbled_wupa(2)
    seen.append(poll())
    chip.garbles = None
    seen.append(poll())
    assert seen == [[("arrive", "01020304")], [("arrive", "04A1B2C3D4E5F6"), ("arrive", "DEADBEEF")],
                    [], []]


class FieldTimed(EmulatedRC522):
    """An emulated chip that keeps, for each time its antenna is switched on (TxControlReg's
    Tx1RFEn and Tx2RFEn written), how long after it the next frame was sent (StartSend)."""

    def __init__(self) -> None:
        super().__init__()
        self.switched_on: float | None = None
        self.quiet: list[float] = []

    def transfer(self, data: bytes) -> bytes:
        if data[0] == Reg.TX_CONTROL << 1 and data[1] & 0x03:
            self.switched_on = self.clock.now()
        sends = data[0] == Reg.BIT_FRAMING << 1 and data[1] & START_SEND
        if sends and self.switched_on is not None:
            self.quiet.append(self.clock.now() - self.switched_on)
            self.switched_on = None
        return super().transfer(data)


@pytest.mark.parametrize("side", [pi_spot, node_spot], ids=["pi", "seat-node"])
def test_the_pi_and_a_seat_node_let_the_stones_power_up_before_the_first_frame(
        machine: ModuleType, side: Any) -> None:
    # ISO/IEC 14443-3: a tag accepts a request within 5 ms of unmodulated field, and a reader waits
    # 5.1 ms for the slowest; both drivers sent WUPA a few SPI transfers after the antenna went
    # on (at set-up, and after each overheat or power loss), the stones not yet powered
    assert RC522.FIELD_ON_US == round(FIELD_ON_WAIT_S * 1e6) >= 5100
    chip = FieldTimed()
    chip.place(EmulatedTag(STONE))  # on the spot before the set-up switches the field on
    poll = side(machine, chip)
    seen = [poll()]
    chip.fault = ChipFault.OVERHEATED
    seen.append(poll())
    chip.fault = ChipFault.NONE  # cooled: set up again, the antenna on again
    chip.clock.advance(FAILED_RETRY_S)
    seen.append(poll())
    assert seen == [[("arrive", "DEADBEEF")], "failed", []]
    assert len(chip.quiet) == 2 and min(chip.quiet) >= FIELD_ON_WAIT_S
