"""Placing a taught set's dice on their top faces by body colour (vision.top_face), so that their
crops compare with the taught ones."""

from __future__ import annotations

import math
import random

import cv2
import numpy as np
import pytest

from vision.render import SceneSpec, render_scene
from vision.top_face import DIE_PER_FACE, locate, picture_body, spots

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

OLIVE = (((70, 150, 95), ((245, 245, 245),)),)


def _scene(seed: int, n_dice: int, background: str = "random") -> tuple[np.ndarray, list[tuple[tuple[float, float], float]]]:
    """A frame of olive letter dice and each die's top-face centre and visible side."""
    spec = SceneSpec(size=(360, 240), n_dice=n_dice, die_px=(48, 60), kind="letters", palette=OLIVE,
                     background=background, noise=3, tint=1.0)
    scene = render_scene(random.Random(seed), spec)
    return scene.image, [(d.center, min(d.box[2], d.box[3])) for d in scene.dice]


def _body(seed: int = 1) -> np.ndarray:
    image, _ = _scene(seed, 1)
    return picture_body(image)


def test_the_body_colour_of_a_teaching_picture_is_the_die_s_not_its_ink_or_the_tray_s() -> None:
    body = _body()
    olive = cv2.cvtColor(np.array([[OLIVE[0][0]]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    white_ink = np.array([250.0, 128.0, 128.0])
    assert np.linalg.norm(body[1:] - olive[1:]) < 15  # its hue: olive, whatever the light's tint
    assert np.linalg.norm(body - white_ink) > 60


def test_a_hint_a_third_the_size_and_off_centre_is_moved_onto_the_top_face() -> None:
    # the finder takes a new look's letters for dice a third of the size, off the die's centre:
    # crops taken there read 60% of a taught set's dice right
    body = _body()
    moved = 0
    for seed in range(20, 30):
        image, dice = _scene(seed, 1)
        (cx, cy), box_side = dice[0]
        hint_side = 0.4 * box_side
        face = locate(image, (cx + 0.25 * box_side, cy - 0.2 * box_side), hint_side, body)
        assert face is not None
        assert math.hypot(face.center[0] - cx, face.center[1] - cy) < 3.0
        assert 0.6 < face.side * DIE_PER_FACE / box_side < 1.25
        moved += 1
    assert moved == 10


def test_a_hint_on_the_bare_tray_finds_no_face() -> None:
    image, dice = _scene(5, 1, background="felt")
    (cx, cy), side = dice[0]
    far = (cx + 3 * side if cx < 180 else cx - 3 * side, cy)
    assert locate(image, far, side, _body()) is None


def test_spots_of_the_body_colour_are_found_on_each_die() -> None:
    body = _body()
    for seed in (40, 41, 42):
        image, dice = _scene(seed, 3)
        found = spots(image, body)
        for (cx, cy), side in dice:
            assert any(math.hypot(x - cx, y - cy) < 0.5 * side for (x, y), _ in found)
