"""The shipped table.example.toml is a configuration every part of the table accepts."""

from pathlib import Path

from hardware.config import load_config
from vision.calibrate import load_tray_config

EXAMPLE = Path(__file__).resolve().parents[1] / "table.example.toml"


def test_example_configures_the_hardware():
    config = load_config(EXAMPLE, env={})
    assert config.seats and config.rfid.readers


def test_example_tray_zones_place_a_community_die_and_a_seat_die():
    tray = load_tray_config(EXAMPLE)
    assert tray.zones.zone_of((200, 150)) == "community"
    assert tray.zones.zone_of((50, 280)) == "seat0"
    assert tray.layout.width_mm == 400 and tray.layout.height_mm == 300


def test_example_lists_every_simulated_fault_kind():
    # rfid:overheated, rfid:noise and the seat nodes' reader-overheated, reader-noise were injectable
    # but missing from the list an owner reads
    import re

    from hardware.faults import FAULTS
    comment = " ".join(line.lstrip("# ") for line in EXAMPLE.read_text().splitlines() if line.startswith("#"))
    kinds = comment.split("Kinds:")[1].split("Modes:")[0]
    listed = set(re.findall(r"(\w+):([\w-]+)", kinds))
    assert listed == {(device, kind) for device, names in FAULTS.items() for kind in names}
