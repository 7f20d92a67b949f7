"""Candidate die centres: every die gets one near its centre; a bare background gets none."""

from __future__ import annotations

import random

import cv2
import numpy as np

from vision.crops import aligned_crop, dominant_angle
from vision.detect import (_disc, _fill_small_holes, _grid_points, _quarter, _widths, disc_filter, propose,
                           typical_side, working_scale, working_views)
from vision.render import SceneSpec, render_scene


def test_every_rendered_die_has_a_candidate_near_its_centre() -> None:
    scene = render_scene(random.Random(5), SceneSpec(size=(640, 360), n_dice=6, die_px=(36, 48), touching=True))
    points = np.array([c.center for c in propose(scene.image).candidates])
    for die in scene.dice:
        nearest = np.linalg.norm(points - np.array(die.center), axis=1).min()
        assert nearest < 0.3 * die.box[2], die


def test_a_lone_die_is_proposed_once_and_touching_dice_get_the_grid() -> None:
    lone = render_scene(random.Random(5), SceneSpec(size=(640, 360), n_dice=1, die_px=(40, 40), background="plain"))
    assert [c.single for c in propose(lone.image).candidates] == [True]
    heap = render_scene(random.Random(5), SceneSpec(size=(640, 360), n_dice=3, die_px=(40, 40), touching=True,
                                                    background="plain"))
    grid = [c for c in propose(heap.image).candidates if not c.single]
    assert len(grid) >= 3 * len(heap.dice)  # several points a die, so each has one near its centre


def test_bare_background_has_no_candidates() -> None:
    scene = render_scene(random.Random(6), SceneSpec(size=(640, 360), background="plain"), values=[])
    assert propose(scene.image).candidates == ()


def test_typical_side_follows_the_dice() -> None:
    scene = render_scene(random.Random(7), SceneSpec(size=(640, 360), n_dice=5, die_px=(40, 40), background="felt"))
    assert 32 < propose(scene.image).side < 60  # the blob includes the sides seen in perspective


def test_an_expected_side_rules_out_blobs_far_from_it() -> None:
    widths = [12.0, 12.5, 13.0, 46.0, 47.0, 48.0]  # three small dice, three die-sized tray parts
    assert typical_side([], widths, (640, 640)) == 47.0
    assert typical_side([], widths, (640, 640), expect=14.0) == 12.5


def test_a_large_frame_with_small_dice_is_also_looked_at_less_shrunk() -> None:
    wide = render_scene(random.Random(7), SceneSpec(size=(1920, 1080), n_dice=5, die_px=(30, 30), background="felt"))
    first, second = working_views(wide.image)
    assert first.scale == working_scale(wide.image.shape) == 1 / 3 < second.scale <= 1.0
    assert second.work.shape[1] == round(1920 * second.scale)
    assert 26 < second.proposals.side < 50  # 30 px dice at about 36 px in the second working image
    near = render_scene(random.Random(7), SceneSpec(size=(1920, 1080), n_dice=5, die_px=(90, 90), background="felt"))
    assert [view.scale for view in working_views(near.image)] == [1 / 3]


def test_small_enclosed_holes_are_filled_large_and_open_ones_kept() -> None:
    mask = np.zeros((100, 100), np.uint8)
    mask[10:90, 10:50] = 1  # a blob with a small hole and a large one
    mask[20:24, 20:24] = 0
    mask[40:80, 15:45] = 0
    mask[60:100, 70:90] = 1  # a blob with a notch open to the frame edge
    mask[90:100, 78:82] = 0
    filled = _fill_small_holes(mask, max_area=100)
    assert filled[20:24, 20:24].all()
    assert not filled[40:80, 15:45].any()
    assert not filled[90:100, 78:82].any()
    assert np.array_equal(filled[mask == 1], mask[mask == 1])


def test_disc_filter_equals_opencv_disc_morphology() -> None:
    rng = np.random.default_rng(3)
    for size in (3, 5, 7, 9, 15, 19, 27):
        for density in (0.02, 0.3, 0.9):
            mask = (rng.random((int(rng.integers(5, 90)), int(rng.integers(5, 90)))) < density).astype(np.uint8)
            for operation in (cv2.dilate, cv2.erode):
                assert np.array_equal(disc_filter(mask, size, operation), operation(mask, _disc(size))), size


def _blobs(seed: int, shape: tuple[int, int]) -> np.ndarray:
    rng = np.random.default_rng(seed)
    mask = np.zeros(shape, np.uint8)
    for _ in range(6):
        x, y = int(rng.integers(0, shape[1])), int(rng.integers(0, shape[0]))
        cv2.circle(mask, (x, y), int(rng.integers(3, 25)), 1, -1)
    return mask


def test_grid_points_are_those_of_opencv_closing_then_erosion() -> None:
    rng = np.random.default_rng(5)
    for seed in range(40):
        mask = _blobs(seed, (int(rng.integers(20, 140)), int(rng.integers(20, 200))))
        if seed % 3 == 0:
            mask |= (rng.random(mask.shape) < 0.03).astype(np.uint8)
        close, erode, step = int(rng.choice([3, 9, 15, 19, 25])), int(rng.choice([3, 5, 9])), int(rng.integers(2, 16))
        area = cv2.erode(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disc(close)), _disc(erode))
        rows, columns = np.nonzero(area[step // 2::step, step // 2::step])
        xs, ys = _grid_points(mask, close, erode, step)
        assert np.array_equal(xs, columns * step + step // 2) and np.array_equal(ys, rows * step + step // 2), seed


def test_widths_match_the_whole_image_distance_map() -> None:
    reaching = np.zeros((90, 120), np.uint8)
    reaching[26:53, 38:69] = 1  # a block reaching into the box of the hook below, its far side outside that box
    reaching[28:84, 86:100] = 1
    reaching[56:66, 50:100] = 1
    for mask in [reaching] + [_blobs(seed + 10, (120, 200)) for seed in range(6)]:
        boxes = [cv2.boundingRect(c) for c in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]]
        inside = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
        whole = [2.0 * float(inside[y:y + h, x:x + w].max()) for x, y, w, h in boxes]
        assert np.allclose(_widths(mask, boxes, boxes), whole, rtol=1e-6, atol=0)  # float rounding may differ
        assert np.allclose(_widths(mask, boxes[:1], boxes), whole[:1], rtol=1e-6, atol=0)


def test_quarter_equals_opencv_area_resize() -> None:
    rng = np.random.default_rng(4)
    for shape in ((360, 640, 3), (640, 640), (36, 52, 3), (37, 53, 3), (5, 9)):
        image = rng.integers(0, 256, shape, dtype=np.uint8)
        size = (max(1, shape[1] // 4), max(1, shape[0] // 4))
        assert np.array_equal(_quarter(image), cv2.resize(image, size, interpolation=cv2.INTER_AREA)), shape


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


def test_noise_cannot_multiply_the_candidates() -> None:
    from vision.detect import MAX_CANDIDATES, propose

    noisy = np.random.default_rng(5).normal(128, 60, (640, 640, 3)).clip(0, 255).astype(np.uint8)
    assert len(propose(noisy, 12.0).candidates) <= MAX_CANDIDATES  # 25,600 without the cap
    assert len(propose(noisy[::2, ::2], 6.0).candidates) <= MAX_CANDIDATES
