"""Reading table.toml: backends, the environment override, and errors that name the key."""

import os
from pathlib import Path

import pytest

from controller.games.errors import ConfigError
from hardware.config import ENV_BACKEND, ENV_CONFIG, Backend, config_for_command, load_config, parse_config

EXAMPLE = Path(__file__).resolve().parents[2] / "table.example.toml"
NO_PANEL = {"source": "none"}  # on the Pi a GPIO panel lists its seats' pins; these tests need none
NO_PINS = {"panel": NO_PANEL, "rfid": {"source": "none"}}  # nor RC522s their chip selects


def test_example_configuration_loads():
    config = load_config(EXAMPLE, {})
    assert config.backend is Backend.PI and config.seats and config.spots


def test_example_configuration_documents_every_key():
    text = EXAMPLE.read_text()
    for key in ("backend", "faults", "source", "exposure_us", "colour_gains", "bounce_time",
                "hold_time", "lens_position", "chip_select", "reset_pin", "speed_hz", "registry", "url", "spot",
                "idle_minutes", "shift_hours"):
        assert f"{key} =" in text or f"# {key}" in text, key


def test_default_is_a_simulated_four_seat_table():
    config = load_config(None, {})
    assert config.backend is Backend.SIM and config.seats == (0, 1, 2, 3)


def test_environment_overrides_the_backend():
    assert parse_config({"hardware": {"backend": "sim"}, **NO_PINS},
                        {"DICETABLE_HW": "pi"}).backend is Backend.PI


def test_bad_environment_backend_is_named():
    with pytest.raises(ConfigError, match="DICETABLE_HW"):
        parse_config({}, {"DICETABLE_HW": "laptop"})


def test_unknown_key_is_named():
    with pytest.raises(ConfigError, match=r"camera\.exposure\b"):
        parse_config({"camera": {"exposure": 100}}, {})


def test_wrong_type_is_named():
    with pytest.raises(ConfigError, match=r"panel\.hold_time"):
        parse_config({"panel": {"hold_time": "long"}}, {})


def test_boolean_is_not_a_number():
    with pytest.raises(ConfigError, match=r"camera\.width"):
        parse_config({"camera": {"width": True}}, {})


def test_pin_outside_bcm_range_is_named():
    with pytest.raises(ConfigError, match=r"rfid\.readers\[0\]\.chip_select"):
        parse_config({"rfid": {"readers": [{"spot": "pot", "chip_select": 40}]}}, {})


def test_pin_used_twice_is_refused():
    seats = [{"seat": 0, "buttons": {"raise": 5}, "light": 5}]
    with pytest.raises(ConfigError, match="pin 5"):
        parse_config({"panel": {"seats": seats}}, {})


def test_seat_node_needs_a_url():
    with pytest.raises(ConfigError, match=r"seatnodes\[0\]"):
        parse_config({"seatnodes": [{"seat": 0}]}, {})


def test_faults_come_from_config_and_environment():
    config = parse_config({"hardware": {"faults": ["camera:drops"]}},
                          {"DICETABLE_SIM_FAULTS": "rfid:timeout"})
    assert config.faults == ("camera:drops", "rfid:timeout")


@pytest.mark.parametrize("faults, env, said", [
    (["camera:drops", "camera:melted"], "", "hardware.faults[1]: unknown simulated fault 'camera:melted'"),
    (["rfid:timeout@sometimes"], "", "hardware.faults[0]: simulated fault 'rfid:timeout@sometimes': the mode"),
    (["rfid[pot]:timeout"], "", "hardware.faults[0]: simulated fault 'rfid[pot]:timeout': this table has "
                                "no rfid[pot] (spots: seat0, seat1, seat2, seat3)"),
    (["camera:drops"], "rfid[seat1]:dead,seatnode:garbage",
     "DICETABLE_SIM_FAULTS: fault seatnode:... needs [[seatnodes]] in the configuration"),
])
def test_a_bad_fault_is_refused_as_the_configuration_is_read_naming_its_key(faults, env, said):
    # it was refused only when the simulated devices were built, after commands had made files
    with pytest.raises(ConfigError) as refused:
        parse_config({"hardware": {"faults": faults}}, {"DICETABLE_SIM_FAULTS": env})
    assert str(refused.value).startswith(said)


def test_a_bad_fault_is_refused_on_the_pi_backend_too():
    # the same file serves DICETABLE_HW=sim rehearsals: a typo there is a typo on the Pi
    with pytest.raises(ConfigError, match=r"^hardware\.faults\[0\]: unknown simulated fault"):
        parse_config({"hardware": {"backend": "pi", "faults": ["camera:melted"]}, **NO_PINS}, {})


def test_a_bad_fault_in_a_file_names_the_file(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[hardware]\nfaults = ["camera:melted"]\n')
    with pytest.raises(ConfigError, match=r"^'.*table\.toml': hardware\.faults\[0\]: unknown"):
        load_config(path, {})


def test_a_fault_names_the_spots_and_seat_nodes_the_configuration_lists():
    nodes = [{"seat": 1, "url": "/dev/ttyACM0", "spot": "seat1"}, {"seat": 2, "url": "/dev/ttyACM1"}]
    config = parse_config({"hardware": {"faults": ["seatnode[1]:garbage", "rfid[pot]:dead"]},
                           "rfid": {"readers": [{"spot": "pot", "chip_select": 8}]},
                           "panel": {"source": "seatnode"}, "seatnodes": nodes}, {})
    assert config.faults == ("seatnode[1]:garbage", "rfid[pot]:dead")


def test_missing_file_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no such configuration file"):
        load_config(tmp_path / "table.toml", {})


def test_a_missing_file_named_by_the_variable_is_said_to_be_the_variable_s(tmp_path):
    # a shell kept DICETABLE_CONFIG from another session: the file's name alone left its user
    # looking for a file they never gave
    missing = tmp_path / "old-table.toml"
    env = {ENV_CONFIG: str(missing), ENV_BACKEND: "sim"}
    with pytest.raises(ConfigError) as refused:
        config_for_command(None, env)
    assert str(refused.value) == (f"'{missing}': no such configuration file, named by "
                                  "$DICETABLE_CONFIG (point it at the table's file, or unset it)")
    with pytest.raises(ConfigError) as given:
        config_for_command(str(missing), env)  # --config wins over the variable: no word of it
    assert str(given.value) == f"'{missing}': no such configuration file"


@pytest.mark.parametrize("file, backend", [("table.toml", "nonsense"), ("bad.toml", "sim")])
def test_other_refusals_of_the_variable_s_file_do_not_name_the_variable(tmp_path, file, backend):
    # the variable is no culprit of a bad $DICETABLE_HW, nor of a file that is there but wrong
    (tmp_path / "table.toml").write_text("")
    (tmp_path / "bad.toml").write_text("[hardware\n")
    with pytest.raises(ConfigError) as refused:
        config_for_command(None, {ENV_CONFIG: str(tmp_path / file), ENV_BACKEND: backend})
    assert ENV_CONFIG not in str(refused.value)


def test_a_configuration_refusal_quotes_the_path_as_the_commands_do(tmp_path, monkeypatch):
    # read_toml named it unquoted, with its own copy of the commands' escaping (common.shown)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as refused:
        load_config(Path(os.fsdecode(b"caf\xe9 table.toml")), {})
    assert str(refused.value) == "'caf\\xe9 table.toml': no such configuration file"


def test_invalid_toml_is_a_config_error(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text("[hardware\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(path, {})


def test_other_sections_are_left_to_their_owners():
    assert parse_config({"tray": {"width_mm": 400}, "zones": {}}, {}).backend is Backend.SIM


def test_registry_is_found_next_to_the_configuration(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[rfid]\nregistry = "tags.db"\n')
    assert load_config(path, {}).registry_path() == tmp_path / "tags.db"


def test_new_hardware_keys_are_read_and_range_checked():
    config = parse_config({"camera": {"timeout": 2}, "rfid": {"rx_gain_db": 48,
                                                              "leave_after": 5}}, {})
    assert (config.camera.timeout, config.rfid.rx_gain_db, config.rfid.leave_after) == (2, 48, 5)
    for bad, key in [({"camera": {"timeout": 0}}, "camera.timeout"),
                     ({"rfid": {"rx_gain_db": 40}}, "rfid.rx_gain_db"),
                     ({"rfid": {"leave_after": 0}}, "rfid.leave_after")]:
        with pytest.raises(ConfigError, match=key):
            parse_config(bad, {})


def test_a_reader_names_the_seat_whose_spot_it_lies_under():
    # the RC522s on the SPI bus knew no seat: one under an empty seat's spot could not be done without
    config = parse_config({"rfid": {"readers": [{"spot": "seat1", "chip_select": 7, "seat": 1},
                                                {"spot": "pot", "chip_select": 8}]}}, {})
    assert config.rfid.seats() == {"seat1": 1}
    assert load_config(EXAMPLE, {}).rfid.seats() == {"seat0": 0, "seat1": 1, "seat2": 2, "seat3": 3}
    assert load_config().rfid.seats() == {"seat0": 0, "seat1": 1, "seat2": 2, "seat3": 3}
    with pytest.raises(ConfigError, match=r"rfid\.readers\[0\]\.seat"):
        parse_config({"rfid": {"readers": [{"spot": "seat1", "chip_select": 7, "seat": -1}]}}, {})


NODE0 = {"seat": 0, "url": "/dev/ttyACM0"}


@pytest.mark.parametrize("data, env, said", [
    ({"panel": {"source": "seatnode"}}, {}, "panel.source: 'seatnode' needs [[seatnodes]] entries"),
    ({"panel": {"source": "seatnode"}}, {"DICETABLE_HW": "pi"},
     "panel.source: 'seatnode' needs [[seatnodes]] entries"),
    ({"hardware": {"backend": "pi"}, "camera": {"source": "sim"}, "panel": NO_PANEL}, {},
     "camera.source: 'sim' is not a camera the Pi backend opens"),
    ({"rfid": {"source": "seatnode"}, "seatnodes": [NODE0]}, {},
     "rfid.source: 'seatnode' needs a [[seatnodes]] entry with a spot"),
    ({"seatnodes": [NODE0, {**NODE0, "url": "/dev/ttyACM1"}]}, {}, "seatnodes: seat 0 appears twice"),
    ({"panel": {"source": "seatnode"}, "seatnodes": [NODE0, {**NODE0, "seat": 1}]}, {"DICETABLE_HW": "pi"},
     "seatnodes: url '/dev/ttyACM0' appears twice"),
    ({"seatnodes": [{**NODE0, "spot": "pot"}, {"seat": 1, "url": "/dev/ttyACM1", "spot": "pot"}]}, {},
     "seatnodes: spot 'pot' appears twice"),
])
def test_a_configuration_the_devices_cannot_be_built_from_is_refused_as_it_is_read(data, env, said):
    # the simulated table refused a seat-node panel without nodes only as it was built (the Pi's
    # panel took it, with no seat), and the Pi's camera a simulated one only as it was opened
    with pytest.raises(ConfigError) as refused:
        parse_config(data, env)
    assert str(refused.value).startswith(said)


def test_an_unbuildable_configuration_in_a_file_names_the_file(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[panel]\nsource = "seatnode"\n')
    with pytest.raises(ConfigError, match=r"^'.*table\.toml': panel\.source: 'seatnode' needs"):
        load_config(path, {})


def test_a_simulated_camera_in_a_pi_file_is_taken_for_a_simulated_rehearsal():
    # DICETABLE_HW=sim builds the simulated camera whatever camera.source says
    config = parse_config({"hardware": {"backend": "pi"}, "camera": {"source": "sim"}},
                          {"DICETABLE_HW": "sim"})
    assert config.camera.source == "sim"


@pytest.mark.parametrize("text, said", [
    ("[camera]\nwidth = -640\n", "camera.width: -640 is out of range"),
    ("[[panel.seats]]\nseat = 0\n[[panel.seats]]\nseat = 0\n", "panel.seats: seat 0 appears twice"),
    ("[tray]\nwidth_mm = -400\n", "tray.width_mm: must be a number of millimetres above 0"),
    ("[camra]\n", "unknown configuration section [camra]"),
])
def test_every_refusal_of_a_file_names_the_file(tmp_path, text, said):
    # only the faults' and the unbuildable configurations' refusals named it
    path = tmp_path / "table.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refused:
        load_config(path, {})
    assert str(refused.value).startswith(f"'{path}': {said}")


@pytest.mark.parametrize("env, said", [
    ({"DICETABLE_HW": "laptop"}, "DICETABLE_HW='laptop': expected sim or pi"),
    ({"DICETABLE_SIM_FAULTS": "camera:melted"}, "DICETABLE_SIM_FAULTS: unknown simulated fault"),
])
def test_a_mistake_of_the_environment_names_the_variable_not_the_file(tmp_path, env, said):
    path = tmp_path / "table.toml"
    path.write_text('[hardware]\nfaults = ["camera:drops"]\n')
    with pytest.raises(ConfigError) as refused:
        load_config(path, env)
    assert str(refused.value).startswith(said)


SIX_READERS = [{"spot": f"seat{seat}", "chip_select": cs, "seat": seat}
               for seat, cs in enumerate((8, 7, 5, 6, 12, 13))]


GPIO_PANEL_EXAMPLE = ("[[panel.seats]] seat = 0, buttons = { raise = 5, call = 6, pass = 13 }, "
                      "light = 19")


@pytest.mark.parametrize("data, env", [
    ({"hardware": {"backend": "pi"}}, {}),
    ({"panel": {"source": "gpio"}}, {"DICETABLE_HW": "pi"}),
    ({"hardware": {"backend": "pi"}, "rfid": {"source": "seatnode"},  # nodes for the readers only
      "seatnodes": [{"seat": 0, "url": "/dev/ttyACM0", "spot": "seat0"}]}, {}),
])
def test_a_gpio_panel_on_the_pi_must_list_its_seats_pins(data, env):
    # the Pi opened the four default seats' pins, lights on GPIO 19, 21, 26 and 14 (the serial
    # console's TX) driven whatever is wired there, without a word (or, beside seat nodes, a
    # panel of no seat at all)
    with pytest.raises(ConfigError) as refused:
        parse_config(data, env)
    said = str(refused.value)
    assert said.startswith("panel.source: 'gpio' on the Pi needs a [[panel.seats]] entry per seat")
    assert GPIO_PANEL_EXAMPLE in said and "source = \"none\"" in said and "\n" not in said


def test_a_gpio_panel_on_the_pi_without_seats_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('[hardware]\nbackend = "pi"\n[panel]\nbounce_time = 0.05\n')
    with pytest.raises(ConfigError, match=r"^'.*table\.toml': panel\.source: 'gpio' on the Pi"):
        load_config(path, {})


@pytest.mark.parametrize("data", [
    {"hardware": {"backend": "pi"}, "panel": NO_PANEL},
    {"hardware": {"backend": "pi"}, "panel": NO_PANEL, "rfid": {"source": "mfrc522", "bus": 0}},
])
def test_rc522_readers_on_the_pi_must_list_their_chip_selects_when_no_seat_is_named(data):
    # the Pi opened four default readers, chip selects GPIO 8, 7, 18 and 4 and reset GPIO 25,
    # driving whatever is wired there, without a word, for a file that never named a reader
    with pytest.raises(ConfigError) as refused:
        parse_config(data, {})
    said = str(refused.value)
    assert said.startswith("rfid.source: 'mfrc522' on the Pi needs a [[rfid.readers]] entry")
    assert 'chip_select = 8' in said and 'source = "none"' in said and "\n" not in said


def test_rc522_readers_on_the_pi_may_be_none_or_listed_or_follow_named_seats():
    pi = {"hardware": {"backend": "pi"}, "panel": NO_PANEL}
    assert parse_config({**pi, "rfid": {"source": "none"}}, {}).rfid.readers == ()
    listed = {"readers": [{"spot": "pot", "chip_select": 8}]}
    assert [r.spot for r in parse_config({**pi, "rfid": listed}, {}).rfid.readers] == ["pot"]
    buttons = {"seats": [{"seat": 0, "buttons": {"raise": 5}}]}  # seats named: no reader, as before
    assert parse_config({**pi, "panel": buttons}, {}).rfid.readers == ()
    assert len(parse_config({"panel": NO_PANEL}, {}).rfid.readers) == 4  # a simulated table's defaults


def test_the_simulated_table_keeps_the_default_seats_and_the_pi_takes_the_listed_ones():
    assert parse_config({}, {}).seats == (0, 1, 2, 3)  # a simulated table has no wires to mistake
    listed = {"hardware": {"backend": "pi"},
              "panel": {"seats": [{"seat": 2, "buttons": {"raise": 5}, "light": 19}]}}
    assert parse_config(listed, {}).panel.seats[0].seat == 2
    assert parse_config({"hardware": {"backend": "pi"}, **NO_PINS}, {}).panel.seats == ()


def test_a_table_of_readers_and_no_buttons_takes_any_free_pin_for_a_chip_select():
    # with no [[panel.seats]] the default panel's buttons were filled in though the panel is
    # "none", and a chip select on one of their pins (5) was refused as a pin used twice
    config = parse_config({"hardware": {"backend": "pi"}, "panel": {"source": "none"},
                           "rfid": {"readers": SIX_READERS}}, {})
    assert config.panel.seats == () and config.rfid.seats() == {f"seat{s}": s for s in range(6)}


def test_a_reader_may_serve_a_seat_without_buttons_or_node():
    # how many sit is the game's, told as it starts: a seat without buttons plays from the
    # console, so a reader's seat need not be one the panel or a seat node serves
    panel = {"seats": [{"seat": seat, "buttons": {"raise": 20 + seat}} for seat in range(4)]}
    config = parse_config({"panel": panel, "rfid": {"readers": SIX_READERS}}, {})
    assert config.seats == (0, 1, 2, 3) and sorted(config.rfid.seats().values()) == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("data, key", [
    ({"rfid": {"readers": [{"spot": "seat10", "chip_select": 8, "seat": 10}]}}, r"rfid\.readers\[0\]\.seat"),
    ({"panel": {"seats": [{"seat": 12, "buttons": {"raise": 5}}]}}, r"panel\.seats\[0\]\.seat"),
    ({"seatnodes": [{"seat": 99, "url": "/dev/ttyACM0"}]}, r"seatnodes\[0\]\.seat"),
])
def test_a_seat_no_game_seats_is_refused(data, key):
    # a reader under seat 10 was taken: no game seats an eleventh player, so no game waits for it
    with pytest.raises(ConfigError, match=rf"^{key}: \d+ is not a seat \(seats count from 0 to 9: "
                                          r"no game seats more than 10 players\)"):
        parse_config(data, {})


def test_the_dealer_s_session_limits_are_the_venue_s_to_set():
    # they were constants of the web: a club open 14 hours had its dealer logged out at the 12th
    config = parse_config({"console": {"idle_minutes": 30, "shift_hours": 14}}, {})
    assert (config.console.idle_minutes, config.console.shift_hours) == (30, 14)
    assert load_config(EXAMPLE, {}).console == load_config(None, {}).console == parse_config({}, {}).console


@pytest.mark.parametrize("console, said", [
    ({"idle_minutes": "30"}, "console.idle_minutes: expected an integer or a number, got '30'"),
    ({"shift_hours": True}, "console.shift_hours: expected an integer or a number, got True"),
    ({"idle_minutes": 0}, "console.idle_minutes: 0 is out of range (give at least 1)"),
    ({"idle_minutes": -30}, "console.idle_minutes: -30 is out of range (give at least 1)"),
    ({"shift_hours": 0}, "console.shift_hours: 0 is out of range (give more than 0 and at most 24)"),
    ({"shift_hours": 120}, "console.shift_hours: 120 is out of range (give more than 0 and at most 24)"),
    ({"idle_minutes": 240, "shift_hours": 3}, "console.idle_minutes: 240 minutes is longer than the shift "
                                              "(console.shift_hours = 3); give at most 180"),
    ({"idle_minutes": 900}, "console.idle_minutes: 900 minutes is longer than the shift "
                            "(console.shift_hours = 12); give at most 720"),
    ({"idle_mins": 30}, "unknown configuration key: console.idle_mins (see table.example.toml)"),
])
def test_a_session_limit_that_is_no_length_or_outlasts_the_shift_is_refused(tmp_path, console, said):
    path = tmp_path / "table.toml"
    path.write_text("[console]\n" + "".join(f"{key} = {str(value).lower() if value is True else repr(value)}\n"
                                           for key, value in console.items()).replace("'", '"'))
    with pytest.raises(ConfigError) as refused:
        load_config(path, {})
    assert str(refused.value) == f"'{path}': {said}"
