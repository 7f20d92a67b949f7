"""The MFRC522 driver against the emulated chip: request, anticollision, select, read, faults."""

import contextlib

import pytest

from controller.games.errors import DeviceError, DeviceTimeout
from controller.table.service import BEAT
from hardware.clock import SimClock
from hardware.mfrc522 import FRAME_SLACK_S, HALT_TRIES, MFRC522, POLL_INTERVAL_S, TagProtocolError
from hardware.rc522_regs import FRAME_RELOAD, RESET_WAIT_S, T_AUTO, Cmd, Reg, timer_period
from hardware.rfid import (
    EMPTY_SEAT_RETRY_S, FAILED_RETRY_S, GARBLED_IN_A_ROW, GARBLING_FIX, OVERHEATED_FIX, Mfrc522Reader,
    ReaderOverheated,
)
from hardware.devices import TagChange
from hardware.sim_rc522 import ChipFault, EmulatedRC522, EmulatedTag

FOUR = bytes.fromhex("DEADBEEF")
FRAME_TIMER_S = timer_period(T_AUTO, 0xA9, FRAME_RELOAD)  # the Pi driver's 1.5 ms
SEVEN = bytes.fromhex("04A1B2C3D4E5F6")


@pytest.fixture
def clock():
    return SimClock()


@pytest.fixture
def chip(clock):
    return EmulatedRC522(clock=clock)


@pytest.fixture
def driver(chip, clock):
    reader = MFRC522(chip, clock)
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
    chip.lay(EmulatedTag(FOUR))
    assert driver.request() is True


def test_four_byte_uid_is_read_at_cascade_level_1(chip, driver):
    chip.lay(EmulatedTag(FOUR))
    assert driver.read_uid() == FOUR


def test_seven_byte_uid_is_read_through_cascade_level_2(chip, driver):
    chip.lay(EmulatedTag(SEVEN))
    assert driver.read_uid() == SEVEN


def test_select_answers_sak_of_a_complete_uid(chip, driver):
    chip.lay(EmulatedTag(FOUR))
    driver.request()
    cascade, others = driver.anticollision(0)
    assert cascade == FOUR + bytes([0xDE ^ 0xAD ^ 0xBE ^ 0xEF]) and others == []
    assert driver.select(0, cascade) == 0x08


def test_read_block_returns_tag_memory(chip, driver):
    tag = EmulatedTag(SEVEN)
    tag.memory[16:20] = b"ston"
    chip.lay(tag)
    driver.read_uid()
    assert driver.read_block(4)[:4] == b"ston"


def test_collision_resolves_one_tag_and_reports_the_other_branch(chip, driver):
    chip.lay(EmulatedTag(bytes.fromhex("01000000")))
    chip.lay(EmulatedTag(bytes.fromhex("03000000")))
    driver.request()
    cascade, others = driver.anticollision(0)
    assert cascade[:4] == bytes.fromhex("03000000")
    assert others == [[1, 0]]


def test_inventory_finds_every_tag_despite_collisions(chip, driver):
    uids = [FOUR, SEVEN, bytes.fromhex("04A1B2C3D4E5F7"), bytes.fromhex("DEADBEEE")]
    for uid in uids:
        chip.lay(EmulatedTag(uid))
    assert driver.inventory() == {uid.hex().upper() for uid in uids}


def test_inventory_finds_halted_tags_again(chip, driver):
    chip.lay(EmulatedTag(FOUR))
    chip.lay(EmulatedTag(SEVEN))
    driver.inventory()
    assert len(driver.inventory()) == 2


@pytest.mark.parametrize("fault", [ChipFault.STUCK, ChipFault.DEAD])
def test_a_stuck_or_dead_chip_times_out_once_its_frames_limit_has_passed(chip, driver, clock,
                                                                         fault):
    # its frame's timer and FRAME_SLACK_S, however the wait spaces its reads of ComIrqReg
    chip.fault = fault
    started = clock.now()
    with pytest.raises(DeviceTimeout):
        driver.request()
    limit = FRAME_TIMER_S + FRAME_SLACK_S
    assert limit < clock.now() - started < limit + POLL_INTERVAL_S + 10 * chip.transfer_s


def reader_for(chip, leave_after=1):
    return Mfrc522Reader({"pot": MFRC522(chip, chip.clock)}, chip.clock, leave_after=leave_after)


def test_reader_reports_tag_arriving_and_leaving(chip):
    reader = reader_for(chip)
    chip.lay(EmulatedTag(FOUR))
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


@pytest.mark.parametrize("transfer_us", [50, 200, 500])
def test_empty_spot_is_no_tag_never_a_timeout(transfer_us):
    clock = SimClock()
    driver = MFRC522(EmulatedRC522(clock=clock, transfer_s=transfer_us * 1e-6), clock)
    driver.init()
    started = clock.now()
    assert driver.request() is False
    assert driver.inventory() == frozenset()
    assert clock.now() - started >= 2 * FRAME_TIMER_S  # two frames, each ended by the chip's timer


@pytest.mark.parametrize("transfer_us", [50, 500])
def test_halt_is_answered_by_the_timer_not_a_timeout(transfer_us):
    clock = SimClock()
    chip = EmulatedRC522(clock=clock, transfer_s=transfer_us * 1e-6)
    chip.lay(EmulatedTag(SEVEN))
    driver = MFRC522(chip, clock)
    driver.init()
    assert driver.read_uid() == SEVEN
    driver.halt()


def test_clone_version_0x12_is_read_with_a_warning(clock, caplog):
    chip = EmulatedRC522(version=0x12, clock=clock)
    chip.lay(EmulatedTag(FOUR))
    driver = MFRC522(chip, clock)
    driver.init()
    assert driver.read_uid() == FOUR and "0x12" in caplog.text


def test_soft_reset_waits_for_the_oscillator(chip, clock):
    MFRC522(chip, clock).init()
    assert clock.now() >= 0.05


def test_receiver_gain_sets_rfcfgreg(chip, clock):
    MFRC522(chip, clock, rx_gain_db=48).init()
    assert chip.regs[0x26] & 0x70 == 0x70


def test_a_garbled_scan_changes_nothing(chip):
    reader = reader_for(chip, leave_after=1)
    chip.lay(EmulatedTag(FOUR))
    reader.poll()
    chip.fault = ChipFault.GARBLED
    assert reader.poll() == [] and reader.tags("pot") == {"DEADBEEF"}


def test_missed_reads_below_the_limit_do_not_make_a_tag_leave(chip):
    reader = reader_for(chip, leave_after=3)
    chip.lay(EmulatedTag(FOUR))
    reader.poll()
    chip.fault = ChipFault.MISSED
    assert reader.poll() == [] and reader.poll() == []
    chip.fault = ChipFault.NONE
    assert reader.poll() == [] and reader.tags("pot") == {"DEADBEEF"}


def test_a_tag_leaves_after_leave_after_scans_without_it(chip):
    reader = reader_for(chip, leave_after=3)
    chip.lay(EmulatedTag(FOUR))
    reader.poll()
    chip.remove(FOUR)
    assert [reader.poll() for _ in range(2)] == [[], []]
    assert [(e.tag, e.change) for e in reader.poll()] == [("DEADBEEF", TagChange.LEAVE)]


def test_a_timeout_on_one_spot_keeps_the_events_of_the_others():
    clock = SimClock()
    chips = {spot: EmulatedRC522(clock=clock) for spot in ("a", "b")}
    reader = Mfrc522Reader({s: MFRC522(c, clock) for s, c in chips.items()}, clock)
    chips["a"].place(EmulatedTag(FOUR))
    chips["b"].fault = ChipFault.STUCK
    with pytest.raises(DeviceTimeout, match="'b'"):
        reader.poll()
    chips["b"].fault = ChipFault.NONE
    assert [(e.spot, e.tag) for e in reader.poll()] == [("a", "DEADBEEF")]


def test_a_chip_gone_with_miso_floating_high_fails_the_poll(chip):
    # every register of a chip gone reads 0xFF on a MISO line floating high (a lone reader wired
    # without the buffer), ErrorReg too: each scan was taken for a garbled one, and the spot kept
    # its tags, the reader said healthy by the table, for as long as it was gone
    reader = reader_for(chip, leave_after=1)
    chip.lay(EmulatedTag(FOUR))
    reader.poll()
    chip.fault = ChipFault.FLOATING
    with pytest.raises(DeviceError, match=r"reader under 'pot': no RC522 answers \(version register "
                                          r"reads 0xFF\)"):
        reader.poll()
    chip.fault = ChipFault.NONE
    assert reader.poll() == [] and reader.tags("pot") == {"DEADBEEF"}


def table_of(clock, seat5):
    """The pot's reader and the one under seat 5's spot, where no one plays; one poll made."""
    chips = {"pot": EmulatedRC522(clock=clock), "seat5": seat5}
    reader = Mfrc522Reader({s: MFRC522(c, clock) for s, c in chips.items()}, clock,
                           seats={"seat5": 5})
    reader.set_seats_in_play(frozenset({0, 1}))
    reader.poll()
    return reader


def cost(clock, poll):
    """The simulated seconds one poll took (its SPI transfers and its waits)."""
    started = clock.now()
    poll()
    return clock.now() - started


def test_a_stuck_reader_under_an_empty_seat_is_tried_every_few_seconds_not_every_poll(clock):
    # reset (a 50 ms wait) and scanned (a 50 ms timeout then, a few ms now) at every poll, it
    # slowed every beat of the game by 0.08 s for a spare antenna no one reads
    stuck = EmulatedRC522(clock=clock)
    reader = table_of(clock, stuck)
    healthy = cost(clock, reader.poll)
    stuck.fault = ChipFault.STUCK
    reader.poll()
    tried, started = stuck.transfers, clock.now()
    costs = []
    while clock.now() - started < EMPTY_SEAT_RETRY_S - 0.5:
        costs.append(cost(clock, reader.poll))
        assert reader.warning().problem.startswith("reader under 'seat5' timed out")
    assert max(costs) < healthy and stuck.transfers == tried  # the stuck chip not even asked
    clock.advance(0.5)  # tried again: set up (its 50 ms reset), then its scan a few ms
    assert cost(clock, reader.poll) > healthy + RESET_WAIT_S and stuck.transfers > tried


def test_a_reader_under_an_empty_seat_that_works_again_is_read_within_the_retry_time(clock):
    chip = EmulatedRC522(clock=clock)
    reader = table_of(clock, chip)
    chip.fault = ChipFault.STUCK
    reader.poll()
    chip.fault = ChipFault.NONE
    chip.lay(EmulatedTag(FOUR))
    assert reader.poll() == [] and reader.warning() is not None
    clock.advance(EMPTY_SEAT_RETRY_S)
    assert [(e.spot, e.tag) for e in reader.poll()] == [("seat5", "DEADBEEF")]
    assert reader.warning() is None


def test_a_stuck_reader_under_a_seat_taken_is_tried_at_the_next_poll(clock):
    stuck = EmulatedRC522(clock=clock)
    reader = table_of(clock, stuck)
    stuck.fault = ChipFault.STUCK
    reader.poll()
    reader.set_seats_in_play(frozenset({0, 1, 5}))  # a player sits at seat 5: waited for at once
    tried = stuck.transfers
    with pytest.raises(DeviceTimeout, match="'seat5'"):
        reader.poll()
    assert stuck.transfers > tried


def test_a_stuck_reader_under_a_seat_in_play_costs_no_reset_wait_between_tries(clock):
    # set up again and scanned at every poll, a stuck chip cost the table's loop 56 ms of every
    # 30 ms beat (its reset's 50 ms wait, then a few ms past its frame's timer), the other
    # readers, the buttons and the camera waiting, for as long as it was stuck
    stuck = EmulatedRC522(clock=clock)
    reader = table_of(clock, stuck)
    reader.set_seats_in_play(frozenset({0, 1, 5}))
    stuck.lay(EmulatedTag(FOUR))
    assert [(e.spot, e.tag) for e in reader.poll()] == [("seat5", "DEADBEEF")]
    healthy = cost(clock, reader.poll)
    stuck.fault = ChipFault.STUCK
    for _ in range(2):  # found stuck, then set up again at the next poll: stuck still
        with pytest.raises(DeviceTimeout, match="reader under 'seat5' timed out"):
            reader.poll()
    tried, rested = stuck.transfers, clock.now()
    costs = []
    while clock.now() + BEAT < rested + FAILED_RETRY_S:
        clock.advance(BEAT)
        started = clock.now()
        with pytest.raises(DeviceTimeout, match="reader under 'seat5' timed out"):  # its fault
            reader.poll()
        costs.append(clock.now() - started)
    assert len(costs) > 10 and max(costs) < healthy and stuck.transfers == tried  # not asked
    stuck.fault = ChipFault.NONE  # set right, and a chip put beside the stone meanwhile
    stuck.place(EmulatedTag(SEVEN))
    clock.advance(rested + FAILED_RETRY_S - clock.now())
    started = clock.now()
    assert [(e.spot, e.tag) for e in reader.poll()] == [("seat5", SEVEN.hex().upper())]
    assert clock.now() - started > RESET_WAIT_S  # tried: set up again, then read
    assert reader.tags("seat5") == {"DEADBEEF", SEVEN.hex().upper()} and reader.poll() == []


@pytest.mark.parametrize("seats", [{0, 1, 5}, {0, 1}], ids=["seat-in-play", "empty-seat"])
def test_a_resting_reader_a_check_finds_working_is_read_at_the_next_beat(clock, seats):
    # doctor's check (or the table's, before its first beat) found the chip set right, and the
    # poll still left it resting, its old failure raised, for up to half a second (5 s under an
    # empty seat), a stone put on it unread
    stuck = EmulatedRC522(clock=clock)
    reader = table_of(clock, stuck)
    reader.set_seats_in_play(frozenset(seats))
    stuck.fault = ChipFault.STUCK
    for _ in range(2):  # found stuck, then set up again at the next poll: stuck still, resting
        with contextlib.suppress(DeviceTimeout):
            reader.poll()
    stuck.fault = ChipFault.NONE
    stuck.place(EmulatedTag(FOUR))
    assert reader.check().ok and reader.warning() is None
    clock.advance(BEAT)
    assert [(e.spot, e.tag) for e in reader.poll()] == [("seat5", "DEADBEEF")]
    assert reader.warning() is None


def test_an_overheated_chip_fails_the_poll_with_its_fix_until_it_cools(chip):
    # TempErr: the chip switched its antenna off, its frames ended unanswered like an empty
    # field's, and the stones on it left the spot with no word of the reader
    reader = reader_for(chip, leave_after=1)
    chip.lay(EmulatedTag(FOUR))
    reader.poll()
    chip.fault = ChipFault.OVERHEATED
    for _ in range(3):
        with pytest.raises(ReaderOverheated) as caught:
            reader.poll()
        assert caught.value.problem == ("reader under 'pot' overheated and switched its antenna "
                                        "off (its ErrorReg says TempErr)")
        assert caught.value.fix == OVERHEATED_FIX and "supply" in OVERHEATED_FIX
    chip.fault = ChipFault.NONE  # cooled: its next try sets it up, the antenna on again
    chip.clock.advance(FAILED_RETRY_S)  # failing at every try, it was tried every FAILED_RETRY_S
    assert reader.poll() == [] and reader.tags("pot") == {"DEADBEEF"}


def test_an_overheated_chip_under_an_empty_seat_warns_with_its_fix(clock):
    hot = EmulatedRC522(clock=clock)
    reader = table_of(clock, hot)
    hot.fault = ChipFault.OVERHEATED
    reader.poll()
    warning = reader.warning()
    assert warning.problem == ("reader under 'seat5' overheated and switched its antenna off "
                               "(its ErrorReg says TempErr)")
    assert warning.fix.startswith(OVERHEATED_FIX)
    assert reader.check().fix.startswith(OVERHEATED_FIX)


def test_a_reader_that_garbles_every_scan_warns_until_its_first_clean_scan(chip):
    # its version reads fine, so it was never failed: its stones were never seen, without a word
    reader = reader_for(chip, leave_after=1)
    chip.lay(EmulatedTag(FOUR))
    reader.poll()
    chip.fault = ChipFault.GARBLED
    for _ in range(GARBLED_IN_A_ROW - 1):
        assert reader.poll() == [] and reader.warning() is None
    assert reader.poll() == []
    warning = reader.warning()
    assert warning.ok and warning.problem == ("reader under 'pot' garbles every scan (20 in a row): "
                                              "the stones on it are not read")
    assert warning.fix == GARBLING_FIX
    chip.fault = ChipFault.NONE
    assert reader.poll() == [] and reader.warning() is None and reader.tags("pot") == {"DEADBEEF"}


def scan_timer(chip):
    """The period of the emulated chip's timer, as the driver last set it up."""
    reload = (chip.regs[Reg.T_RELOAD_H] << 8) | chip.regs[Reg.T_RELOAD_L]
    return timer_period(chip.regs[Reg.T_MODE], chip.regs[Reg.T_PRESCALER], reload)


@pytest.mark.parametrize("garbled", [False, True], ids=["nak", "garbled-nak"])
def test_a_tag_answering_hlta_is_still_seen_on_the_frame_timer(chip, driver, clock, garbled):
    # HLTA ends by the 1.5 ms timer: a tag's NAK, within the 1 ms ISO gives it, stops it all the
    # same; the timer stays the scan's (it was set for HLTA and back to 25 ms after). A tag that
    # answers every HLTA is sent HALT_TRIES of them, each read at its timer's end (2.5 ms)
    chip.lay(EmulatedTag(FOUR, naks_halt=True))
    assert driver.read_uid() == FOUR
    chip.garbles = lambda bits: garbled and bits[:8] == [0, 0, 0, 0, 1, 0, 1, 0]  # HLTA, 0x50
    started = clock.now()
    with pytest.raises(TagProtocolError, match=f"answered HLTA {HALT_TRIES} times \\(the last: "
                       + ("RC522 receive error 0x02" if garbled else "a NAK")):
        driver.halt()
    assert clock.now() - started < HALT_TRIES * 0.003
    assert scan_timer(chip) == pytest.approx(FRAME_TIMER_S)


@pytest.mark.parametrize("garbled", [False, True], ids=["read", "garbled-read"])
def test_read_waits_25_ms_and_sets_the_frame_timer_back(chip, driver, garbled):
    # READ is no ISO 14443-3 frame: a tag may take longer than 1.5 ms to fetch its memory
    chip.lay(EmulatedTag(SEVEN))
    driver.read_uid()
    timers = []

    def read_frame(bits):
        if bits[:8] == [0, 0, 0, 0, 1, 1, 0, 0]:  # READ, 0x30
            timers.append(scan_timer(chip))
        return garbled
    chip.garbles = read_frame
    with pytest.raises(TagProtocolError) if garbled else contextlib.nullcontext():
        driver.read_block(4)
    assert timers == [pytest.approx(0.025, abs=1e-4)]
    assert scan_timer(chip) == pytest.approx(FRAME_TIMER_S)  # a finally: garbled too


def test_a_frame_timer_shorter_than_the_tags_answer_misses_it(chip, clock, monkeypatch):
    # what the emulated chip checks of the driver's timer: a tag starts its answer to WUPA 91 us
    # after it, and the timer stops at its 5th bit, 47 us later; 125 us is too short. The driver
    # reads ComIrqReg first when the timer's end is due, before the answer's: the receiver stays
    # on after TimerIRq, so a driver that looks later finds the answer all the same, on the chip
    # as on the emulator
    driver = MFRC522(chip, clock)
    driver.init()
    chip.lay(EmulatedTag(FOUR))
    assert driver.request(wakeup=True)
    monkeypatch.setattr("hardware.mfrc522.FRAME_RELOAD", 4)  # (4 + 1) ticks of 25 us
    driver.init()
    assert not driver.request(wakeup=True) and driver.inventory() == frozenset()


STONES = {0: [], 1: ["04A1B2C3D4E5F6"],
          4: ["DEADBEEF", "DEADBEE0", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7"],
          8: ["DEADBEEF", "DEADBEE0", "01020304", "8F00AA55", "04A1B2C3D4E5F6", "04A1B2C3D4E5F7",
              "04C0FFEE000001", "0455AA55AA55AA"]}


class CrcCounted(EmulatedRC522):
    """An emulated chip that counts the CRCs it is asked to compute (CalcCRC commands)."""

    def __init__(self):
        super().__init__()
        self.crcs = 0

    def transfer(self, data):
        self.crcs += data[0] == Reg.COMMAND << 1 and len(data) > 1 and data[1] == Cmd.CALC_CRC
        return super().transfer(data)


@pytest.mark.parametrize("count", [1, 8])
def test_the_pi_computes_the_crcs_of_a_scan_itself(count):
    # the chip's coprocessor computed each SELECT's, HLTA's and SAK's CRC_A: 9 SPI transfers and
    # a wait each, 3 to 5 a stone, a third of a poll's transfers, for a few bytes' arithmetic
    chip = CrcCounted()
    reader = Mfrc522Reader({"pot": MFRC522(chip, chip.clock)}, chip.clock, leave_after=1)
    for uid in STONES[count]:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    reader.poll()
    transfers = chip.transfers
    reader.poll()
    assert reader.tags("pot") == set(STONES[count])  # the tags took the frames' CRCs
    assert chip.crcs == 0
    # 121 transfers for a 7-byte stone before, 885 for eight
    assert chip.transfers - transfers < {1: 90, 8: 660}[count]
