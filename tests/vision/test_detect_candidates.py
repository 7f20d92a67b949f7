"""Candidate die centres: every die gets one near its centre; a bare background gets none."""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.crops import aligned_crop, dominant_angle
from vision.detect import propose, working_scale
from vision.render import SceneSpec, render_scene


def test_every_rendered_die_has_a_candidate_near_its_centre() -> None:
    scene = render_scene(random.Random(5), SceneSpec(size=(640, 360), n_dice=6, die_px=(36, 48), touching=True))
    points = np.array([c.center for c in propose(scene.image).candidates])
    for die in scene.dice:
        nearest = np.linalg.norm(points - np.array(die.center), axis=1).min()
        assert nearest < 0.3 * die.box[2], die


def test_bare_background_has_no_candidates() -> None:
    scene = render_scene(random.Random(6), SceneSpec(size=(640, 360), background="plain"), values=[])
    assert propose(scene.image).candidates == ()


def test_typical_side_follows_the_dice() -> None:
    scene = render_scene(random.Random(7), SceneSpec(size=(640, 360), n_dice=5, die_px=(40, 40), background="felt"))
    assert 32 < propose(scene.image).side < 60  # the blob includes the sides seen in perspective


def test_working_scale_shrinks_large_frames_only() -> None:
    assert working_scale((864, 1536, 3)) == 640 / 1536
    assert working_scale((480, 640, 3)) == 1.0
    assert working_scale((200, 300, 3)) == 1.0


def test_aligned_crop_turns_a_tilted_square_upright() -> None:
    image = np.full((100, 100, 3), 200, np.uint8)
    cv2.fillConvexPoly(image, np.array([[50, 30], [70, 50], [50, 70], [30, 50]], np.int32), (20, 20, 20))
    assert abs(dominant_angle(image, (50.0, 50.0), 40.0) - 45.0) < 3.0
    dark = (aligned_crop(image, (50.0, 50.0), 40.0)[..., 0] < 100).astype(np.uint8)
    points = cv2.findNonZero(dark)
    angle = cv2.minAreaRect(points)[2] % 90.0
    assert min(angle, 90.0 - angle) < 4.0
