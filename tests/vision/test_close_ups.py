"""Close-ups: a photo of a die taken close, the die a fifth of the photo across or more, is read as
one die, by the d6 reader and the face reader, on rendered and real photos."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from vision import detect
from vision.faces import read_faces
from vision.perturb import change, changed
from vision.photos import load_set
from vision.read import read_dice
from vision.render import SceneSpec, render_scene

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too


def _read_surely(kind: str, seed: int) -> bool:
    """Whether one die of ``kind``, about a fifth of a 640x640 photo across, is read right, surely,
    and alone (no piece of it taken for another die)."""
    scene = render_scene(random.Random(seed), SceneSpec(size=(640, 640), n_dice=1, die_px=(110, 130), kind=kind,
                                                        background="random"))
    dice = (read_dice(scene.image) if kind == "d6" else read_faces(scene.image, kind)).dice
    return [(d.value, d.flag) for d in dice] == [(scene.dice[0].value, None)]


@pytest.mark.parametrize("kind", ["d6", "d12", "d8-tauren", "letters"])
def test_a_die_photographed_close_is_read_as_one_die(kind: str) -> None:
    # Before, the finder looked for dice a sixteenth of the photo across and read a d12's numerals,
    # a Tauren die's pictures or a d6's pips as small dice: of these six, none or one was read.
    assert sum(_read_surely(kind, seed) for seed in range(6)) >= 5


def test_a_close_up_gets_a_view_at_its_dice_size_and_a_wide_view_does_not() -> None:
    close = render_scene(random.Random(2), SceneSpec(size=(640, 640), n_dice=1, die_px=(110, 130), kind="d12",
                                                     background="plain"))
    views = detect.working_views(close.image)
    box = close.dice[0].box
    assert len(views) == 2 and views[0].proposals.close_side is not None
    assert 0.8 * max(box[2:]) < views[1].proposals.side < 1.2 * max(box[2:])
    wide = render_scene(random.Random(2), SceneSpec(size=(1536, 864), n_dice=7, kind="d12", background="plain"))
    assert all(view.proposals.close_side is None for view in detect.working_views(wide.image))


def test_a_decagon_and_a_hexagon_have_a_die_outline_and_a_pair_of_dice_has_not() -> None:
    def outline(points: np.ndarray) -> bool:
        contour = points.astype(np.int32).reshape(-1, 1, 2)
        return detect._outline_of_a_die(contour, cv2.contourArea(contour))
    turn = np.linspace(0, 2 * np.pi, 11)[:-1]
    decagon = 100 + 80 * np.stack([np.cos(turn), np.sin(turn)], axis=1)
    hexagon = decagon[::2][:5].repeat(1, axis=0)  # five of its corners, a d8's outline from above is near this
    hexagon = 100 + 80 * np.stack([np.cos(turn[::2] * 1.2), np.sin(turn[::2] * 1.2)], axis=1)
    pair = np.array([[0, 0], [200, 0], [200, 100], [0, 100]])
    assert outline(decagon) and outline(hexagon) and not outline(pair)


def test_real_photos_of_one_die_taken_close_are_read() -> None:
    # Twelve dice of the development photos, each cut out three times its side across (less where
    # that would cut a neighbour) and enlarged twice: before, the reader read 1 of them.
    right = 0
    for index, photo in enumerate(load_set()[::17][:12]):
        image, boxes = changed(photo.load(), [d.box for d in photo.dice], change("close-up of one die"), index)
        die, (x, y, w, h) = min(zip(photo.dice, boxes), key=lambda kept: _from_middle(kept[1], image.shape))
        seen = [d for d in read_dice(image).dice if x <= d.center[0] <= x + w and y <= d.center[1] <= y + h]
        right += [(d.value, d.flag) for d in seen] == [(die.value, None)]
    assert right >= 10


def _from_middle(box: tuple[float, float, float, float], shape: tuple[int, ...]) -> float:
    """How far a box's centre lies from the middle of a close-up of ``shape`` (an empty box: far)."""
    x, y, w, h = box
    return abs(x + w / 2 - shape[1] / 2) + abs(y + h / 2 - shape[0] / 2) if w else float("inf")
