"""A flat die's sides, as a calibrated camera sees them, painted over (vision/sides.py)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.sides import TOP_AHEAD, SideView, _fill, _square

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

FELT = (40, 110, 30)
SIDE = (200, 200, 200)
TOP = (250, 250, 250)


def _die_seen_from(view: SideView, footprint: tuple[float, float], angle: float) -> tuple[np.ndarray, np.ndarray]:
    """A frame of felt with a flat die drawn as the camera sees it (its sides in one grey, its top
    face in another), and the die's top-face centre."""
    frame = np.zeros((200, 300, 3), np.uint8)
    frame[:] = FELT
    foot = np.array(footprint, np.float64)
    away = foot - np.array(view.below)
    top = foot + away * view.rise / (1.0 - view.rise)
    outline = np.vstack([_square(top, view.top_px, angle), _square(foot, view.foot_px, angle)])
    import cv2

    mask = np.zeros(frame.shape[:2], np.uint8)
    _fill(mask, cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2), 255)
    frame[mask > 0] = SIDE
    mask[:] = 0
    _fill(mask, _square(top, view.top_px, angle), 255)
    frame[mask > 0] = TOP
    return frame, top


@pytest.mark.parametrize("angle", [0.0, 30.0])
def test_the_sides_the_camera_sees_are_painted_in_the_felts_colour_and_the_top_face_kept(angle: float) -> None:
    view = SideView(below=(20.0, 100.0), rise=0.08, top_px=30.0, foot_px=28.0, felt=FELT)
    frame, top = _die_seen_from(view, (200.0, 100.0), angle)
    band = int((frame == SIDE).all(axis=2).sum())
    assert band > 150  # the camera sees the die's sides: a band some 15 px wide
    finder_centre = top - TOP_AHEAD * view.shift((float(top[0]), float(top[1])))  # about where the finder centres it
    painted = view.painted(frame, (float(finder_centre[0]), float(finder_centre[1])), angle)
    assert (painted == SIDE).all(axis=2).sum() < 0.05 * band  # the band is felt now
    inside = np.zeros(frame.shape[:2], np.uint8)
    _fill(inside, _square(top, view.top_px - 3.0, angle), 255)  # the top face but for its edge's pixels
    assert (painted[inside > 0] == TOP).all()
    assert (frame == SIDE).all(axis=2).sum() == band  # on a copy


def test_a_die_below_the_camera_shows_no_side_and_is_left_as_it_is() -> None:
    view = SideView(below=(150.0, 100.0), rise=0.08, top_px=30.0, foot_px=28.0, felt=FELT)
    frame, _ = _die_seen_from(view, (150.0, 100.0), 10.0)
    assert not view.seen((150.0, 100.0))
    assert view.painted(frame, (150.0, 100.0), 10.0) is frame
    assert view.seen((250.0, 100.0))
