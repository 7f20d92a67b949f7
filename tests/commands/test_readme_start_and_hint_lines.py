"""hardware/README.md quotes what ``run`` says at its start and ``doctor``'s hint as the commands
say them (the README described the first fault only, and no hint)."""

from pathlib import Path

from controller.commands.doctor import seatless_readers
from controller.commands.run import _standing
from hardware.config import parse_config
from hardware.devices import DeviceStatus

README = " ".join((Path(__file__).parents[2] / "hardware" / "README.md").read_text().split())


def test_the_readme_quotes_runs_fault_and_warning_lines():
    fault, warning = _standing([DeviceStatus.failing("camera", "x", "y"),
                                DeviceStatus.warning("rfid", "reader under 'seat3' timed out", "z")])
    assert fault.split(": ")[0] + ": camera: ..." in README
    assert warning.removesuffix("; z") + " ...; <fix>" in README


def test_the_readme_quotes_doctors_seat_hint():
    readers = [{"spot": "pot", "chip_select": 8}, {"spot": "seat3", "chip_select": 7}]
    hint = seatless_readers(parse_config({"rfid": {"readers": readers}}, {}))[0]
    assert f"hint: {hint.replace('[1]', '[3]')}" in README
