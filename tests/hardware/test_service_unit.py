"""The shipped systemd unit starts the table at boot and restarts it on failure."""

import configparser
from pathlib import Path

UNIT = Path(__file__).resolve().parents[2] / "hardware" / "dicetable.service"


def unit():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNIT)
    return parser


def test_unit_runs_the_table_with_the_system_configuration():
    assert unit()["Service"]["ExecStart"].endswith(
        "dicetable run --config /etc/dicetable/table.toml")


def test_unit_restarts_on_failure():
    assert unit()["Service"]["Restart"] == "on-failure"


def test_unit_starts_at_boot():
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_doctor_failure_does_not_block_the_start():
    assert unit()["Service"]["ExecStartPre"].startswith("-")


def test_service_user_may_use_gpio_spi_and_camera():
    assert {"gpio", "spi", "video"} <= set(unit()["Service"]["SupplementaryGroups"].split())


def test_lgpio_writes_its_pipes_into_the_state_directory():
    service = unit()["Service"]
    assert service["StateDirectory"] == "dicetable"
    assert service["WorkingDirectory"] == "/var/lib/dicetable"
    assert "LG_WD=/var/lib/dicetable" in service["Environment"]


def test_the_dealer_pin_comes_from_an_optional_root_file_the_run_command_names():
    from controller.commands.run import NO_PIN
    file = unit()["Service"]["EnvironmentFile"]
    assert file.startswith("-")  # a table without the file still starts (its console locked, as run says)
    assert file.removeprefix("-") in NO_PIN


def test_the_unit_waits_for_the_table_to_say_it_runs_and_restarts_a_hung_one():
    # dicetable run sends READY=1 and feeds the watchdog, but a Type=simple unit without WatchdogSec
    # ignored both: a hung table sat frozen and was never restarted
    service = unit()["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert 10 <= int(service["WatchdogSec"]) <= 60
