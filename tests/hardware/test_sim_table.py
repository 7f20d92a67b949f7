"""The simulated table and the factory: every device from one place, faults on demand."""

from pathlib import Path

import pytest
import serial  # type: ignore[import-untyped]
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from controller.games.errors import ConfigError, DeviceDisconnected, DeviceError, DeviceTimeout, InvalidInput
from hardware.clock import SimClock
from hardware.config import load_config, parse_config
from hardware.factory import BrokenDevice, build_devices
from hardware.faults import Fault
from hardware.rfid import FAILED_RETRY_S
from hardware.sim import SimTable

EXAMPLE = Path(__file__).resolve().parents[2] / "table.example.toml"


NODES = {"panel": {"source": "seatnode"},
         "seatnodes": [{"seat": seat, "url": f"sim://n{seat}"} for seat in range(3)]}


@pytest.fixture
def table():
    table = SimTable(clock=SimClock())
    yield table
    table.close()


def test_every_simulated_device_checks_ok(table):
    assert [d.check().ok for d in table.devices()] == [True, True, True]


def test_devices_share_the_table_clock(table):
    table.press(0, "raise")
    table.clock.advance(0.1)
    assert table.panel.poll()[0].at <= table.clock.now()


def test_camera_stopped_fault_names_the_fix(table):
    table.inject("camera:stopped")
    status = table.camera.check()
    assert not status.ok and "stopped" in status.problem and "camera" in status.fix


def test_camera_drops_fault_loses_frames(table):
    table.inject("camera:drops")
    with pytest.raises(DeviceTimeout):
        for _ in range(3):
            table.camera.frame()


def test_reader_timeout_fault_makes_poll_time_out(table):
    table.inject("rfid:timeout")
    with pytest.raises(DeviceTimeout):
        table.rfid.poll()


def test_unknown_tag_fault_puts_an_unregistered_tag_on_a_spot(table):
    table.inject("rfid:unknown-tag")
    assert [e.tag for e in table.rfid.poll()] == ["0BADC0DE"]


def test_panel_disconnect_fault(table):
    table.inject("panel:disconnected")
    with pytest.raises(DeviceDisconnected):
        table.panel.poll()


def test_unknown_fault_lists_the_known_ones():
    with pytest.raises(InvalidInput, match="camera:stopped"):
        Fault.parse("camera:melted")


@pytest.mark.parametrize("text", ["rfid[seat1]:timeout", "rfid[pot]:timeout@once",
                                  "rfid[seat0]:slow=0.01@intermittent=0.5",
                                  "seatnode[2]:disconnected", "seatnode[0]:reader-failed@once"])
def test_a_fault_of_one_reader_or_node_reads_back_as_written(text):
    assert str(Fault.parse(text)) == text


def test_a_fault_names_its_part_apart_from_its_kind():
    assert Fault.parse("seatnode[2]:garbage") == Fault("seatnode", "garbage", part="2")
    assert Fault.parse("rfid:dead").part == ""


@pytest.mark.parametrize("text", ["camera[0]:stopped", "panel[1]:disconnected", "rfid[]:timeout",
                                  "rfid[seat1:timeout"])
def test_only_a_reader_or_a_seat_node_is_named_as_a_part(text):
    with pytest.raises(InvalidInput, match=r"rfid\[SPOT\]:\.\.\. or seatnode\[SEAT\]"):
        Fault.parse(text)


def test_a_spot_the_table_does_not_have_is_refused_with_its_spots(table):
    with pytest.raises(InvalidInput) as err:
        table.inject("rfid[pot]:timeout")
    assert str(err.value) == ("simulated fault 'rfid[pot]:timeout': this table has no rfid[pot] "
                              "(spots: seat0, seat1, seat2, seat3)")
    with pytest.raises(InvalidInput, match="spots: seat0"):
        table.clear("rfid[pot]")
    assert table.faults == [] and table.rfid.poll() == []


def test_a_seat_without_a_node_is_refused_with_the_seats_that_have_one():
    table = SimTable(parse_config(NODES, {}))
    with pytest.raises(InvalidInput, match=r"has no seatnode\[3\] \(seats: 0, 1, 2\)$"):
        table.inject("seatnode[3]:disconnected")


def test_clearing_a_part_clears_the_faults_injected_there_only(table):
    for fault in ("rfid[seat1]:timeout", "rfid[seat2]:timeout", "rfid:missed@once"):
        table.inject(fault)
    assert [str(f) for f in table.clear("rfid[seat1]")] == ["rfid[seat1]:timeout"]
    assert [str(f) for f in table.clear("rfid[seat0]:missed")] == []  # every spot's stays
    assert [str(f) for f in table.clear("rfid:timeout")] == ["rfid[seat2]:timeout"]
    assert [str(i.fault) for i in table.faults] == ["rfid:missed@once"]


def test_one_seat_nodes_cable_pulled_fails_its_port_as_pyserial_does_and_no_other():
    table = SimTable(parse_config(NODES, {}))
    ports = [node.open() for node in table.nodes.values()]
    table.inject("seatnode[1]:disconnected")
    for use in (lambda: ports[1].read(1), lambda: ports[1].write(b"\x00"), table.nodes[1].open):
        with pytest.raises(serial.SerialException):
            use()
    assert ports[0].read(1) == b"" and ports[2].write(b"\x00") == 1
    table.clock.advance(1.0)  # the fault stands at every tick, and strikes only that node
    assert [node.plugged for node in table.nodes.values()] == [True, False, True]
    table.clear("seatnode[1]")
    assert table.nodes[1].open().read(1) == b""


def test_seatnode_fault_without_seat_nodes_is_refused(table):
    with pytest.raises(InvalidInput, match="seatnodes"):
        table.inject("seatnode:disconnected")


def test_seatnode_disconnect_fails_the_panel_check():
    config = parse_config({"panel": {"source": "seatnode"},
                           "seatnodes": [{"seat": 0, "url": "sim://n0"}]}, {})
    table = SimTable(config)
    table.inject("seatnode:disconnected")
    status = table.panel.check()
    assert not status.ok and "USB cable" in status.fix


def test_faults_from_configuration_are_injected():
    table = SimTable(parse_config({"hardware": {"faults": ["camera:stopped"]}}, {}))
    assert not table.camera.check().ok


def test_factory_builds_the_simulated_table_for_sim():
    devices = build_devices(load_config(None, {}))
    assert devices.sim is not None and len(devices.all()) == 3
    devices.close()


def test_factory_on_a_machine_without_spi_reports_the_reader_broken():
    devices = build_devices(load_config(EXAMPLE, {"DICETABLE_HW": "pi"}), pin_factory=MockFactory())
    assert isinstance(devices.rfid, BrokenDevice)
    status = devices.rfid.check()
    assert not status.ok and "raspi-config" in status.fix
    with pytest.raises(DeviceError) as err:
        devices.rfid.poll()
    # the table shows the error's problem and fix: they were a failing device's (cable, power)
    assert (getattr(err.value, "problem", ""), getattr(err.value, "fix", "")) == (status.problem, status.fix)
    devices.close()


def test_a_fault_of_one_spots_reader_strikes_that_reader_alone(table):
    # a real RC522 fails alone (its power, its chip select); rfid:timeout strikes every chip, as
    # the bus they share would
    table.inject("rfid[seat3]:timeout")
    table.place("seat0", "04A1B2C3")
    with pytest.raises(DeviceTimeout, match="reader under 'seat3' timed out"):
        table.rfid.poll()
    assert [str(fault) for fault in table.clear("rfid[seat2]")] == []
    assert [str(fault) for fault in table.clear("rfid[seat3]")] == ["rfid[seat3]:timeout"]
    assert [(e.spot, e.tag) for e in table.rfid.poll()] == [("seat0", "04A1B2C3")]


def test_a_reader_under_the_spot_of_an_empty_seat_that_fails_is_a_warning(table):
    # an RC522 under seat 3's spot, where no one plays tonight, stopped every poll of the others
    table.rfid.set_seats_in_play(frozenset({0, 1, 2}))
    table.inject("rfid[seat3]:timeout")
    table.place("seat0", "04A1B2C3")
    assert [(e.spot, e.tag) for e in table.rfid.poll()] == [("seat0", "04A1B2C3")]
    warning = table.rfid.warning()
    assert warning.warns and warning.problem.startswith("reader under 'seat3' timed out (")
    assert warning.fix == ("check the reader's 3.3 V power and its wiring: SDA to GPIO 4, SCK to "
                           "GPIO 11, MOSI to GPIO 10, MISO to GPIO 9 (through the tri-state buffer "
                           "when readers share the bus), RST to the reset pin; the table plays on "
                           "without it while its seat is empty")
    checked = table.rfid.check()
    assert checked.warns and checked.problem.startswith("reader under spot 'seat3': it does not "
                                                        "finish a scan")
    table.rfid.set_seats_in_play(frozenset({0, 1, 2, 3}))  # a player takes seat 3: waited for again
    assert table.rfid.warning() is None  # no longer a warning, before the next poll says the fault
    with pytest.raises(DeviceTimeout, match="reader under 'seat3' timed out"):
        table.rfid.poll()
    assert not table.rfid.check().ok
    table.clear("rfid")
    table.clock.advance(FAILED_RETRY_S)  # stuck at two polls in a row: tried again after its rest
    table.rfid.poll()
    assert table.rfid.warning() is None and table.rfid.check().ok



WITHOUT = {
    "no panel": {"panel": {"source": "none"}, "rfid": {"readers": [{"spot": "seat0", "chip_select": 8, "seat": 0}]}},
    "no readers": {"rfid": {"source": "none"}, "panel": {"seats": [{"seat": 0, "buttons": {"raise": 5}}]}},
    "neither": {"panel": {"source": "none"}, "rfid": {"source": "none"}},
    "buttons and no reader listed": {"panel": {"seats": [{"seat": 0, "buttons": {"raise": 5}}]}},
}


@pytest.mark.parametrize("data", WITHOUT.values(), ids=WITHOUT)
def test_the_simulated_table_builds_the_devices_the_pi_would(data):
    # it built a panel and readers whatever the file said: a table rehearsed with DICETABLE_HW=sim
    # took buttons and stones the Pi's table never would
    sim = build_devices(parse_config(data, {}))
    pi = build_devices(parse_config(data, {"DICETABLE_HW": "pi"}), pin_factory=MockFactory())
    try:
        assert [d.name for d in sim.all()] == [d.name for d in pi.all()]
        assert sim.all() == sim.sim.devices()
    finally:
        sim.close()
        pi.close()


def test_a_table_without_a_panel_says_so_when_a_button_is_pressed():
    table = SimTable(parse_config({"panel": {"source": "none"}}, {}))
    with pytest.raises(InvalidInput, match="no button to press at seat 0: the table has no panel"):
        table.press(0, "raise")


@pytest.mark.parametrize("data, fault", [({"panel": {"source": "none"}}, "panel:disconnected"),
                                         ({"rfid": {"source": "none"}}, "rfid:unknown-tag")])
def test_a_fault_of_a_device_the_file_says_is_none_is_refused(data, fault):
    # the panel's fault struck no panel without a word; the stray tag had no spot to lie on
    with pytest.raises(ConfigError, match=r"^hardware\.faults\[0\]: fault \w+:\.\.\. needs"):
        parse_config({**data, "hardware": {"faults": [fault]}}, {})
