"""``dicetable run``: the table as the service unit starts it (simulated devices here)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from controller.store import TABLE, Store

ROOT = Path(__file__).resolve().parents[2]


def test_run_tells_systemd_it_is_ready_feeds_the_watchdog_and_stops_on_sigterm(
        tmp_path: Path) -> None:
    with _service(tmp_path, ["--no-web", "--game", "tao", "--names", "Ana,Ben", "--colours", "#ffcc00,#3355ff"],
                  WATCHDOG_USEC="400000") as (child, listener):
        messages = [listener.recv(100).decode()]
        deadline = time.monotonic() + 30
        while messages.count("WATCHDOG=1") < 2 and time.monotonic() < deadline:
            messages.append(listener.recv(100).decode())
        _stopped(child)
        messages += _rest(listener)
    assert messages[0] == "READY=1" and messages.count("WATCHDOG=1") >= 2
    assert messages[-1] == "STOPPING=1"
    store = Store.open_readonly(tmp_path / "state" / "table.db")
    assert list(store.games(1)[0].names) == ["Ana", "Ben"]
    assert store.games(1)[0].colours == ("#ffcc00", "#3355ff")
    store.close()


@contextmanager
def _service(tmp_path: Path, args: list[str], without: str = "",
             **env: str) -> Iterator[tuple[subprocess.Popen[bytes], socket.socket]]:
    """``dicetable run --config ... ARGS`` as systemd starts it (a notify socket, the state
    directory) on the simulated hardware, with ``env`` added to its environment and ``without``
    taken out of it; and the socket it tells systemd on. Killed on leaving if still running."""
    notify = tmp_path / "notify.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(notify))
    listener.settimeout(60)
    environment = {key: value for key, value in os.environ.items() if key != without}
    environment.update({"DICETABLE_HW": "sim", "NOTIFY_SOCKET": str(notify),
                        "STATE_DIRECTORY": str(tmp_path / "state"), **env})
    child = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(_config(tmp_path)), *args],
                             env=environment, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        yield child, listener
    finally:
        child.kill()
        listener.close()


def _stopped(child: subprocess.Popen[bytes]) -> str:
    """What ``child`` wrote on stderr, once SIGTERM stopped it cleanly."""
    child.send_signal(signal.SIGTERM)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 0, err.decode()
    return err.decode()


def _rest(listener: socket.socket) -> list[str]:
    listener.settimeout(0.5)
    out = []
    try:
        while True:
            out.append(listener.recv(100).decode())
    except OSError:
        return out


def test_run_refuses_a_state_directory_it_cannot_write(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--config",
         str(_config(tmp_path)), "--state", "/proc/dicetable", "--no-web"],
        env={**os.environ, "DICETABLE_HW": "sim"}, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "/proc/dicetable" in lines[0] and "Traceback" not in result.stderr


def test_run_refuses_a_stone_registry_that_is_a_folder_before_it_makes_its_state_folder(
        tmp_path: Path) -> None:
    # it made state/table.db and its lock first, then said "give the registry's SQLite file with
    # --db", an option of `stones` that `run` does not have
    config = _config(tmp_path)
    (tmp_path / "stones.db").mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--no-web"],
        env={**os.environ, "DICETABLE_HW": "sim", "STATE_DIRECTORY": str(tmp_path / "state")},
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"dicetable: '{config}': rfid.registry: '{tmp_path / 'stones.db'}' is a folder: name under "
        "[rfid] registry a stone registry this user can write, or a new file in a folder that exists "
        "(relative to the configuration's folder)"]
    assert not (tmp_path / "state").exists()


def test_run_makes_a_registry_named_in_the_state_folder_it_makes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the registry is checked before run makes its state folder; hardware/README.md puts the
    # registry in /var/lib/dicetable, the state folder: one not made yet is not "no folder"
    from controller.cli import main

    monkeypatch.setenv("DICETABLE_HW", "sim")
    monkeypatch.setattr("controller.table.service.serve_table", lambda *args: None)
    config = _config(tmp_path)
    config.write_text(config.read_text().replace('registry = "stones.db"', 'registry = "state/stones.db"'))
    assert main(["run", "--config", str(config), "--state", str(tmp_path / "state"), "--no-web"]) == 0
    assert (tmp_path / "state" / "stones.db").is_file() and (tmp_path / "state" / "table.db").is_file()


def test_run_refuses_bad_seat_colours_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--config",
         str(_config(tmp_path)), "--state", str(tmp_path), "--no-web", "--game", "tao",
         "--names", "Ana,Ben", "--colours", "#ffcc00,yellow"],
        env={**os.environ, "DICETABLE_HW": "sim"}, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines == ["dicetable: seat 1's colour 'yellow' is not #rrggbb"], result.stderr


def test_run_refuses_a_seat_name_given_twice_in_one_line(tmp_path: Path) -> None:
    # "A,A,A" started a game whose scoreboard and questions could not tell the seats apart
    result = subprocess.run(
        [sys.executable, "-m", "controller.cli", "run", "--config",
         str(_config(tmp_path)), "--state", str(tmp_path), "--no-web", "--game", "tao",
         "--names", "Ana,Ben,ana"],
        env={**os.environ, "DICETABLE_HW": "sim"}, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["dicetable: seat names must differ: 'ana' is given twice"]


def _config(tmp_path: Path) -> Path:
    """A copy of the example configuration: its stone registry lives beside it, not in the checkout."""
    copy = tmp_path / "table.toml"
    shutil.copyfile(ROOT / "table.example.toml", copy)
    return copy


def test_the_real_table_reads_by_the_dice_sets_taught_in_its_state_directory(tmp_path: Path) -> None:
    from controller.table.build import build_real
    from controller.table.camera import TableEyes
    from hardware.config import load_config
    from vision.calibrate import load_tray_config

    config = _config(tmp_path)
    config.write_text(config.read_text().replace('backend = "pi"', 'backend = "sim"')
                      .replace('source = "picamera2"', 'source = "sim"'))
    state = tmp_path / "state"
    state.mkdir()
    table, parts = build_real(load_config(config), load_tray_config(config), state)
    try:
        assert isinstance(table.eyes, TableEyes) and table.eyes.watcher.data == state
    finally:
        parts.close()


def test_run_on_port_0_serves_on_a_free_port_and_prints_which(tmp_path: Path) -> None:
    # --port 0 served on port 0 in the line it printed; the tests picked a free port, let it go and
    # had run bind it later, when another process could have taken it
    with _service(tmp_path, ["--host", "127.0.0.1", "--port", "0"]) as (child, listener):
        assert listener.recv(100).decode() == "READY=1"
        assert child.stdout is not None
        said = child.stdout.readline().decode()  # printed before READY=1
        port = int(said.removeprefix("scoreboard: http://127.0.0.1:").removesuffix("/\n"))
        assert port != 0
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200
        _stopped(child)


def test_run_refuses_a_port_in_use_in_one_line_before_it_makes_its_state_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the server's thread died with a traceback, and run ended with another, a RuntimeError, 10 s later
    from controller.cli import main

    monkeypatch.setenv("DICETABLE_HW", "sim")
    monkeypatch.setattr("controller.table.service.serve_table", lambda *args: None)  # never a loop
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status = main(["run", "--config", str(_config(tmp_path)), "--state", str(tmp_path / "state"),
                       "--host", "127.0.0.1", "--port", str(port)])
    assert status == 2
    assert capsys.readouterr().err.splitlines() == [
        f"dicetable: cannot serve the scoreboard on 127.0.0.1:{port}: the port is in use; stop what "
        "listens there or give another port (0: any free port)"]
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("port", ["-1", "65536"])
def test_run_refuses_a_port_beyond_0_to_65535_in_one_line(tmp_path: Path, port: str,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.cli import main

    monkeypatch.setenv("DICETABLE_HW", "sim")
    monkeypatch.setattr("controller.table.service.serve_table", lambda *args: None)
    assert main(["run", "--config", str(_config(tmp_path)), "--state", str(tmp_path / "state"),
                 "--port", port]) == 2
    assert capsys.readouterr().err.splitlines() == [f"dicetable: --port must be 0-65535 (0: any free port), not {port}"]
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("pin", [None, "8642", "864213"])
def test_run_says_when_its_dealer_console_has_no_pin_to_open_it_or_a_short_one(tmp_path: Path,
                                                                              pin: str | None) -> None:
    # a 4-digit PIN was taken without a word: 5 tries a minute from each address guess it in hours
    from controller.commands.run import NO_PIN
    from web import PIN_VARIABLE

    with _service(tmp_path, ["--host", "127.0.0.1", "--port", "0"], without=PIN_VARIABLE,
                  **({PIN_VARIABLE: pin} if pin else {})) as (child, listener):
        assert listener.recv(100).decode() == "READY=1"
        err = _stopped(child)
    assert (NO_PIN in err) is (pin is None)
    assert ("warning: the dealer PIN has 4 characters" in err) is (pin == "8642")


def test_run_keeps_the_dealer_s_sessions_in_its_state_folder_and_replaces_a_damaged_file(
        tmp_path: Path) -> None:
    # the console's signing key was made anew at each start: a restart logged the dealer out
    from web.security import SESSIONS_FILE
    kept = tmp_path / "state" / SESSIONS_FILE
    kept.parent.mkdir()
    kept.write_text("{half a file")
    with _service(tmp_path, ["--host", "127.0.0.1", "--port", "0"]) as (child, listener):
        assert listener.recv(100).decode() == "READY=1"
        err = _stopped(child)
    assert f"warning: the dealer's sessions '{kept}' were damaged (not JSON): replaced" in err
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and json.loads(kept.read_text())["sessions"] == []


def test_run_refuses_a_sessions_file_it_cannot_read_in_one_line(tmp_path: Path) -> None:
    from web.security import SESSIONS_FILE
    (tmp_path / "state" / SESSIONS_FILE).mkdir(parents=True)
    with _service(tmp_path, ["--host", "127.0.0.1", "--port", "0"]) as (child, _):
        _, err = child.communicate(timeout=60)
    assert child.returncode == 2
    assert err.decode().startswith("dicetable: cannot read the dealer's sessions") and err.decode().count("\n") == 1


def _run_with_faults(tmp_path: Path, faults: str, beats: int = 4,
                     game: tuple[str, ...] = ("--game", "tao", "--names", "Ana,Ben")) -> str:
    """The stderr of ``run --no-web`` (starting ``game``) with ``faults`` injected, stopped once the
    watchdog was fed ``beats`` times (its loop turned for a while)."""
    with _service(tmp_path, ["--no-web", *game],
                  DICETABLE_SIM_FAULTS=faults, WATCHDOG_USEC="200000") as (child, listener):
        messages = [listener.recv(100).decode()]
        while messages.count("WATCHDOG=1") < beats:
            messages.append(listener.recv(100).decode())
        return _stopped(child)


def test_run_says_once_that_the_camera_stopped_however_many_frames_it_misses(tmp_path: Path) -> None:
    # the terminal said nothing: only the scoreboard, switched off here, showed the fault
    err = _run_with_faults(tmp_path, "camera:stopped")
    said = [line for line in err.splitlines() if line.startswith("[")]  # the record's lines
    assert len(said) == 1, err
    assert "Fault: camera stopped sending frames: the simulated camera stopped" in said[0] and "cable" in said[0]


def test_run_says_when_the_camera_works_again(tmp_path: Path) -> None:
    err = _run_with_faults(tmp_path, "camera:stopped@once")
    said = [line.split("] ", 1)[1][:29] for line in err.splitlines() if line.startswith("[")]
    assert said == ["Fault: camera stopped sending", "Fixed: the camera works again"], err


def test_run_says_at_once_that_the_camera_stopped_before_any_game_is_started(tmp_path: Path) -> None:
    # between games only the buttons were read: a dead camera was told when the dealer started a game
    err = _run_with_faults(tmp_path, "camera:stopped", game=())
    said = [line for line in err.splitlines() if line.startswith("[")]
    assert len(said) == 1, err
    assert "Fault: camera stopped sending frames: the simulated camera stopped" in said[0] and "cable" in said[0]


def test_run_restarted_on_a_fault_that_stands_says_so_at_once_and_records_it_once(tmp_path: Path) -> None:
    # the restarted table knows the fault from its record and records it no more: the terminal,
    # told only what is recorded, said nothing of the camera still out
    _run_with_faults(tmp_path, "camera:stopped", game=())
    (tmp_path / "notify.sock").unlink()  # the second start's systemd socket
    err = _run_with_faults(tmp_path, "camera:stopped", game=())
    assert [line for line in err.splitlines() if line.startswith("[")] == [], err
    standing = [line for line in err.splitlines() if line.startswith("Fault standing")]
    assert len(standing) == 1 and "camera stopped sending frames" in standing[0] and "cable" in standing[0], err
    with Store.open_readonly(tmp_path / "state" / "table.db") as record:
        assert [r.kind for r in record.records(TABLE)] == ["fault"]


@pytest.mark.parametrize("device", ["panel", "rfid"])
def test_a_table_configured_without_a_panel_or_readers_plays_its_inputs_from_the_console(
        tmp_path: Path, device: str) -> None:
    # the simulated table built a panel and readers whatever the file said; without them, as on
    # the Pi, the table takes the presses and the stakes from the dealer console (Table.submit)
    from controller.table.build import build_real
    from controller.table.records import TableStatus
    from hardware.config import load_config
    from tests.table.conftest import play
    from vision.calibrate import load_tray_config

    config = tmp_path / "table.toml"
    config.write_text(f'[hardware]\nbackend = "sim"\n[camera]\nsource = "sim"\n[{device}]\nsource = "none"\n')
    (tmp_path / "state").mkdir()
    tray = load_tray_config(config)
    table, parts = build_real(load_config(config, {}), tray, tmp_path / "state")
    try:
        parts.devices.sim.camera.tray = tray
        parts.devices.sim.show_dice([], markers=True)  # the tray in view, no die on it
        assert getattr(parts.devices, device) is None and device not in [d.name for d in parts.devices.all()]
        table.new_game("tao", ["Ana", "Ben"], {})
        for seed in range(40):
            table.tick()
            play(table, 1, seed)
        assert table.state().status is not TableStatus.FAULT
        game = table.store.current_game()
        assert game is not None
        assert [(r.kind, r.who) for r in table.store.records(game.game_no)].count(("input", "tester")) == 40
    finally:
        parts.close()
