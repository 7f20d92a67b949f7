"""The simulated camera's dice moved by hand (``roll(moved=True)``): when the table asks the
players to move a die it doubts, the same face up, they move the same dice on the same tray, under
the same light. A throw made anew draws new dice on a new stage, which would be a twin kinder than
the table: a die lost on a felt near its colour, moved, lay on another felt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from controller.table.build import build_demo
from tests.table.test_every_die import GAMES


def _thrown(camera: Any, key: str, moved: bool = False) -> Any:
    camera.roll([3, 5, 1], zones=["community"] * 3, kind="letters", key=key, moved=moved)
    return camera.scene


def test_dice_moved_by_hand_are_the_same_dice_on_the_same_tray_in_other_places(tmp_path: Path) -> None:
    demo, _ = build_demo("diceholdem", 2, 5, tmp_path / "t.db", None, ["heuristic"], GAMES["diceholdem"][0])
    camera = demo.parts.devices.camera
    try:
        first = _thrown(camera, "5/1/9/render")
        moved = _thrown(camera, "5/1/9/render/moved", moved=True)
        again = _thrown(camera, "5/1/9/render/moved/again")
    finally:
        demo.close()
    assert [d.value for d in moved.dice] == [d.value for d in first.dice] == [3, 5, 1]
    assert np.array_equal(moved.layout.ground, first.layout.ground)  # the felt and its light
    assert np.array_equal(moved.layout.light, first.layout.light)
    assert [d.style for d in moved.layout.dice] == [d.style for d in first.layout.dice]  # the same dice
    assert [d.pose.edge_mm for d in moved.layout.dice] == [d.pose.edge_mm for d in first.layout.dice]
    assert all(not np.allclose(m.center, f.center, atol=2.0) for m, f in zip(moved.dice, first.dice))
    # a throw made again is a new stage, as before (the kind twin a move must not be)
    assert not np.array_equal(again.layout.ground, first.layout.ground)
