"""``dicetable doctor`` with the RC522's own faults injected, as any other simulated fault: on the
command line (``--inject``), in ``DICETABLE_SIM_FAULTS`` and in ``[hardware] faults``."""

import json

import pytest

from controller.cli import main
from hardware.rfid import OVERHEATED, OVERHEATED_FIX

pytestmark = pytest.mark.usefixtures("simulated_hardware")


def rfid_line(capsys, *args):
    """doctor's exit status and its JSON line for the readers."""
    status = main(["doctor", "--json", *args])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return status, next(line for line in lines if line["device"] == "rfid")


def test_doctor_injects_an_overheated_reader_and_says_its_fix(capsys):
    status, line = rfid_line(capsys, "--inject", "rfid[seat0]:overheated")
    assert status == 1 and not line["ok"]
    assert line["problem"] == f"reader under 'seat0' {OVERHEATED}" and line["fix"] == OVERHEATED_FIX


def test_an_overheated_reader_comes_from_the_environment_too(capsys, monkeypatch):
    monkeypatch.setenv("DICETABLE_SIM_FAULTS", "rfid[seat2]:overheated")
    status, line = rfid_line(capsys)
    assert status == 1 and line["problem"] == f"reader under 'seat2' {OVERHEATED}"


def test_a_table_file_may_list_the_chip_faults(capsys, tmp_path):
    config = tmp_path / "table.toml"
    config.write_text('[hardware]\nfaults = ["rfid[seat1]:overheated", "rfid:noise"]\n')
    status, line = rfid_line(capsys, "--config", str(config))
    assert status == 1 and line["problem"] == f"reader under 'seat1' {OVERHEATED}"
