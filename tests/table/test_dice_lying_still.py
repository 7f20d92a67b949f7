"""Dice that lie still between throws: the flop stays where it fell while the turn is thrown. The
simulated camera keeps them where they lay, as a real tray does, and the table knows them by where
they lie: a die it has settled already (read surely, or answered by the dealer) is not asked about
again while it lies still; only the new dice must be read surely."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import controller.table.camera
from controller.games.base import DiceNeeded
from controller.games.dice import DieKind
from controller.games.rolls import Roll
from controller.store import Store
from controller.table.camera import TrayReading, match
from controller.table.records import DieSeen, Question, TableStatus

from tests.table.test_camera import TRAY, read_once, readers_before_moved_crops, table_camera, truth_faces, watch
from tests.table.test_camera_table import next_visible_roll, table_at_first_visible_roll, tick

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

TURN = DiceNeeded(None, DieKind.D6, 1, False, "turn")


def seen(face: str, confidence: float, x: float) -> DieSeen:
    return DieSeen(DieKind.D6, face, confidence, (x, 300.0), (x - 15, 285.0, 30.0, 30.0), "community")


def tray(*dice: DieSeen) -> TrayReading:
    return TrayReading(DieKind.D6, tuple(sorted(dice, key=lambda d: d.center[0])), b"", 1.0)


FLOP_LAY = (seen("5", 0.97, 300), seen("3", 0.41, 400), seen("1", 0.95, 500))
"""The flop as the camera saw it: the 3 read under the threshold (the dealer said 3)."""
ON_TABLE = {"community": ("5", "3", "1")}


def nudged(die: DieSeen, face: str | None = None, confidence: float | None = None) -> DieSeen:
    """The same die read again where it lies (a pixel off), maybe read otherwise."""
    return replace(die, center=(die.center[0] + 1.5, die.center[1] - 1.0),
                   face=die.face if face is None else face,
                   confidence=die.confidence if confidence is None else confidence)


def test_only_the_new_die_must_be_read_surely_while_the_earlier_ones_lie_still() -> None:
    now = tray(*(nudged(d) for d in FLOP_LAY), seen("6", 0.93, 650))
    assert match(TURN, now, TRAY.zones, ON_TABLE, FLOP_LAY) == Roll(None, DieKind.D6, ("6",))
    asked = match(TURN, now, TRAY.zones, ON_TABLE)  # not knowing where the dice lay
    assert isinstance(asked, Question) and asked.reason == "confidence" and "read 3 at 0.41" in asked.text


def test_a_new_die_read_under_the_threshold_is_still_a_question() -> None:
    now = tray(*(nudged(d) for d in FLOP_LAY), seen("6", 0.52, 650))
    asked = match(TURN, now, TRAY.zones, ON_TABLE, FLOP_LAY)
    assert isinstance(asked, Question) and "die 4 in the community zone read 6 at 0.52" in asked.text


def test_a_die_lying_still_read_surely_as_another_face_was_turned() -> None:
    now = tray(nudged(FLOP_LAY[0]), nudged(FLOP_LAY[1], "4", 0.96), nudged(FLOP_LAY[2]), seen("6", 0.93, 650))
    asked = match(TURN, now, TRAY.zones, ON_TABLE, FLOP_LAY)
    assert isinstance(asked, Question) and asked.reason == "moved"


def test_a_die_that_moved_must_be_read_again() -> None:
    knocked = replace(FLOP_LAY[1], center=(420.0, 300.0), box=(405.0, 285.0, 30.0, 30.0))  # 20 px: 2/3 of a side
    now = tray(nudged(FLOP_LAY[0]), knocked, nudged(FLOP_LAY[2]), seen("6", 0.93, 650))
    asked = match(TURN, now, TRAY.zones, ON_TABLE, FLOP_LAY)
    assert isinstance(asked, Question) and "read 3 at 0.41" in asked.text


def test_a_new_die_landing_where_a_picked_up_die_lay_is_not_taken_for_it() -> None:
    picked_up = seen("2", 0.9, 650)  # rerolled: off the tray now, not among the faces on the table
    now = tray(*(nudged(d) for d in FLOP_LAY), nudged(picked_up, "6", 0.93))
    asked = match(TURN, now, TRAY.zones, ON_TABLE, (*FLOP_LAY, picked_up))
    assert isinstance(asked, Question) and "read 3 at 0.41" in asked.text


def test_the_simulated_camera_keeps_the_dice_that_lie_still() -> None:
    camera = table_camera(9)
    camera.roll([2, 5, 3], frames=3, zones=["community"] * 3)
    flop = read_once(watch(camera, frames=12)[1])
    camera.roll([2, 5, 3, 6], frames=3, zones=["community"] * 4, lying=3)
    turn = read_once(watch(camera, frames=12)[1])
    assert [die.value for die in camera.scene.dice] == [2, 5, 3, 6]
    assert all(any(abs(a.center[0] - b.center[0]) + abs(a.center[1] - b.center[1]) < 3 for b in turn.dice)
               for a in flop.dice)
    camera.roll([4, 4, 1, 6], frames=3, zones=["community"] * 4, lying=3)  # not the dice lying there
    assert [die.value for die in camera.scene.dice] == [4, 4, 1, 6]
    assert not any(abs(a.center[0] - b.center[0]) < 1 and abs(a.center[1] - b.center[1]) < 1
                   for a in flop.dice for b in camera.scene.dice)



def test_the_simulated_camera_keeps_dice_of_another_kind_lying_in_the_centre() -> None:
    # Tao Dice: the d12s lie in the centre while a seat's d6 are thrown into its zone
    camera = table_camera(9)
    camera.roll([9, 11], frames=3, zones=["community"] * 2, kind="d12")
    d12s = [(d.center, d.value) for d in camera.scene.dice]
    camera.roll([9, 11, 4, 2], frames=3, zones=["community", "community", "seat0", "seat0"], lying=2,
                lying_kinds=["d12", "d12"], kind="d6")
    assert [(d.kind, d.value) for d in camera.scene.dice] == [("d12", 9), ("d12", 11), ("d6", 4), ("d6", 2)]
    assert [(d.center, d.value) for d in camera.scene.dice[:2]] == d12s
    fresh = table_camera(9)  # nothing lay there before (a demo resumed): a new scene is of one kind
    fresh.roll([9, 11, 4, 2], frames=3, zones=["community", "community", "seat0", "seat0"], lying=2,
               lying_kinds=["d12", "d12"], kind="d6")
    assert [(d.kind, d.value) for d in fresh.scene.dice] == [("d6", 4), ("d6", 2)]


def test_of_two_seats_d12s_showing_the_same_face_the_one_not_picked_up_stays() -> None:
    # Tao Dice: Ana (red) and Ben (blue) both threw a 6; Ana picks hers up to throw it again
    red, blue = (40, 40, 214), (216, 78, 29)
    camera = table_camera(9)
    camera.roll([6, 6], frames=3, zones=["community"] * 2, bodies=[red, blue], kind="d12")
    bens = next(d.center for d in camera.scene.dice if d.colour == blue)
    camera.roll([6, 4], frames=3, zones=["community"] * 2, bodies=[blue, red], lying=1, kind="d12")
    assert [(d.value, d.colour) for d in camera.scene.dice] == [(6, blue), (4, red)]
    assert camera.scene.dice[0].center == bens  # Ben's, still where it lay (not Ana's, taken for it)


def test_the_simulated_tray_kept_on_disk_lies_as_it_lay_when_the_controller_restarts(tmp_path: Path) -> None:
    flop: dict[str, Any] = dict(zones=["community"] * 3, frames=3, key="flop")
    turn: dict[str, Any] = dict(zones=["community"] * 4, frames=3, lying=3, key="turn")
    calm = table_camera(9)
    calm.roll([2, 5, 3], **flop)
    calm.roll([2, 5, 3, 6], **turn)
    seen = calm.frame()
    for seed in (1, 2):  # a controller killed after the flop, or during the turn's throw
        killed = table_camera(seed)
        killed.kept = tmp_path / f"tray-{seed}"
        killed.roll([2, 5, 3], **flop)
        if seed == 2:
            killed.roll([2, 5, 3, 6], **turn)  # thrown, but the dice not taken: it is thrown again
        restarted = table_camera(7)
        restarted.kept = killed.kept
        assert restarted.last_key() == ("turn" if seed == 2 else "flop")  # the throw lying there
        restarted.roll([2, 5, 3, 6], **turn)
        assert np.array_equal(restarted.frame(), seen)
    forgetful = table_camera(7)  # the tray not kept: the flop is drawn anew, elsewhere
    forgetful.roll([2, 5, 3, 6], **turn)
    fresh = forgetful.frame()
    assert not np.array_equal(fresh, seen)
    again = table_camera(1)  # that throw, killed before its dice were taken, is thrown again: the
    again.kept = tmp_path / "tray-fresh"  # flop it drew stays not, it is drawn anew as it was
    again.roll([2, 5, 3, 6], **turn)
    restarted = table_camera(7)
    restarted.kept = again.kept
    restarted.roll([2, 5, 3, 6], **turn)
    assert np.array_equal(restarted.frame(), fresh)
    again.kept.write_bytes(b"not a tray")  # a file it cannot read back: a tray swept clean
    assert restarted.last_key() is None and forgetful.last_key() == "turn"
    restarted.roll([2, 5, 3, 6], **turn)
    assert np.array_equal(restarted.frame(), fresh)
    restarted.kept = tmp_path / "gone" / "tray"  # a file it cannot write: the throw goes on, not kept
    restarted.roll([2, 5, 3, 6], **turn)
    assert np.array_equal(restarted.frame(), fresh) and not restarted.kept.parent.exists()

def test_the_table_asks_about_a_doubtful_flop_die_once_not_again_at_the_turn(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # a camera that does not know its lens (a webcam): its flop's third die is read at 0.68, under
    # the threshold (with the lens the reader paints its sides over and reads it surely; none of
    # 500 flops then has a doubtful die); at the turn it lies still, answered
    monkeypatch.setattr(controller.table.camera, "camera_focal_px", lambda camera: None)
    readers_before_moved_crops(monkeypatch)  # which doubted that die
    camera = table_camera(463)
    table, _ = table_at_first_visible_roll(store, "diceholdem", camera)
    camera.roll([2, 5, 3], frames=3, zones=["community"] * 3)
    tick(table, 12)
    question = table.state().question
    assert question is not None and question.text.startswith("die 3 in the community zone")
    letters = [DieKind.LETTERS.faces[int(face) - 1] for face in truth_faces(camera)]
    table.answer(question.id, letters, "dealer")
    need = next_visible_roll(table, random.Random(5))
    assert need.reason == "turn", table.state().problem
    camera.roll([2, 5, 3, 6], frames=3, zones=["community"] * 4, lying=3)
    tick(table, 12)
    assert table.state().status is TableStatus.RUNNING and table.state().question is None
    last = store.records(table.game_no)[-1]
    assert (last.kind, last.origin, last.line) == ("input", "camera", "roll table letters H")
