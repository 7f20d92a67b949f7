"""The synthetic dice renderer: images of the hard cases with exact ground truth."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput
from vision.calibrate import TrayLayout
from vision.render import (MARBLE_CONTRAST, PALETTE, READABLE, Scene, SceneSpec, _footprint, _marble_for,
                           render_roll, render_scene)

SMALL = SceneSpec(size=(640, 480), die_px=(40, 60), n_dice=6, shadow=0.0)


def dice_mask(spec: SceneSpec, seed: int) -> tuple[Scene, np.ndarray]:
    """A scene and the mask of pixels its dice changed (the same tray rendered without dice)."""
    scene = render_scene(random.Random(seed), spec)
    empty = render_scene(random.Random(seed), spec, values=[])
    mask = (cv2.absdiff(scene.image, empty.image).max(axis=2) > 8).astype(np.uint8)
    return scene, mask


def box_mask(scene: Scene, grow: int = 1) -> np.ndarray:
    mask = np.zeros(scene.image.shape[:2], np.uint8)
    for die in scene.dice:
        x, y, w, h = die.box
        mask[max(0, int(y) - grow):int(y + h) + 1 + grow, max(0, int(x) - grow):int(x + w) + 1 + grow] = 1
    return mask


def test_scene_has_requested_size_and_number_of_dice() -> None:
    scene = render_scene(random.Random(1), SceneSpec(size=(800, 600), n_dice=5, die_px=(50, 70)))
    assert scene.image.shape == (600, 800, 3) and scene.image.dtype == np.uint8
    assert len(scene.dice) == 5


def test_values_fix_the_top_faces() -> None:
    scene = render_scene(random.Random(2), SMALL, values=[6, 1, 3, 3])
    assert [die.value for die in scene.dice] == [6, 1, 3, 3]


def test_same_seed_renders_the_same_image() -> None:
    first = render_scene(random.Random(3), SMALL)
    second = render_scene(random.Random(3), SMALL)
    assert np.array_equal(first.image, second.image) and first.dice == second.dice


def test_boxes_contain_every_die_pixel() -> None:
    scene, mask = dice_mask(SceneSpec(size=(640, 480), die_px=(40, 60), n_dice=8, shadow=0.0,
                                      perspective=0.5, touching=True), seed=4)
    assert mask.sum() > 0
    assert not (mask & (1 - box_mask(scene))).any()


def test_every_box_is_tight_around_its_die() -> None:
    scene, mask = dice_mask(SMALL, seed=5)
    for die in scene.dice:
        x, y, w, h = (int(round(v)) for v in die.box)
        inside = mask[y:y + h, x:x + w]
        assert inside[:, :3].any() and inside[:, -3:].any() and inside[:3].any() and inside[-3:].any()


def test_centre_lies_inside_the_box() -> None:
    scene = render_scene(random.Random(6), SceneSpec(perspective=0.8, cocked=2, touching=True))
    for die in scene.dice:
        x, y, w, h = die.box
        assert x <= die.center[0] <= x + w and y <= die.center[1] <= y + h


def test_touching_dice_touch() -> None:
    scene, mask = dice_mask(SceneSpec(size=(800, 600), die_px=(40, 60), n_dice=8, shadow=0.0,
                                      touching=True), seed=7)
    blobs, _ = cv2.connectedComponents(mask)
    assert blobs - 1 < len(scene.dice)


def test_dice_apart_do_not_touch() -> None:
    scene, mask = dice_mask(SceneSpec(size=(800, 600), die_px=(30, 40), n_dice=5, shadow=0.0), seed=8)
    blobs, _ = cv2.connectedComponents(mask)
    assert blobs - 1 == len(scene.dice)


def test_cocked_dice_are_flagged_and_have_no_value() -> None:
    scene = render_scene(random.Random(9), SceneSpec(n_dice=6, cocked=2))
    cocked = [die for die in scene.dice if die.cocked]
    assert len(cocked) == 2 and all(die.value is None for die in cocked)
    assert all(die.value in range(1, 7) for die in scene.dice if not die.cocked)


def outline_aspect(mask: np.ndarray) -> float:
    """Long side over short side of the smallest rectangle around the mask's pixels."""
    points = cv2.findNonZero(mask)
    (_, _), (w, h), _ = cv2.minAreaRect(points)
    return max(w, h) / min(w, h)


@pytest.mark.parametrize("seed", [20, 21, 22])
def test_cocked_die_shows_a_foreshortened_top_and_a_side(seed: int) -> None:
    spec = SceneSpec(size=(480, 480), die_px=(80, 80), n_dice=1, shadow=0.0, fov_deg=20)
    _, flat = dice_mask(spec, seed)
    _, cocked = dice_mask(SceneSpec(**{**spec.__dict__, "cocked": 1}), seed)
    assert outline_aspect(flat) < 1.1
    assert outline_aspect(cocked) > 1.15


def test_cut_off_die_crosses_the_frame_edge() -> None:
    scene = render_scene(random.Random(11), SceneSpec(size=(640, 480), die_px=(40, 60), n_dice=4, cut_off=1))
    cut = [die for die in scene.dice if die.cut_off]
    assert len(cut) == 1
    x, y, w, h = cut[0].box
    assert x <= 0 or y <= 0 or x + w >= 640 or y + h >= 480


def test_glare_brightens_the_dice() -> None:
    plain = render_scene(random.Random(12), SMALL)
    shiny = render_scene(random.Random(12), SceneSpec(**{**SMALL.__dict__, "glare": 1.0}))
    boxes = box_mask(plain, grow=0).astype(bool)
    assert plain.dice == shiny.dice
    assert (shiny.image[boxes].astype(int) - plain.image[boxes]).clip(0).sum() > 255 * 50


def test_translucent_dice_let_the_tray_show_through() -> None:
    spec = SceneSpec(size=(640, 480), die_px=(50, 60), n_dice=6, shadow=0.0, marbled=0.0)
    solid, mask = dice_mask(spec, seed=13)
    clear, _ = dice_mask(SceneSpec(**{**spec.__dict__, "translucent": True}), seed=13)
    empty = render_scene(random.Random(13), spec, values=[]).image.astype(int)
    inside = mask.astype(bool)
    assert np.abs(clear.image[inside] - empty[inside]).mean() < np.abs(solid.image[inside] - empty[inside]).mean()


def test_markers_are_drawn_on_request() -> None:
    plain = render_scene(random.Random(14), SceneSpec(markers=False, background="plain"))
    marked = render_scene(random.Random(14), SceneSpec(markers=True, background="plain"))
    assert marked.tray is not None and plain.tray is None
    assert (marked.image < 40).sum() > (plain.image < 40).sum() + 1000


@pytest.mark.parametrize("background", ["felt", "wood", "plain", "random"])
def test_every_background_renders(background: str) -> None:
    scene = render_scene(random.Random(15), SceneSpec(size=(320, 240), die_px=(30, 40), n_dice=3,
                                                       background=background, noise=3, blur=0.8, jpeg_quality=80))
    assert scene.image.shape == (240, 320, 3) and scene.image.std() > 5


def test_unknown_background_is_refused() -> None:
    with pytest.raises(InvalidInput, match="carpet"):
        SceneSpec(background="carpet")


def test_too_many_dice_for_the_frame_is_refused() -> None:
    with pytest.raises(InvalidInput, match="cannot place"):
        render_scene(random.Random(16), SceneSpec(size=(200, 200), die_px=(90, 100), n_dice=20))


def test_roll_tumbles_then_lies_still() -> None:
    scenes = render_roll(random.Random(17), SceneSpec(size=(640, 480), die_px=(40, 60), n_dice=4),
                         frames=12, settle_at=8)
    assert [scene.moving for scene in scenes] == [True] * 8 + [False] * 4
    assert all(die.value is None for die in scenes[3].dice)
    assert not np.array_equal(scenes[2].image, scenes[3].image)
    assert all(np.array_equal(scenes[8].image, scene.image) for scene in scenes[9:])


def test_roll_ends_on_the_requested_values() -> None:
    scenes = render_roll(random.Random(18), SceneSpec(size=(640, 480), die_px=(40, 60)), frames=6,
                         settle_at=3, values=[2, 4, 6])
    assert [die.value for die in scenes[-1].dice] == [2, 4, 6]


def test_still_frames_differ_only_by_sensor_noise() -> None:
    scenes = render_roll(random.Random(19), SceneSpec(size=(640, 480), die_px=(40, 60), noise=4.0),
                         frames=6, settle_at=2)
    difference = cv2.absdiff(scenes[4].image, scenes[5].image)
    assert 0 < difference.mean() < 8


def test_dice_whose_top_face_is_hidden_have_no_value() -> None:
    spec = SceneSpec(size=(640, 480), die_px=(50, 70), n_dice=8, touching=True, perspective=1.0, cut_off=1)
    dice = [die for seed in range(30, 36) for die in render_scene(random.Random(seed), spec).dice]
    hidden = [die for die in dice if die.visible < READABLE]
    assert hidden and all(die.value is None for die in hidden)
    assert all(die.value is not None for die in dice if die.visible >= READABLE and not die.cocked)


def test_a_die_in_the_open_shows_all_of_its_top_face() -> None:
    scene = render_scene(random.Random(37), SceneSpec(size=(640, 480), die_px=(40, 50), n_dice=1))
    assert scene.dice[0].visible == 1.0


@pytest.mark.parametrize("kind", ["d6", "letters", "d8-tauren", "d12"])
def test_every_kind_of_die_renders_with_its_faces_named(kind: str) -> None:
    faces = DieKind(kind).faces
    values = list(range(1, len(faces) + 1))[:6]
    scene = render_scene(random.Random(40), SceneSpec(size=(800, 600), die_px=(50, 60), kind=kind), values=values)
    assert [die.value for die in scene.dice] == values
    assert [die.face for die in scene.dice] == [faces[v - 1] for v in values]
    assert all(die.kind == kind for die in scene.dice)


def test_a_die_has_only_the_faces_of_its_kind() -> None:
    with pytest.raises(InvalidInput, match="faces 1 to 6"):
        render_scene(random.Random(41), SMALL, values=[7])


def test_unknown_die_kind_is_refused() -> None:
    with pytest.raises(InvalidInput, match="d20"):
        SceneSpec(kind="d20")


@pytest.mark.parametrize("kind", ["d8-tauren", "d12"])
def test_cocked_dice_of_other_kinds_are_flagged(kind: str) -> None:
    scene = render_scene(random.Random(42), SceneSpec(size=(800, 600), die_px=(50, 60), kind=kind, cocked=2))
    assert [die.value for die in scene.dice if die.cocked] == [None, None]


def test_cocked_dice_lean_against_the_tray_wall_when_there_is_one() -> None:
    scene = render_scene(random.Random(43), SceneSpec(size=(768, 432), n_dice=6, die_px=(40, 55), cocked=4,
                                                       walls=True))
    assert scene.tray is not None
    width, height = scene.tray.width_mm, scene.tray.height_mm
    near_wall = [die for die in scene.dice if die.cocked and die.tray_mm is not None and die.edge_mm is not None
                 and min(die.tray_mm[0], die.tray_mm[1], width - die.tray_mm[0], height - die.tray_mm[1])
                 < die.edge_mm]
    assert near_wall


def demo_zones(*names: str) -> SceneSpec:
    """A spec of the demo's tray (400 x 250 mm, four seats' zones) with one die in each zone named."""
    from controller.table.build import seat_zones

    zones = seat_zones(4, 400.0, 250.0)
    return SceneSpec(size=(960, 540), tray=TrayLayout(), markers=True, px_per_mm=2.1, die_px=(31.5, 35.7),
                     n_dice=len(names), areas_mm=tuple(tuple((x, y) for x, y in zones[name]) for name in names))


def gap_mm(a: np.ndarray, b: np.ndarray) -> float:
    """The least distance (mm) between two convex footprints that do not overlap: corner to side."""
    def reach(points: np.ndarray, hull: np.ndarray) -> float:
        return min(abs(cv2.pointPolygonTest(hull.reshape(-1, 1, 2), (float(x), float(y)), True)) for x, y in points)
    return min(reach(a, b), reach(b, a))


@pytest.mark.parametrize("zones", [("seat0", "seat0", "seat0"), ("community", "community", "community"),
                                   ("seat1",), ("seat3", "community", "community")])
def test_a_cocked_die_in_a_zone_leans_on_a_die_or_the_wall(zones: tuple[str, ...]) -> None:
    """A real die stays cocked only against something: in a zone it leans on a die lying there or on
    the tray's wall the zone reaches, its footprint within 1.5 mm of theirs. It used to be tilted on
    nothing at a random point of its zone, standing alone in the open."""
    spec = replace(demo_zones(*zones), cocked=1)
    for seed in range(6):
        scene = render_scene(random.Random(seed), spec)
        dice = scene.layout.dice  # type: ignore[union-attr]
        footprints = [_footprint(die.pose) for die in dice]
        mine = footprints[-1]
        assert dice[-1].cocked and scene.dice[-1].value is None
        to_wall = min(float(mine[:, 0].min()), float(mine[:, 1].min()), 400 - float(mine[:, 0].max()),
                      250 - float(mine[:, 1].max()))
        to_die = min((gap_mm(mine, other) for other in footprints[:-1]), default=math.inf)
        assert min(to_wall, to_die) < 1.5, (seed, to_wall, to_die)


def test_a_die_thrown_alone_into_an_open_zone_lies_flat_though_asked_cocked() -> None:
    """Nothing in the middle of the tray holds a die up: a lone die asked to lie cocked in the
    community zone (no wall, no die there) lies flat and is read, as on a real tray."""
    for seed in range(4):
        scene = render_scene(random.Random(seed), replace(demo_zones("community"), cocked=1))
        assert [(die.cocked, die.value is None) for die in scene.dice] == [(False, False)]


def test_a_roll_after_a_scene_keeps_the_dice_that_lie_still_and_throws_the_others_beside_them() -> None:
    spec = SceneSpec(size=(640, 480), die_px=(40, 60), n_dice=3)
    first = render_roll(random.Random(20), spec, frames=4, settle_at=3, values=[1, 2, 3])[-1]
    later = render_roll(random.Random(21), replace(spec, n_dice=1), frames=4, settle_at=3, values=[5],
                        after=first, staying=[0, 2])
    settled = later[-1]
    assert [die.value for die in settled.dice] == [1, 3, 5]
    for still, before in zip(settled.dice[:2], (first.dice[0], first.dice[2])):
        assert (still.center, still.box) == (before.center, before.box)
        x, y, w, h = (int(v) for v in still.box)
        assert cv2.absdiff(settled.image[y:y + h, x:x + w], first.image[y:y + h, x:x + w]).mean() < 1
    assert [die.moving for die in later[0].dice] == [False, False, True]  # only the thrown die tumbles
    new_centre = np.array(settled.dice[2].center)
    assert all(np.linalg.norm(new_centre - np.array(d.center)) > 0.8 * d.side for d in settled.dice[:2])


def test_a_marbled_die_is_never_swirled_with_its_own_ink() -> None:
    """A black die inked black, swirled with black, would hide its pips: the renderer takes the
    palette's next body that stands off the ink as a maker would ink it, and draws nothing more."""
    ink = (25, 25, 25)
    swirl = _marble_for((32, 30, 30), ink, PALETTE)
    assert swirl is not None and swirl != (32, 30, 30)
    assert np.linalg.norm(np.subtract(swirl, ink)) >= MARBLE_CONTRAST
    assert _marble_for((236, 236, 232), ink, PALETTE) == (236, 236, 232)  # far from the ink: kept
    marbled = [die.style for seed in range(12)
               for die in render_scene(random.Random(seed), replace(SMALL, marbled=1.0)).layout.dice]  # type: ignore[union-attr]
    assert all(style.marble is not None for style in marbled if not style.translucent)
    assert all(np.linalg.norm(np.subtract(style.marble, style.pips)) >= MARBLE_CONTRAST
               for style in marbled if style.marble is not None)
