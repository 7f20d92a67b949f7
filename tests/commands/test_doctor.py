"""``dicetable doctor``: every simulated device OK; an injected fault names the device and the fix."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from controller.cli import main
from hardware.rfid import StoneRegistry, TagKind, TagRecord, StoneColour


pytestmark = pytest.mark.usefixtures("simulated_hardware")


def doctor(capsys, *args):
    status = main(["doctor", "--json", *args])
    return status, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_every_simulated_device_is_ok(capsys):
    status, lines = doctor(capsys)
    assert status == 0
    assert [(line["device"], line["ok"]) for line in lines] == [
        ("camera", True), ("panel", True), ("rfid", True)]


def test_json_lines_carry_the_backend(capsys):
    _, lines = doctor(capsys)
    assert {line["backend"] for line in lines} == {"sim"}


@pytest.mark.parametrize("fault, device, fix_word", [
    ("camera:stopped", "camera", "ribbon"),
    ("camera:drops", "camera", "ribbon"),
    ("rfid:timeout", "rfid", "wiring"),
    ("rfid:dead", "rfid", "wiring"),
    ("panel:disconnected", "panel", "reconnect"),
])
def test_injected_fault_names_the_device_and_the_fix(capsys, fault, device, fix_word):
    status, lines = doctor(capsys, "--inject", fault)
    broken = [line for line in lines if not line["ok"]]
    assert status == 1
    assert [line["device"] for line in broken] == [device]
    assert broken[0]["problem"] and fix_word in broken[0]["fix"]


def test_unknown_tag_on_a_spot_is_reported(capsys):
    status, lines = doctor(capsys, "--inject", "rfid:unknown-tag")
    assert status == 1 and "0BADC0DE" in lines[2]["problem"] and "enroll" in lines[2]["fix"]


def test_registered_tag_on_a_spot_is_fine(capsys, tmp_path):
    registry = StoneRegistry(tmp_path / "stones.db")
    registry.enroll(TagRecord("0BADC0DE", TagKind.STONE, StoneColour.BLACK))
    registry.close()
    status, _ = doctor(capsys, "--inject", "rfid:unknown-tag")
    assert status == 0


def test_fault_from_the_environment_is_reported(capsys, monkeypatch):
    monkeypatch.setenv("DICETABLE_SIM_FAULTS", "camera:stopped")
    status, lines = doctor(capsys)
    assert status == 1 and not lines[0]["ok"]


def seat_node_table(tmp_path):
    config = tmp_path / "table.toml"
    config.write_text('[panel]\nsource = "seatnode"\n[[seatnodes]]\nseat = 0\n'
                      'url = "sim://node0"\n')
    return str(config)


def test_seat_node_disconnect_names_the_port_and_the_cable(capsys, tmp_path):
    status, lines = doctor(capsys, "--config", seat_node_table(tmp_path),
                           "--inject", "seatnode:disconnected")
    assert status == 1 and "sim://node0" in lines[1]["problem"] and "USB cable" in lines[1]["fix"]


def test_seat_node_sending_garbage_keeps_working(capsys, tmp_path):
    status, lines = doctor(capsys, "--config", seat_node_table(tmp_path),
                           "--inject", "seatnode:garbage")
    assert status == 0 and lines[1]["ok"]


def test_inject_is_refused_on_the_pi_backend(capsys, monkeypatch):
    monkeypatch.setenv("DICETABLE_HW", "pi")
    example = Path(__file__).resolve().parents[2] / "table.example.toml"  # the Pi needs its pins
    assert main(["doctor", "--config", str(example), "--inject", "camera:stopped"]) == 2
    assert "DICETABLE_HW=sim" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["doctor"], ["doctor", "--bring-up"], ["stones", "list"]])
def test_the_pi_backend_with_no_configuration_asks_for_the_tables_file(capsys, monkeypatch,
                                                                       command):
    # the Pi's defaults were refused by the first check of a file's pins, "panel.source: 'gpio'
    # on the Pi needs a [[panel.seats]] entry", a mistake of a file no one gave
    monkeypatch.setenv("DICETABLE_HW", "pi")
    assert main(command) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "--config FILE" in captured.err and "/etc/dicetable/table.toml" in captured.err
    assert "panel" not in captured.err


def test_the_pi_backend_takes_the_file_dicetable_config_names(capsys, monkeypatch):
    monkeypatch.setenv("DICETABLE_HW", "pi")
    example = Path(__file__).resolve().parents[2] / "table.example.toml"
    monkeypatch.setenv("DICETABLE_CONFIG", str(example))
    assert main(["doctor", "--inject", "camera:stopped"]) == 2
    assert "--inject breaks simulated devices only" in capsys.readouterr().err


def test_unknown_fault_is_a_clean_error(capsys):
    assert main(["doctor", "--inject", "camera:melted"]) == 2
    assert "camera:stopped" in capsys.readouterr().err


def test_a_fault_at_one_reader_names_that_reader_only(capsys):
    status, lines = doctor(capsys, "--inject", "rfid[seat2]:dead")
    assert status == 1 and "spot 'seat2'" in lines[2]["problem"]


def test_a_fault_at_a_spot_the_table_has_not_is_one_line_naming_its_spots(capsys):
    assert main(["doctor", "--inject", "rfid[pot]:timeout"]) == 2
    assert capsys.readouterr().err == (
        "dicetable: simulated fault 'rfid[pot]:timeout': this table has no rfid[pot] "
        "(spots: seat0, seat1, seat2, seat3)\n")


def test_a_configured_fault_at_a_seat_without_a_node_is_one_line(capsys, tmp_path):
    config = Path(seat_node_table(tmp_path))
    config.write_text('[hardware]\nfaults = ["seatnode[4]:disconnected"]\n' + config.read_text())
    assert main(["doctor", "--config", str(config)]) == 2
    assert capsys.readouterr().err == (
        f"dicetable: '{config}': hardware.faults[0]: simulated fault 'seatnode[4]:disconnected': "
        "this table has no seatnode[4] (seats: 0)\n")


def test_text_report_says_ok_per_device(capsys):
    assert main(["doctor"]) == 0
    assert capsys.readouterr().out.split() == ["camera", "OK", "(sim)", "panel", "OK", "(sim)",
                                             "rfid", "OK", "(sim)"]


def test_command_line_doctor_with_sim_env_prints_json_lines(tmp_path):
    env = {**os.environ, "DICETABLE_HW": "sim"}
    env.pop("DICETABLE_CONFIG", None)
    env.pop("DICETABLE_SIM_FAULTS", None)
    result = subprocess.run([sys.executable, "-m", "controller", "doctor", "--json"], env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert all(json.loads(line)["ok"] for line in result.stdout.splitlines())


def test_doctor_with_nothing_configured_says_it_checked_simulated_devices(capsys, monkeypatch):
    monkeypatch.delenv("DICETABLE_HW")
    assert main(["doctor"]) == 0
    captured = capsys.readouterr()
    assert "SIMULATED" in captured.out and "SIMULATED" in captured.err
    assert "--config /etc/dicetable/table.toml" in captured.out


def test_doctor_json_marks_a_simulated_default(capsys, monkeypatch):
    monkeypatch.delenv("DICETABLE_HW")
    _, lines = doctor(capsys)
    assert all(line["simulated_by_default"] for line in lines)


def test_asking_for_sim_explicitly_gives_no_warning(capsys):
    assert main(["doctor"]) == 0
    assert "SIMULATED" not in capsys.readouterr().err


def test_bring_up_reports_every_antenna_and_the_camera(capsys):
    status, lines = doctor(capsys, "--bring-up")
    antennas = [line for line in lines if "antenna" in line]
    (camera,) = [line for line in lines if line.get("camera")]
    assert status == 0
    assert [a["antenna"] for a in antennas] == ["seat0", "seat1", "seat2", "seat3"]
    for antenna in antennas:
        assert antenna["scans"] == 20 and antenna["hits"] == 20 and antenna["misses"] == 0
        assert antenna["errors"] == antenna["garbled"] == 0
        assert antenna["reads_per_s"] > 5 and antenna["tags"] == ["04B1E5C0FFEE01"]
        assert antenna["chip"].startswith("0x92") and antenna["advice"] == "ok"
    assert camera["markers_found"] == [0, 1, 2, 3] and camera["sharpness"] > 60
    assert 0 <= camera["clipped_share"] < 0.02 and camera["advice"] == ["ok"]
    assert 600 < camera["focal_px"] < 3000  # the simulated camera knows its lens, as a Pi camera module does
    assert camera["tilt_deg"] < 0.5  # the simulated camera looks straight down at the configured tray


def test_bring_up_names_the_antenna_that_misses(capsys):
    status, lines = doctor(capsys, "--bring-up", "--inject", "rfid:missed@intermittent=0.5")
    advice = [line["advice"] for line in lines if "antenna" in line]
    assert status == 1 and any("rx_gain_db" in a or "centre" in a for a in advice)


def test_bring_up_text_report_says_what_to_adjust(capsys):
    assert main(["doctor", "--bring-up", "--inject", "camera:stopped"]) == 1
    out = capsys.readouterr().out
    assert "antenna seat0:" in out and "reads/s" in out and "camera: " in out
    assert "no frame" in out and "lens not known" in out and "tilt not measured" in out


def test_bring_up_text_report_says_how_the_camera_looks_at_the_tray(capsys):
    assert main(["doctor", "--bring-up"]) == 0
    (camera,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("camera: ")]
    assert "tilt 0.0 degrees off straight down: ok" in camera


def test_bring_up_reads_a_folder_camera_photo_whose_name_is_not_utf8(tmp_path):
    # a real process: cv2.imread crashed it (a segmentation fault) on such a name
    photo = Path(__file__).resolve().parents[2] / "data/dice-photos/byler-d6-dev/images/IMG_20191208_112645.jpg"
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / os.fsdecode(b"caf\xe9.jpg")).write_bytes(photo.read_bytes())
    (tmp_path / "table.toml").write_text('[hardware]\nbackend = "pi"\n[camera]\nsource = "folder"\n'
                                         'folder = "frames"\n[panel]\nsource = "none"\n[rfid]\nsource = "none"\n')
    env = {key: value for key, value in os.environ.items() if not key.startswith("DICETABLE_")}
    result = subprocess.run([sys.executable, "-m", "controller", "doctor", "--config", "table.toml",
                             "--bring-up", "--json"], env=env, cwd=tmp_path, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 1, result.stderr  # the photo shows no tray markers
    camera = json.loads(result.stdout.splitlines()[-1])
    assert camera["sharpness"] > 0 and not any("no frame" in advice for advice in camera["advice"])


@pytest.mark.parametrize("device, problem", [('"notes.jpg"', "'notes.jpg' gives no frame: not a video OpenCV reads"),
                                             ("99", "cannot open video source 99")])
def test_a_webcam_or_video_that_fails_is_one_status_without_opencvs_own_lines(tmp_path, device, problem):
    # OpenCV printed "[ WARN:0@0.1] global cap_v4l.cpp:915 open VIDEOIO(V4L2:/dev/video99): can't open
    # camera by index", and FFmpeg "[mjpeg @ 0x..] No JPEG data found in image", on stderr
    (tmp_path / "notes.jpg").write_text("not a video")
    (tmp_path / "table.toml").write_text(f'[hardware]\nbackend = "pi"\n[camera]\nsource = "opencv"\ndevice = {device}\n'
                                         '[panel]\nsource = "none"\n[rfid]\nsource = "none"\n')
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DICETABLE_", "OPENCV_"))}
    result = subprocess.run([sys.executable, "-m", "controller", "doctor", "--config", "table.toml"], env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and problem in result.stdout
    assert result.stderr == ""


def test_simulated_faults_given_to_real_devices_are_a_warning_that_they_are_ignored(tmp_path, capsys, monkeypatch):
    # backend = "pi" took [hardware] faults and DICETABLE_SIM_FAULTS without a word, and ignored them
    (tmp_path / "frames").mkdir()
    (tmp_path / "table.toml").write_text('[hardware]\nbackend = "pi"\nfaults = ["camera:stopped"]\n'
                                         '[camera]\nsource = "folder"\nfolder = "frames"\n'
                                         '[panel]\nsource = "none"\n[rfid]\nsource = "none"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DICETABLE_HW")
    monkeypatch.setenv("DICETABLE_SIM_FAULTS", "camera:drops@once")
    assert main(["doctor", "--config", "table.toml", "--json"]) != 2
    assert capsys.readouterr().err.splitlines() == [
        "warning: simulated faults are ignored on real hardware (backend pi): camera:stopped, "
        "camera:drops@once; remove them from [hardware] faults and $DICETABLE_SIM_FAULTS, or "
        "rehearse them with DICETABLE_HW=sim"]


def test_bring_up_checks_the_devices_a_file_without_readers_has(capsys, tmp_path):
    # the simulated table built readers whatever the file said, and doctor checked them
    (tmp_path / "table.toml").write_text('[camera]\nsource = "sim"\n[rfid]\nsource = "none"\n')
    status, lines = doctor(capsys, "--config", "table.toml", "--bring-up")
    assert status == 0
    assert [line["device"] for line in lines if "device" in line] == ["camera", "panel"]
    assert not [line for line in lines if "antenna" in line] and [line for line in lines if line.get("camera")]


def registry_in(folder):
    registry = StoneRegistry(folder / "stones.db")
    registry.enroll(TagRecord("0BADC0DE", TagKind.STONE, StoneColour.BLACK))
    registry.close()
    return folder / "stones.db"


def test_a_registry_in_a_writable_folder_gives_the_reader_no_warning(capsys, tmp_path):
    registry_in(tmp_path)
    status, lines = doctor(capsys)
    assert status == 0 and lines[2] == {**lines[2], "ok": True, "problem": ""}


def test_a_registry_whose_folder_this_user_cannot_write_is_a_warning_naming_the_folder(
        capsys, tmp_path, monkeypatch):
    # `stones enroll` writes the registry, and SQLite makes its journal in the folder beside it;
    # root writes through permission bits, so os.access is told what it says to the table's user
    registry_in(tmp_path)
    access = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: access(path, mode, **kw)
                        and Path(path) != tmp_path.resolve())
    status, lines = doctor(capsys)
    assert status == 0 and lines[2]["ok"]  # the table plays on: it only reads the registry
    assert f"'{tmp_path.resolve()}'" in lines[2]["problem"] and "enroll" in lines[2]["problem"]
    assert f"'{tmp_path.resolve()}'" in lines[2]["fix"]
    assert main(["doctor"]) == 0
    said = [line for line in capsys.readouterr().out.splitlines() if line.startswith("rfid")]
    assert said == [f"rfid     WARNING: {lines[2]['problem']}"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions")
def test_a_registry_in_a_read_only_folder_is_a_warning(capsys, tmp_path):
    registry_in(tmp_path)
    tmp_path.chmod(0o555)
    try:
        _, lines = doctor(capsys)
    finally:
        tmp_path.chmod(0o755)
    assert lines[2]["ok"] and f"'{tmp_path.resolve()}'" in lines[2]["problem"]


@pytest.mark.parametrize("lying_there, problem", [
    ("notes", "not a database"), ("empty", "an empty file"), ("folder", "is a folder")])
def test_a_registry_that_cannot_be_opened_fails_the_reader_with_runs_fix(capsys, tmp_path,
                                                                        lying_there, problem):
    # doctor stopped there, exit 2, with `stones`' fix "give the registry's file with --db",
    # an option doctor has not
    registry = tmp_path / "stones.db"
    {"notes": lambda: registry.write_text("the high rollers' table\n"),
     "empty": registry.touch, "folder": registry.mkdir}[lying_there]()
    status, lines = doctor(capsys)
    assert status == 1 and [line["ok"] for line in lines] == [True, True, False]
    assert "/stones.db'" in lines[2]["problem"] and problem in lines[2]["problem"]
    assert "[rfid] registry" in lines[2]["fix"]
    assert "--db" not in lines[2]["problem"] + lines[2]["fix"]


def test_help_says_what_doctor_checks_prints_and_exits_with(capsys):
    with pytest.raises(SystemExit):
        main(["doctor", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "the Pi has no default: give /etc/dicetable/table.toml" in said
    assert "2 when the configuration or an option is refused" in said
    assert "backend, simulated_by_default" in said  # every field --json prints
    assert "stone registry ([rfid] registry)" in said
    assert "the fix on the line after" in said  # not "one line per device"
    assert "exit 1 when anything needs adjusting" in said


def test_doctor_leaves_the_registry_as_it_found_it(capsys, tmp_path):
    # a check writes nothing: doctor opened the registry to write, and gave an SQLite file with
    # no tables (another program's new database) the registry's table; it says now that run
    # refuses such a file, and still changes nothing
    import sqlite3
    registry = tmp_path / "stones.db"
    with sqlite3.connect(registry) as conn:
        conn.execute("PRAGMA user_version = 7")
    conn.close()
    os.utime(registry, (1_700_000_000, 1_700_000_000))
    before = registry.read_bytes()
    status, lines = doctor(capsys)
    assert status == 1 and "is an SQLite file with no tables, not a stone registry" in lines[-1]["problem"]
    assert registry.read_bytes() == before and registry.stat().st_mtime == 1_700_000_000
    assert sorted(p.name for p in tmp_path.iterdir()) == ["stones.db"]
