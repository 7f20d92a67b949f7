"""``dicetable doctor`` on a ``table.toml`` older than ``seat = N`` on its readers: a hint for each
reader under a seat's spot, whose seat the table cannot tell and so waits for even when no one
sits there (a broken spare antenna then holds the game)."""

import json
from pathlib import Path

import pytest

from controller.cli import main

pytestmark = pytest.mark.usefixtures("simulated_hardware")

OLD_READERS = "".join(f'[[rfid.readers]]\nspot = "{spot}"\nchip_select = {cs}\n'
                      for spot, cs in (("seat0", 8), ("seat1", 7), ("pot", 18), ("seat3", 4)))
"""Four RC522s as a table.toml listed them before readers named their seat: three seats' and the pot's."""


def _hint(index: int, spot: str, seat: int) -> str:
    return (f"hint: rfid.readers[{index}] (spot '{spot}') names no seat: add seat = {seat} so "
            "that the table does not wait for it when no one sits there")


def _config(tmp_path: Path, text: str) -> str:
    config = tmp_path / "table.toml"
    config.write_text(text)
    return str(config)


def test_doctor_hints_a_seat_for_each_reader_under_a_seats_spot_but_not_the_pots(capsys, tmp_path):
    # doctor said every device OK, and the table waited for seat 3's reader with no one there
    status = main(["doctor", "--config", _config(tmp_path, OLD_READERS)])
    out = capsys.readouterr().out.splitlines()
    assert status == 0  # advice: the devices work
    assert [line for line in out if line.startswith("hint: ")] == [
        _hint(0, "seat0", 0), _hint(1, "seat1", 1), _hint(3, "seat3", 3)]


def test_doctor_hints_the_seat_of_the_node_that_reads_a_readers_spot(capsys, tmp_path):
    nodes = '[panel]\nsource = "seatnode"\n[[seatnodes]]\nseat = 2\nurl = "sim://node2"\nspot = "bet-b"\n'
    readers = '[[rfid.readers]]\nspot = "bet-b"\nchip_select = 8\n'
    assert main(["doctor", "--config", _config(tmp_path, nodes + readers)]) == 0
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("hint: ")] == [
        _hint(0, "bet-b", 2)]


def test_doctor_gives_no_hint_for_readers_that_name_their_seat(capsys, tmp_path):
    readers = "".join(f'[[rfid.readers]]\nspot = "seat{s}"\nchip_select = {cs}\nseat = {s}\n'
                      for s, cs in ((0, 8), (1, 7)))
    assert main(["doctor", "--config", _config(tmp_path, readers)]) == 0
    assert "hint" not in capsys.readouterr().out


def test_doctor_json_keeps_one_object_per_device_and_hints_on_stderr(capsys, tmp_path):
    assert main(["doctor", "--json", "--config", _config(tmp_path, OLD_READERS)]) == 0
    said = capsys.readouterr()
    assert [json.loads(line)["device"] for line in said.out.splitlines()] == ["camera", "panel", "rfid"]
    assert said.err.splitlines() == [_hint(0, "seat0", 0), _hint(1, "seat1", 1), _hint(3, "seat3", 3)]
