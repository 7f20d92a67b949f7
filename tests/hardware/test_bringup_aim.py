"""The bring-up check's aim: how far the camera looks off straight down at the tray, from its markers."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from hardware.bringup import camera_aim, measure_frame
from vision.render import Scene, SceneSpec, render_scene

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too


def tray(seed: int, perspective: float) -> Scene:
    return render_scene(random.Random(seed), SceneSpec(size=(1536, 864), markers=True, perspective=perspective,
                                                       n_dice=4, background="random"))


def true_tilt(scene: Scene) -> float:
    """Degrees between the renderer's camera's axis and the tray's normal."""
    assert scene.camera is not None
    return math.degrees(math.acos(min(1.0, abs(float(scene.camera.rotation[2, 2])))))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_tilted_camera_is_measured_and_told_to_aim_straight_down(seed: int) -> None:
    scene = tray(seed, 1.0)  # 18-30 degrees
    assert scene.camera is not None
    report = measure_frame(scene.image, scene.tray, scene.camera.focal_px)
    assert report.tilt_deg is not None and abs(report.tilt_deg - true_tilt(scene)) < 1.5
    assert any("off straight down: aim it straight down" in line for line in report.advice)


def test_the_tilt_is_measured_with_no_lens_known_from_a_tilted_view() -> None:
    scene = tray(4, 1.0)
    aim = camera_aim(scene.image, scene.tray, None)  # the focal length estimated from the view
    assert aim is not None and abs(aim[0] - true_tilt(scene)) < 3


def test_a_camera_looking_straight_down_is_not_told_to_move() -> None:
    scene = tray(5, 0.0)
    assert scene.camera is not None and true_tilt(scene) < 0.5
    report = measure_frame(scene.image, scene.tray, scene.camera.focal_px)
    assert report.tilt_deg is not None and report.tilt_deg < 1.5
    assert not any("straight down" in line for line in report.advice)


def test_a_slightly_tilted_camera_is_within_what_the_reader_takes_for_straight_above() -> None:
    scene = tray(6, 0.05)  # 0.9-1.5 degrees
    assert scene.camera is not None
    aim = camera_aim(scene.image, scene.tray, scene.camera.focal_px)
    assert aim is not None and aim[0] < aim[1]  # the reader's limit: STRAIGHT_ABOVE of the diagonal


def test_the_markers_are_looked_for_once_per_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.calibrate

    scene = tray(5, 1.0)
    looks = []
    detect = vision.calibrate.detect_markers

    def counted(image: np.ndarray) -> dict[int, np.ndarray]:
        looks.append(1)
        return detect(image)

    monkeypatch.setattr(vision.calibrate, "detect_markers", counted)
    report = measure_frame(scene.image, scene.tray, None)
    assert report.markers == (0, 1, 2, 3) and report.tilt_deg is not None and len(looks) == 1
