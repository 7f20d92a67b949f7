"""Reading on a calibrated tray: the top-down view, markers ignored, readings in frame pixels."""

from __future__ import annotations

import random

from vision.calibrate import calibrate
from vision.read import read_dice
from vision.render import SceneSpec, render_scene


def test_calibrated_tray_reads_every_die_and_not_the_markers() -> None:
    scene = render_scene(random.Random(12), SceneSpec(markers=True, perspective=0.6), values=[1, 3, 5, 2, 6])
    observation = read_dice(scene.image, tray=calibrate(scene.image, scene.tray))
    assert len(observation.dice) == len(scene.dice)
    for truth in scene.dice:
        x, y, w, h = truth.box
        inside = [d for d in observation.dice if x <= d.center[0] <= x + w and y <= d.center[1] <= y + h]
        assert [d.value for d in inside] == [truth.value]
