"""The camera path inside the real table (SQLite record, real engines): the simulated camera renders
the dice, the real reader reads them, and the table takes the roll, asks the dealer, or holds at a
camera fault until frames come back."""

from __future__ import annotations

import random

import pytest

from controller.games.base import DiceNeeded
from controller.games.dice import DieKind
from controller.games.rolls import Roll
from controller.store import Store
from controller.table.build import on_table
from controller.table.camera import OTHER_KIND, TableEyes, TrayWatcher, zone_for
from controller.table.records import Entry, TableStatus
from controller.table.table import Sighting, Table
from hardware.camera_sim import CameraFault, SimCamera

from tests.table.conftest import next_input
from tests.table.test_camera import QUIET, TRAY, table_camera, truth_faces

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too


def table_at_first_visible_roll(store: Store, game: str, camera: SimCamera) -> tuple[Table, DiceNeeded]:
    """A table of ``game`` looking through ``camera``, played by simple players up to the first
    dice the camera must read (hidden rolls go in sealed)."""
    table = Table(store)
    table.eyes = TableEyes(TrayWatcher(camera, TRAY, pip_stand_ins={DieKind.LETTERS}),
                           on_table=lambda: on_table(table))
    table.new_game(game, ["Ana", "Ben"], {})
    return table, next_visible_roll(table, random.Random(3))


def next_visible_roll(table: Table, rng: random.Random) -> DiceNeeded:
    """Play on up to the next dice the camera must read."""
    while not ((dice := table.ledger.game.pending().dice) and not dice[0].hidden):  # type: ignore[union-attr]
        table.submit(Entry(next_input(table, rng), "test", "tester"))
    return dice[0]


def tick(table: Table, times: int = QUIET + 2) -> None:
    for _ in range(times):
        table.tick()


def test_the_flop_is_read_by_the_camera_and_recorded_with_its_evidence(store: Store) -> None:
    camera = table_camera(1)
    table, need = table_at_first_visible_roll(store, "diceholdem", camera)
    assert (need.seat, need.kind, need.count) == (None, DieKind.LETTERS, 3)
    camera.show([1, 4, 6], zones=[zone_for(None)] * 3)  # pip dice standing in for letters
    tick(table)
    last = store.records(table.game_no)[-1]
    truth = sorted(camera.scene.dice, key=lambda d: d.tray_mm[0])
    letters = tuple(DieKind.LETTERS.faces[d.value - 1] for d in truth)
    assert (last.kind, last.origin, last.line) == ("input", "camera", str(Roll(None, DieKind.LETTERS, letters)))
    assert last.picture is not None
    picture = store.evidence(last.picture)
    assert picture is not None and picture[:2] == b"\xff\xd8"  # a JPEG
    assert table.state().status is TableStatus.RUNNING


def test_the_turn_is_the_die_beyond_the_flop_still_on_the_tray(store: Store) -> None:
    camera = table_camera(6)  # a render the reader reads above its threshold
    table, _ = table_at_first_visible_roll(store, "diceholdem", camera)
    camera.show([1, 4, 6], zones=["community"] * 3)
    tick(table)
    need = next_visible_roll(table, random.Random(5))  # (with 4, a fold ends the hand first)
    assert (need.reason, need.count) == ("turn", 1), table.state().problem
    camera.show([6, 2, 1, 4], zones=["community"] * 4)  # the flop stays; the turn die lands among it
    tick(table)
    assert store.records(table.game_no)[-1].line == "roll table letters E"


def test_a_die_in_the_wrong_zone_asks_the_dealer_until_it_is_put_right(store: Store) -> None:
    camera = table_camera(2)
    table, _ = table_at_first_visible_roll(store, "diceholdem", camera)
    camera.show([2, 3, 5], zones=["community", "community", "seat1"])
    tick(table)
    state = table.state()
    assert state.status is TableStatus.QUESTION and state.question is not None
    assert "a die in the seat1 zone while the table waits for the community dice" in state.question.text
    camera.show([2, 3, 5], zones=["community"] * 3)  # the dealer moves it
    tick(table)
    assert table.state().status is TableStatus.RUNNING
    assert store.records(table.game_no)[-1].origin == "camera"


def test_a_tauren_flop_is_read_by_the_camera(store: Store) -> None:
    camera = table_camera(3)
    table, need = table_at_first_visible_roll(store, "tauren", camera)
    assert need.kind is DieKind.D8_TAUREN
    camera.show([1, 5, 8], zones=["community"] * 3, kind="d8-tauren")
    tick(table)
    last = store.records(table.game_no)[-1]
    assert (last.origin, last.line) == ("camera", "roll table d8-tauren " + " ".join(truth_faces(camera)))


def test_pip_dice_where_tauren_dice_are_awaited_are_a_question_not_a_guess(store: Store) -> None:
    camera = table_camera(3)
    table, _ = table_at_first_visible_roll(store, "tauren", camera)
    camera.show([1, 5, 6], zones=["community"] * 3)
    tick(table)
    question = table.state().question
    assert question is not None and question.code == OTHER_KIND
    assert "is not a Tauren die: the table waits for Tauren dice" in question.text
    # the record's line, which the room's action log shows: the dealer's "d8-tauren" read
    # "3 d8-tauren for the community (flop)" and "is not a d8-tauren die"
    asked = [r for r in store.records(table.game_no) if r.kind == "question"][-1]
    assert asked.line.startswith("3 Tauren dice for the community (flop): die 1 in the community "
                                 "zone is not a Tauren die"), asked.line


def test_a_camera_stopping_mid_roll_pauses_the_table_until_frames_come_back(store: Store) -> None:
    camera = table_camera(4)
    table, _ = table_at_first_visible_roll(store, "diceholdem", camera)
    camera.roll([6, 6, 1], frames=4, zones=["community"] * 3)
    tick(table, 2)
    camera.fault = CameraFault.STOPPED
    tick(table, 3)
    state = table.state()
    assert state.status is TableStatus.FAULT
    assert state.problem.startswith("camera stopped sending frames") and "cable" in state.fix
    faults = [r for r in store.records(table.game_no) if r.kind == "fault"]
    assert len(faults) == 1  # one fault, not one per frame
    camera.fault = CameraFault.NONE
    tick(table, QUIET + 4)
    assert table.state().status is TableStatus.RUNNING
    last = store.records(table.game_no)[-1]
    assert (last.kind, last.origin) == ("input", "camera")
    assert last.line.startswith("roll table letters ")



def test_the_camera_tells_the_table_the_faces_it_read_surely_in_the_needs_zone(store: Store) -> None:
    # the faces the players must keep up if asked to move the dice (tests/table/test_turned_dice.py)
    camera = table_camera(2)
    table, _ = table_at_first_visible_roll(store, "diceholdem", camera)
    assert table.eyes is not None
    seen: list[Sighting] = []
    look = table.eyes.look

    def watched(need: DiceNeeded | None) -> Sighting | None:
        sight = look(need)
        seen.extend([sight] if sight is not None else [])
        return sight
    table.eyes.look = watched  # type: ignore[method-assign]
    camera.show([2, 3, 5], zones=["community", "community", "seat1"])
    tick(table)
    sight = seen[-1]
    assert sight.roll is None and sight.code == "other_zone"  # the die in seat 1's zone
    # the community zone's two dice read surely (values 2 and 3 of the pip dice standing in for letters)
    assert [d.face for d in sight.seen if d.zone == "community" and d.confidence > 0.9] == ["E", "D"]
    assert sight.sure == ("E", "D")  # not the O in seat 1's zone
