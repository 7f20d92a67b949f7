"""The emulated RC522 answers SPI transfers as the datasheet's registers and FIFO do."""

import pytest

from hardware.rc522_regs import (
    ANTENNA_ON, CRC_IRQ, ERR_BUFFER_OVFL, ERR_COLL, ERR_PARITY, ERR_TEMP, POWER_DOWN, RCV_OFF, REQA,
    RX_IRQ, START_SEND, TIMER_IRQ, TX_IRQ, WUPA, Cmd, Reg, crc_a, with_crc,
)
from hardware.sim_rc522 import (
    TAG_POWER_UP_S, ChipFault, EmulatedRC522, EmulatedTag, TagState, to_bits,
)


def read(chip, reg):
    return chip.transfer(bytes([0x80 | (reg << 1), 0]))[1]


def write(chip, reg, *values):
    chip.transfer(bytes([(reg << 1) & 0x7E, *values]))


def test_version_register_reads_0x92():
    assert read(EmulatedRC522(), Reg.VERSION) == 0x92


def test_read_transaction_answers_each_address_one_byte_later():
    chip = EmulatedRC522()
    write(chip, Reg.T_RELOAD_H, 0x12)
    answer = chip.transfer(bytes([0x80 | (Reg.VERSION << 1), 0x80 | (Reg.T_RELOAD_H << 1), 0]))
    assert answer == bytes([0, 0x92, 0x12])


def test_fifo_keeps_written_bytes_in_order_and_counts_them():
    chip = EmulatedRC522()
    write(chip, Reg.FIFO_DATA, 1, 2, 3)
    assert read(chip, Reg.FIFO_LEVEL) == 3
    assert [read(chip, Reg.FIFO_DATA) for _ in range(3)] == [1, 2, 3]


def test_flush_buffer_empties_the_fifo():
    chip = EmulatedRC522()
    write(chip, Reg.FIFO_DATA, 1, 2)
    write(chip, Reg.FIFO_LEVEL, 0x80)
    assert read(chip, Reg.FIFO_LEVEL) == 0


def test_com_irq_write_with_bit7_clear_clears_marked_bits():
    chip = EmulatedRC522()
    write(chip, Reg.COM_IRQ, 0x80 | RX_IRQ | TIMER_IRQ)
    write(chip, Reg.COM_IRQ, TIMER_IRQ)
    assert read(chip, Reg.COM_IRQ) & (RX_IRQ | TIMER_IRQ) == RX_IRQ


def test_calc_crc_uses_the_fifo_and_mode_preset():
    chip = EmulatedRC522()
    write(chip, Reg.MODE, 0x3D)
    write(chip, Reg.FIFO_DATA, 0x50, 0x00)
    write(chip, Reg.COMMAND, Cmd.CALC_CRC)
    assert read(chip, Reg.DIV_IRQ) & CRC_IRQ
    assert (read(chip, Reg.CRC_RESULT_L), read(chip, Reg.CRC_RESULT_H)) == (0x57, 0xCD)


def test_crc_a_matches_the_iso_example():
    assert crc_a(bytes([0x00, 0x00])) == 0x1EA0


def start_timer(chip):
    """TAuto with the Pi driver's 25 ms: the timer starts when a frame has been sent."""
    write(chip, Reg.T_MODE, 0x80)
    write(chip, Reg.T_PRESCALER, 0xA9)
    write(chip, Reg.T_RELOAD_H, 0x03)
    write(chip, Reg.T_RELOAD_L, 0xE8)


def settle(chip, seconds=0.03):
    """Let the chip's time pass (a tag's answer or the 25 ms timer)."""
    chip.clock.advance(seconds)


def antenna_on(chip):
    """Switch the antenna on, when it is off, and wait for the tags to power up in its field."""
    if not chip.regs[Reg.TX_CONTROL] & ANTENNA_ON:
        write(chip, Reg.TX_CONTROL, 0x80 | ANTENNA_ON)
        settle(chip, TAG_POWER_UP_S)


def transceive_reqa(chip, command=REQA):
    start_timer(chip)
    antenna_on(chip)
    write(chip, Reg.FIFO_DATA, command)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND | 7)
    settle(chip)


def test_reqa_with_tag_puts_atqa_in_fifo():
    chip = EmulatedRC522()
    chip.place(EmulatedTag(bytes.fromhex("DEADBEEF")))
    transceive_reqa(chip)
    assert read(chip, Reg.COM_IRQ) & RX_IRQ
    assert [read(chip, Reg.FIFO_DATA) for _ in range(read(chip, Reg.FIFO_LEVEL))] == [0x04, 0x00]


def test_reqa_without_tag_times_out():
    chip = EmulatedRC522()
    transceive_reqa(chip)
    assert read(chip, Reg.COM_IRQ) & (RX_IRQ | TIMER_IRQ) == TIMER_IRQ


def test_antenna_off_means_no_tag_answers():
    chip = EmulatedRC522()
    chip.place(EmulatedTag(bytes.fromhex("DEADBEEF")))
    start_timer(chip)
    write(chip, Reg.FIFO_DATA, REQA)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND | 7)
    settle(chip)
    assert read(chip, Reg.COM_IRQ) & TIMER_IRQ


def test_no_answer_ends_only_when_the_timer_runs_out():
    chip = EmulatedRC522()
    start_timer(chip)
    antenna_on(chip)
    write(chip, Reg.FIFO_DATA, REQA)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND | 7)
    settle(chip, 0.020)
    assert not read(chip, Reg.COM_IRQ) & TIMER_IRQ
    settle(chip, 0.006)
    assert read(chip, Reg.COM_IRQ) & TIMER_IRQ


def test_without_tauto_an_unanswered_frame_never_ends():
    chip = EmulatedRC522()
    antenna_on(chip)
    write(chip, Reg.FIFO_DATA, REQA)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND | 7)
    settle(chip, 1.0)
    assert not read(chip, Reg.COM_IRQ) & (RX_IRQ | TIMER_IRQ)


def test_every_transfer_costs_bus_time():
    chip = EmulatedRC522(transfer_s=200e-6)
    for _ in range(10):
        read(chip, Reg.VERSION)
    assert abs(chip.clock.now() - 0.002) < 1e-9


def test_two_tags_answering_anticollision_set_coll_err_and_position():
    chip = EmulatedRC522()
    chip.place(EmulatedTag(bytes.fromhex("01000000")))
    chip.place(EmulatedTag(bytes.fromhex("03000000")))
    transceive_reqa(chip)
    write(chip, Reg.FIFO_LEVEL, 0x80)
    write(chip, Reg.FIFO_DATA, 0x93, 0x20)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND)
    settle(chip)
    assert read(chip, Reg.ERROR) & ERR_COLL
    assert read(chip, Reg.COLL) & 0x1F == 2  # the UIDs first differ in their second bit


def test_soft_reset_restores_register_defaults():
    chip = EmulatedRC522()
    write(chip, Reg.MODE, 0x3D)
    write(chip, Reg.COMMAND, Cmd.SOFT_RESET)
    assert read(chip, Reg.COMMAND) & 0x10  # still starting up
    settle(chip, 0.003)
    assert read(chip, Reg.MODE) == 0x3F


def test_dead_chip_reads_zero():
    chip = EmulatedRC522()
    chip.fault = ChipFault.DEAD
    assert read(chip, Reg.VERSION) == 0


def test_a_chip_gone_on_a_floating_miso_reads_all_ones():
    chip = EmulatedRC522()
    chip.fault = ChipFault.FLOATING
    assert read(chip, Reg.VERSION) == read(chip, Reg.ERROR) == 0xFF


def test_tag_that_leaves_stops_answering():
    chip = EmulatedRC522()
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"))
    chip.place(tag)
    chip.remove(tag.uid)
    transceive_reqa(chip)
    assert read(chip, Reg.COM_IRQ) & TIMER_IRQ


def test_halted_tag_ignores_reqa():
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"), state=TagState.HALT)
    assert tag.hear([0, 1, 1, 0, 0, 1, 0]) is None


@pytest.mark.parametrize("halted, after", [(False, TagState.IDLE), (True, TagState.HALT)])
def test_a_selected_tag_takes_wupa_for_an_error_and_answers_the_next(halted, after):
    # ISO/IEC 14443-3: a tag in ACTIVE goes back to IDLE (HALT, if it was woken from HALT) on a
    # frame it does not expect, and does not answer it; the emulated tag answered WUPA at once
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"), state=TagState.ACTIVE, halted=halted)
    wupa = to_bits(bytes([WUPA]), 7)
    assert tag.hear(wupa) is None and tag.state is after
    assert tag.hear(wupa) == to_bits(bytes([0x04, 0x00])) and tag.state is TagState.READY


@pytest.mark.parametrize("command", [REQA, WUPA], ids=["reqa", "wupa"])
@pytest.mark.parametrize("halted, after", [(False, TagState.IDLE), (True, TagState.HALT)],
                         ids=["ready", "ready*"])
def test_a_tag_being_resolved_takes_reqa_and_wupa_for_an_error(command, halted, after):
    # ISO/IEC 14443-3: a tag in READY (READY* if woken from HALT) goes back to IDLE (HALT) on any
    # frame but ANTICOLLISION and SELECT, and does not answer it; the emulated tag answered again
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"), state=TagState.READY, halted=halted)
    assert tag.hear(to_bits(bytes([command]), 7)) is None and tag.state is after
    wupa = to_bits(bytes([WUPA]), 7)
    assert tag.hear(wupa) == to_bits(bytes([0x04, 0x00])) and tag.state is TagState.READY


def test_garbles_sets_parity_err_on_the_answers_to_the_frames_it_chooses():
    # a tag at the field's edge: its answer to one frame arrives garbled, to the next one clean
    chip = EmulatedRC522()
    chip.place(EmulatedTag(bytes.fromhex("DEADBEEF")))
    heard = []

    def first_only(bits):
        heard.append(bits)
        return len(heard) == 1
    chip.garbles = first_only
    transceive_reqa(chip)
    garbled = read(chip, Reg.ERROR)
    write(chip, Reg.COM_IRQ, 0x7F)
    transceive_reqa(chip)
    assert heard[0] == [0, 1, 1, 0, 0, 1, 0]  # REQA 0x26, 7 bits, least significant first
    assert garbled & ERR_PARITY and not read(chip, Reg.ERROR) & ERR_PARITY


def send_with_timer(chip, reload, frame, last_bits=0, prescaler=0xA9):
    """Transceive ``frame`` with TAuto's timer at ``reload`` + 1 ticks (of 25 us with the Pi
    driver's ``prescaler``, of 1 / 13.56 MHz with 0), the antenna on; returns ComIrqReg's RxIRq
    and TimerIRq as first seen set."""
    write(chip, Reg.T_MODE, 0x80)
    write(chip, Reg.T_PRESCALER, prescaler)
    write(chip, Reg.T_RELOAD_H, reload >> 8)
    write(chip, Reg.T_RELOAD_L, reload & 0xFF)
    antenna_on(chip)
    write(chip, Reg.COM_IRQ, 0x7F)
    write(chip, Reg.FIFO_LEVEL, 0x80)
    write(chip, Reg.FIFO_DATA, *frame)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND | last_bits)
    while not (irq := read(chip, Reg.COM_IRQ) & (RX_IRQ | TIMER_IRQ)):
        pass
    return irq


def test_an_answer_not_begun_when_the_timer_runs_out_comes_after_timer_irq():
    # the chip's timer stops only at an answer's fifth bit: with a timer shorter than the tag's
    # frame delay the chip says TimerIRq first, where the emulator gave the ATQA, whatever the timer
    chip = EmulatedRC522(transfer_s=10e-6)
    chip.place(EmulatedTag(bytes.fromhex("DEADBEEF")))
    assert send_with_timer(chip, 1, [REQA], 7) == TIMER_IRQ  # 50 us, under the 86 us frame delay
    settle(chip, 0.001)
    assert read(chip, Reg.COM_IRQ) & RX_IRQ  # the answer still arrives: the receiver is on
    write(chip, Reg.COMMAND, Cmd.IDLE)
    write(chip, Reg.COM_IRQ, 0x7F)
    assert send_with_timer(chip, 1, [REQA], 7) == TIMER_IRQ
    write(chip, Reg.COMMAND, Cmd.IDLE)  # the driver gives up: Idle cancels the answer to come
    settle(chip, 0.001)
    assert not read(chip, Reg.COM_IRQ) & RX_IRQ


def test_a_timer_of_1_5_ms_still_sees_a_tag_answer_hlta_with_a_nak():
    # ISO 14443-3: any answer within 1 ms of HLTA is a NAK; 60 ticks of 25 us wait for it
    hlta = [0x50, 0x00, 0x57, 0xCD]
    chip = EmulatedRC522()
    naks, halts = (EmulatedTag(bytes.fromhex(uid), state=TagState.ACTIVE, naks_halt=nak)
                   for uid, nak in (("DEADBEEF", True), ("01020304", False)))
    chip.tags = [naks]
    assert send_with_timer(chip, 59, hlta) == RX_IRQ and naks.state is TagState.ACTIVE
    assert read(chip, Reg.FIFO_LEVEL) == 1 and read(chip, Reg.CONTROL) & 0x07 == 4
    chip.tags = [halts]
    started = chip.clock.now()
    assert send_with_timer(chip, 59, hlta) == TIMER_IRQ and halts.state is TagState.HALT
    assert 0.0015 <= chip.clock.now() - started < 0.0025  # the timer's 1.5 ms, not 25


def test_a_tag_whose_hlta_came_garbled_naks_it_and_halts_at_the_next():
    # a stone at the field's edge: its HLTA reaches it garbled, its CRC check fails, it answers
    # a NAK and stays ACTIVE; the next HLTA, clean, halts it
    hlta = [0x50, 0x00, 0x57, 0xCD]
    chip = EmulatedRC522()
    edge = EmulatedTag(bytes.fromhex("DEADBEEF"), state=TagState.ACTIVE, garbled_halts=1)
    chip.tags = [edge]
    assert send_with_timer(chip, 59, hlta) == RX_IRQ and edge.state is TagState.ACTIVE
    assert send_with_timer(chip, 59, hlta) == TIMER_IRQ and edge.state is TagState.HALT


STONE = EmulatedTag(bytes.fromhex("DEADBEEF"))
SELECT = with_crc(bytes([0x93, 0x70]) + STONE.cascade(0))
FRAMES = {  # what a driver sends, the tag's state then, and ISO 14443-3's 1/fc before its answer:
    # (9 * 128 + 84) after a last bit 1, + 20 after a 0; a whole byte's last bit is its odd parity
    "REQA": ([REQA], 7, TagState.IDLE, 9 * 128 + 20),                  # 0x26's 7th bit is 0
    "WUPA": ([WUPA], 7, TagState.IDLE, 9 * 128 + 84),                  # 0x52's 7th bit is 1
    "ANTICOLLISION": ([0x93, 0x20], 0, TagState.READY, 9 * 128 + 20),  # 0x20: one 1, parity 0
    "SELECT": (list(SELECT), 0, TagState.READY, 9 * 128 + 84),         # CRC ends 0x9C: four 1s
    "HLTA, a NAK": ([0x50, 0x00, 0x57, 0xCD], 0, TagState.ACTIVE, 9 * 128 + 20),  # 0xCD: five
    "READ": (list(with_crc(bytes([0x30, 4]))), 0, TagState.ACTIVE, 9 * 128 + 84),  # 0xEE: six
}


@pytest.mark.parametrize("frame", FRAMES)
def test_a_timer_ending_before_the_answers_fifth_bit_misses_the_answer(frame):
    # the timer stops at the answer's 5th bit, the frame delay time (n = 9) plus 5 bits of 128/fc
    # after the frame: a timer a tick shorter misses the tag, as the chip does, however near (its
    # ComIrqReg read every microsecond, so that TimerIRq is seen before the answer's RxIRq)
    sent, last_bits, state, delay = FRAMES[frame]
    fifth_bit = delay + 5 * 128  # in ticks of 1/fc (TPrescaler 0)
    seen = {}
    for ticks in (fifth_bit - 1, fifth_bit + 1):
        chip = EmulatedRC522(transfer_s=1e-6)
        chip.tags = [EmulatedTag(STONE.uid, state=state, naks_halt=True)]
        seen[ticks] = send_with_timer(chip, ticks - 1, sent, last_bits, prescaler=0)
    assert seen == {fifth_bit - 1: TIMER_IRQ, fifth_bit + 1: RX_IRQ}


def soft_reset(chip):
    """SoftReset, and its oscillator started: its antenna off until it is switched on again."""
    write(chip, Reg.COMMAND, Cmd.SOFT_RESET)
    settle(chip, 0.003)


def overheat(chip):
    """A frame sent while the chip is too hot: TempErr, the antenna off."""
    chip.fault = ChipFault.OVERHEATED
    transceive_reqa(chip)
    chip.fault = ChipFault.NONE
    write(chip, Reg.COM_IRQ, 0x7F)


def antenna_off(chip):
    write(chip, Reg.TX_CONTROL, 0x80)


def power_up(chip):
    """The chip's supply back after a moment without, its oscillator started."""
    chip.power_up()
    settle(chip, 0.003)


@pytest.mark.parametrize("field_off", [soft_reset, overheat, antenna_off, power_up],
                         ids=["soft-reset", "overheat", "antenna-off", "power-up"])
@pytest.mark.parametrize("state", [TagState.HALT, TagState.ACTIVE, TagState.READY])
def test_a_tag_loses_its_state_when_the_field_goes_off_and_answers_reqa(field_off, state):
    # the field alone powers a tag: with the antenna off it is in ISO/IEC 14443-3's POWER-OFF
    # state, and IDLE when the field is back; the emulated tags kept their state through it, a
    # halted one ignoring REQA, a selected or READY one taking it for an error
    chip = EmulatedRC522()
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"))
    chip.place(tag)
    antenna_on(chip)
    tag.state, tag.halted = state, state is TagState.HALT
    field_off(chip)
    assert tag.state is TagState.IDLE and not tag.halted
    transceive_reqa(chip)
    assert read(chip, Reg.COM_IRQ) & RX_IRQ and tag.state is TagState.READY


def test_a_tag_keeps_its_state_while_the_field_stays_on():
    chip = EmulatedRC522()
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"))
    chip.place(tag)
    antenna_on(chip)
    tag.state, tag.halted = TagState.HALT, True
    write(chip, Reg.TX_CONTROL, 0x80 | 0x01)  # one antenna driver still on: a field all the same
    transceive_reqa(chip)
    assert not read(chip, Reg.COM_IRQ) & RX_IRQ and tag.state is TagState.HALT


def test_a_tag_hears_no_frame_until_the_field_has_powered_it_up():
    # ISO/IEC 14443-3 gives a tag 5 ms of unmodulated field to accept a request; the emulated tags
    # answered a REQA sent the moment the antenna went on, so a driver that did not wait passed
    chip = EmulatedRC522()
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"))
    chip.place(tag)
    start_timer(chip)
    write(chip, Reg.TX_CONTROL, 0x80 | ANTENNA_ON)
    settle(chip, TAG_POWER_UP_S - 0.001)
    transceive_reqa(chip)
    assert read(chip, Reg.COM_IRQ) & (RX_IRQ | TIMER_IRQ) == TIMER_IRQ
    assert tag.state is TagState.IDLE
    write(chip, Reg.COM_IRQ, 0x7F)
    transceive_reqa(chip)  # 30 ms later
    assert read(chip, Reg.COM_IRQ) & RX_IRQ and tag.state is TagState.READY


def test_temp_err_outlasts_the_next_frame_until_a_reset():
    # ErrorReg (datasheet 9.3.1.7): a command's execution clears every error bit but TempErr; the
    # emulated chip cleared it at the next Transceive, as if the chip had said it cooled
    chip = EmulatedRC522()
    overheat(chip)
    transceive_reqa(chip)
    assert read(chip, Reg.ERROR) & ERR_TEMP
    soft_reset(chip)
    assert not read(chip, Reg.ERROR) & ERR_TEMP


def test_a_command_started_clears_buffer_ovfl_and_a_frame_sent_does_not():
    # ErrorReg (datasheet 9.3.1.7): a command's execution clears every error bit but TempErr;
    # the receiver's start-up clears CollErr, CRCErr, ParityErr and ProtocolErr only. The
    # emulated chip kept BufferOvfl through every command until a FlushBuffer
    chip = EmulatedRC522()
    overheat(chip)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.FIFO_DATA, *bytes(65))  # one byte more than the FIFO holds
    write(chip, Reg.BIT_FRAMING, START_SEND)
    assert read(chip, Reg.ERROR) == ERR_TEMP | ERR_BUFFER_OVFL
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    assert read(chip, Reg.ERROR) == ERR_TEMP


def test_coll_reg_resets_with_values_after_coll_and_coll_pos_not_valid_set():
    # CollReg's reset value is 101x xxxx (datasheet 9.3.1.15); the emulated chip's was 0x00, as if
    # a driver had cleared ValuesAfterColl, so a driver that never did passed
    chip = EmulatedRC522()
    assert read(chip, Reg.COLL) & 0xE0 == 0xA0
    write(chip, Reg.COLL, 0)
    soft_reset(chip)
    assert read(chip, Reg.COLL) & 0xE0 == 0xA0


def anticollision_of_two(values_after_coll):
    """The FIFO's bytes and RxLastBits after an ANTICOLLISION answered by two tags whose UIDs first
    differ in their second bit, CollReg's ValuesAfterColl as given."""
    chip = EmulatedRC522()
    chip.place(EmulatedTag(bytes.fromhex("01000000")))  # cascade bytes 01 00 00 00, BCC 01
    chip.place(EmulatedTag(bytes.fromhex("03FF0000")))  # 03 FF 00 00, BCC FC
    transceive_reqa(chip)
    write(chip, Reg.COLL, values_after_coll)
    write(chip, Reg.FIFO_LEVEL, 0x80)
    write(chip, Reg.FIFO_DATA, 0x93, 0x20)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND)
    settle(chip)
    assert read(chip, Reg.ERROR) & ERR_COLL and read(chip, Reg.COLL) & 0x3F == 2
    fifo = bytes(read(chip, Reg.FIFO_DATA) for _ in range(read(chip, Reg.FIFO_LEVEL)))
    return fifo.hex(), read(chip, Reg.CONTROL) & 0x07


def test_values_after_coll_clears_or_keeps_the_bits_received_after_a_collision():
    # CollReg's ValuesAfterColl, 0: "all received bits will be cleared after a collision"
    # (datasheet 9.3.1.15); 1, its reset value: they are kept, what the receiver made of both
    # answers. The emulated chip ended the answer at the collided bit, set, whatever the bit said
    assert anticollision_of_two(0x00) == ("0100000000", 0)
    assert anticollision_of_two(0x80) == ("03ff0000fd", 0)


def test_a_tag_placed_in_a_field_already_on_hears_no_frame_until_it_has_powered_up():
    # ISO/IEC 14443-3 (5.1): a tag accepts a request within 5 ms of unmodulated field, whether the
    # field came on or the tag came into it; a tag placed while the field was on answered at once
    chip = EmulatedRC522()
    antenna_on(chip)
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"))
    chip.place(tag)
    settle(chip, TAG_POWER_UP_S - 0.001)
    transceive_reqa(chip, WUPA)
    assert read(chip, Reg.COM_IRQ) & (RX_IRQ | TIMER_IRQ) == TIMER_IRQ
    assert tag.state is TagState.IDLE
    write(chip, Reg.COM_IRQ, 0x7F)
    transceive_reqa(chip, WUPA)  # 30 ms later
    assert read(chip, Reg.COM_IRQ) & RX_IRQ and tag.state is TagState.READY


def send_reqa_pending(chip):
    """A REQA sent to a stone, its ATQA still to come: a Transceive waiting for its answer."""
    chip.place(EmulatedTag(bytes.fromhex("DEADBEEF")))
    start_timer(chip)
    antenna_on(chip)
    write(chip, Reg.FIFO_DATA, REQA)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND | 7)


def test_no_cmd_change_leaves_the_running_transceive_and_its_answer_to_come():
    # datasheet 10.3.1.6: NoCmdChange "does not influence any running command"; the emulated
    # chip took it for a command, which cancelled the Transceive and lost the ATQA on its way
    chip = EmulatedRC522()
    send_reqa_pending(chip)
    write(chip, Reg.COMMAND, Cmd.NO_CMD_CHANGE)
    assert read(chip, Reg.COMMAND) & 0x0F == Cmd.TRANSCEIVE
    settle(chip)
    assert read(chip, Reg.COM_IRQ) & RX_IRQ
    assert [read(chip, Reg.FIFO_DATA) for _ in range(read(chip, Reg.FIFO_LEVEL))] == [0x04, 0x00]


def test_no_cmd_change_sets_rcv_off_and_power_down_and_keeps_the_command_bits():
    # datasheet 10.3.1.6: NoCmdChange "can be used to manipulate any bit except the CommandReg
    # register Command[3:0] bits, for example, the RcvOff bit or the PowerDown bit"
    chip = EmulatedRC522()
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.COMMAND, POWER_DOWN | Cmd.NO_CMD_CHANGE)
    assert read(chip, Reg.COMMAND) == POWER_DOWN | Cmd.TRANSCEIVE
    write(chip, Reg.COMMAND, RCV_OFF | POWER_DOWN | Cmd.NO_CMD_CHANGE)
    assert read(chip, Reg.COMMAND) == RCV_OFF | POWER_DOWN | Cmd.TRANSCEIVE


def test_no_cmd_change_leaves_the_error_bits_of_the_command_running():
    # ErrorReg shows "the error status of the last command executed" (9.3.1.7); NoCmdChange runs
    # no command of its own, so a command's clearing of ErrorReg is not its
    chip = EmulatedRC522()
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.FIFO_DATA, *bytes(65))  # one byte more than the FIFO holds
    write(chip, Reg.COMMAND, Cmd.NO_CMD_CHANGE)
    assert read(chip, Reg.ERROR) == ERR_BUFFER_OVFL


def test_command_reg_resets_to_20h_its_receiver_off():
    # CommandReg's reset value is 20h (datasheet table 23): RcvOff set, Idle; the emulated chip
    # reset it to 00h, RESET_VALUES' 20h overwritten
    chip = EmulatedRC522()
    assert read(chip, Reg.COMMAND) == RCV_OFF | Cmd.IDLE
    write(chip, Reg.COMMAND, Cmd.IDLE)
    soft_reset(chip)
    assert read(chip, Reg.COMMAND) == RCV_OFF | Cmd.IDLE


@pytest.mark.parametrize("command, after_start_send",
                         [(RCV_OFF | Cmd.TRANSCEIVE, []),
                          (Cmd.TRANSCEIVE, [RCV_OFF | Cmd.NO_CMD_CHANGE])],
                         ids=["with-the-transceive", "no-cmd-change-after-start-send"])
def test_a_receiver_switched_off_loses_the_answer_and_the_timer_runs_out(command, after_start_send):
    # CommandReg's RcvOff: "analog part of the receiver is switched off" (datasheet table 24); the
    # emulated chip stored the bit and took no notice of it: the ATQA still arrived
    chip = EmulatedRC522()
    chip.place(EmulatedTag(bytes.fromhex("DEADBEEF")))
    start_timer(chip)
    antenna_on(chip)
    write(chip, Reg.FIFO_DATA, REQA)
    write(chip, Reg.COMMAND, command)
    write(chip, Reg.BIT_FRAMING, START_SEND | 7)
    for value in after_start_send:
        write(chip, Reg.COMMAND, value)
    settle(chip)
    assert read(chip, Reg.COM_IRQ) & (RX_IRQ | TIMER_IRQ) == TIMER_IRQ
    assert read(chip, Reg.FIFO_LEVEL) == 0


def test_soft_power_down_during_a_transceive_takes_the_field_and_the_answer_away():
    # datasheet 8.6.2: soft power-down "is entered immediately after the CommandReg register's
    # PowerDown bit is set to logic 1. All internal current sinks are switched off, including the
    # oscillator buffer"; table 1: at most 10 uA from all supplies, where a field takes 60-100 mA.
    # The emulated chip went on as if awake: field on, the ATQA delivered
    chip = EmulatedRC522()
    send_reqa_pending(chip)
    write(chip, Reg.COMMAND, POWER_DOWN | Cmd.NO_CMD_CHANGE)
    settle(chip)
    assert read(chip, Reg.COMMAND) == POWER_DOWN | Cmd.TRANSCEIVE
    assert not read(chip, Reg.COM_IRQ) & (RX_IRQ | TIMER_IRQ) and read(chip, Reg.FIFO_LEVEL) == 0
    assert chip.tags[0].state is TagState.IDLE  # no field: the stone lost its power


def test_a_chip_woken_reads_power_down_until_its_oscillator_is_stable():
    # table 24: PowerDown written 0 starts "the wake up procedure during which this bit is read as
    # a logic 1"; 8.6.2: the oscillator takes its start-up time, "1024 clocks" more; the emulated
    # chip read 0 at once
    chip = EmulatedRC522()
    write(chip, Reg.COMMAND, POWER_DOWN | Cmd.IDLE)
    settle(chip)
    write(chip, Reg.COMMAND, Cmd.IDLE)
    assert read(chip, Reg.COMMAND) & POWER_DOWN
    settle(chip, 0.003)
    assert read(chip, Reg.COMMAND) == Cmd.IDLE


def test_a_halted_stone_answers_reqa_after_a_soft_power_down_and_its_wake():
    # no field while the chip is powered down: the stones lose their power (ISO/IEC 14443-3's
    # POWER-OFF) and answer REQA from IDLE once the field is back; the emulated ones stayed halted
    chip = EmulatedRC522()
    tag = EmulatedTag(bytes.fromhex("DEADBEEF"))
    chip.place(tag)
    antenna_on(chip)
    tag.state, tag.halted = TagState.HALT, True
    write(chip, Reg.COMMAND, POWER_DOWN | Cmd.IDLE)
    write(chip, Reg.COMMAND, Cmd.IDLE)
    settle(chip, 0.003 + TAG_POWER_UP_S)  # the oscillator stable, then the stone powered up
    transceive_reqa(chip)
    assert read(chip, Reg.COM_IRQ) & RX_IRQ and tag.state is TagState.READY


def test_a_chip_in_soft_power_down_sends_nothing_and_its_timer_never_runs_out():
    # its oscillator switched off (datasheet 8.6.2), the chip has no clock to send a frame or run
    # its timer with; the emulated one sent the REQA to a field it no longer had and said TimerIRq
    chip = EmulatedRC522()
    chip.place(EmulatedTag(bytes.fromhex("DEADBEEF")))
    start_timer(chip)
    antenna_on(chip)
    write(chip, Reg.COMMAND, POWER_DOWN | Cmd.IDLE)
    write(chip, Reg.FIFO_DATA, REQA)
    write(chip, Reg.COMMAND, POWER_DOWN | Cmd.TRANSCEIVE)
    write(chip, Reg.BIT_FRAMING, START_SEND | 7)
    settle(chip)
    assert not read(chip, Reg.COM_IRQ) & (TX_IRQ | RX_IRQ | TIMER_IRQ)
    assert read(chip, Reg.FIFO_LEVEL) == 1  # the REQA still in the FIFO, kept through it


def test_idle_is_a_command_executed_and_clears_every_error_bit_but_temp_err():
    # ErrorReg's footnote (datasheet table 34): "Command execution clears all error bits except
    # the TempErr bit"; 10.1: "A command is executed by writing a command code (see Table 149)
    # to the CommandReg register", and table 149 has Idle. The emulated chip left ErrorReg as it
    # was at an Idle, as at NoCmdChange, which alone runs no command (10.3.1.6)
    chip = EmulatedRC522()
    overheat(chip)
    write(chip, Reg.COMMAND, Cmd.TRANSCEIVE)
    write(chip, Reg.FIFO_DATA, *bytes(65))  # one byte more than the FIFO holds
    assert read(chip, Reg.ERROR) == ERR_TEMP | ERR_BUFFER_OVFL
    write(chip, Reg.COMMAND, Cmd.IDLE)
    assert read(chip, Reg.ERROR) == ERR_TEMP
