"""Faults at run time, per simulated device: inject one while the table runs, check what the table
sees (an error, a failing check, events held back or wrong), clear it, and check the recovery."""

import pytest

from controller.games.errors import DeviceDisconnected, DeviceError, DeviceTimeout
from hardware.devices import PressKind, TagChange
from hardware.sim import UNKNOWN_TAG, misread

STONE, CHIP = "DEADBEEF", "04A1B2C3D4E5F6"


def frames(camera, count):
    """How many of ``count`` frames came (the others raised a device error)."""
    got = 0
    for _ in range(count):
        try:
            camera.frame()
            got += 1
        except DeviceError:
            pass
    return got


# camera

def test_stopped_camera_fails_until_cleared(sim_camera_rig):
    rig = sim_camera_rig
    rig.table.inject("camera:stopped")
    with pytest.raises(DeviceDisconnected):
        rig.device.frame()
    assert not rig.device.check().ok
    rig.table.clear("camera:stopped")
    assert rig.device.check().ok and frames(rig.device, 3) == 3


def test_camera_drops_one_frame_once(sim_camera_rig):
    sim_camera_rig.table.inject("camera:drops@once")
    with pytest.raises(DeviceTimeout):
        sim_camera_rig.device.frame()
    assert frames(sim_camera_rig.device, 4) == 4


def test_camera_dropping_every_third_frame_recovers(sim_camera_rig):
    rig = sim_camera_rig
    rig.table.inject("camera:drops")
    assert frames(rig.device, 6) == 4
    rig.table.clear("camera")
    assert frames(rig.device, 6) == 6


def test_intermittent_camera_drops_some_frames_only(sim_camera_rig):
    rig = sim_camera_rig
    rig.table.inject("camera:stopped@intermittent=0.5")
    assert 0 < frames(rig.device, 30) < 30
    rig.table.clear()
    assert frames(rig.device, 10) == 10


def test_slow_camera_takes_its_time_until_cleared(sim_camera_rig):
    rig = sim_camera_rig
    rig.table.inject("camera:slow=0.7")
    start = rig.clock.now()
    rig.device.frame()
    assert rig.clock.now() - start == pytest.approx(0.7)
    rig.table.clear("camera:slow")
    start = rig.clock.now()
    rig.device.frame()
    assert rig.clock.now() == start


# panels

def panel_fault(rig):
    return "panel:disconnected" if rig.table.nodes == {} else "seatnode:disconnected"


def test_disconnected_panel_fails_and_recovers(sim_panel_rig):
    rig = sim_panel_rig
    rig.table.inject(panel_fault(rig))
    assert not rig.device.check().ok
    rig.table.clear()
    rig.drain(1.0)
    assert rig.device.check().ok
    rig.press(0, rig.device.buttons(0)[0])
    assert [e.kind for e in rig.drain()] == [PressKind.PRESS]


def test_gpio_panel_disconnect_raises_on_poll(sim_panel_rig):
    if sim_panel_rig.table.nodes:
        pytest.skip("a seat node keeps its events through an outage instead (tested below)")
    sim_panel_rig.table.inject("panel:disconnected")
    with pytest.raises(DeviceDisconnected):
        sim_panel_rig.device.poll()


def test_press_during_a_seat_node_outage_arrives_once_after_it(sim_panel_rig):
    rig = sim_panel_rig
    if not rig.table.nodes:
        pytest.skip("the GPIO panel has no outage buffer")
    rig.table.inject("seatnode:disconnected")
    rig.press(0, "raise")
    assert rig.drain(1.0) == []
    rig.table.clear("seatnode")
    presses = [e for e in rig.drain(2.0) if e.kind is PressKind.PRESS]
    assert [(e.seat, e.button) for e in presses] == [(0, "raise")]


def test_loose_seat_node_cable_loses_no_press(sim_panel_rig):
    rig = sim_panel_rig
    if not rig.table.nodes:
        pytest.skip("seat nodes only")
    rig.table.inject("seatnode:disconnected@intermittent=0.5")
    events = []
    for _ in range(3):
        rig.press(0, "call")
        events += rig.drain(0.3)
        rig.release(0, "call")
        events += rig.drain(0.3)
    rig.table.clear()
    events += rig.drain(3.0)
    assert [e.kind for e in events] == [PressKind.PRESS, PressKind.RELEASE] * 3


def test_line_noise_does_not_stop_a_seat_node(sim_panel_rig):
    rig = sim_panel_rig
    if not rig.table.nodes:
        pytest.skip("seat nodes only")
    rig.table.inject("seatnode:garbage")
    rig.press(1, "pass")
    assert [(e.seat, e.button, e.kind) for e in rig.drain(0.6)] == [(1, "pass", PressKind.PRESS)]
    assert rig.device.check().ok


def test_one_seat_node_unplugged_holds_the_presses_of_the_others_until_it_is_back(sim_panel_rig):
    # seatnode:disconnected pulled every node's cable at once, where a real table loses one
    rig = sim_panel_rig
    if not rig.table.nodes:
        pytest.skip("seat nodes only")
    rig.drain(0.5)  # both nodes answer
    rig.table.inject("seatnode[1]:disconnected")
    rig.press(0, "raise")
    assert rig.drain(1.0) == [] and rig.away
    status = rig.device.check()
    assert not status.ok and "sim://node1" in status.problem and "node0" not in status.problem
    rig.table.clear("seatnode[1]")
    presses = [e for e in rig.drain(2.0) if e.kind is PressKind.PRESS]
    assert [(e.seat, e.button) for e in presses] == [(0, "raise")]


def test_one_seat_node_unplugged_under_an_empty_seat_lets_the_others_presses_through(
        sim_panel_rig):
    rig = sim_panel_rig
    if not rig.table.nodes:
        pytest.skip("seat nodes only")
    rig.device.set_seats_in_play(frozenset({0}))
    rig.table.inject("seatnode[1]:disconnected")
    rig.drain(2.0)
    rig.press(0, "raise")
    presses = [e for e in rig.drain(0.5) if e.kind is PressKind.PRESS]
    assert [(e.seat, e.button) for e in presses] == [(0, "raise")] and not rig.away
    warning = rig.device.warning()
    assert warning is not None and warning.problem.startswith("seat 1's node")


# tag readers

def rc522(rig):
    if not rig.table.chips:
        pytest.skip("RC522 faults need the Pi's own readers")
    return rig


def changes(events):
    return [(e.tag, e.change) for e in events]


@pytest.mark.parametrize("fault, error", [("rfid:timeout", DeviceTimeout),
                                          ("rfid:dead", DeviceError)])
def test_failing_reader_holds_a_tag_back_until_cleared(sim_reader_rig, fault, error):
    rig = rc522(sim_reader_rig)
    rig.table.inject(fault)
    rig.place("seat0", STONE)
    with pytest.raises(error):
        rig.device.poll()
    assert not rig.device.check().ok
    rig.table.clear("rfid")
    assert changes(rig.drain()) == [(STONE, TagChange.ARRIVE)]
    assert rig.device.check().ok


def test_reader_timing_out_once_loses_nothing(sim_reader_rig):
    rig = rc522(sim_reader_rig)
    rig.place("seat0", STONE)
    rig.table.inject("rfid:timeout@once")
    with pytest.raises(DeviceTimeout):
        rig.device.poll()
    assert changes(rig.drain()) == [(STONE, TagChange.ARRIVE)]


def test_missed_reads_make_a_tag_leave_only_when_they_last(sim_reader_rig):
    rig = rc522(sim_reader_rig)
    rig.place("seat0", STONE)
    rig.drain()
    rig.table.inject("rfid:missed@once")
    assert rig.drain() == []
    rig.table.inject("rfid:missed")
    assert changes(rig.drain()) == [(STONE, TagChange.LEAVE)]
    rig.table.clear("rfid:missed")
    assert changes(rig.drain()) == [(STONE, TagChange.ARRIVE)]


def test_garbled_reads_change_nothing(sim_reader_rig):
    rig = rc522(sim_reader_rig)
    rig.place("seat0", STONE)
    rig.drain()
    rig.table.inject("rfid:garbled")
    rig.place("seat0", CHIP)
    assert rig.drain() == [] and rig.device.tags("seat0") == {STONE}
    rig.table.clear()
    assert changes(rig.drain()) == [(CHIP, TagChange.ARRIVE)]


def test_wrong_tag_is_reported_as_read_then_corrected(sim_reader_rig):
    rig = rc522(sim_reader_rig)
    wrong = misread(bytes.fromhex(STONE)).hex().upper()
    rig.table.inject("rfid:wrong-tag")
    rig.place("seat0", STONE)
    assert changes(rig.drain()) == [(wrong, TagChange.ARRIVE)]
    rig.table.clear("rfid:wrong-tag")
    assert set(changes(rig.drain())) == {(STONE, TagChange.ARRIVE), (wrong, TagChange.LEAVE)}


def test_unknown_tag_lies_on_a_spot_until_cleared(sim_reader_rig):
    rig = rc522(sim_reader_rig)
    rig.table.inject("rfid:unknown-tag")
    assert changes(rig.drain()) == [(UNKNOWN_TAG, TagChange.ARRIVE)]
    rig.table.clear("rfid:unknown-tag")
    assert changes(rig.drain()) == [(UNKNOWN_TAG, TagChange.LEAVE)]


def test_one_reader_timing_out_leaves_the_others_reading(sim_reader_rig):
    # rfid:timeout stopped every RC522 at once, where a real table loses one reader: the others
    # are scanned, their tags known and their events held for the poll after it is back
    rig = rc522(sim_reader_rig)
    rig.table.inject("rfid[seat1]:timeout")
    rig.place("seat0", STONE)
    rig.place("seat1", CHIP)
    with pytest.raises(DeviceTimeout, match="reader under 'seat1' timed out"):
        rig.device.poll()
    assert rig.device.tags("seat0") == {STONE} and rig.device.tags("seat1") == frozenset()
    status = rig.device.check()
    assert not status.ok and "spot 'seat1'" in status.problem
    rig.table.clear("rfid[seat1]")
    assert sorted(changes(rig.drain())) == [(CHIP, TagChange.ARRIVE), (STONE, TagChange.ARRIVE)]
    assert rig.device.check().ok


def test_one_reader_misreading_or_with_an_unknown_tag_leaves_the_others_right(sim_reader_rig):
    rig = rc522(sim_reader_rig)
    rig.table.inject("rfid[seat1]:wrong-tag")
    rig.table.inject("rfid[seat2]:unknown-tag")
    rig.place("seat0", STONE)
    rig.place("seat1", STONE)
    wrong = misread(bytes.fromhex(STONE)).hex().upper()
    assert sorted((e.spot, e.tag) for e in rig.drain()) == [
        ("seat0", STONE), ("seat1", wrong), ("seat2", UNKNOWN_TAG)]
    rig.table.clear("rfid[seat2]")
    assert [(e.spot, e.tag, e.change) for e in rig.drain()] == [
        ("seat2", UNKNOWN_TAG, TagChange.LEAVE)]
    assert [str(fault.fault) for fault in rig.table.faults] == ["rfid[seat1]:wrong-tag"]


def test_slow_bus_still_reads_but_takes_longer(sim_reader_rig):
    rig = rc522(sim_reader_rig)
    # a stone is read on a spot before the slow bus, and one after, which costs some 8 ms more
    # than the empty spot it was: the poll back to normal is compared with one reading a stone
    rig.place("seat1", CHIP)
    rig.device.poll()  # the first poll also resets every chip
    start = rig.clock.now()
    rig.device.poll()
    fast = rig.clock.now() - start
    rig.table.inject("rfid:slow=0.005")
    rig.place("seat0", STONE)
    start = rig.clock.now()
    assert changes(rig.device.poll()) == [(STONE, TagChange.ARRIVE)]
    assert rig.clock.now() - start > 2 * fast
    rig.table.clear()
    start = rig.clock.now()
    rig.device.poll()
    assert rig.clock.now() - start == pytest.approx(fast, rel=0.5)


def seat_node(rig):
    if rig.table.chips:
        pytest.skip("seat-node faults need seat nodes")
    return rig


def test_tag_placed_during_a_seat_node_outage_arrives_once_after_it(sim_reader_rig):
    rig = seat_node(sim_reader_rig)
    rig.table.inject("seatnode:disconnected")
    rig.place("seat0", STONE)
    assert rig.drain(1.0) == [] and not rig.device.check().ok
    rig.table.clear()
    assert changes(rig.drain(2.0)) == [(STONE, TagChange.ARRIVE)]


def failures(rig, seconds):
    """The errors polls raised while ``seconds`` of the table's loop passed (every 50 ms)."""
    found = []
    for _ in range(round(seconds / 0.05)):
        rig.advance(0.05)
        try:
            rig.device.poll()
        except DeviceError as err:
            found.append(err)
    return found


def test_failed_reader_on_a_seat_node_is_reported_and_recovers(sim_reader_rig):
    rig = seat_node(sim_reader_rig)
    rig.table.inject("seatnode:reader-failed")
    raised = failures(rig, 1.0)
    status = rig.device.check()
    assert not status.ok and "RC522" in status.problem and "reader 0" in status.problem
    # the table polls, and never calls check() in a game: the poll says it too, every time
    assert raised and all(err.problem == status.problem for err in raised[-5:])
    assert "spot 'seat0'" in status.problem and "wiring" in raised[-1].fix
    rig.table.clear("seatnode:reader-failed")
    assert failures(rig, 1.0) == [] and rig.device.check().ok
    rig.place("seat1", STONE)
    assert changes(rig.drain()) == [(STONE, TagChange.ARRIVE)]


def test_a_seat_node_that_goes_away_is_said_by_the_readers_poll(sim_reader_rig):
    rig = seat_node(sim_reader_rig)
    rig.drain(0.5)
    rig.table.inject("seatnode:disconnected")
    raised = failures(rig, 3.0)
    assert raised and isinstance(raised[-1], DeviceDisconnected)
    assert "the node of spot 'seat0' on sim://node0" in raised[-1].problem
    rig.table.clear()
    rig.drain(2.0)  # the port is opened again, the node says hello
    assert failures(rig, 1.0) == [] and rig.device.check().ok
