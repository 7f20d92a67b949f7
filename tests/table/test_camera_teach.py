"""A set taught (:mod:`vision.teach`) from the table camera's own frames, then read on the calibrated
tray as the table reads it (:meth:`controller.table.camera.TrayWatcher.read`): a d8-tauren set of one
body colour, taught from five frames per face of one die lying in the community zone."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.games.dice import DieKind
from controller.table.camera import TrayWatcher
from hardware.camera_sim import SimCamera
from tests.table.test_camera import TRAY, table_camera
from vision.read import UNCERTAIN
from vision.teach import TEACH_TURNS, set_path, taught_set, teach

pytestmark = pytest.mark.slow

KIND = DieKind.D8_TAUREN
BODY = (60, 140, 200)
"""The set's body colour (BGR): an orange no shipped look has."""

PER_FACE = 5
ZONES = ("seat0", "seat1", "seat2", "seat3", "community")


def one_die(seed: int, value: int) -> np.ndarray:
    """A frame of the table's camera with one die of the set in the community zone, showing ``value``."""
    camera = table_camera(seed)
    camera.show([value], zones=["community"], kind=KIND.value, bodies=[BODY])
    return camera.frame()


@pytest.fixture(scope="module")
def taught(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder of a table taught the set from its camera's frames (tray, markers and all)."""
    pictures = {face: [one_die(100 + 10 * value + n, value) for n in range(PER_FACE)]
                for value, face in enumerate(KIND.faces, start=1)}
    folder = tmp_path_factory.mktemp("data")
    teach(KIND, pictures).save(set_path(KIND, folder))
    return folder


def test_a_set_taught_from_the_table_cameras_frames_learns_its_dice_not_the_tray_markers(taught: Path) -> None:
    stored = taught_set(KIND, taught)
    assert stored is not None and stored.body is not None
    body = cv2.cvtColor(np.array([[BODY]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    assert np.linalg.norm(stored.body - body) < 20  # the dice's orange, not the markers' white border
    assert len(stored.values) == len(KIND.faces) * PER_FACE * len(TEACH_TURNS)  # one die per frame


def tray_of_the_set(seed: int) -> SimCamera:
    """The table's camera over four dice of the set in random zones, the last one leaning (when
    there is something in its zone to lean on: :func:`vision.render._leaning_in`)."""
    rng = random.Random(seed)
    camera = table_camera(5000 + seed)
    values = [rng.randint(1, len(KIND.faces)) for _ in range(4)]
    camera.show(values, zones=[rng.choice(ZONES) for _ in values], kind=KIND.value, bodies=[BODY] * 4, cocked=1)
    return camera


def test_a_set_taught_from_the_table_cameras_frames_is_read_on_the_calibrated_tray(taught: Path) -> None:
    right = flat = lying_flat = accepted = 0
    for seed in range(10):
        camera = tray_of_the_set(seed)
        seen = TrayWatcher(camera, TRAY, data=taught).read(camera.frame(), KIND)
        lying_flat += sum(not truth.cocked for truth in camera.scene.dice)  # a die with nothing to lean on lies flat
        for die in seen.dice:
            truth = min(camera.scene.dice, key=lambda t: float(np.hypot(t.center[0] - die.center[0],
                                                                        t.center[1] - die.center[1])))
            taken = die.face is not None and die.flag is None and die.confidence >= UNCERTAIN
            if truth.cocked:
                assert not taken, f"frame {seed}: a leaning die given {die.face}"
                continue
            flat += 1
            right += die.face == truth.face
            accepted += taken
            assert die.face == truth.face or not taken, f"frame {seed}: a {truth.face} taken for {die.face}"
    # every flat die is found (two frames' last die had nothing to lean on and lies flat) but one:
    # frame 8's leaning die leans on its 5, and the finder takes the two for one die, flagged cocked
    # (the players throw again). Before, that die stood tilted on nothing, apart.
    assert flat == lying_flat - 1 == 31
    assert right >= 28  # 25 when the markers were taught as dice and their white as the body colour
    # taken without a question: 29 (9 when the set's doubted faces were not asked of the network's
    # own classes, faces._taught_value: its 6, Shaman and Chieftain lie close in the likeness)
    assert accepted >= 27


@pytest.fixture(scope="module")
def taught_letters(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The data folder of a table taught a letters set of the same orange from its camera's frames."""
    def frame(seed: int, value: int) -> np.ndarray:
        camera = table_camera(seed)
        camera.show([value], zones=["community"], kind=DieKind.LETTERS.value, bodies=[BODY])
        return camera.frame()

    pictures = {face: [frame(100 + 10 * value + n, value) for n in range(PER_FACE)]
                for value, face in enumerate(DieKind.LETTERS.faces, start=1)}
    folder = tmp_path_factory.mktemp("letters")
    teach(DieKind.LETTERS, pictures).save(set_path(DieKind.LETTERS, folder))
    return folder


@pytest.mark.parametrize("seed", [901, 902, 903, 904])
def test_a_taught_cubes_top_face_shape_is_asked_only_of_a_camera_straight_above(
        taught_letters: Path, monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """A flat letter die of a taught set is read surely from above (its top face square: it reads
    0.87-0.99 here). With every face taken for foreshortened (teach.SQUARE_UNDER over 1), it is
    doubted from above, but not on the tray seen by a knocked camera (perspective 0.15), whose tilt
    foreshortens every flat face: there the shape is not asked (0.85-0.97), as FLAT is not."""
    from vision import teach as teaching

    def read(perspective: float) -> list[float]:
        camera = table_camera(seed)
        camera.show([1 + seed % 6], zones=["community"], kind=DieKind.LETTERS.value, bodies=[BODY],
                    perspective=perspective)
        seen = TrayWatcher(camera, TRAY, data=taught_letters).read(camera.frame(), DieKind.LETTERS)
        assert len(seen.dice) == 1 and seen.dice[0].face is not None
        return [die.confidence for die in seen.dice]

    assert read(0.0)[0] >= UNCERTAIN
    monkeypatch.setattr(teaching, "SQUARE_UNDER", 1.01)
    assert read(0.0)[0] <= teaching.FORESHORTENED_SURENESS
    assert read(0.15)[0] > teaching.FORESHORTENED_SURENESS + 0.1
