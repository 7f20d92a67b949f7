"""A die the camera doubts (read below the confidence threshold, or flagged) lies flat with its
face up: the table asks the players to move it a little, the same face up
(``controller.table.camera.DOUBTED``), as it asks them to settle a cocked die, and reads it where
it lies then; dice it did not all find, the players move apart (``UNSEEN``). The simulated players do so (``controller.table.sim_seats.MOVED``); a die the
camera doubts in every pose goes to the simulated dealer after a few moves."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import pytest

from controller.table.camera import TrayWatcher
from controller.table.sim_seats import MOVE_TRIES, MOVED
from tests.table.test_cocked_throws import play_tao

MOVE_IT = "move it a little, the same face up"
MOVE_APART = "move the dice apart, the same faces up"


def _play_tao(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, doubted: Callable[[str], bool],
              missed: bool = False) -> list[Any]:
    """The records of a two-seat Tao Dice demo in which every die of a throw whose render key
    ``doubted`` names is read at 0.41 (``missed``: a die is not found)."""
    read = TrayWatcher.read

    def doubt(demo: Any) -> None:
        camera = demo.parts.devices.camera

        def doubting(self: TrayWatcher, *args: Any, **kwargs: Any) -> Any:
            reading = read(self, *args, **kwargs)
            if not doubted(camera.last_key() or ""):
                return reading
            if missed:  # a die of each zone is not found (the last, of a zone with two or more)
                last = {d.zone: d for d in reading.dice}
                kept = [d for d in reading.dice
                        if last[d.zone] is not d or sum(e.zone == d.zone for e in reading.dice) < 2]
                return replace(reading, dice=tuple(kept) if len(kept) < len(reading.dice) else reading.dice[:-1])
            return replace(reading, dice=tuple(replace(d, confidence=min(d.confidence, 0.41)) for d in reading.dice))

        monkeypatch.setattr(TrayWatcher, "read", doubting)

    return play_tao(tmp_path, doubt)


def test_a_die_the_camera_doubts_is_moved_by_the_players_and_read_by_the_camera(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # every die is doubted where it first lands, and read surely once moved: the dealer entered
    # each such roll ("die 1 in Ana's zone read 7 at 0.41 confidence"), now the players move it
    records = _play_tao(tmp_path, monkeypatch, lambda key: not key.endswith(MOVED))
    asked = [r.line for r in records if r.kind == "question"]
    taken = [r for r in records if r.origin == "camera" and r.kind == "input"]
    assert len(asked) >= 5 and all(line.endswith(MOVE_IT) for line in asked), asked
    assert len(taken) >= len(asked)
    assert not [r.line for r in records if r.kind == "answer"]  # the dealer entered none


def test_a_die_the_camera_doubts_wherever_it_lies_is_moved_a_few_times_then_the_dealer_enters_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    records = _play_tao(tmp_path, monkeypatch, lambda key: True)
    first = next(n for n, r in enumerate(records) if r.kind == "answer")  # the first open roll's
    asked = [r.line for r in records[:first] if r.kind == "question"]
    # asked, moved, asked again, moved again, asked a third time: the dealer enters the faces (the
    # simulated dealer entered them before the camera looked at the last move)
    assert len(asked) == MOVE_TRIES + 1 and all(line.endswith(MOVE_IT) for line in asked), asked
    assert len({line.split(": ")[1] for line in asked}) == 1  # the same die
    assert not [r for r in records if r.origin == "camera" and r.kind == "input"]  # never read surely


def test_dice_the_camera_did_not_all_find_are_moved_apart_by_the_players_and_read(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # one die fewer than the roll needs, where they first land ("2 dice expected in Ana's zone,
    # 1 seen"): the dealer entered the roll; now the players move the dice and the camera reads them
    records = _play_tao(tmp_path, monkeypatch, lambda key: not key.endswith(MOVED), missed=True)
    asked = [r.line for r in records if r.kind == "question"]
    assert len(asked) >= 5 and all(line.endswith((MOVE_IT, MOVE_APART)) for line in asked), asked
    assert any(line.endswith(MOVE_APART) for line in asked)  # a reveal's two d6
    assert not [r.line for r in records if r.kind == "answer"]  # the dealer entered none
