"""Acceptance 2 of the table: faults are states. Each time the table pauses, says what is wrong,
and goes on correctly once it is put right; the stones and chips still add up."""

from __future__ import annotations

import io
import random
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from controller.games.dice import DieKind
from controller.store import TABLE, Store
from controller.games.rolls import Roll
from controller.games.errors import TableNotReady
from controller.table.build import build_demo, throw_values
from controller.table.demo import BEAT, Demo, play_out
from controller.table.records import Entry, TableStatus
from controller.table import service
from controller.table.replay import replay_game
from controller.table.service import Notifier, Stop, serve_table
from controller.table.table import HEALTH_EVERY, Table, named
from hardware.devices import DeviceStatus
from hardware.rfid import check_tags


@pytest.fixture
def tao(tmp_path: Path) -> Iterator[Demo]:
    demo, _ = build_demo("tao", 2, 3, tmp_path / "t.db", None, ["heuristic"])
    yield demo
    demo.close()


@pytest.fixture
def holdem(tmp_path: Path) -> Iterator[Demo]:
    demo, _ = build_demo("diceholdem", 2, 3, tmp_path / "t.db", None, ["heuristic"])
    yield demo
    demo.close()


def until(demo: Demo, done: Callable[[], object], beats: int = 3000) -> None:
    """Step the whole demo (table and simulated people) until ``done`` (anything true: a list of
    what was played counts once it has something in it)."""
    for _ in range(beats):
        if done():
            return
        demo.step()
    raise AssertionError("the condition never came")


def table_only(demo: Demo, beats: int) -> None:
    """Let the table poll its devices while nobody at the table does anything."""
    for _ in range(beats):
        demo.table.tick()
        demo.clock.advance(BEAT)


def need(demo: Demo) -> Any:
    ledger = demo.table.ledger
    assert ledger is not None
    dice = ledger.game.pending().dice
    return dice[0] if dice else None


def finishes_the_hand_whole(demo: Demo) -> None:
    ledger = demo.table.ledger
    assert ledger is not None
    play_out(demo, ledger.game.hands_played + 1)
    assert ledger.game.chips_total() == ledger.game.chips_expected()
    assert replay_game(demo.table.store, demo.table.game_no).game.final() == ledger.game.final()


def kinds(demo: Demo) -> list[str]:
    return [r.kind for r in demo.table.store.records(demo.table.game_no)]


def test_the_camera_stopping_during_a_roll_holds_the_table_until_it_is_back(tao: Demo) -> None:
    until(tao, lambda: need(tao) is not None and need(tao).reason == "reveal")
    sim = tao.parts.devices.sim
    sim.inject("camera:stopped")
    tao.seats.act()  # the seat reveals its dice in its zone while the camera is dead
    table_only(tao, 10)
    state = tao.table.state()
    assert state.status is TableStatus.FAULT and "camera" in state.problem
    assert "cable" in state.fix
    with pytest.raises(TableNotReady, match="camera"):
        tao.table.submit(Entry(tao.seats._choose(0), "test"))
    sim.clear("camera")
    table_only(tao, 30)
    assert tao.table.state().status is TableStatus.RUNNING
    assert kinds(tao).count("fault") == 1 and "clear" in kinds(tao)
    finishes_the_hand_whole(tao)


def _flop(demo: Demo) -> tuple[list[int], Any]:
    until(demo, lambda: need(demo) is not None and need(demo).reason == "flop")
    truth = demo.seats.throw_for(need(demo))
    assert truth is not None  # the flop is thrown in the open, never sealed
    values = throw_values(truth, DieKind.LETTERS)
    return values, demo.parts.devices.camera


def test_a_die_knocked_off_the_tray_is_a_question_until_it_is_put_back(holdem: Demo) -> None:
    values, camera = _flop(holdem)
    camera.roll(values[:2], zones=["community"] * 2, kind="letters")  # the third fell on the floor
    table_only(holdem, 30)
    state = holdem.table.state()
    assert state.status is TableStatus.QUESTION
    assert "3 dice" in state.problem and "2" in state.problem
    camera._rng = random.Random(0)  # a throw the reader reads surely (this test is of the count, not the reader)
    camera.roll(values, zones=["community"] * 3, kind="letters")  # a player puts the die back
    table_only(holdem, 30)
    assert holdem.table.state().status is TableStatus.RUNNING
    flop = holdem.table.store.records(holdem.table.game_no)[-1]
    assert (flop.kind, flop.origin) == ("input", "camera")
    finishes_the_hand_whole(holdem)


def _tray_covered(demo: Demo) -> tuple[list[int], Any, Any]:
    """The flop thrown while a cloth covers the tray's corner markers, the table's beats played
    until its camera's fault stands; the flop's values, the camera and that state."""
    values, camera = _flop(demo)
    camera.roll(values, kind="letters", markers=False)
    table_only(demo, 30)
    state = demo.table.state()
    assert state.status is TableStatus.FAULT and "cannot find the tray" in state.problem
    return values, camera, state


def _tray_found(demo: Demo, values: list[int], camera: Any) -> None:
    """The cloth taken off and the flop thrown again, read surely (these tests are of the fault,
    not the reader), the table's beats played until it runs again."""
    camera._rng = random.Random(0)
    camera.roll(values, zones=["community"] * 3, kind="letters")
    table_only(demo, 30)
    assert demo.table.state().status is TableStatus.RUNNING


def test_dice_read_as_the_camera_finds_the_tray_again_are_played(holdem: Demo) -> None:
    # the frame that found the markers again gave the flop while the camera's fault still stood:
    # the table refused its own roll, and the TableNotReady left the tick and ended `run`
    values, camera, _ = _tray_covered(holdem)
    _tray_found(holdem, values, camera)
    clear, flop = holdem.table.store.records(holdem.table.game_no)[-2:]
    assert (clear.kind, flop.kind, flop.origin) == ("clear", "input", "camera")
    finishes_the_hand_whole(holdem)


def test_dice_in_the_wrong_zone_are_a_question_until_they_are_moved(holdem: Demo) -> None:
    values, camera = _flop(holdem)
    camera.roll(values, zones=["seat1"] * 3, kind="letters")
    table_only(holdem, 30)
    state = holdem.table.state()
    assert state.status is TableStatus.QUESTION
    assert "3 dice in Ben's zone while the table waits for the community dice" in state.problem  # seat 1, by name
    camera.roll(values, zones=["community"] * 3, kind="letters")
    table_only(holdem, 30)
    assert holdem.table.state().status is TableStatus.RUNNING
    finishes_the_hand_whole(holdem)


def test_an_unknown_tag_on_a_spot_holds_the_table_until_it_is_taken_off(tao: Demo) -> None:
    until(tao, lambda: need(tao) is None)
    sim = tao.parts.devices.sim
    sim.place("seat1", "0BADC0DE")
    table_only(tao, 6)
    state = tao.table.state()
    assert state.status is TableStatus.FAULT and "0BADC0DE" in state.problem
    assert "enrol" in state.problem or "enrol" in state.fix
    # dicetable doctor says it in the same words (it said "tag 0BADC0DE on spot 'seat1' is not registered")
    doctor = check_tags(tao.parts.devices.rfid, tao.parts.registry)
    assert (state.problem, state.fix) == (f"rfid: {doctor.problem}", doctor.fix)
    assert doctor.problem == "an unknown tag 0BADC0DE lies on spot seat1"
    sim.remove("seat1", "0BADC0DE")
    table_only(tao, 6)
    assert tao.table.state().status is TableStatus.RUNNING
    finishes_the_hand_whole(tao)


def test_a_seat_node_that_goes_away_mid_bet_holds_the_table_until_it_is_back(
        tmp_path: Path) -> None:
    demo, _ = build_demo("tao", 2, 3, tmp_path / "t.db", None, ["heuristic"], seat_nodes=True)
    try:
        ledger = demo.table.ledger
        assert ledger is not None
        until(demo, lambda: need(demo) is None and ledger.game.hands_played == 0
              and any(r.kind == "input" and r.line.startswith(("raise", "pass"))
                      for r in demo.table.store.records(1)))
        sim = demo.parts.devices.sim
        sim.inject("seatnode:disconnected")
        table_only(demo, 6)
        state = demo.table.state()
        assert state.status is TableStatus.FAULT and "node" in state.problem
        assert "USB cable" in state.fix
        before = len(ledger.played)
        demo.seats.act()  # a press on the dead node is lost, not half-applied
        table_only(demo, 6)
        assert len(ledger.played) == before
        sim.clear("seatnode")
        table_only(demo, 20)
        assert demo.table.state().status is TableStatus.RUNNING
        finishes_the_hand_whole(demo)
    finally:
        demo.close()


@pytest.mark.parametrize("fault", ["rfid:dead", "camera:stopped"])
def test_a_device_that_goes_on_failing_lets_the_service_wait_its_beat(tao: Demo, fault: str) -> None:
    # a dead reader asked again at once, beat after beat, kept a core busy for as long as it failed
    until(tao, lambda: tao.table.ledger is not None and tao.table.ledger.played)
    sim = tao.parts.devices.sim
    sim.inject(fault)
    stop, sleeps = Stop(), []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        tao.clock.advance(seconds)
        if len(sleeps) == 20:
            stop.event.set()

    ticks: list[bool] = []

    def tick() -> bool:
        ticks.append(tao.table.tick())
        if len(ticks) == 100:  # a loop that never waits: stopped here
            stop.event.set()
        return ticks[-1]

    serve_table(tick, stop, Notifier({}), sleep)
    faults = [r.line for r in tao.table.store.records(tao.table.game_no) if r.kind == "fault"]
    # each fault is news once (a dead RC522 first times out, then answers no version), then nothing
    # is new while it lasts: a beat's wait after every tick
    assert 1 <= len(faults) <= 2 and sleeps == [service.BEAT] * 20 and len(ticks) <= 20 + len(faults) + 1
    assert not any(ticks[-15:])
    device = fault.split(":")[0]
    # the device is named once, first: "rfid: reader under ...", "camera stopped sending frames: ..."
    assert all(line.startswith(device) and line.count(f"{device}:") <= 1 for line in faults), faults
    assert tao.table.state().problem in faults  # the scoreboard's banner says the record's words
    sim.clear(device)
    assert tao.table.tick() is True and kinds(tao)[-1] == "clear"


def test_a_fault_told_to_a_late_subscriber_is_told_as_to_one_listening_when_it_came(tao: Demo) -> None:
    # the updates recorded before a subscription carried the record's kind ("fault"), the live
    # ones the update's ("status")
    until(tao, lambda: tao.table.ledger is not None and tao.table.ledger.played)
    listening = tao.table.subscribe(after=tao.table.state().seq)
    tao.parts.devices.sim.inject("camera:stopped")
    table_only(tao, 3)
    live = [u for u in _drained(listening) if u.record == "fault"]
    told = [u for u in _drained(tao.table.subscribe(after=0)) if u.record == "fault"]
    assert live and [(u.seq, u.kind, u.text, u.why) for u in told] == [(u.seq, u.kind, u.text, u.why) for u in live]


def _drained(subscription: Any) -> list[Any]:
    updates = []
    while (update := subscription.next(0)) is not None:
        updates.append(update)
    return updates


def test_a_second_pause_of_a_paused_table_at_fault_names_the_pause_not_the_fault(tao: Demo) -> None:
    until(tao, lambda: tao.table.ledger is not None and tao.table.ledger.played)
    tao.table.pause("dealer", "a drink was spilled")
    tao.parts.devices.sim.inject("camera:stopped")
    table_only(tao, 3)
    assert tao.table.state().status is TableStatus.FAULT  # and paused: the console shows Resume
    with pytest.raises(TableNotReady, match="^the table is already paused: a drink was spilled$"):
        tao.table.pause("dealer", "again")


def test_a_device_fault_is_no_pause_and_a_paused_table_at_fault_refuses_with_the_pause(tao: Demo) -> None:
    # TableState.paused said it was true during a device fault; only the dealer's pause is, and an
    # input refused on a paused table at fault gave the camera's fault as the pause's reason
    until(tao, lambda: tao.table.ledger is not None and tao.table.ledger.played)
    roll = Entry(Roll(0, DieKind.D6, ("1",)), "console", "dealer")
    tao.parts.devices.sim.inject("camera:stopped")
    table_only(tao, 3)
    state = tao.table.state()
    assert (state.status, state.paused) == (TableStatus.FAULT, False)
    with pytest.raises(TableNotReady, match="^the table is not paused"):
        tao.table.resume("dealer")
    with pytest.raises(TableNotReady, match="^the table waits for the camera"):
        tao.table.submit(roll)
    tao.table.pause("dealer", "a drink was spilled")
    state = tao.table.state()
    assert (state.status, state.paused) == (TableStatus.FAULT, True) and "camera" in state.problem
    with pytest.raises(TableNotReady, match="^the table is paused: a drink was spilled; "):
        tao.table.submit(roll)
    tao.parts.devices.sim.clear("camera")
    table_only(tao, 3)
    state = tao.table.state()
    assert (state.status, state.paused, state.problem) == (TableStatus.PAUSED, True, "a drink was spilled")
    tao.table.resume("dealer")
    assert tao.table.state().status is TableStatus.RUNNING and not tao.table.state().paused


def _between_games(demo: Demo, seconds: float) -> list[bool]:
    """Let the table poll its devices for ``seconds`` of simulated time while no game is in play."""
    ticks = []
    for _ in range(round(seconds / BEAT)):
        ticks.append(demo.table.tick())
        demo.clock.advance(BEAT)
    return ticks


@pytest.fixture
def over(tmp_path: Path) -> Iterator[Demo]:
    """A demo whose short game of Tao Dice is over: the table waits for the dealer's next one."""
    from tests.table.test_every_die import GAMES

    demo, _ = build_demo("tao", 2, 2, tmp_path / "t.db", None, ["heuristic"], GAMES["tao"][0])
    play_out(demo, None)
    yield demo
    demo.close()


@pytest.mark.parametrize("fault", ["camera:stopped", "rfid:dead"])
def test_a_device_failing_between_games_is_shown_at_once_and_cleared_when_it_is_back(
        over: Demo, fault: str) -> None:
    # a dead camera or reader was only seen when the dealer started the next game
    device = fault.split(":")[0]
    listening = over.table.subscribe(after=over.table.state().seq)
    over.parts.devices.sim.inject(fault)
    _between_games(over, HEALTH_EVERY + 2 * BEAT)
    state = over.table.state()
    assert state.status is TableStatus.FAULT and state.problem.startswith(device) and state.fix
    faults = [r.line for r in over.table.store.records(TABLE) if r.kind == "fault"]
    # the banner says the record's words (a dead RC522 first times out, then answers no version)
    assert 1 <= len(faults) <= 2 and faults[-1] == state.problem
    assert [u.record for u in _drained(listening)] == ["fault"] * len(faults)  # what `run` tells its terminal
    over.parts.devices.sim.clear(device)
    _between_games(over, HEALTH_EVERY + 2 * BEAT)
    assert over.table.state().status is TableStatus.OVER
    assert over.table.store.records(TABLE)[-1].kind == "clear"


def test_a_device_failing_between_games_is_the_tables_record_not_the_finished_games(
        over: Demo) -> None:
    # the fault and its end were appended to the finished game's record, after its result: its
    # record, its stream and a resumed table's log told them as that game's
    game = over.table.game_no
    ended = over.table.store.records(game)
    over.parts.devices.sim.inject("camera:stopped")
    _between_games(over, HEALTH_EVERY + 2 * BEAT)
    over.parts.devices.sim.clear("camera")
    _between_games(over, HEALTH_EVERY + 2 * BEAT)
    assert over.table.store.records(game) == ended  # the game's record ends with its result
    told = over.table.store.records(TABLE)
    assert [(r.kind, r.origin) for r in told] == [("fault", "camera"), ("clear", "camera")]
    shown = [line.text for line in over.table.state().log]
    assert shown[-2:] == [f"Fault: {told[0].line}", "Fixed: the camera works again"]
    assert [game.game_no for game in over.table.games()] == [game]  # no game of the table's own
    over.table.store.close()  # the table stops between the games, and starts again
    again = Table(Store(over.table.store.path))
    assert [line.text for line in again.state().log][-3:] == shown[-3:]  # the result, then them
    assert again.state().status is TableStatus.OVER and again.game_no == game
    again.store.close()


def test_a_camera_failing_before_the_first_game_is_shown_before_any_game_starts(over: Demo) -> None:
    from controller.commands.common import Announcer
    from controller.store.store import DEVICE_RECORDS
    from controller.store import Store
    from controller.table.table import Table

    fresh = Table(Store(over.table.store.path.with_name("fresh.db")), devices=over.parts.devices,
                  eyes=over.table.eyes)  # the table `run` builds on its first start
    terminal = io.StringIO()
    told = Announcer(fresh, terminal, only=DEVICE_RECORDS)
    over.parts.devices.sim.inject("camera:stopped")
    for _ in range(round((HEALTH_EVERY + 2 * BEAT) / BEAT)):
        fresh.tick()
        over.clock.advance(BEAT)
    told.tell()
    state = fresh.state()
    assert fresh.game_no == 0 and state.status is TableStatus.FAULT and "camera" in state.problem
    assert terminal.getvalue().count("Fault: camera") == 1, terminal.getvalue()
    assert [line.text for line in state.log] == [f"Fault: {state.problem}"]
    fresh.store.close()


def _ticked(demo: Demo, table: Table, seconds: float) -> None:
    """Let ``table`` poll ``demo``'s devices for ``seconds`` of simulated time."""
    for _ in range(round(seconds / BEAT)):
        table.tick()
        demo.clock.advance(BEAT)


def test_a_device_failing_before_the_first_game_is_the_tables_record_and_outlives_a_restart(
        over: Demo) -> None:
    # before the first game a fault was only shown: a camera unplugged at a fresh table's first
    # boot was lost on a restart and missing from the record a venue reads
    path = over.table.store.path.with_name("fresh.db")
    fresh = Table(Store(path), devices=over.parts.devices, eyes=over.table.eyes)
    listening = fresh.subscribe(fresh.state().seq)
    over.parts.devices.sim.inject("camera:stopped")
    _ticked(over, fresh, HEALTH_EVERY + 2 * BEAT)
    told = fresh.store.records(TABLE)
    assert [(r.kind, r.origin) for r in told] == [("fault", "camera")] and fresh.games() == []
    fault = f"Fault: {told[0].line}"
    assert [(u.seq, u.told, u.text) for u in _drained(listening)] == [(told[0].seq, 0, fault)]
    assert [(line.seq, line.text) for line in fresh.state().log] == [(told[0].seq, fault)]
    fresh.store.close()  # the table stops before its first game, and starts again
    again = Table(Store(path), devices=over.parts.devices, eyes=over.table.eyes)
    assert [line.text for line in again.state().log] == [fault]
    assert again.state().status is TableStatus.FAULT  # the record says the camera is out
    _ticked(over, again, HEALTH_EVERY + 2 * BEAT)  # its first poll finds the camera still out
    assert again.state().status is TableStatus.FAULT
    assert [r.kind for r in again.store.records(TABLE)] == ["fault"]  # not found again
    over.parts.devices.sim.clear("camera")
    _ticked(over, again, HEALTH_EVERY + 2 * BEAT)
    assert [line.text for line in again.state().log] == [fault, "Fixed: the camera works again"]
    again.new_game("tao", ["Ana", "Ben"], {"length": "single", "black": "2", "white": "1"})
    assert again.store.records(again.game_no) == [] and again.state().log == ()  # none is the game's
    again.store.close()


def _restarted(demo: Demo, table: Table) -> Table:
    """``table`` stopped and started again on its record, over ``demo``'s devices (``run`` with
    the same state, its devices as they are)."""
    table.store.close()
    return Table(Store(table.store.path), devices=demo.parts.devices, eyes=demo.table.eyes)


@pytest.mark.parametrize("fault", ["camera:stopped", "rfid:dead"])
def test_a_fault_standing_when_the_table_stops_stands_at_once_after_a_restart_and_is_recorded_once(
        over: Demo, fault: str) -> None:
    # a restarted table was not at fault until its first poll found the device failing again, and
    # that poll recorded the same fault a second time (the camera's problem names the device, the
    # reader's is given its name: both come back as they were)
    device = fault.split(":")[0]
    over.parts.devices.sim.inject(fault)
    _between_games(over, 3 * HEALTH_EVERY)
    before, recorded = over.table.state(), over.table.store.records(TABLE)
    again = _restarted(over, over.table)
    state = again.state()
    assert (state.status, state.problem, state.fix) == (TableStatus.FAULT, before.problem, before.fix)
    _ticked(over, again, 3 * HEALTH_EVERY)  # its polls find the device failing as before
    assert again.store.records(TABLE) == recorded
    over.parts.devices.sim.clear(device)
    _ticked(over, again, HEALTH_EVERY + 2 * BEAT)
    assert [(r.kind, r.origin) for r in again.store.records(TABLE)[len(recorded):]] == [("clear", device)]
    assert again.state().status is TableStatus.OVER
    again.store.close()


def test_a_fault_that_ended_while_the_table_was_down_is_recorded_as_cleared_at_its_first_poll(
        over: Demo) -> None:
    # the record said the camera failed and never that it worked again: the table restarted on a
    # camera plugged back in meanwhile found nothing to clear
    over.parts.devices.sim.inject("camera:stopped")
    _between_games(over, HEALTH_EVERY + 2 * BEAT)
    over.parts.devices.sim.clear("camera")  # plugged back in while the table is down
    again = _restarted(over, over.table)
    assert again.state().status is TableStatus.FAULT  # as the record has it, until a poll
    again.tick()
    assert [(r.kind, r.origin) for r in again.store.records(TABLE)] == [("fault", "camera"), ("clear", "camera")]
    assert again.state().status is TableStatus.OVER
    assert again.state().log[-1].text == "Fixed: the camera works again"
    again.store.close()


@pytest.mark.parametrize("still_out", [True, False])
def test_a_fault_standing_in_a_game_stands_when_the_demo_resumes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, still_out: bool) -> None:
    # `dicetable demo` stopped and started again with the same --db, the camera still out (the
    # fault found again, recorded twice) or plugged back in meanwhile (never recorded as cleared)
    db = tmp_path / "t.db"
    demo, _ = build_demo("tao", 2, 3, db, None, ["heuristic"])
    until(demo, lambda: need(demo) is not None and need(demo).reason == "reveal")
    demo.parts.devices.sim.inject("camera:stopped")
    table_only(demo, 10)
    game, problem, recorded = demo.table.game_no, demo.table.state().problem, kinds(demo)
    demo.close()
    if still_out:
        monkeypatch.setenv("DICETABLE_SIM_FAULTS", "camera:stopped")  # the demo's devices start so
    again, resumed = build_demo("tao", 2, 3, db, None, ["heuristic"])
    try:
        state = again.table.state()
        assert resumed and again.table.game_no == game
        assert (state.status, state.problem) == (TableStatus.FAULT, problem)
        table_only(again, 10)
        assert kinds(again) == (recorded if still_out else [*recorded, "clear"])
        again.parts.devices.sim.clear("camera")
        table_only(again, 10)
        assert kinds(again) == [*recorded, "clear"] and again.table.state().status is TableStatus.RUNNING
        finishes_the_hand_whole(again)
    finally:
        again.close()


def test_a_fault_standing_when_a_game_was_started_stands_when_the_table_resumes_the_game(
        over: Demo) -> None:
    # the dealer may start a game while the camera is out (the table waits for it): the fault is
    # the table's own record, from before the game, which resuming the game does not read
    over.parts.devices.sim.inject("camera:stopped")
    _between_games(over, HEALTH_EVERY + 2 * BEAT)
    over.table.new_game("tao", ["Ana", "Ben"], {"length": "single", "black": "2", "white": "1"})
    table_only(over, 10)
    again = _restarted(over, over.table)
    assert again.state().status is TableStatus.FAULT and again.state().view.game == "tao"
    _ticked(over, again, 10 * BEAT)
    assert again.store.records(again.game_no) == []  # found failing as the record has it
    over.parts.devices.sim.clear("camera")
    _ticked(over, again, 10 * BEAT)
    assert [(r.kind, r.origin) for r in again.store.records(again.game_no)] == [("clear", "camera")]
    assert again.state().status is TableStatus.RUNNING
    again.store.close()


def test_healthy_devices_are_checked_at_a_modest_rate_and_the_next_game_starts_as_usual(over: Demo) -> None:
    camera = over.parts.devices.camera
    frames = camera._frames
    ticks = _between_games(over, 10 * HEALTH_EVERY)
    assert not any(ticks) and over.table.state().status is TableStatus.OVER
    assert 1 <= camera._frames - frames <= 11  # a frame a second, not one at every beat
    last = over.table.game_no
    over.table.new_game("tao", ["Ana", "Ben"], {"length": "single", "black": "2", "white": "1"})
    assert over.table.game_no == last + 1 and over.table.state().status is TableStatus.RUNNING
    play_out(over, 1)
    assert over.table.ledger is not None and over.table.ledger.game.hands_played == 1
    assert not {"fault", "clear"} & set(kinds(over))


def test_the_devices_page_asks_no_device_the_table_polls_and_holds_no_beat(
        over: Demo, monkeypatch: pytest.MonkeyPatch) -> None:
    # the page called every device's check() under the table's lock, which tick() takes: a Pi
    # camera's waits for a frame and its metadata (for [camera] timeout each when the ribbon is
    # loose), an RC522's resets and scans each chip (0.31 s of the simulated bus for four), and the
    # table's loop (presses, stones, the camera) waited for all of them
    _between_games(over, BEAT)  # the table has polled every device
    beat_over = threading.Event()
    asked: list[str] = []

    def slow_check(name: str) -> Callable[[], DeviceStatus]:
        def check() -> DeviceStatus:  # answers only once the table's next beat is over
            asked.append(name)
            beat_over.wait(timeout=5)  # breaks the table's wait for the page, when it waits
            return DeviceStatus.healthy(name)
        return check

    for device in over.parts.devices.all():
        monkeypatch.setattr(device, "check", slow_check(device.name))
    page: list[DeviceStatus] = []
    drawn = threading.Thread(target=lambda: page.extend(over.table.devices()))
    drawn.start()
    over.table.tick()  # the table's next beat, while the page is drawn
    beat_over.set()
    drawn.join()
    assert asked == []
    assert [(status.name, status.ok) for status in page] == [("camera", True), ("panel", True),
                                                             ("rfid", True)]


def test_the_devices_page_says_the_cameras_fault_until_the_tray_is_found_again(holdem: Demo) -> None:
    # the camera's own check() gets frames and said it worked, while the table waited for the tray
    values, camera, state = _tray_covered(holdem)
    status = holdem.table.devices()[0]
    assert status.name == "camera" and not status.ok
    assert (named("camera", status.problem), status.fix) == (state.problem, state.fix)
    _tray_found(holdem, values, camera)
    assert [(status.name, status.ok) for status in holdem.table.devices()] == [
        ("camera", True), ("panel", True), ("rfid", True)]


@pytest.fixture
def on_nodes(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    """A table on two simulated seat nodes (seats 0 and 1, spots 'seat0' and 'seat1'), with no
    game yet, and its devices; nothing polled yet."""
    from controller.store import Store
    from controller.table.table import Table
    from hardware.config import parse_config
    from hardware.factory import build_devices

    nodes = [{"seat": seat, "url": f"sim://node{seat}", "spot": f"seat{seat}"} for seat in (0, 1)]
    devices = build_devices(parse_config({"panel": {"source": "seatnode"}, "rfid": {"source": "seatnode"},
                                          "seatnodes": nodes}, {}))
    table = Table(Store(tmp_path / "nodes.db"), devices=devices)
    assert devices.sim is not None
    yield table, devices
    devices.close()
    table.store.close()


def _polling(on_nodes: tuple[Any, Any], seconds: float) -> None:
    """Let the table on seat nodes poll its devices for ``seconds`` of simulated time."""
    table, devices = on_nodes
    for _ in range(round(seconds / BEAT)):
        table.tick()
        devices.clock.advance(BEAT)


def test_a_seat_nodes_failed_reader_is_a_fault_the_table_sees_without_a_doctor(
        on_nodes: tuple[Any, Any]) -> None:
    # the seat nodes' readers told a failed RC522 only to check(): the table, which polls, lost
    # every stone laid on that spot without a word
    table, devices = on_nodes
    devices.sim.inject("seatnode:reader-failed")
    _polling(on_nodes, 3 * HEALTH_EVERY)
    state = table.state()
    assert state.status is TableStatus.FAULT and state.problem.startswith("rfid: seat node on sim://node0")
    assert "RC522 reader 0 (spot 'seat0')" in state.problem and "wiring" in state.fix
    devices.sim.clear("seatnode")
    _polling(on_nodes, 3 * HEALTH_EVERY)
    assert table.state().status is TableStatus.OVER
    assert [line.text.split(":")[0] for line in table.state().log] == ["Fault", "Fixed"]


def test_seat_nodes_that_never_answer_are_a_fault_until_they_answer(on_nodes: tuple[Any, Any]) -> None:
    # a node unplugged since the table started was said only by doctor: the table, which polls,
    # lost its presses and the stones on its spot without a word
    table, devices = on_nodes
    devices.sim.inject("seatnode:disconnected")
    _polling(on_nodes, 1.0)  # within the time a node has to say hello
    assert table.state().status is TableStatus.OVER and not table.state().log
    _polling(on_nodes, 1.0)
    state = table.state()
    assert state.status is TableStatus.FAULT
    assert state.problem.startswith("panel: seat 0's node has never answered: seat node on "
                                    "sim://node0 not found")
    assert "USB cable" in state.fix and "goes on by itself" in state.fix
    devices.sim.clear("seatnode")
    _polling(on_nodes, 3 * HEALTH_EVERY)
    assert table.state().status is TableStatus.OVER
    assert [line.text for line in table.state().log][-2:] == [
        "Fixed: the panel works again", "Fixed: the rfid works again"]


def test_a_seat_node_plugged_in_is_one_fault_line_until_it_answers(on_nodes: tuple[Any, Any]) -> None:
    # the port opens a moment before the node replies: the fault's words changed from 'not found'
    # to 'not answering' for that moment, a second fault line of one outage before 'works again'
    table, devices = on_nodes
    devices.sim.inject("seatnode:disconnected")
    _polling(on_nodes, 2.0)
    devices.sim.clear("seatnode")
    _polling(on_nodes, 3 * HEALTH_EVERY)
    assert [line.text for line in table.state().log if "panel" in line.text] == [
        "Fault: panel: seat 0's node has never answered: seat node on sim://node0 not found "
        "(could not open port: no such device (simulated unplug))",
        "Fixed: the panel works again"]


def test_the_devices_page_checks_a_camera_the_table_has_no_eyes_for(on_nodes: tuple[Any, Any]) -> None:
    # the table's loop looks through its eyes only: a camera without them is not polled, and the
    # page asks it as doctor does
    table, devices = on_nodes
    _polling(on_nodes, 2.0)
    devices.sim.inject("camera:stopped")
    _polling(on_nodes, 2 * HEALTH_EVERY)
    camera = table.devices()[0]
    assert camera.name == "camera" and not camera.ok and "stopped sending frames" in camera.problem
    assert table.state().status is TableStatus.OVER  # the table itself does without a camera


CALL = 1
"""The seat nodes' call button (hardware.seatnode.DEFAULT_BUTTONS): a Tao ante off the dial."""


@pytest.fixture
def empty_seat(tmp_path: Path) -> Iterator[tuple[Any, Any, list[Any]]]:
    """A table on simulated seat nodes at seats 0-3 (spots 'seat0'-'seat3'), the Tao controls and
    no game yet, its devices, and the nodes: seat 3's is unplugged from the start by the
    configuration's simulated fault ``seatnode[3]:disconnected``, until the test clears it."""
    from controller.store import Store
    from controller.table.controls import find_controls
    from controller.table.table import Table
    from hardware.config import parse_config
    from hardware.factory import build_devices

    nodes = [{"seat": seat, "url": f"sim://node{seat}", "spot": f"seat{seat}"} for seat in range(4)]
    devices = build_devices(parse_config({
        "hardware": {"faults": ["seatnode[3]:disconnected"]}, "panel": {"source": "seatnode"},
        "rfid": {"source": "seatnode"}, "seatnodes": nodes}, {}))
    assert devices.sim is not None
    table = Table(Store(tmp_path / "nodes.db"), devices=devices, controls_for=find_controls)
    yield table, devices, [devices.sim.nodes[seat] for seat in range(4)]
    devices.close()
    table.store.close()


def _call(on_nodes: tuple[Any, Any], node: Any) -> None:
    """A player presses call on ``node`` and lets it go, as the table polls."""
    node.press(CALL)
    _polling(on_nodes, 0.1)
    node.release(CALL)
    _polling(on_nodes, 0.1)


def _inputs(table: Any) -> list[str]:
    return [row.line for row in table.store.records(table.game_no) if row.kind == "input"]


def test_a_seat_node_under_an_empty_seat_is_a_warning_and_the_game_goes_on(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    # a bar's table wired for four seats, three players tonight, seat 3's node unplugged: every
    # press and stone of the table was held until [[seatnodes]] was edited and the table restarted
    from controller.commands.common import Announcer
    from controller.store.store import DEVICE_RECORDS
    table, devices, nodes = empty_seat
    terminal = io.StringIO()
    told = Announcer(table, terminal, only=DEVICE_RECORDS)
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    _polling((table, devices), 2.0)
    for node in nodes[:3]:
        _call((table, devices), node)
    told.tell()
    assert table.state().status is TableStatus.RUNNING
    assert _inputs(table)[:4] == ["ante 0 black=1 white=0", "ante 1 black=1 white=0",
                                  "ante 2 black=1 white=0", "roll 0 d6 ? ?"]
    warned = [status for status in table.devices() if status.warns]
    assert [status.name for status in warned] == ["panel", "rfid"]
    assert warned[0].problem.startswith("seat 3's node has never answered: seat node on "
                                        "sim://node3 not found")
    assert "Warning: panel: seat 3's node has never answered" in terminal.getvalue()
    assert ("; check the USB cable and that the node appears as sim://node3; the table plays on "
            "without it while its seat is empty") in terminal.getvalue()
    assert "Fault" not in terminal.getvalue()


def test_a_seat_nodes_warning_standing_when_the_table_stops_is_not_recorded_again_after_a_restart(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    # a restarted table knew no warning: its first poll warned of the empty seat's node again
    from controller.table.controls import find_controls
    table, devices, nodes = empty_seat
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    _polling((table, devices), 2.0)
    warned = [(r.kind, r.origin) for r in table.store.records(table.game_no)]
    assert sorted(warned) == [("warning", "panel"), ("warning", "rfid")]
    table.store.close()
    again = Table(Store(table.store.path), devices=devices, controls_for=find_controls)
    try:
        _polling((again, devices), 2.0)
        assert [(r.kind, r.origin) for r in again.store.records(again.game_no)] == warned
        devices.sim.clear("seatnode[3]")
        _polling((again, devices), 3 * HEALTH_EVERY)
        after = [(r.kind, r.origin) for r in again.store.records(again.game_no)]
        assert after[:2] == warned and sorted(after[2:]) == [("clear", "panel"), ("clear", "rfid")]
    finally:
        again.store.close()


def test_a_seat_node_under_a_seat_a_player_takes_holds_the_table_again(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    # the node of a seat in play that does not answer is a fault, as before: the next game seats
    # a player at seat 3, whose node the game before did without
    table, devices, nodes = empty_seat
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    _polling((table, devices), 2.0)
    assert table.state().status is TableStatus.RUNNING
    table.new_game("tao", ["Ana", "Ben", "Cleo", "Dev"], {})
    _polling((table, devices), 0.5)
    _call((table, devices), nodes[0])
    state = table.state()
    assert state.status is TableStatus.FAULT
    assert state.problem.startswith("rfid: the node of spot 'seat3' has never answered: seat node "
                                    "on sim://node3 not found")
    assert _inputs(table) == []
    devices.sim.clear("seatnode[3]")
    _polling((table, devices), 3 * HEALTH_EVERY)
    assert table.state().status is TableStatus.RUNNING
    assert "Fixed: the panel works again" in [line.text for line in table.state().log]


def test_one_seat_node_unplugged_in_a_game_is_its_fault_only_and_its_press_is_played_after(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    # the simulated fault pulled every seat node's cable at once: a table could not be tried with
    # the one cable a real table loses, the case its code must carry on through
    table, devices, nodes = empty_seat
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    _polling((table, devices), 2.0)
    _call((table, devices), nodes[0])
    devices.sim.inject("seatnode[1]:disconnected")
    _call((table, devices), nodes[1])  # Ben's node runs on and keeps his call
    _polling((table, devices), 2 * HEALTH_EVERY)
    assert table.state().status is TableStatus.FAULT
    assert _inputs(table) == ["ante 0 black=1 white=0"]  # Ben's call waits for his node
    assert [row.line for row in table.store.records(table.game_no) if row.kind == "fault"] == [
        "rfid: the node of spot 'seat1' on sim://node1 is unplugged",
        "panel: seat 1's node on sim://node1 is unplugged"]
    devices.sim.clear("seatnode[1]")
    _polling((table, devices), 3 * HEALTH_EVERY)
    _call((table, devices), nodes[2])
    assert table.state().status is TableStatus.RUNNING
    assert _inputs(table)[:3] == ["ante 0 black=1 white=0", "ante 1 black=1 white=0",
                                  "ante 2 black=1 white=0"]
    panel = next(status for status in table.devices() if status.name == "panel")
    assert panel.warns and panel.problem.startswith("seat 3's node")  # still unplugged


def test_a_press_held_while_a_seat_node_was_away_is_played_when_the_node_answers(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    # the panel held Ana's call while Dev's node was away and gave it at the poll that found the
    # node back, but the panel's fault stood until that poll ended: "Ana pressed call, but the
    # table is fault", and the ante the panel had kept for the table was lost
    table, devices, nodes = empty_seat
    table.new_game("tao", ["Ana", "Ben", "Cleo", "Dev"], {})
    _polling((table, devices), 2.0)
    _call((table, devices), nodes[0])
    assert table.state().status is TableStatus.FAULT and _inputs(table) == []
    devices.sim.clear("seatnode[3]")
    _polling((table, devices), 3 * HEALTH_EVERY)
    assert table.state().status is TableStatus.RUNNING
    assert _inputs(table) == ["ante 0 black=1 white=0"]
    assert [line.text for line in table.state().log][-3:] == [
        "Fixed: the rfid works again", "Fixed: the panel works again", "Ana antes with 1 black"]


def test_the_devices_page_of_a_table_on_a_dead_seat_node_says_the_fault_without_waiting(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    # Table.devices() probed the dead node for 1.5 s for the panel and again for the reader, the
    # table's loop held meanwhile: the dealer's devices page took 3 s per unplugged node
    table, devices, _ = empty_seat
    table.new_game("tao", ["Ana", "Ben", "Cleo", "Dev"], {})
    _polling((table, devices), 2.0)
    before = devices.clock.now()
    statuses = {status.name: status for status in table.devices()}
    assert devices.clock.now() == before
    faults = [line.text for line in table.state().log if line.text.startswith("Fault: ")]
    for name in ("panel", "rfid"):
        status = statuses[name]
        assert not status.ok and "seat node on sim://node3 not found" in status.problem, status
        assert f"Fault: {named(name, status.problem)}" in faults  # in the words of the table's fault


@pytest.fixture
def lamps(tmp_path: Path) -> Iterator[tuple[Any, Any, set[int]]]:
    """A table on the Pi's GPIO panel (gpiozero's mock pins, the four seats of
    ``table.example.toml``, seat 0's light on GPIO 19, seat 1's on 21), the Tao controls, no game
    yet; its pin factory, and the light pins whose writes fail from now on (none yet), as
    lgpio's ``gpio_write`` fails on a pin it lost."""
    from gpiozero.pins.mock import MockFactory, MockPin  # type: ignore[import-untyped]
    from controller.table.controls import find_controls
    from hardware.clock import SimClock
    from hardware.config import load_config
    from hardware.factory import Devices
    from hardware.panels import GpioPanel

    broken: set[int] = set()

    class Lamp(MockPin):  # type: ignore[misc]
        def _set_state(self, value: Any) -> None:
            if int(self.info.name.removeprefix("GPIO")) in broken:
                raise RuntimeError("'GPIO not allocated'")
            super()._set_state(value)

    clock, factory = SimClock(), MockFactory(pin_class=Lamp)
    devices = Devices(clock, panel=GpioPanel(load_config().panel, clock, pin_factory=factory))
    table = Table(Store(tmp_path / "lamps.db"), devices=devices, controls_for=find_controls)
    yield table, factory, broken
    devices.close()
    table.store.close()


def _lit(factory: Any) -> list[bool]:
    """Each seat's light, seats 0-3 (``table.example.toml``'s light pins)."""
    return [bool(factory.pin(pin).state) for pin in (19, 21, 26, 14)]


def _beats(table: Table, seconds: float) -> None:
    assert table.hw is not None
    for _ in range(round(seconds / BEAT)):
        table.tick()
        table.hw.clock.advance(BEAT)


def test_a_light_that_fails_leaves_the_others_set_and_is_one_warning(
        lamps: tuple[Any, Any, set[int]]) -> None:
    # the table set the lights seat by seat and stopped at the first that failed: Ana's light,
    # stuck on once she had anted, left Ben's dark, and Ana still lit as the one to act
    table, factory, broken = lamps
    table.new_game("tao", ["Ana", "Ben", "Cleo", "Dev"], {})
    _beats(table, 0.2)
    assert _lit(factory) == [True, False, False, False]
    broken.add(19)
    factory.pin(6).drive_low()  # Ana presses call: her ante, and Ben is to act
    _beats(table, 0.2)
    factory.pin(6).drive_high()
    _beats(table, 2.0)
    assert _inputs(table) == ["ante 0 black=1 white=0"]
    assert _lit(factory) == [True, True, False, False]
    state = table.state()
    assert state.status is TableStatus.RUNNING
    warnings = [row for row in table.store.records(table.game_no) if row.kind == "warning"]
    assert [(row.line, row.why) for row in warnings] == [(
        "panel: seat 0's turn light failed: GPIO 19 cannot be switched (RuntimeError: 'GPIO not "
        "allocated')", "check the light's wiring to GPIO 19 and that no other program uses the "
        "pin; the table plays on meanwhile: the scoreboard says whose turn it is")]
    assert [status.warns for status in table.devices()] == [True]
    broken.clear()
    _beats(table, 0.2)
    assert _lit(factory) == [False, True, False, False]
    assert [row.line for row in table.store.records(table.game_no)
            if row.kind in ("warning", "clear")][1:] == ["the panel works again"]


@pytest.fixture
def readers(tmp_path: Path) -> Iterator[tuple[Table, Any]]:
    """A table on the simulated devices of ``table.example.toml``'s wiring (a GPIO panel and an
    RC522 under each of seats 0-3's spots, on the Pi's SPI bus), the Tao controls, no game yet;
    and its devices."""
    from controller.table.controls import find_controls
    from hardware.config import load_config
    from hardware.factory import build_devices

    devices = build_devices(load_config(None, {}))
    table = Table(Store(tmp_path / "readers.db"), devices=devices, controls_for=find_controls)
    yield table, devices
    devices.close()
    table.store.close()


def _antes(table: Table, sim: Any, seats: range) -> None:
    """Each seat presses call (its ante off the dial) and lets it go, as the table polls."""
    for seat in seats:
        sim.press(seat, "call")
        _beats(table, 0.2)
        sim.release(seat, "call")
        _beats(table, 0.2)


def test_an_rc522_under_an_empty_seat_that_fails_is_a_warning_and_the_game_goes_on(
        readers: tuple[Table, Any]) -> None:
    # three players at a four-seat table on the Pi's SPI bus, the RC522 under seat 3's spot
    # stuck: every press and stone of the table was held, as for a seat node before d91d869
    table, devices = readers
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    devices.sim.inject("rfid[seat3]:timeout")
    _beats(table, 0.5)
    _antes(table, devices.sim, range(3))
    _beats(table, 1.0)
    assert table.state().status is TableStatus.RUNNING
    assert _inputs(table)[:4] == ["ante 0 black=1 white=0", "ante 1 black=1 white=0",
                                  "ante 2 black=1 white=0", "roll 0 d6 ? ?"]
    records = table.store.records(table.game_no)
    warnings = [row for row in records if row.kind == "warning"]
    assert [row.line.split(" (")[0] for row in warnings] == ["rfid: reader under 'seat3' timed out"]
    assert warnings[0].why.startswith("check the reader's 3.3 V power and its wiring: SDA to GPIO 4")
    assert warnings[0].why.endswith("; the table plays on without it while its seat is empty")
    assert not [row for row in records if row.kind == "fault"]
    assert [status.name for status in table.devices() if status.warns] == ["rfid"]


def test_an_rc522_under_a_seat_in_play_that_fails_holds_the_table_as_before(
        readers: tuple[Table, Any]) -> None:
    table, devices = readers
    table.new_game("tao", ["Ana", "Ben", "Cleo", "Dev"], {})
    devices.sim.inject("rfid[seat3]:timeout")
    _beats(table, 0.5)
    _antes(table, devices.sim, range(1))
    state = table.state()
    assert state.status is TableStatus.FAULT
    assert state.problem.startswith("rfid: reader under 'seat3' timed out")
    assert _inputs(table) == []
    devices.sim.clear("rfid[seat3]")
    _beats(table, 0.5)
    assert table.state().status is TableStatus.RUNNING
    assert [row.kind for row in table.store.records(table.game_no)] == ["fault", "clear"]
