"""The simulated camera puts dice where the table's tests and demo say: in named zones of the
configured tray, or at tray points (off the tray too); the renderer's truth says where they lie."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from controller.games.errors import InvalidInput
from hardware.camera_sim import SimCamera
from vision.calibrate import Zone, load_tray_config
from vision.render import SceneSpec, render_scene
from vision.settle import SettleConfig, changed_share, shrink

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

TRAY = load_tray_config(Path(__file__).parents[2] / "table.example.toml")
ZONES = {zone.name: zone for zone in TRAY.zones.zones}
QUIET = SettleConfig()  # what the table's settle check calls a frame with no motion


def camera(seed: int) -> SimCamera:
    cam = SimCamera(random.Random(seed), (1024, 576))
    cam.tray = TRAY
    return cam


def inside(zone: Zone, point: tuple[float, float], margin: float) -> bool:
    """True when ``point`` lies in the (rectangular) zone at least ``margin`` mm from its edges."""
    xs, ys = [p[0] for p in zone.polygon], [p[1] for p in zone.polygon]
    return min(xs) + margin <= point[0] <= max(xs) - margin and min(ys) + margin <= point[1] <= max(ys) - margin


def test_dice_land_wholly_inside_their_zones_apart_and_off_the_markers() -> None:
    cam = camera(1)
    wanted = ["community", "community", "community", "seat2", "seat2", "seat0", "seat3"]
    cam.show([1, 2, 3, 4, 5, 6, 1], zones=wanted)
    cam.frame()
    dice = cam.scene.dice
    for die, zone in zip(dice, wanted):
        assert die.tray_mm is not None and die.edge_mm is not None
        assert inside(ZONES[zone], die.tray_mm, die.edge_mm / 2), (zone, die.tray_mm)
    points = np.array([d.tray_mm for d in dice])
    gaps = np.linalg.norm(points[:, None] - points[None], axis=2) + np.eye(len(dice)) * 1e3
    assert gaps.min() > 15.0  # 15-17 mm dice, none on another
    layout = TRAY.layout
    for die in dice:  # a marker's square and its quiet zone stay free
        for corner in range(4):
            x, y = layout.marker_origin_mm(corner)
            assert not (x - 8 < die.tray_mm[0] < x + layout.marker_mm + 8
                        and y - 8 < die.tray_mm[1] < y + layout.marker_mm + 8)
    assert [d.value for d in dice] == [1, 2, 3, 4, 5, 6, 1]


def test_zones_place_dice_at_random_angles_and_places_from_the_seed() -> None:
    first, again, other = camera(2), camera(2), camera(3)
    for cam in (first, again, other):
        cam.show([4, 4], zones=["seat1", "seat1"])
    assert np.array_equal(first.frame(), again.frame())
    other.frame()
    assert first.scene.dice[0].tray_mm != other.scene.dice[0].tray_mm


def test_dice_rest_at_the_given_tray_points_even_off_the_tray() -> None:
    cam = camera(4)
    cam.show([2, 5], positions_mm=[(120.0, 150.0), (-40.0, 150.0)])
    cam.frame()
    assert [d.tray_mm for d in cam.scene.dice] == [(120.0, 150.0), (-40.0, 150.0)]
    assert all(d.value is not None for d in cam.scene.dice)  # both in view


def test_a_roll_tumbles_into_its_zone_then_rests_there() -> None:
    cam = camera(5)
    cam.roll([3, 6], frames=4, zones=["seat1", "seat1"])
    frames = [cam.frame() for _ in range(6)]
    changed = [changed_share(shrink(a, QUIET.width), shrink(b, QUIET.width), QUIET.threshold)
               for a, b in zip(frames, frames[1:])]
    assert changed[0] >= QUIET.min_changed  # moving
    assert changed[4] < QUIET.min_changed   # at rest: the frames differ by sensor noise only
    assert all(inside(ZONES["seat1"], d.tray_mm, 0) for d in cam.scene.dice if d.tray_mm)


def test_zones_need_a_tray_and_a_zone_it_has() -> None:
    bare = SimCamera(random.Random(0), (640, 360))
    with pytest.raises(InvalidInput, match="needs a tray"):
        bare.show([1], zones=["community"])
    with pytest.raises(InvalidInput, match="no zone 'seat9'.*community, seat0"):
        camera(0).show([1], zones=["seat9"])


def test_the_renderer_refuses_places_that_do_not_match_the_dice() -> None:
    spec = SceneSpec(size=(320, 240), die_px=(20, 24), markers=True, positions_mm=((50.0, 50.0),))
    with pytest.raises(InvalidInput, match="1 places for 2 dice"):
        render_scene(random.Random(0), spec, values=[1, 2])
    with pytest.raises(InvalidInput, match="needs a tray"):
        SceneSpec(areas_mm=(((0.0, 0.0), (10.0, 0.0), (10.0, 10.0)),))
