"""Settle detection on rendered rolls: settled once the dice stop, not before, once per roll."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from controller.games.errors import InvalidInput
from vision.render import SceneSpec, render_roll, render_scene
from vision.settle import Motion, SettleConfig, SettleDetector, time_settle

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

ROLL = SceneSpec(size=(768, 432), die_px=(30, 55), n_dice=6, noise=3.0, glare=0.6, touching=True)


def settle_frames(frames: list[np.ndarray], detector: SettleDetector | None = None) -> list[int]:
    """Indices of the frames on which the detector reported the dice settled."""
    detector = detector or SettleDetector()
    return [i for i, frame in enumerate(frames) if detector.update(frame).settled_now]


@pytest.mark.parametrize("seed", [1, 2])
def test_settled_is_reported_once_the_dice_have_been_still_for_n_frames(seed: int) -> None:
    scenes = render_roll(random.Random(seed), ROLL, frames=24, settle_at=12)
    assert settle_frames([scene.image for scene in scenes]) == [12 + SettleConfig().quiet_frames]


def test_nothing_is_settled_while_the_dice_move() -> None:
    scenes = render_roll(random.Random(3), ROLL, frames=16, settle_at=14)
    detector = SettleDetector()
    states = [detector.update(scene.image).state for scene in scenes]
    assert all(state is Motion.MOVING for state in states[1:15])


def test_detector_rearms_for_each_new_roll() -> None:
    scenes = render_roll(random.Random(4), ROLL, frames=20, settle_at=10, rolls=3)
    quiet = SettleConfig().quiet_frames
    assert settle_frames([scene.image for scene in scenes]) == [10 + quiet, 30 + quiet, 50 + quiet]


def test_sensor_noise_alone_is_not_motion() -> None:
    spec = SceneSpec(size=(768, 432), die_px=(30, 55), noise=8.0)
    scenes = render_roll(random.Random(5), spec, frames=12, settle_at=0)
    detector = SettleDetector()
    assert all(detector.update(scene.image).state is not Motion.MOVING for scene in scenes)


def test_a_change_of_exposure_is_not_motion() -> None:
    image = render_scene(random.Random(6), ROLL).image
    detector = SettleDetector()
    detector.update(image)
    assert detector.update(cv2.add(image, np.full_like(image, 12))).state is not Motion.MOVING


def test_one_die_nudged_a_few_pixels_is_motion() -> None:
    scene = render_scene(random.Random(7), ROLL)
    image, die = scene.image, scene.dice[0]
    x, y, w, h = (int(v) for v in die.box)
    nudged = image.copy()
    nudged[y + 3:y + h + 3, x:x + w] = image[y:y + h, x:x + w]
    detector = SettleDetector()
    detector.update(image)
    assert detector.update(nudged).state is Motion.MOVING


def test_reset_forgets_the_previous_frame() -> None:
    first = render_scene(random.Random(8), ROLL).image
    other = render_scene(random.Random(9), ROLL).image
    detector = SettleDetector()
    detector.update(first)
    detector.reset()
    assert detector.update(other).state is Motion.SETTLING


def test_unusable_configuration_is_refused() -> None:
    with pytest.raises(InvalidInput):
        SettleConfig(quiet_frames=0)


def test_timing_reports_settle_and_baseline_per_frame() -> None:
    frames = [scene.image for scene in render_roll(random.Random(10), ROLL, frames=4)]
    timing = time_settle(frames, rounds=1)
    assert timing.settle_ms > 0 and timing.baseline_ms > 0
    assert timing.ratio == pytest.approx(timing.settle_ms / timing.baseline_ms)


def test_a_tray_already_still_at_start_is_settled_once() -> None:
    scenes = render_roll(random.Random(11), ROLL, frames=14, settle_at=0)
    assert settle_frames([scene.image for scene in scenes]) == [SettleConfig().quiet_frames]
