"""Bad input to every command: one line on stderr naming the culprit, exit 2, nothing changed.

Each case runs the command as a person would, from a folder holding files a person already has
(a history, a picture, a registry, notes): after the refusal every one of them is still there,
byte for byte, and nothing new appeared. Most cases run ``controller.cli.main`` in-process (fast);
file names that are not UTF-8 go through a real process, where a crash would show as a signal.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from controller.cli import main
from controller.games import history
from controller.games.tao import create
from hardware.rfid import StoneColour, StoneRegistry, TagKind, TagRecord

DICETABLE = Path(sys.executable).with_name("dicetable")
PHOTO = Path(__file__).resolve().parents[2] / "data/dice-photos/byler-d6-dev/images/IMG_20191208_112645.jpg"
NOT_UTF8 = os.fsdecode(b"caf\xe9")  # a Latin-1 name, as a Windows share or an old camera gives
LATIN1_TEXT = "# caf\u00e9\n".encode("latin-1")
BINARY = bytes(range(256)) * 4


@pytest.fixture
def desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with what a person already has in it, the current directory."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DICETABLE_HW", "sim")
    monkeypatch.delenv("DICETABLE_CONFIG", raising=False)
    monkeypatch.delenv("DICETABLE_SIM_FAULTS", raising=False)
    (tmp_path / "games.txt").write_text(history.dumps(create(3, {})))
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "binary.bin").write_bytes(BINARY)
    (tmp_path / "latin1.txt").write_bytes(LATIN1_TEXT)
    (tmp_path / "folder").mkdir()
    (tmp_path / "v2.txt").write_text("dicetable-history 2\ngame tao\n")
    (tmp_path / "folder" / "notes.txt").write_text("not a photo\n")
    (tmp_path / "annotated").mkdir()
    (tmp_path / "annotated" / "IMG_20191208_112645.png").write_bytes(b"an earlier picture")
    (tmp_path / "photo.jpg").write_bytes(PHOTO.read_bytes())
    registry = StoneRegistry(tmp_path / "stones.db")
    registry.enroll(TagRecord("DEADBEEF", TagKind.STONE, StoneColour.WHITE, owner="ana"))
    registry.close()
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes."""
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def refused_in_process(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    """Exit status and stderr of ``dicetable ARGS`` run in this process."""
    try:
        status = main(args)
    except SystemExit as stop:  # argparse's own refusals
        status = int(stop.code or 0)
    return status, capsys.readouterr().err


def assert_refused(status: int, err: str, culprit: str) -> None:
    """Exit 2, one line, naming the culprit, no traceback."""
    assert status == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip() and
             line != "place tags on spot 'seat0' one at a time"]  # enroll's instruction
    assert len(lines) == 1, err
    assert culprit in lines[0], lines[0]


def refused_leaving(capsys: pytest.CaptureFixture[str], desk: Path, args: list[str], culprit: str) -> str:
    """Run ``dicetable ARGS`` in ``desk``: refused (:func:`assert_refused`), every file under
    ``desk`` as it was and no ``new-state`` folder made; its stderr."""
    before = snapshot(desk)
    status, err = refused_in_process(capsys, args)
    assert_refused(status, err, culprit)
    assert snapshot(desk) == before
    assert not (desk / "new-state").exists()
    return err


CASES: list[tuple[list[str], str]] = [
    # the command line itself
    (["frobnicate"], "invalid choice: 'frobnicate'"),
    (["simulate", "--colour", "red"], "unrecognized arguments: --colour red"),
    # simulate
    (["simulate", "--game", "chess"], "invalid choice: 'chess'"),
    (["simulate", "--players", "1"], "tao is for 2 to 6 players, not 1"),
    (["simulate", "--players", "99"], "tao is for 2 to 6 players, not 99"),
    (["simulate", "--hands", "0"], "--hands must be at least 1, not 0"),
    (["simulate", "--hands", "-5"], "--hands must be at least 1, not -5"),
    (["simulate", "--hands", "many"], "argument --hands: invalid int value: 'many'"),
    (["simulate", "--seed", "1.5"], "argument --seed: invalid int value: '1.5'"),
    (["simulate", "--bots", "genius"], "--bots: unknown bot 'genius'"),
    (["simulate", "--bots", "random,,heuristic"], "--bots 'random,,heuristic': a bot name is missing"),
    (["simulate", "--bots", ""], "--bots '': a bot name is missing"),
    (["run", "--config", "games.txt", "--state", "photo.jpg"], "--state 'photo.jpg' is a file; give a directory"),
    (["run", "--config", "games.txt", "--names", "Ana,Ben"], "--names and --colours go with --game"),
    (["simulate", "--option", "colour=red"], "unknown Tao Dice option 'colour'"),
    (["simulate", "--option", "black"], "--option needs KEY=VALUE, not 'black'"),
    (["simulate", "--hands", "5", "--record", "games.txt"], "'games.txt' exists; choose another name or add --force"),
    (["simulate", "--hands", "5", "--record", "folder"], "'folder' is a folder"),
    (["simulate", "--hands", "5", "--record", "nowhere/games.txt"], "there is no folder 'nowhere'"),
    (["simulate", "--hands", "5", "--record", "/dev/full", "--force"], "cannot write '/dev/full': the disk is full"),
    (["simulate", "--hands", "5", "--record", "/sys/games.txt"], "cannot write '/sys/games.txt'"),
    (["simulate", "--hands", "5", "--record", "/proc/version", "--force"], "cannot write '/proc/version'"),
    # replay
    (["replay", "missing.txt"], "no such history file: 'missing.txt'"),
    (["replay", "empty.txt"], "'empty.txt': not a dicetable history"),
    (["replay", "binary.bin"], "'binary.bin' is not a UTF-8 text history file"),
    (["replay", "latin1.txt"], "'latin1.txt' is not a UTF-8 text history file"),
    (["replay", "folder"], "'folder' is a folder; give a history file"),
    (["replay", "v2.txt"], "a dicetable history of another version ('dicetable-history 2')"),  # was "not a history"
    (["replay", "photo.jpg"], "'photo.jpg' is not a UTF-8 text history file"),
    (["replay", "games.txt", "--fast"], "unrecognized arguments: --fast"),
    (["replay", "stones.db"], "'stones.db' is an SQLite file (a table's record?), not a text history file: "
                              "'dicetable history --db stones.db --game N' prints a game's history"),
    (["history", "--db", "empty.txt"], "'empty.txt' is empty, not a dicetable record"),
    # rank, odds, equity
    (["rank", "--game", "tao", "W"], "argument --game: invalid choice: 'tao'"),
    (["rank", "--game", "tauren", "W", "W", "Q", "5", "5"], "'Q' is not a face"),
    (["rank", "--game", "tauren", "W", "W"], "a hand has 5 to 7 dice, not 2"),
    (["rank", "--game", "diceholdem", "--shaman", "wild", "HOLDE"], "--shaman and --no-wrap are Tauren Hold'em options"),
    (["odds", "--game", "tauren", "--dice", "9"], "argument --dice: invalid choice: 9"),
    (["odds", "--game", "tauren", "--shaman", "maybe"], "argument --shaman: invalid choice: 'maybe'"),
    (["equity", "--game", "tauren", "--hand", "S", "S"], "equity needs 2 to 10 hands, not 1"),
    (["equity", "--game", "tauren", "--hand", "S", "S", "--hand", "Q", "Q"], "'Q' is not a face"),
    (["equity", "--game", "tauren", "--hand", "S", "S", "S", "--hand", "6", "6"], "a hand has at most 2 dice, not 3"),
    (["equity", "--game", "tauren", "--hand", "S", "S", "--hand", "6", "6", "--board", *"234562"],
     "the board has at most 5 dice, not 6"),
    # vision read
    (["vision", "read", "missing.jpg"], "no such image file: 'missing.jpg'"),
    (["vision", "read", "empty.txt"], "'empty.txt' is empty, not an image"),
    (["vision", "read", "binary.bin"], "not a readable image: 'binary.bin'"),
    (["vision", "read", "folder"], "no photos in folder 'folder': it holds 1 file that is not a JPEG, PNG, BMP, TIFF or "
                                   "WebP photo: 'folder/notes.txt'"),
    (["vision", "read", "photo.jpg", "--kind", "d8"], "argument --kind: invalid choice: 'd8'"),
    (["vision", "read", "photo.jpg", "--kind", "letters", "--data", "tdatTYPO"], "--data 'tdatTYPO' is not a folder"),
    (["vision", "read", "photo.jpg", "--data", "photo.jpg"], "--data 'photo.jpg' is not a folder"),
    (["vision", "read", "photo.jpg", "--annotate", "games.txt"], "--annotate 'games.txt' is a file; give a folder"),
    (["vision", "read", "photo.jpg", "--annotate", "/dev/full"], "--annotate '/dev/full' is a file"),
    (["vision", "read", "photo.jpg", "--annotate", "/sys/kernel"], "cannot write in the --annotate folder '/sys/kernel'"),
    (["vision", "read", "photo.jpg", "--annotate", "/proc/annotated"], "cannot make the --annotate folder '/proc/annotated'"),
    (["vision", "read", "photo.jpg", "--config", "missing.toml"], "'missing.toml': no such configuration file"),
    (["vision", "read", "photo.jpg", "--config", "folder"], "'folder': is a folder, not a configuration file"),
    (["vision", "read", "photo.jpg", "--config", "latin1.txt"], "'latin1.txt': not a UTF-8 text file"),
    (["vision", "read", str(PHOTO), "--annotate", "annotated"],
     "'annotated/IMG_20191208_112645.png' exists; choose another name or add --force"),
    # stones and the configuration
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--count", "0"], "--count 0: give at least 1 tag"),
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--count", "-1"], "--count -1: give at least 1 tag"),
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--timeout", "0"], "--timeout 0: give seconds"),
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--timeout", "nan"], "--timeout nan: give seconds"),
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--timeout", "100000"], "--timeout 100000: give seconds"),
    (["stones", "enroll", "--kind", "chip", "--denomination", "0"], "--denomination 0: a chip is worth 1 to 1,000,000"),
    (["stones", "enroll", "--kind", "chip", "--denomination", "99999999999999999999999", "--sim-tags", "AABBCCDD"],
     "--denomination 99999999999999999999999: a chip is worth 1 to 1,000,000"),
    # history
    (["stones", "enroll", "--kind", "stone"], "--kind stone needs --colour black|white"),
    (["stones", "enroll", "--kind", "gem"], "argument --kind: invalid choice: 'gem'"),
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--spot", "pot"], "no spot 'pot'; spots: seat0"),
    (["stones", "enroll", "--kind", "chip", "--denomination", "5", "--db", "stones.db", "--sim-tags", "DEADBEEF"],
     "tag DEADBEEF is already enrolled as white stone (ana), not 5 chip: add --replace"),
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--db", "folder"], "'folder' is a folder; give the registry's file with --db"),
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--db", "nowhere/s.db"], "there is no folder 'nowhere'"),
    (["stones", "list", "--db", "games.txt"], "stone registry 'games.txt': file is not a database"),
    (["stones", "list", "--db", "missing.db"], "no stone registry 'missing.db'"),
    (["stones", "list", "--config", "missing.toml"], "'missing.toml': no such configuration file"),
    (["stones", "list", "--config", "binary.bin"], "'binary.bin': not a UTF-8 text file"),
    (["stones", "list", "--config", "latin1.txt"], "'latin1.txt': not a UTF-8 text file"),
    (["stones", "list", "--config", "folder"], "'folder': is a folder, not a configuration file"),
    (["stones", "list", "--config", "games.txt"], "'games.txt': not valid TOML"),
    # play (refused before the first prompt)
    (["play", "--game", "chess"], "argument --game: invalid choice: 'chess'"),
    (["play", "--seat", "5"], "--seat 5 is not a seat (0-2)"),
    (["play", "--players", "1", "--seat", "0"], "tao is for 2 to 6 players, not 1"),
    (["play", "--players", "0"], "tao is for 2 to 6 players, not 0"),  # said "--seat 0 is not a seat (0--1)"
    (["play", "--bots", "genius"], "--bots: unknown bot 'genius'"),
    (["play", "--bots", "random,heuristic,random"],  # the third sat nowhere, and nothing said so
     "--bots names 3 bots, but only 2 can sit (the 3 seats but yours): name at most 2"),
    (["simulate", "--players", "2", "--bots", "random,heuristic,random"],
     "--bots names 3 bots, but only 2 can sit (one per seat): name at most 2"),
    (["play", "--option", "black=-1"], "option black='-1' must be a whole number from 0 to 1000"),
    # 1e20 stones were played with, and a record cannot keep them (SQLite's numbers are 64-bit)
    (["simulate", "--option", "black=99999999999999999999"], "option black='99999999999999999999' must be"),
    (["simulate", "--option", "length=first-to-99999999999999999999"], "(N from 1 to 1000)"),
    (["simulate", "--game", "diceholdem", "--option", "stack=99999999999999999999"],
     "expected a whole number from 1 to 1000000"),
    # an empty name (an unset shell variable) is refused, not read as the current folder or the default
    (["vision", "read", ""], "argument IMAGE: an empty name"),
    (["vision", "read", "photo.jpg", "--annotate", " "], "argument --annotate: an empty name"),
    (["vision", "teach", "--kind", "letters", "--images", ""], "argument --images: an empty name"),
    (["print-faces", "--kind", "d12", "--die-mm", "16", "--out", ""], "argument --out: an empty name"),
    (["print-tray", "--out", ""], "argument --out: an empty name"),
    (["print-tray", "--out", "/sys/tray.svg"], "cannot write '/sys/tray.svg': permission denied"),  # as others say it
    # a value that starts as a negative number does goes to the command, which says what is wrong with
    # it (argparse said "argument --size: expected one argument", the value unseen)
    (["print-tray", "--size", "-400x300"],
     "--size '-400x300': a tray size must be two positive numbers in millimetres, WIDTHxHEIGHT"),
    (["print-tray", "--marker-mm", "-1e3"], "--marker-mm -1000: the camera cannot find markers under 10 mm"),
    (["stones", "enroll", "--kind", "stone", "--colour", "black", "--timeout", "-1e3"], "--timeout -1000: give seconds"),
    (["stones", "list", "--db", ""], "argument --db: an empty name"),
    (["history", "--db", ""], "argument --db: an empty name"),
    (["replay", ""], "argument FILE: an empty name"),
    (["simulate", "--record", ""], "argument --record: an empty name"),
    (["demo", "--db", ""], "argument --db: an empty name"),
    (["run", "--config", ""], "argument --config: an empty name"),
]


@pytest.mark.parametrize("args, culprit", CASES, ids=[" ".join(args) for args, _ in CASES])
def test_bad_input_is_one_line_exit_2_and_changes_nothing(
        desk: Path, capsys: pytest.CaptureFixture[str], args: list[str], culprit: str) -> None:
    before = snapshot(desk)
    status, err = refused_in_process(capsys, args)
    assert_refused(status, err, culprit)
    assert snapshot(desk) == before


@pytest.mark.parametrize("args", [["doctor"], ["stones", "list"]])
def test_a_missing_file_named_by_dicetable_config_is_said_to_be_the_variable_s(
        desk: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str]) -> None:
    monkeypatch.setenv("DICETABLE_CONFIG", "old-table.toml")
    refused_leaving(capsys, desk, args, "'old-table.toml': no such configuration file, named by "
                                        "$DICETABLE_CONFIG (point it at the table's file, or unset it)")


CONFIGS = [
    ("[camra]\nwidth = 640\n", "unknown configuration section [camra]; did you mean [camera]?"),
    ("[panel]\nbounce_time = -1\n", "panel.bounce_time: -1 is out of range (give at least 0 and at most 1)"),
    ("[panel]\nhold_time = 0\n", "panel.hold_time: 0 is out of range (give more than 0"),
    ("[camera]\nwidth = -640\n", "camera.width: -640 is out of range"),
    ("[camera]\nheight = 30000\n", "camera.height: 30000 is out of range (give at least 16 and at most 4608)"),
    ("[camera]\nwidth = 99999999999999999999\n", "camera.width: 99999999999999999999 is out of range"),
    ("[camera]\ncolour_gains = [1.8, -1]\n", "camera.colour_gains: expected [red, blue] gains above 0"),
    ("[rfid]\nspeed_hz = 0\n", "rfid.speed_hz: 0 is out of range"),
    ("[[seatnodes]]\nseat = -1\nurl = \"/dev/ttyACM0\"\n", "seatnodes[0].seat: -1 is not a seat"),
    ("[tray]\nwidht_mm = 400\n", "unknown configuration key: tray.widht_mm"),
    ("[tray]\nwidth_mm = -400\n", "tray.width_mm: must be a number of millimetres above 0, not -400"),
    ("[tray]\nwidth_mm = inf\n", "tray.width_mm: must be a number of millimetres above 0, not inf"),
    ("[tray]\nheight_mm = 1e9\n", "tray.height_mm: 1000000000.0 mm is larger than any tray (at most 3000 mm)"),
    ("[tray]\nfocal_px = true\n", "tray.focal_px: must be a positive number of pixels, not True"),
    ("[zones]\ncommunity = [[0, 0], [1, 1]]\n", "zones.community: needs at least 3 points, got 2"),
    ("[zones]\ncommunity = [[0, 0], [1, \"a\"], [2, 2]]\n", "zones.community: must be a list of [x, y] points"),
    ("[zones.seat0]\npolygon = [[0, 0], [1, 0], [1, 1]]\ncolour = \"red\"\n", "unknown configuration key: zones.seat0.colour"),
    ("tray = 3\n", "tray: expected a table ([tray]), got 3"),
    # the refusals that named the key but not the file it is in
    ("[[panel.seats]]\nseat = 0\n[[panel.seats]]\nseat = 0\n", "panel.seats: seat 0 appears twice"),
    ("[[panel.seats]]\nseat = 0\nlight = 8\n[[rfid.readers]]\nspot = \"pot\"\nchip_select = 8\n",
     "GPIO pins: pin 8 appears twice"),
    ("[[rfid.readers]]\nspot = \"pot\"\nchip_select = 7\n[[rfid.readers]]\nspot = \"pot\"\nchip_select = 8\n",
     "rfid.readers: spot 'pot' appears twice"),
    ("[[rfid.readers]]\nchip_select = 8\n", "rfid.readers[0]: needs spot = \"NAME\" and chip_select = GPIO"),
    ("[hardware]\nbackend = \"laptop\"\n", "hardware.backend: 'laptop' is not one of sim, pi"),
    ("[hardware]\nfaults = \"camera:drops\"\n", "hardware.faults: expected a list, got 'camera:drops'"),
    ("seatnodes = 3\n", "seatnodes: expected a list of tables ([[seatnodes]]), got 3"),
    ("[camera]\nexposure = 100\n", "unknown configuration key: camera.exposure"),
    ("[[rfid.readers]]\nspot = \"seat10\"\nchip_select = 8\nseat = 10\n",
     "rfid.readers[0].seat: 10 is not a seat (seats count from 0 to 9: no game seats more than 10 players)"),
    # the dealer's session limits, the venue's to set
    ("[console]\nidle_minutes = \"30\"\n", "console.idle_minutes: expected an integer or a number, got '30'"),
    ("[console]\nidle_minutes = 0\n", "console.idle_minutes: 0 is out of range (give at least 1)"),
    ("[console]\nshift_hours = -2\n", "console.shift_hours: -2 is out of range (give more than 0 and at most 24)"),
    ("[console]\nidle_minutes = 900\n",
     "console.idle_minutes: 900 minutes is longer than the shift (console.shift_hours = 12); give at most 720"),
]
CONFIG_COMMANDS = [
    ["run", "--config", "table/table.toml", "--state", "state", "--no-web"],
    ["run", "--config", "table/table.toml", "--state", "new-state", "--no-web"],
    ["doctor", "--config", "table/table.toml"],
    ["stones", "list", "--config", "table/table.toml"],
]
"""The commands that read a configuration file and refuse it before they make a file."""
CONFIG_COMMAND_IDS = ["run", "run into a new state folder", "doctor", "stones list"]


@pytest.mark.parametrize("text, culprit", CONFIGS, ids=[culprit for _, culprit in CONFIGS])
@pytest.mark.parametrize("args", CONFIG_COMMANDS, ids=CONFIG_COMMAND_IDS)
def test_a_configuration_mistake_names_its_file_and_key(
        desk: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], text: str, culprit: str) -> None:
    # the newer refusals named the file ('table/table.toml': hardware.faults[1]: ...), the older
    # ones the key alone: a table's second file, or a copy in another folder, left a person asking
    monkeypatch.setattr("controller.table.service.serve_table", _served)
    (desk / "table").mkdir()
    (desk / "state").mkdir()
    (desk / "table" / "table.toml").write_text(text)
    refused_leaving(capsys, desk, args, f"dicetable: 'table/table.toml': {culprit}")


FAULT_COMMANDS = [
    ["run", "--config", "table/table.toml", "--state", "state", "--no-web"],
    ["run", "--config", "table/table.toml", "--state", "new-state", "--no-web"],
    ["stones", "enroll", "--config", "table/table.toml", "--kind", "stone", "--colour", "black",
     "--sim-tags", "AABBCCDD"],
    ["stones", "list", "--config", "table/table.toml"],
    ["doctor", "--config", "table/table.toml"],
]
BAD_FAULTS = [
    ("faults", "rfid[pot]:timeout",
     "'table/table.toml': hardware.faults[1]: simulated fault 'rfid[pot]:timeout': this table "
     "has no rfid[pot] (spots: seat0, seat1, seat2, seat3)"),
    ("faults", "camera:melted",
     "'table/table.toml': hardware.faults[1]: unknown simulated fault 'camera:melted' (faults: "),
    ("DICETABLE_SIM_FAULTS", "seatnode[2]:disconnected",
     "DICETABLE_SIM_FAULTS: fault seatnode:... needs [[seatnodes]] in the configuration"),
    ("DICETABLE_SIM_FAULTS", "camera:melted",
     "DICETABLE_SIM_FAULTS: unknown simulated fault 'camera:melted' (faults: "),
]


@pytest.mark.parametrize("where, fault, culprit", BAD_FAULTS, ids=[f"{w}={f}" for w, f, _ in BAD_FAULTS])
@pytest.mark.parametrize("args", FAULT_COMMANDS, ids=["run", "run into a new state folder", "stones enroll",
                                                      "stones list", "doctor"])
def test_a_bad_simulated_fault_is_refused_naming_its_key_before_a_file_is_made(
        desk: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], where: str, fault: str, culprit: str) -> None:
    # run made its record (table.db and its lock) and the stone registry, then refused the fault
    # as the simulated table was built, without saying it came from the file or the variable
    (desk / "table").mkdir()
    (desk / "state").mkdir()
    listed = ["camera:drops@once", fault] if where == "faults" else ["camera:drops@once"]
    (desk / "table" / "table.toml").write_text(
        f'[hardware]\nbackend = "sim"\nfaults = {listed!r}\n[camera]\nsource = "sim"\n'.replace("'", '"'))
    if where != "faults":
        monkeypatch.setenv(where, f"rfid:timeout@once,{fault}")
    refused_leaving(capsys, desk, args, culprit)


UNBUILDABLE = [
    ("sim", '[panel]\nsource = "seatnode"\n',
     "'table/table.toml': panel.source: 'seatnode' needs [[seatnodes]] entries"),
    ("pi", '[panel]\nsource = "seatnode"\n',
     "'table/table.toml': panel.source: 'seatnode' needs [[seatnodes]] entries"),
    ("pi", '[camera]\nsource = "sim"\n[panel]\nsource = "none"\n',
     "'table/table.toml': camera.source: 'sim' is not a camera the Pi backend opens"),
    ("sim", '[rfid]\nsource = "seatnode"\n[[seatnodes]]\nseat = 0\nurl = "/dev/ttyACM0"\n',
     "'table/table.toml': rfid.source: 'seatnode' needs a [[seatnodes]] entry with a spot"),
    ("pi", '[panel]\nsource = "seatnode"\n[[seatnodes]]\nseat = 0\nurl = "/dev/ttyACM0"\n'
           '[[seatnodes]]\nseat = 0\nurl = "/dev/ttyACM1"\n',
     "'table/table.toml': seatnodes: seat 0 appears twice"),
    ("sim", '[panel]\nsource = "seatnode"\n[[seatnodes]]\nseat = 0\nurl = "/dev/ttyACM0"\n'
            '[[seatnodes]]\nseat = 1\nurl = "/dev/ttyACM0"\n',
     "'table/table.toml': seatnodes: url '/dev/ttyACM0' appears twice"),
    ("sim", '[rfid]\nsource = "seatnode"\n[[seatnodes]]\nseat = 0\nurl = "/dev/ttyACM0"\nspot = "pot"\n'
            '[[seatnodes]]\nseat = 1\nurl = "/dev/ttyACM1"\nspot = "pot"\n',
     "'table/table.toml': seatnodes: spot 'pot' appears twice"),
]


@pytest.mark.parametrize("backend, text, culprit", UNBUILDABLE,
                         ids=[f"{b}: {c.partition(': ')[2]}" for b, _, c in UNBUILDABLE])
@pytest.mark.parametrize("args", CONFIG_COMMANDS, ids=CONFIG_COMMAND_IDS)
def test_a_configuration_the_devices_cannot_be_built_from_is_refused_before_a_file_is_made(
        desk: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], backend: str, text: str, culprit: str) -> None:
    # run made its record (table.db and its lock) and the stone registry, then the devices
    # refused the file without naming it, or (a seat-node panel on the Pi) took it with no seat
    monkeypatch.setenv("DICETABLE_HW", backend)
    monkeypatch.setattr("controller.table.service.serve_table", _served)
    (desk / "table").mkdir()
    (desk / "state").mkdir()
    (desk / "table" / "table.toml").write_text(text)
    refused_leaving(capsys, desk, args, culprit)


def test_stones_enroll_on_a_table_whose_file_says_it_has_no_reader_is_refused(
        desk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the simulated table built readers whatever the file said, and enrolled the tags into a new
    # registry beside it: the Pi's table, built from the same file, has no reader to enrol on
    (desk / "table").mkdir()
    (desk / "table" / "table.toml").write_text('[rfid]\nsource = "none"\n')
    refused_leaving(capsys, desk, ["stones", "enroll", "--config", "table/table.toml", "--kind", "stone",
                                   "--colour", "black", "--sim-tags", "AABBCCDD"],
                    "dicetable: the configuration has no RFID reader to enrol on ([rfid] source = \"none\")")


REGISTRY_COMMANDS = [
    ["run", "--config", "table/table.toml", "--state", "state", "--no-web"],
    ["run", "--config", "table/table.toml", "--state", "new-state", "--no-web"],
]
BAD_REGISTRIES = [  # [rfid] registry, and the file or folder the refusal names
    ("nowhere/stones.db", "there is no folder 'table/nowhere'"),
    ("folder", "'table/folder' is a folder"),
    ("notes.txt", "'table/notes.txt': file is not a database"),
    ("empty.db", "'table/empty.db' is an empty file, not a stone registry"),
    ("songs.db", "'table/songs.db' is not a stone registry (an SQLite file with the tables songs)"),
    ("blank.db", "'table/blank.db' is an SQLite file with no tables, not a stone registry"),
    ("/sys/stones.db", "'/sys/stones.db'"),  # a folder no one makes a file in, root included
]


@pytest.mark.parametrize("registry, named", BAD_REGISTRIES, ids=[r for r, _ in BAD_REGISTRIES])
@pytest.mark.parametrize("args", REGISTRY_COMMANDS, ids=["run", "run into a new state folder"])
def test_run_refuses_a_stone_registry_it_cannot_open_naming_its_key_before_a_file_is_made(
        desk: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str], registry: str, named: str) -> None:
    # run made its record (table.db and its lock) before it opened the registry, then refused it
    # telling the user to give the file "with --db", an option of stones that run does not have
    monkeypatch.setattr("controller.table.service.serve_table", _served)
    _table_with_registry(desk, registry)
    err = refused_leaving(capsys, desk, args, "'table/table.toml': rfid.registry: ")
    assert named in err and "under [rfid] registry" in err and "--db" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through file permissions")
@pytest.mark.parametrize("args", REGISTRY_COMMANDS, ids=["run", "run into a new state folder"])
def test_run_refuses_a_stone_registry_it_cannot_write_before_a_file_is_made(
        desk: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str]) -> None:
    monkeypatch.setattr("controller.table.service.serve_table", _served)
    _table_with_registry(desk, "../stones.db")
    (desk / "stones.db").chmod(0o444)
    refused_leaving(capsys, desk, args, "'table/table.toml': rfid.registry: 'table/../stones.db' is not writable")


@pytest.mark.parametrize("registry, named", BAD_REGISTRIES, ids=[r for r, _ in BAD_REGISTRIES])
def test_stones_enroll_refuses_a_stone_registry_as_run_does_before_a_device_is_opened(
        desk: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        registry: str, named: str) -> None:
    # enroll checked only that the registry was no folder and had one, with its own copy of the
    # check run makes (hardware.rfid.registry_problem); it opened the devices, then the registry,
    # whose refusal named neither the configuration nor its key
    monkeypatch.setattr("controller.commands.stones.build_devices", _opened)
    _table_with_registry(desk, registry)
    err = refused_leaving(capsys, desk, ["stones", "enroll", "--config", "table/table.toml", "--kind", "stone",
                                         "--colour", "black", "--sim-tags", "AABBCCDD"],
                          "dicetable: 'table/table.toml': rfid.registry: ")
    assert named in err and err.endswith("; give the registry's file with --db\n")


def _opened(*args: object, **options: object) -> None:
    """``stones enroll`` opened the devices."""
    raise AssertionError("a device was opened")


def _table_with_registry(desk: Path, registry: str) -> None:
    """A simulated table's configuration in ``desk/table`` whose ``[rfid] registry`` is
    ``registry``, beside a folder, a text file, an empty file, another program's SQLite file and
    one with no tables; and a state folder."""
    import sqlite3
    (desk / "table" / "folder").mkdir(parents=True)
    (desk / "state").mkdir()
    (desk / "table" / "notes.txt").write_text("not a registry\n")
    (desk / "table" / "empty.db").write_bytes(b"")
    _blank_sqlite(desk / "table" / "blank.db")
    other = sqlite3.connect(desk / "table" / "songs.db")
    other.execute("CREATE TABLE songs (title TEXT)")
    other.commit()
    other.close()
    (desk / "table" / "table.toml").write_text(
        f'[hardware]\nbackend = "sim"\n[camera]\nsource = "sim"\n[rfid]\nregistry = "{registry}"\n')


def _blank_sqlite(path: Path) -> None:
    """Another program's new SQLite file at ``path``: a header (its schema version), no table."""
    import sqlite3
    other = sqlite3.connect(path)
    other.execute("PRAGMA user_version = 1")
    other.close()


def _served(*args: object) -> None:
    """``run`` took the configuration and began turning the table (which would never stop)."""
    raise AssertionError("the table was served")


def run_process(desk: Path, *args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    """``dicetable ARGS`` as a separate process from ``desk`` (a crash shows as a signal)."""
    return subprocess.run([os.fsencode(DICETABLE), *(os.fsencode(a) for a in args)], cwd=desk,
                          capture_output=True, timeout=120)


Setup = Callable[[Path], None]


def _latin1_history(desk: Path) -> None:
    (desk / f"{NOT_UTF8}.txt").write_text("hello\n")


def _latin1_empty_registry(desk: Path) -> None:
    (desk / f"{NOT_UTF8}.db").write_bytes(b"")


def _latin1_folder_of_junk(desk: Path) -> None:
    (desk / "shots").mkdir()
    (desk / "shots" / f"{NOT_UTF8}.jpg").write_bytes(b"not a picture")


PROCESS_CASES: list[tuple[list[str], Setup | None, bytes]] = [
    (["vision", "read", f"{NOT_UTF8}.jpg"], None, b"no such image file: 'caf\\xe9.jpg'"),
    (["vision", "read", "shots"], _latin1_folder_of_junk, b"not a readable image: 'shots/caf\\xe9.jpg'"),
    (["replay", f"{NOT_UTF8}.txt"], _latin1_history, b"caf\\xe9.txt"),
    (["simulate", "--hands", "5", "--record", f"{NOT_UTF8}/games.txt"], None,
     b"there is no folder 'caf\\xe9'"),
    (["stones", "list", "--config", f"{NOT_UTF8}.toml"], None, b"'caf\\xe9.toml': no such configuration file"),
    (["history", "--db", f"{NOT_UTF8}.db"], None, b"'caf\\xe9.db': no such record"),
    (["stones", "list", "--db", f"{NOT_UTF8}.db"], _latin1_empty_registry,
     b"'caf\\xe9.db' is an empty file, not a stone registry"),  # the registry's refusal (it printed '\udce9')
    (["demo", "--db", f"{NOT_UTF8}/table.db"], None,  # the record's refusal (it printed '\udce9')
     b"'caf\\xe9/table.db': the folder 'caf\\xe9' does not exist"),
    (["print-tray", "--out", f"{NOT_UTF8}.png"], None, b"--out 'caf\\xe9.png': the file must end in .svg"),
]


@pytest.mark.parametrize("args, setup, culprit", PROCESS_CASES,
                         ids=[" ".join(args) for args, _, _ in PROCESS_CASES])
def test_file_names_that_are_not_utf8_are_named_not_crashed_on(
        desk: Path, args: list[str], setup: Setup | None, culprit: bytes) -> None:
    if setup is not None:
        setup(desk)
    before = snapshot(desk)
    done = run_process(desk, *args)
    assert done.returncode == 2, done  # a segfault is -11
    assert b"Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and culprit in done.stderr, done.stderr
    assert snapshot(desk) == before


def test_a_photo_whose_name_is_not_utf8_is_read_and_annotated(desk: Path) -> None:
    (desk / "shots").mkdir()
    (desk / "shots" / f"{NOT_UTF8}.jpg").write_bytes(PHOTO.read_bytes())
    done = run_process(desk, "vision", "read", "shots", "--annotate", "out")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"shots/caf\\xe9.jpg: ") and b" dice [" in done.stdout
    assert (desk / "out" / f"{NOT_UTF8}.png").stat().st_size > 0


@pytest.mark.parametrize("args, wrote", [
    (["print-tray", "--out", f"{NOT_UTF8}.svg"], b"wrote 'caf\\xe9.svg' ("),
    (["print-faces", "--kind", "d12", "--die-mm", "16", "--out", f"{NOT_UTF8}.pdf"], b"wrote 'caf\\xe9.pdf': "),
], ids=["print-tray", "print-faces"])
def test_a_file_written_under_a_name_that_is_not_utf8_is_named_escaped(desk: Path, args: list[str],
                                                                      wrote: bytes) -> None:
    done = run_process(desk, *args)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(wrote), done.stdout
    assert (desk / args[-1]).stat().st_size > 0


def test_photos_of_the_same_name_in_two_folders_are_annotated_apart(desk: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("d1", "d2"):
        (desk / folder).mkdir()
        (desk / folder / "x.jpg").write_bytes(PHOTO.read_bytes())
    assert main(["vision", "read", "d1", "d2", "--annotate", "out"]) == 0
    assert sorted(path.name for path in (desk / "out").iterdir()) == ["x-2.png", "x.png"]


def test_stdout_on_a_full_disk_is_an_error_not_a_silent_success(desk: Path) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess.run([str(DICETABLE), "rank", "--game", "tauren", "WWW55C2"], cwd=desk,
                              stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert done.returncode == 2
    assert done.stderr == b"dicetable: cannot write the output: the disk is full\n"


def test_force_overwrites_an_existing_record(desk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", "5", "--record", "games.txt", "--force", "--json"]) == 0
    assert "dicetable-history 1\ngame tao\nseats 4\n" in (desk / "games.txt").read_text()


@pytest.mark.parametrize("extra, culprit", [
    (["--spot", "pot"], "no spot 'pot'"),
    (["--timeout", "2"], "no tag arrived on spot 'seat0' in 2 s"),
])
def test_an_enrolment_that_enrols_nothing_leaves_no_registry_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        extra: list[str], culprit: str) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DICETABLE_HW", "sim")
    monkeypatch.delenv("DICETABLE_CONFIG", raising=False)
    status, err = refused_in_process(capsys, ["stones", "enroll", "--kind", "stone",
                                              "--colour", "black", *extra])
    assert_refused(status, err, culprit)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("size, culprit", [((1, 1), "'tiny.png': image must be"),
                                           ((8, 100_000), "'tiny.png': image is 100000x8 pixels: too narrow")])
def test_a_photo_too_small_or_too_narrow_is_named(desk: Path, capsys: pytest.CaptureFixture[str],
                                                  size: tuple[int, int], culprit: str) -> None:
    # the reader's refusal did not name the photo (one of many in a folder); one 8 px high and
    # 100,000 px long raised OpenCV's assertion in resize
    import cv2
    import numpy as np
    cv2.imwrite(str(desk / "tiny.png"), np.full((*size, 3), 128, np.uint8))
    status, err = refused_in_process(capsys, ["vision", "read", "photo.jpg", "tiny.png"])
    assert status == 2 and err.count("\n") == 1 and culprit in err, err


@pytest.mark.parametrize("args, culprit", [(["--game", "99999999999999999999"], "holds no game 99999999999999999999"),
                                           (["--limit", "99999999999999999999"], "no game recorded yet")])
def test_history_takes_numbers_past_what_sqlite_keeps(desk: Path, capsys: pytest.CaptureFixture[str],
                                                      args: list[str], culprit: str) -> None:
    # both raised OverflowError: Python int too large to convert to SQLite INTEGER
    from controller.store import Store
    Store(desk / "table.db").close()
    status = main(["history", "--db", "table.db", *args])
    out, err = capsys.readouterr()
    assert culprit in out + err and "Traceback" not in err
    assert status == (2 if "--game" in args else 0)


@pytest.mark.parametrize("command", [["stones", "list"],
                                     ["stones", "enroll", "--kind", "stone", "--colour", "black", "--sim-tags", "AABBCCDD"]])
def test_a_stone_command_refuses_an_sqlite_file_that_is_not_a_registry(
        desk: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    # a table's record, or another program's file: enrolling added a tags table to it, listing said no tags
    import sqlite3
    other = sqlite3.connect(desk / "other.db")
    other.execute("CREATE TABLE songs (title TEXT)")
    other.commit()
    other.close()
    before = snapshot(desk)
    status, err = refused_in_process(capsys, [*command, "--db", "other.db"])
    assert_refused(status, err, "'other.db' is not a stone registry (an SQLite file with the tables songs)")
    assert snapshot(desk) == before


@pytest.mark.parametrize("command", [["stones", "list"],
                                     ["stones", "enroll", "--kind", "stone", "--colour", "black", "--sim-tags", "AABBCCDD"]])
def test_a_stone_command_refuses_an_empty_file_as_the_registry(
        desk: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    # listing said "no tags registered", and enrolling made a person's empty file a registry
    before = snapshot(desk)
    status, err = refused_in_process(capsys, [*command, "--db", "empty.txt"])
    assert_refused(status, err, "'empty.txt' is an empty file, not a stone registry")
    assert snapshot(desk) == before


@pytest.mark.parametrize("command", [["stones", "list"],
                                     ["stones", "enroll", "--kind", "stone", "--colour", "black", "--sim-tags", "AABBCCDD"]])
def test_a_stone_command_refuses_an_sqlite_file_with_no_tables_as_the_registry(
        desk: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    # another program's new database: listing said "no tags registered", and enrolling (or run)
    # made it a registry by adding a tags table to it
    _blank_sqlite(desk / "blank.db")
    before = snapshot(desk)
    status, err = refused_in_process(capsys, [*command, "--db", "blank.db"])
    assert_refused(status, err, "'blank.db' is an SQLite file with no tables, not a stone registry")
    assert snapshot(desk) == before


def test_a_history_saved_with_a_byte_order_mark_replays(desk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Notepad writes one first; the first line did not read 'dicetable-history 1' then
    (desk / "notepad.txt").write_bytes(b"\xef\xbb\xbf" + (desk / "games.txt").read_bytes())
    assert main(["replay", "notepad.txt"]) == 0
    assert "1 game" in capsys.readouterr().out

