"""``dicetable doctor`` on a device that only warns (it works, a part of it does not, and the table
plays on): said as a warning with its problem and fix, never "OK", and the exit status stays 0."""

import json

import pytest

from controller.cli import main
from hardware.devices import DeviceStatus
from hardware.rfid import GARBLING, GARBLING_FIX, Mfrc522Reader

pytestmark = pytest.mark.usefixtures("simulated_hardware")

GARBLING_SEAT0 = DeviceStatus.warning("rfid", f"reader under 'seat0' {GARBLING}", GARBLING_FIX)


@pytest.fixture
def garbling_reader(monkeypatch):
    """The simulated readers' check warns that the reader under seat0 garbles every scan (as a
    seat node says of its reader once 20 scans in a row came garbled)."""
    monkeypatch.setattr(Mfrc522Reader, "check", lambda self: GARBLING_SEAT0)


def test_doctor_says_a_warning_with_its_problem_and_fix_not_ok(capsys, garbling_reader):
    # the line said "rfid     OK (sim)": the dealer never learnt that seat 0's stones are not read
    status = main(["doctor"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0  # the table plays on: a warning fails nothing
    assert f"rfid     WARNING: reader under 'seat0' {GARBLING}" in out
    assert f"         fix: {GARBLING_FIX}" in out
    assert not any(line.startswith("rfid") and "OK (" in line for line in out)


def test_doctor_json_gives_the_warning_as_ok_with_its_problem(capsys, garbling_reader):
    status = main(["doctor", "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rfid = next(line for line in lines if line["device"] == "rfid")
    assert status == 0 and rfid["ok"] is True
    assert (rfid["problem"], rfid["fix"]) == (GARBLING_SEAT0.problem, GARBLING_FIX)


def test_an_unknown_tag_still_fails_a_reader_that_warns(capsys, garbling_reader):
    status = main(["doctor", "--json", "--inject", "rfid:unknown-tag"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rfid = next(line for line in lines if line["device"] == "rfid")
    assert status == 1 and not rfid["ok"] and "0BADC0DE" in rfid["problem"]
