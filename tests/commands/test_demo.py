"""``dicetable demo``: the whole simulated table through the real table code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from controller.cli import main
from controller.store import Store
from controller.table import build
from controller.table.replay import effective_lines
from controller.table.sim_seats import SETTLE_TRIES


def _demo(tmp_path: Path, *args: str) -> list[str]:
    return ["demo", "--speed", "max", "--no-web", "--db", str(tmp_path / "t.db"), *args]


def test_demo_plays_through_buttons_stones_camera_and_dealer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    # the second throw the camera is shown lands cocked however often it is thrown again (Ben's d12
    # into the centre, where Ana's lies: the first, alone there, has nothing to lean on and lies flat)
    rolls: list[str] = []

    def cocked_second(key: str) -> int:
        roll = key.split("/")[2]
        rolls[:] = rolls if roll in rolls else [*rolls, roll]
        return int(rolls[1:2] == [roll])

    monkeypatch.setattr(build, "cocked_throw", cocked_second)
    assert main(_demo(tmp_path, "--game", "tao", "--players", "3", "--seed", "39",
                      "--hands", "1")) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tao Dice demo started: game 1, Ana, Ben, Cleo; seed 39")
    assert "rolls their hidden dice" in out and "reveals" in out
    assert re.search(r"== \w+ wins \d+ stones with score \d+", out)
    reader = Store.open_readonly(tmp_path / "t.db")
    records = reader.records(1)
    origins = {r.origin for r in records if r.kind == "input"}
    assert {"panel", "table", "camera"} <= origins  # buttons, sealed rolls, dice read by camera
    answers = [r for r in records if r.kind == "answer"]
    # the players threw it again SETTLE_TRIES times, the camera saw each throw cocked, then the
    # dealer entered it (seed 39: since dice thrown again land on new faces, seed 37's hand ended
    # in a fold, and seed 38's reveal had a d6 the reader took for cocked, a question more)
    assert answers and all(r.who == "dealer (simulated)" for r in answers)
    asked = [r.line for r in records if r.kind == "question"]
    assert len(asked) == SETTLE_TRIES + 1 and all("lies cocked" in line for line in asked)
    reader.close()


def test_the_same_db_resumes_where_the_demo_stopped(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_demo(tmp_path, "--game", "diceholdem", "--players", "2", "--seed", "4",
                      "--hands", "1")) == 0
    capsys.readouterr()
    assert main(_demo(tmp_path, "--hands", "2")) == 0
    out = capsys.readouterr().out
    assert out.startswith("DiceHoldem (standard) demo resumed: game 1, Ana, Ben; seed 4")
    reader = Store.open_readonly(tmp_path / "t.db")
    assert reader.games(5)[0].game_no == 1  # the same game, not a new one
    assert len(effective_lines(reader, 1)) > 0
    reader.close()


def test_demo_history_lists_the_recorded_game(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_demo(tmp_path, "--game", "tao", "--players", "2", "--seed", "2",
                      "--hands", "1")) == 0
    capsys.readouterr()
    assert main(["history", "--db", str(tmp_path / "t.db"), "--json"]) == 0
    game = json.loads(capsys.readouterr().out.splitlines()[0])
    assert (game["game_no"], game["game"], game["names"]) == (1, "tao", ["Ana", "Ben"])
    assert main(["history", "--db", str(tmp_path / "t.db"), "--game", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# seats: Ana, Ben\ndicetable-history 1\ngame tao\n")


@pytest.mark.parametrize("args, culprit", [
    (["--speed", "fast"], "--speed"), (["--speed", "0"], "--speed"),
    (["--players", "1"], "--players"), (["--hands", "0"], "--hands"),
    (["--port", "70000"], "--port"), (["--game", "chess"], "chess"),
    (["--players", "2", "--bots", "random,heuristic,random"], "--bots names 3 bots, but only 2 can sit"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, args: list[str], culprit: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_demo(tmp_path, *args)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and culprit in err[0]
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize("speed, held_ms", [(1.0, 6000), (4.0, 1500), (None, 1000)])
def test_the_demo_scoreboard_holds_a_showdown_for_the_table_time_at_the_demo_speed(
        tmp_path: Path, speed: float | None, held_ms: int) -> None:
    # at --speed 8 the next hand's reveals came and went under a 6 s banner
    from controller.commands.demo import demo_app
    from controller.table.build import build_demo
    demo, _ = build_demo("tao", 2, 3, tmp_path / "t.db", speed, ["heuristic"])
    try:
        page = demo_app(demo.table, speed).test_client().get("/").get_data(as_text=True)
    finally:
        demo.close()
    assert f'data-showdown-ms="{held_ms}"' in page


def test_the_demo_draws_a_dealer_pin_for_its_run_and_tells_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # with no PIN in the environment the console refused every login, and nothing said why
    from controller.commands.demo import console_pin
    from web import PIN_VARIABLE
    monkeypatch.delenv(PIN_VARIABLE, raising=False)
    pin, told = console_pin()
    assert len(pin) == 6 and pin.isdigit() and f"PIN {pin} for this run" in told
    monkeypatch.setenv(PIN_VARIABLE, "97531")
    assert console_pin() == ("97531", f"PIN from ${PIN_VARIABLE}")  # the owner's own: not printed


def test_the_demo_console_opens_with_the_pin_it_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.commands.demo import console_pin, demo_app
    from controller.table.build import build_demo
    from web import PIN_VARIABLE
    monkeypatch.delenv(PIN_VARIABLE, raising=False)
    pin, _ = console_pin()
    demo, _ = build_demo("tao", 2, 3, tmp_path / "t.db", None, ["heuristic"])
    try:
        client = demo_app(demo.table, None, pin).test_client()

        def log_in(tried: str) -> int:
            token = re.search(r'name="csrf" value="([^"]+)"', client.get("/dealer/login").get_data(as_text=True))
            assert token is not None
            return client.post("/dealer/login", data={"pin": tried, "csrf": token.group(1)}).status_code

        assert log_in(str((int(pin) + 1) % 10 ** 6).zfill(6)) == 403
        assert log_in(pin) == 302 and client.get("/dealer/").status_code == 200
    finally:
        demo.close()


def test_a_resumed_demo_says_which_options_do_not_apply(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # they were dropped without a word: --game tauren on a Tao Dice record played Tao Dice
    assert main(_demo(tmp_path, "--seed", "3", "--hands", "1")) == 0
    capsys.readouterr()
    assert main(_demo(tmp_path, "--game", "tauren", "--players", "3", "--seed", "5", "--bots", "random",
                      "--hands", "1")) == 0
    out = capsys.readouterr().out
    assert "Tao Dice demo resumed" in out
    assert ("note: --game tauren, --players 3, --seed 5, --bots random do not apply: the record resumes its own game"
            in out)
    assert main(_demo(tmp_path, "--game", "tao", "--players", "4", "--seed", "3", "--bots", "heuristic",
                      "--hands", "1")) == 0
    assert "do not apply" not in capsys.readouterr().out  # the record's own: nothing to say


def test_the_demo_says_which_hand_of_the_game_it_stopped_after(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # "Demo ended after 1 hands" on a resume that played none read as if a hand had been played
    assert main(_demo(tmp_path, "--seed", "3", "--hands", "1")) == 0
    assert "Demo stopped after hand 1 of the game (Tao Dice); the same --db resumes it" in capsys.readouterr().out
    assert main(_demo(tmp_path, "--hands", "2")) == 0  # hands of the game, the resumed one counted in
    assert "Demo stopped after hand 2 of the game" in capsys.readouterr().out



@pytest.mark.parametrize("stones, said", [("junk", "is not the demo's stone registry"), ("folder", "is a folder")])
def test_a_bad_stone_registry_beside_the_record_is_named_as_the_demos(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], stones: str, said: str) -> None:
    # it said "give the registry's SQLite file with --db", and --db is the record; the record was made first
    registry = tmp_path / "t.db.stones"
    registry.mkdir() if stones == "folder" else registry.write_text("not a database\n")
    assert main(_demo(tmp_path, "--hands", "1")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"the demo's stone registry beside its --db, {said}: move it away" in err[0]
    assert "--db)" not in err[0] and sorted(p.name for p in tmp_path.iterdir()) == ["t.db.stones"]


def test_a_folder_where_the_demo_keeps_its_tray_is_named_before_anything_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the demo ran, its tray's dice went to DB.tray.new, and nothing was said
    (tmp_path / "t.db.tray").mkdir()
    assert main(_demo(tmp_path, "--hands", "1")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "t.db.tray, where the demo keeps its tray's dice beside its --db, is a folder" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.db.tray"]


def test_a_tray_that_cannot_be_kept_leaves_nothing_beside_the_record(tmp_path: Path) -> None:
    import random

    from hardware.camera_sim import SimCamera
    camera = SimCamera(random.Random(1))
    camera.kept = tmp_path / "t.db.tray"
    camera.kept.mkdir()  # a folder where the tray goes: written aside, it cannot be moved there
    camera._keep("1/1/1/render", None)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.db.tray"]  # no t.db.tray.new left


def test_the_demo_tells_a_device_fault_once_with_its_fix_and_tells_its_end(tmp_path: Path) -> None:
    # it told "Fault: camera: ..." and not what to do; run tells its terminal the same line (Announcer)
    import io

    from controller.commands.demo import Narrator
    from controller.table.build import build_demo
    from controller.table.demo import BEAT
    demo, _ = build_demo("tao", 2, 3, tmp_path / "t.db", None, ["heuristic"])
    out = io.StringIO()

    def frames(count: int) -> None:
        for _ in range(count):
            demo.table.tick()
            demo.clock.advance(BEAT)
    try:
        narrator = Narrator(demo.table, out)
        demo.parts.devices.sim.inject("camera:stopped")
        frames(20)  # twenty frames missed: one fault, not twenty
        demo.parts.devices.sim.clear("camera")
        frames(20)
        narrator.tell()
    finally:
        demo.close()
    said = [line.split("] ", 1)[1] for line in out.getvalue().splitlines()]
    assert len(said) == 2 and said[1] == "Fixed: the camera works again", said
    assert said[0].startswith("Fault: camera stopped sending frames: the simulated camera stopped")
    assert "cable" in said[0]


def test_the_demo_takes_the_simulated_faults_the_environment_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # hardware/README.md: DICETABLE_SIM_FAULTS injects faults "for any command"; the demo built its
    # own devices without them, and a tester's faults never struck
    monkeypatch.setenv("DICETABLE_SIM_FAULTS", "camera:stopped@once")
    assert main(_demo(tmp_path, "--game", "tao", "--players", "2", "--seed", "3", "--hands", "1")) == 0
    said = [line.split("] ", 1)[1] for line in capsys.readouterr().out.splitlines() if line.startswith("[")]
    faults = [line for line in said if line.startswith(("Fault:", "Fixed:"))]
    assert faults[0].startswith("Fault: camera stopped sending frames: the simulated camera stopped")
    assert faults[1] == "Fixed: the camera works again"


def test_a_simulated_fault_named_wrong_is_one_line_and_nothing_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DICETABLE_SIM_FAULTS", "camera:drops,camera:melted")
    assert main(_demo(tmp_path, "--hands", "1")) == 2
    err = capsys.readouterr().err
    assert err.startswith("dicetable: DICETABLE_SIM_FAULTS: unknown simulated fault 'camera:melted'")
    assert len(err.splitlines()) == 1 and not list(tmp_path.iterdir())


@pytest.mark.parametrize("fault, said", [
    ("rfid[seat2]:timeout", "this table has no rfid[seat2] (spots: seat0, seat1)"),
    ("seatnode:disconnected", "fault seatnode:... needs [[seatnodes]] in the configuration")])
def test_a_simulated_fault_the_demos_table_has_no_part_for_is_one_line_and_nothing_is_made(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        fault: str, said: str) -> None:
    # only the fault's words were checked first: the demo made its record, then its table refused
    monkeypatch.setenv("DICETABLE_SIM_FAULTS", fault)
    assert main(_demo(tmp_path, "--players", "2", "--hands", "1")) == 2
    err = capsys.readouterr().err
    assert err.startswith("dicetable: DICETABLE_SIM_FAULTS: ") and err.endswith(said + "\n")
    assert len(err.splitlines()) == 1 and not list(tmp_path.iterdir())
