"""The simulated camera's dice moved by hand (``roll(moved=True)``): when the table asks the
players to move a die it doubts, the same face up, they move the same dice on the same tray, under
the same light; asked to throw a cocked die again (``roll(again=True)``), they throw the same dice
again on that tray. A throw made anew draws new dice on a new stage, which would be a twin kinder
than the table: a die lost on a felt near its colour, moved or thrown again, lay on another felt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from controller.table.build import build_demo
from tests.table.test_every_die import GAMES


def _thrown(camera: Any, key: str, moved: bool = False, values: tuple[int, ...] = (3, 5, 1), **how: Any) -> Any:
    camera.roll(list(values), zones=["community"] * 3, kind="letters", key=key, moved=moved, **how)
    return camera.scene


def test_dice_moved_by_hand_are_the_same_dice_on_the_same_tray_in_other_places(tmp_path: Path) -> None:
    demo, _ = build_demo("diceholdem", 2, 5, tmp_path / "t.db", None, ["heuristic"], GAMES["diceholdem"][0])
    camera = demo.parts.devices.camera
    try:
        first = _thrown(camera, "5/1/9/render")
        moved = _thrown(camera, "5/1/9/render/moved", moved=True)
        fresh = _thrown(camera, "5/1/9/render/moved/again")
        zones = [camera.tray.zones.zone_of(d.tray_mm) for d in moved.dice]
    finally:
        demo.close()
    assert [d.value for d in moved.dice] == [d.value for d in first.dice] == [3, 5, 1]
    assert np.array_equal(moved.layout.ground, first.layout.ground)  # the felt and its light
    assert np.array_equal(moved.layout.light, first.layout.light)
    assert [d.style for d in moved.layout.dice] == [d.style for d in first.layout.dice]  # the same dice
    assert [d.pose.edge_mm for d in moved.layout.dice] == [d.pose.edge_mm for d in first.layout.dice]
    assert all(not np.allclose(m.center, f.center, atol=2.0) for m, f in zip(moved.dice, first.dice))
    # moved a little, each stays in its zone (a die slid out of the community zone was a question
    # to the dealer: "a die lies outside every zone")
    assert zones == ["community"] * 3
    # a fresh throw, not said to be made again, lands on a new stage
    assert not np.array_equal(fresh.layout.ground, first.layout.ground)


def test_dice_thrown_again_are_the_same_dice_on_the_same_tray_with_new_faces(tmp_path: Path) -> None:
    # the players asked to throw a cocked die again pick up the same dice: drawn from scratch, the
    # throw made again landed on a new felt under a new light, with new dice (a twin kinder than
    # the table: a die near the felt's colour, thrown again, lay on another felt)
    demo, _ = build_demo("diceholdem", 2, 5, tmp_path / "t.db", None, ["heuristic"], GAMES["diceholdem"][0])
    camera = demo.parts.devices.camera
    try:
        first = _thrown(camera, "5/1/9/render", cocked=1)
        again = _thrown(camera, "5/1/9/render/again", values=(6, 2, 4), again=True, cocked=1)
        zones = [camera.tray.zones.zone_of(d.tray_mm) for d in again.dice]
    finally:
        demo.close()
    assert [d.value for d in again.dice] == [6, 2, None]  # new faces, the last die cocked again
    assert np.array_equal(again.layout.ground, first.layout.ground)  # the felt and its light
    assert np.array_equal(again.layout.light, first.layout.light)
    assert [d.style for d in again.layout.dice] == [d.style for d in first.layout.dice]  # the same dice
    assert [d.pose.edge_mm for d in again.layout.dice] == [d.pose.edge_mm for d in first.layout.dice]
    assert zones == ["community"] * 3


def test_a_die_moved_by_hand_stays_in_its_seats_zone(tmp_path: Path) -> None:
    # key 0, 5: slid up to 1.5 of its sides anywhere, a die of seat 0's zone landed in the
    # community zone, a question for the dealer ("a die in the community zone while the table
    # waits for Ben's dice", Tauren seed 70)
    demo, _ = build_demo("diceholdem", 2, 5, tmp_path / "t.db", None, ["heuristic"], GAMES["diceholdem"][0])
    camera = demo.parts.devices.camera
    try:
        for k in (0, 5):
            camera.roll([3, 5], zones=["seat0"] * 2, kind="letters", key=f"5/1/{k}/render")
            camera.roll([3, 5], zones=["seat0"] * 2, kind="letters", key=f"5/1/{k}/render/moved", moved=True)
            assert [camera.tray.zones.zone_of(d.tray_mm) for d in camera.scene.dice] == ["seat0"] * 2, k
    finally:
        demo.close()
