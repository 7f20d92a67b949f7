"""The Pi's seat-node driver against the simulated node (the firmware's own code, in-process)."""

from __future__ import annotations

import errno
from typing import Any, Sequence

import pytest
import serial  # type: ignore[import-untyped]

from hardware.clock import SimClock
from hardware.devices import (
    ButtonEvent, DeviceStatus, LightState, PressKind, SeatPanel, TagChange, TagEvent, TagReader,
)
from controller.games.errors import DeviceDisconnected
from hardware.seatnode import (
    LIGHT_MODES, PRESS_KINDS, TAG_CHANGES, UNREADABLE_FIX, NodeAway, NodeReader, NodeTag,
    ReaderState, SeatNodeLink, SeatNodePanel, SeatNodeReader, decode_event,
)
from hardware.seatnode_firmware import firmware
from hardware.seatnode_sim import ReaderFault, SimSeatNode

STONE = bytes.fromhex("11223344")


class Table:
    """One simulated seat node with the Pi's panel and reader on it."""

    def __init__(self) -> None:
        self.clock = SimClock()
        self.node = SimSeatNode(self.clock, session=0x0A0A)
        self.link = self.node.link(session=0x0B0B, retry_after=0.5)
        self.panel = SeatNodePanel({3: self.link}, self.clock)
        self.reader = SeatNodeReader({"pot": (self.link, 0)}, self.clock)
        self.away = 0  # polls that said the node had gone away

    def run(self, seconds: float) -> list[ButtonEvent | TagEvent]:
        """Let time pass, polling both devices every 20 ms as the table's loop does (a node
        that went away is a state of the table, not an error)."""
        events: list[ButtonEvent | TagEvent] = []
        for _ in range(round(seconds / 0.02)):
            self.clock.advance(0.02)
            for device in (self.panel, self.reader):
                try:
                    events += device.poll()
                except NodeAway:
                    self.away += 1
        return events

    def tap(self, button: int) -> None:
        self.node.press(button)
        self.run(0.1)
        self.node.release(button)


@pytest.fixture
def table() -> Table:
    """A connected seat node at seat 3, reader spot ``pot``."""
    linked = Table()
    linked.run(0.1)
    return linked


def presses(events: list[ButtonEvent | TagEvent]) -> list[tuple[int, str, PressKind]]:
    return [(e.seat, e.button, e.kind) for e in events if isinstance(e, ButtonEvent)]


def test_backends_implement_the_interfaces(table: Table) -> None:
    assert isinstance(table.panel, SeatPanel) and isinstance(table.reader, TagReader)


def test_tap_gives_press_then_release(table: Table) -> None:
    table.node.press(0)
    events = table.run(0.1)
    table.node.release(0)
    events += table.run(0.3)
    assert presses(events) == [(3, "raise", PressKind.PRESS), (3, "raise", PressKind.RELEASE)]


def test_holding_gives_a_long_press(table: Table) -> None:
    table.node.press(2)
    events = table.run(1.2)
    assert [kind for *_, kind in presses(events)] == [PressKind.PRESS, PressKind.LONG_PRESS]


def test_light_command_reaches_the_node(table: Table) -> None:
    table.panel.set_light(3, LightState.BLINK)
    table.run(0.1)
    assert table.node.light(0) is LightState.BLINK


def test_tag_arrives_and_leaves(table: Table) -> None:
    table.node.place_tag(STONE)
    arrived = table.run(0.3)
    assert table.reader.tags("pot") == {"11223344"}
    table.node.remove_tag(STONE)
    left = table.run(0.5)
    tags = [e for e in arrived + left if isinstance(e, TagEvent)]
    assert [(e.spot, e.tag, e.change) for e in tags] == [
        ("pot", "11223344", TagChange.ARRIVE), ("pot", "11223344", TagChange.LEAVE)]


def test_presses_during_an_outage_arrive_once_after_reconnect(table: Table) -> None:
    table.node.unplug()
    for button in (0, 1, 0):
        table.node.press(button)
        table.run(0.1)
        table.node.release(button)
        table.run(0.1)
    assert presses(table.run(1.0)) == []
    table.node.plug()
    events = table.run(2.0)
    expected = [(3, name, kind) for name in ("raise", "call", "raise")
                for kind in (PressKind.PRESS, PressKind.RELEASE)]
    assert presses(events) == expected and presses(table.run(2.0)) == []


def test_a_node_that_goes_away_is_said_at_poll_until_it_is_back(table: Table) -> None:
    table.node.unplug()
    with pytest.raises(NodeAway, match="seat 3's node on sim://seatnode is unplugged") as away:
        table.run(0.1)
        table.panel.poll()
    assert "USB cable" in away.value.fix
    table.node.plug()
    table.run(2.0)
    assert table.panel.poll() == [] and table.away > 0


def test_light_set_during_an_outage_is_applied_after_reconnect(table: Table) -> None:
    table.node.unplug()
    table.panel.set_light(3, LightState.ON)
    table.run(0.5)
    table.node.plug()
    table.run(2.0)
    assert table.node.light(0) is LightState.ON and table.link.unacknowledged == 0


def test_light_commands_piling_up_for_a_lost_node_raise_disconnected(table: Table) -> None:
    table.node.unplug()
    for _ in range(64):
        table.panel.set_light(3, LightState.ON)
    with pytest.raises(DeviceDisconnected, match="sim://seatnode not answering"):
        table.panel.set_light(3, LightState.OFF)


def test_driver_speaks_the_firmware_numbers_for_kinds_changes_and_modes() -> None:
    link = firmware().link
    assert PRESS_KINDS == {link.BUTTON_PRESS: PressKind.PRESS, link.BUTTON_RELEASE: PressKind.RELEASE,
                           link.BUTTON_LONG: PressKind.LONG_PRESS}
    assert TAG_CHANGES == {link.TAG_ARRIVE: TagChange.ARRIVE, link.TAG_LEAVE: TagChange.LEAVE}
    assert LIGHT_MODES == {LightState.OFF: link.LED_OFF, LightState.ON: link.LED_ON,
                           LightState.BLINK: link.LED_BLINK}


def test_malformed_button_or_tag_payload_decodes_to_nothing() -> None:
    assert decode_event(0x10, b"\x00\x09\x00\x00\x00\x00") is None
    assert decode_event(0x11, b"\x00\x01\x01") is None


def test_check_is_ok_while_the_node_answers(table: Table) -> None:
    assert table.panel.check().ok and table.reader.check().ok


def test_unplugged_node_names_the_port_and_the_cable(table: Table) -> None:
    table.node.unplug()
    table.run(0.1)
    status = table.panel.check()
    assert not status.ok and "sim://seatnode" in status.problem and "USB cable" in status.fix


def test_an_unplugged_nodes_port_fails_as_pyserials_does_on_a_pulled_cable(table: Table) -> None:
    # pyserial's in_waiting is a bare TIOCINQ ioctl: on a pulled USB cable it raises OSError
    # (EIO), not the SerialException of its read and write; the twin raised SerialException for
    # all three, kinder than the part to code that catches SerialException only
    port = table.node.open()
    table.node.unplug()
    with pytest.raises(OSError) as err:
        port.in_waiting
    assert err.value.errno == errno.EIO and not isinstance(err.value, serial.SerialException)
    for use in (lambda: port.read(1), lambda: port.write(b"\x00"), table.node.open):
        with pytest.raises(serial.SerialException):
            use()
    table.run(0.1)
    assert table.away and "sim://seatnode" in table.panel.check().problem


def test_check_recovers_after_the_cable_is_back(table: Table) -> None:
    table.node.unplug()
    table.run(0.1)
    table.node.plug()
    table.run(0.5)  # the table's polls open the port again (retry_after)
    assert table.panel.check().ok


def test_a_node_no_longer_polled_is_probed_as_doctor_probes_it(table: Table) -> None:
    table.node.unplug()
    table.run(0.1)
    table.node.plug()
    table.clock.advance(2.0)  # nobody polls: what the link knew is old, and the probe finds it
    assert table.panel.check().ok and table.reader.check().ok


def test_silent_port_is_reported_as_not_answering() -> None:
    clock = SimClock()
    status = SeatNodePanel({0: SeatNodeLink("loop://", clock)}, clock).check()
    assert status.problem == "seat node on loop:// not answering: check the USB cable"


def test_missing_port_is_reported_as_not_found() -> None:
    clock = SimClock()
    status = SeatNodePanel({0: SeatNodeLink("/dev/ttyACM9", clock)}, clock).check()
    # pyserial's own text said the port three times ("cannot open /dev/ttyACM9: [Errno 2] could not
    # open port /dev/ttyACM9: [Errno 2] No such file or directory: '/dev/ttyACM9'")
    assert status.problem == "seat node on /dev/ttyACM9 not found (No such file or directory)"
    assert "USB cable" in status.fix


def test_a_port_this_user_may_not_open_is_told_with_the_dialout_fix() -> None:
    # a person trying `dicetable doctor` or `run` as themselves, not in the dialout group, was
    # told the node was "not found" and to check its USB cable
    def refused() -> Any:
        raise serial.SerialException(13, "could not open port /dev/ttyACM0: [Errno 13] Permission denied")

    clock = SimClock()
    status = SeatNodePanel({0: SeatNodeLink("/dev/ttyACM0", clock, open_port=refused)}, clock).check()
    assert status.problem == "seat node on /dev/ttyACM0 cannot be opened: permission denied"
    assert "usermod -aG dialout" in status.fix and "USB cable" not in status.fix


def test_garbage_between_frames_is_skipped(table: Table) -> None:
    table.node.send_garbage()
    table.node.press(0)
    assert presses(table.run(0.5)) == [(3, "raise", PressKind.PRESS)]


def test_node_babbling_garbage_is_reported_as_unreadable() -> None:
    linked = Table()
    babble = bytes(range(1, 40)) + b"\x00"
    linked.node.node.link.write = lambda data: linked.node.to_pi.extend(babble)
    status = linked.panel.check()
    assert "cannot read" in status.problem and "mpremote" in status.fix


def test_unknown_seat_and_spot_raise_key_error(table: Table) -> None:
    with pytest.raises(KeyError):
        table.panel.set_light(0, LightState.ON)
    with pytest.raises(KeyError):
        table.reader.tags("seat9")


def test_rebooted_node_starts_a_new_session_and_still_delivers(table: Table) -> None:
    table.tap(0)
    table.run(0.3)
    table.node.reboot(session=0x0C0C)
    table.node.press(3)
    assert presses(table.run(0.6)) == [(3, "fold", PressKind.PRESS)]


def press_events(events: Sequence[ButtonEvent | TagEvent]) -> list[ButtonEvent]:
    return [e for e in events if isinstance(e, ButtonEvent) and e.kind is PressKind.PRESS]


def test_lost_ack_then_a_pi_restart_delivers_the_press_once(table: Table) -> None:
    table.node.press(0)
    first: list[ButtonEvent] = []
    while not first:
        table.clock.advance(0.005)
        first = press_events(table.panel.poll())
    table.node.to_node.clear()  # the ACK of the press is lost on the way to the node
    table.link.close()          # ... and the Pi's driver restarts (a new session)
    table.link = table.node.link(session=0x0C0C)
    table.panel = SeatNodePanel({3: table.link}, table.clock)
    table.reader = SeatNodeReader({"pot": (table.link, 0)}, table.clock)
    again = press_events(table.run(1.0))
    applied: set[tuple[str, int, int]] = set()
    for event in first + again:  # what the table's record does: refuse a key it applied
        applied.add((event.origin, event.session, event.sequence))
    assert len(again) == 1, "the node resends the press whose ACK it never got"
    assert len(applied) == 1 and first[0].session == 0x0A0A and first[0].origin


def test_a_press_keeps_the_time_the_node_saw_it(table: Table) -> None:
    table.node.unplug()
    table.run(0.5)
    table.node.press(1)
    pressed_at = table.clock.now()
    table.run(1.0)
    table.node.plug()
    (press,) = press_events(table.run(2.0))
    assert press.at == pytest.approx(pressed_at + 0.03, abs=0.03)  # debounced on the node
    assert table.clock.now() - press.at > 1.5


def test_events_of_one_session_have_rising_sequence_numbers(table: Table) -> None:
    table.node.press(0)
    events = table.run(0.1)
    table.node.release(0)
    table.node.place_tag(STONE)
    events += table.run(1.0)
    numbers = [e.sequence for e in events]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers) >= 3
    assert {e.session for e in events} == {0x0A0A}


def test_decode_reads_a_tag_with_its_node_time() -> None:
    event = decode_event(0x11, bytes((0, 1)) + (1234).to_bytes(4, "big") + STONE)
    assert isinstance(event, NodeTag) and (event.uid, event.node_ms) == ("11223344", 1234)


def test_decode_reads_every_reader_state_the_firmware_sends() -> None:
    link = firmware().link
    sent = {link.READER_OK: ReaderState.WORKS, link.READER_FAILED: ReaderState.NO_ANSWER,
            link.READER_OVERHEATED: ReaderState.OVERHEATED, link.READER_GARBLING: ReaderState.GARBLING}
    for state, meant in sent.items():
        event = decode_event(link.T_READER, bytes((0, state)) + (1234).to_bytes(4, "big"))
        assert isinstance(event, NodeReader)
        assert (event.reader, event.state, event.node_ms) == (0, meant, 1234)
    assert [s for s in ReaderState if s.failed] == [ReaderState.NO_ANSWER, ReaderState.OVERHEATED]
    assert decode_event(link.T_READER, bytes((0, 4)) + (1234).to_bytes(4, "big")) is None


def test_node_notice_is_logged(table: Table, caplog: pytest.LogCaptureFixture) -> None:
    table.node.node.notice("error: ZeroDivisionError: division by zero")
    table.run(0.5)
    assert "ZeroDivisionError" in caplog.text and table.link.notices


class TableWithAMissingNode(Table):
    """Seat 3's node works; seat 4's, under spot ``side``, is unplugged from the start."""

    def __init__(self) -> None:
        super().__init__()
        self.late = SimSeatNode(self.clock, session=0x0D0D)
        self.late.unplug()
        self.late_link = late_link = self.late.link("sim://node4", retry_after=0.5)
        self.panel = SeatNodePanel({3: self.link, 4: late_link}, self.clock)
        self.reader = SeatNodeReader({"pot": (self.link, 0), "side": (late_link, 0)}, self.clock,
                                     seats={3: self.link, 4: late_link})

    def seat(self, *seats: int) -> None:
        """Tell the panel and the reader that players sit at ``seats``."""
        for device in (self.panel, self.reader):
            device.set_seats_in_play(frozenset(seats))


@pytest.fixture
def missing() -> TableWithAMissingNode:
    """A table started with seat 4's node unplugged; nothing polled yet."""
    return TableWithAMissingNode()


def test_a_node_that_never_answers_is_away_once_the_links_answer_time_is_over(
        missing: TableWithAMissingNode) -> None:
    missing.run(1.4)  # the link's answer_within is 1.5 s from the first poll
    assert missing.away == 0
    missing.run(0.2)
    assert missing.away > 0
    with pytest.raises(NodeAway, match="seat 4's node has never answered: seat node on "
                                       "sim://node4 not found") as away:
        missing.panel.poll()
    assert "USB cable" in away.value.fix and "goes on by itself" in away.value.fix
    with pytest.raises(NodeAway, match="the node of spot 'side' has never answered"):
        missing.reader.poll()


def test_a_node_that_answers_late_is_away_no_more(missing: TableWithAMissingNode) -> None:
    missing.run(2.0)
    assert missing.away > 0
    missing.late.plug()
    missing.run(1.0)  # the port is opened again, the node says hello
    assert missing.panel.poll() == [] and missing.reader.poll() == []


def said_away(panel: SeatNodePanel, clock: SimClock, seconds: float) -> list[str]:
    """What the panel's polls every 20 ms for ``seconds`` said of its nodes away, each once."""
    said: list[str] = []
    for _ in range(round(seconds / 0.02)):
        clock.advance(0.02)
        try:
            panel.poll()
        except NodeAway as away:
            said += [away.problem] if away.problem not in said else []
    return said


def test_a_node_plugged_in_is_said_not_found_until_it_answers(missing: TableWithAMissingNode) -> None:
    # the port opens a moment before the node replies: the table's fault changed its words to
    # 'not answering' for that moment, a second fault line of one outage before 'works again'
    before = said_away(missing.panel, missing.clock, 2.3)  # plugged between two of its hellos
    missing.late.plug()
    assert said_away(missing.panel, missing.clock, 1.0) == before == [
        "seat 4's node has never answered: seat node on sim://node4 not found (could not open "
        "port: no such device (simulated unplug))"]
    assert missing.late_link.connected


def test_a_node_plugged_back_in_is_said_unplugged_until_it_answers(table: Table) -> None:
    table.node.unplug()
    before = said_away(table.panel, table.clock, 4.3)  # the link's peer timeout (3 s) is over
    table.node.plug()
    assert said_away(table.panel, table.clock, 1.0) == before == [
        "seat 3's node on sim://seatnode is unplugged"]
    assert table.link.connected


def test_a_port_found_again_whose_node_stays_silent_is_not_answering_after_its_answer_time() -> None:
    # the words of a real outage change when it does: the port is there, the node says nothing
    clock, present = SimClock(), [False]

    def open_port() -> Any:
        if not present[0]:
            raise serial.SerialException("could not open port: no such device")
        return serial.serial_for_url("loop://", timeout=0)

    panel = SeatNodePanel({0: SeatNodeLink("sim://node0", clock, open_port=open_port,
                                           retry_after=0.02)}, clock)
    not_found = ("seat 0's node has never answered: seat node on sim://node0 not found (could "
                 "not open port: no such device)")
    assert said_away(panel, clock, 2.0) == [not_found]
    present[0] = True  # opened at the next poll
    assert said_away(panel, clock, 1.4) == [not_found]
    clock.advance(0.2)  # the node's answer time since the port opened is over
    assert said_away(panel, clock, 0.2) == [
        "seat 0's node has never answered: seat node on sim://node0 not answering: check the "
        "USB cable"]
    panel.close()


def test_the_other_nodes_events_wait_for_a_node_that_never_answered(
        missing: TableWithAMissingNode) -> None:
    missing.run(2.0)
    missing.node.press(0)
    missing.node.place_tag(STONE)
    held = missing.run(0.3)
    missing.node.release(0)
    held += missing.run(0.3)
    missing.late.plug()
    events = missing.run(1.0)
    assert held == [] and presses(events) == [(3, "raise", PressKind.PRESS),
                                              (3, "raise", PressKind.RELEASE)]
    assert [(e.spot, e.tag, e.change) for e in events if isinstance(e, TagEvent)] == [
        ("pot", "11223344", TagChange.ARRIVE)]


def test_a_silent_port_is_away_in_doctors_words_once_the_answer_time_is_over() -> None:
    clock = SimClock()
    panel = SeatNodePanel({0: SeatNodeLink("loop://", clock)}, clock)
    assert panel.poll() == []
    clock.advance(1.5)
    with pytest.raises(NodeAway) as away:
        panel.poll()
    assert away.value.problem == ("seat 0's node has never answered: seat node on loop:// "
                                  "not answering: check the USB cable")
    assert "flash firmware/" in away.value.fix
    panel.close()


def test_a_node_under_an_empty_seat_that_never_answers_is_a_warning_not_a_wait(
        missing: TableWithAMissingNode) -> None:
    # a bar's table wired for more seats than tonight's players: the node under an empty seat,
    # unplugged, held every press and stone of the table until the configuration was edited
    missing.seat(3)
    missing.run(2.0)
    missing.node.press(0)
    missing.node.place_tag(STONE)
    events = missing.run(0.3)
    assert missing.away == 0 and presses(events) == [(3, "raise", PressKind.PRESS)]
    assert [(e.spot, e.change) for e in events if isinstance(e, TagEvent)] == [
        ("pot", TagChange.ARRIVE)]
    warning = missing.panel.warning()
    assert warning is not None and warning.warns
    assert warning.problem.startswith("seat 4's node has never answered: seat node on sim://node4 "
                                      "not found")
    # the fault's fix ended "the table goes on by itself when it answers" while the table played on
    assert warning.fix == ("check the USB cable and that the node appears as sim://node4; "
                           "the table plays on without it while its seat is empty")
    said = missing.reader.warning()
    assert said is not None and said.problem.startswith("the node of spot 'side' has never answered")
    assert said.fix == warning.fix


def test_a_node_under_a_seat_a_player_takes_is_waited_for_again(
        missing: TableWithAMissingNode) -> None:
    missing.seat(3)
    missing.run(2.0)
    missing.seat(3, 4)
    missing.node.press(0)
    held = missing.run(0.3)
    assert held == [] and missing.away > 0
    with pytest.raises(NodeAway, match="seat 4's node has never answered"):
        missing.panel.poll()
    with pytest.raises(NodeAway, match="the node of spot 'side' has never answered"):
        missing.reader.poll()
    assert missing.panel.warning() is None and missing.reader.warning() is None


def test_check_warns_of_a_node_under_an_empty_seat_in_the_words_of_its_fault(
        missing: TableWithAMissingNode) -> None:
    missing.seat(3)
    missing.run(2.0)
    panel, reader = missing.panel.check(), missing.reader.check()
    assert panel.warns and panel.problem.startswith("seat 4's node has never answered: seat node "
                                                    "on sim://node4 not found")
    assert reader.warns and reader.problem.startswith("the node of spot 'side' has never answered")
    assert panel.fix == reader.fix and panel.fix.endswith(
        "; the table plays on without it while its seat is empty")
    missing.seat(3, 4)
    assert not missing.panel.check().ok and not missing.reader.check().ok


def test_a_node_under_an_empty_seat_that_goes_away_warns_that_the_table_plays_on(
        missing: TableWithAMissingNode) -> None:
    missing.late.plug()
    missing.run(1.0)
    missing.seat(3)
    missing.late.unplug()
    missing.run(0.5)
    panel, reader = missing.panel.warning(), missing.reader.warning()
    assert panel is not None and panel.problem == "seat 4's node on sim://node4 is unplugged"
    assert panel.fix == ("check the USB cable of seat 4's node; the table plays on without it "
                         "while its seat is empty")
    assert reader is not None and reader.fix == ("check the USB cable of the node of spot 'side'; "
                                                 "the table plays on without it while its seat is empty")
    missing.seat(3, 4)
    with pytest.raises(NodeAway) as away:  # where a player sits, the fault's words
        missing.panel.poll()
    assert away.value.fix == ("check the USB cable of seat 4's node; the table goes on by itself "
                              "when it answers again")


def test_a_failed_reader_on_the_node_of_an_empty_seat_is_a_warning(
        missing: TableWithAMissingNode) -> None:
    missing.late.plug()
    missing.late.reader_fault = ReaderFault.FAILED
    missing.seat(3)
    missing.node.place_tag(STONE)
    events = missing.run(1.0)
    assert [e.spot for e in events if isinstance(e, TagEvent)] == ["pot"]
    warning = missing.reader.warning()
    assert warning is not None and "RC522 reader 0 (spot 'side')" in warning.problem
    assert missing.reader.check().warns


VERSION_2_READER_STATES = {0: ReaderState.WORKS, 1: ReaderState.NO_ANSWER}  # what it decoded
UNREADABLE = ("seat node on sim://seatnode sends messages this table cannot read (its firmware "
              "is not this dicetable's): what they say is lost")


def test_a_reader_state_this_pi_cannot_read_is_the_readers_warning(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    # a Pi that decodes READER states 0 and 1 only, as version 2's did: a node's overheated
    # reader was dropped as malformed, and looked fine
    monkeypatch.setattr("hardware.seatnode.READER_STATES", VERSION_2_READER_STATES)
    table.node.reader_fault = ReaderFault.OVERHEATED
    table.run(1.0)
    warning = table.reader.warning()
    assert warning is not None and warning.problem == UNREADABLE
    assert warning.fix.startswith("flash this Pi's firmware/ onto the node with mpremote")
    assert "update dicetable on this Pi" in warning.fix
    assert table.reader.check() == warning and table.panel.warning() is None
    assert table.link.unread == {firmware().link.T_READER: 1}


def test_a_press_this_pi_cannot_read_is_the_panels_warning(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("hardware.seatnode.PRESS_KINDS", {1: PressKind.PRESS, 2: PressKind.RELEASE})
    table.node.press(2)
    table.run(1.2)
    warning = table.panel.warning()
    assert warning is not None and warning.problem == UNREADABLE and table.panel.check() == warning
    assert table.reader.warning() is None and table.reader.check().ok


def test_a_message_of_a_type_this_pi_does_not_know_warns_on_both(table: Table) -> None:
    table.node.node.link.send(0x14, b"\x01")
    table.run(0.5)
    assert [device.warning() for device in (table.panel, table.reader)] == [
        DeviceStatus.warning(device.name, UNREADABLE, UNREADABLE_FIX)
        for device in (table.panel, table.reader)]


def test_the_warning_of_messages_not_read_ends_when_the_node_restarts(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    # reflashed, a node restarts with a new session: the messages of the old one are history
    monkeypatch.setattr("hardware.seatnode.READER_STATES", VERSION_2_READER_STATES)
    table.node.reader_fault = ReaderFault.OVERHEATED
    table.run(1.0)
    assert table.reader.warning() is not None
    table.node.reader_fault = ReaderFault.NONE
    table.node.reboot(session=0x0C0C)
    table.run(2.0)
    assert table.reader.warning() is None and table.reader.check() == DeviceStatus.healthy("rfid")
