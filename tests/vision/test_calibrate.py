"""Tray calibration: markers found, homography fitted, dice placed on the tray in millimetres, zones."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from controller.games.errors import ConfigError
from vision.calibrate import (Calibration, CalibrationError, TrayConfig, TrayLayout, ZoneMap, calibrate,
                              detect_markers, load_tray_config)
from vision.render import Scene, SceneSpec, render_scene

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too


def tray_scene(seed: int, perspective: float) -> Scene:
    spec = SceneSpec(markers=True, perspective=perspective, noise=3.0, blur=0.7, background="random")
    return render_scene(random.Random(seed), spec)


def assert_dice_placed_within(calibration: Calibration, scene: Scene, mm: float) -> None:
    """Every die's tray position, found from its top face's pixel, is within ``mm`` of the truth."""
    for die in scene.dice:
        assert die.tray_mm is not None and die.edge_mm is not None
        found = calibration.die_tray_mm(die.center, die.edge_mm)
        assert np.hypot(found[0] - die.tray_mm[0], found[1] - die.tray_mm[1]) < mm


def test_all_four_markers_are_found_in_a_rendered_tray() -> None:
    assert sorted(detect_markers(tray_scene(1, 0.4).image)) == [0, 1, 2, 3]


@pytest.mark.parametrize("seed, perspective", [(2, 0.3), (3, 0.6), (4, 1.0)])
def test_die_tray_position_is_recovered_within_2_mm_from_a_tilted_view(seed: int, perspective: float) -> None:
    scene = tray_scene(seed, perspective)
    assert scene.tray is not None
    assert_dice_placed_within(calibrate(scene.image, scene.tray), scene, 2.0)


def test_die_tray_position_straight_down_uses_the_configured_focal_length() -> None:
    scene = tray_scene(5, 0.0)
    assert scene.tray is not None and scene.camera is not None
    assert_dice_placed_within(calibrate(scene.image, scene.tray, focal_px=scene.camera.focal_px), scene, 2.0)


def test_focal_length_is_estimated_from_a_tilted_view() -> None:
    scene = tray_scene(6, 0.8)
    assert scene.tray is not None and scene.camera is not None
    calibration = calibrate(scene.image, scene.tray)
    assert calibration.focal_px == pytest.approx(scene.camera.focal_px, rel=0.05)


@pytest.mark.parametrize("seed, perspective, covering", [(8, 0.4, None), (9, 1.0, None), (9, 1.0, 2)])
def test_the_point_below_a_tilted_camera_is_where_the_camera_has_it(seed: int, perspective: float,
                                                                     covering: int | None) -> None:
    # covering: a marker covered (the point below is then guessed from three markers)
    scene = tray_scene(seed, perspective)
    assert scene.tray is not None and scene.camera is not None
    image = scene.image if covering is None else covered(scene.image, covering)
    below = calibrate(image, scene.tray).below_camera()
    centre = scene.camera.centre
    truth = scene.camera.project(np.array([[centre[0], centre[1], 0.0]]))[0]
    assert below is not None
    assert np.hypot(below[0] - truth[0], below[1] - truth[1]) < 0.05 * scene.camera.size[0]


def test_the_point_below_a_camera_looking_straight_down_is_unknown_without_its_focal_length() -> None:
    scene = tray_scene(7, 0.0)
    assert scene.tray is not None and scene.camera is not None
    assert calibrate(scene.image, scene.tray).below_camera() is None  # the reader takes the frame's centre
    below = calibrate(scene.image, scene.tray, focal_px=scene.camera.focal_px).below_camera()
    assert below is not None and np.hypot(below[0] - 767.5, below[1] - 431.5) < 5


def test_straight_down_view_without_focal_length_cannot_place_raised_dice() -> None:
    scene = tray_scene(7, 0.0)
    assert scene.tray is not None
    calibration = calibrate(scene.image, scene.tray)
    with pytest.raises(CalibrationError, match="focal"):
        calibration.die_tray_mm(scene.dice[0].center, 16.0)


def test_tray_points_round_trip_through_pixels() -> None:
    scene = tray_scene(8, 0.5)
    assert scene.tray is not None
    calibration = calibrate(scene.image, scene.tray)
    points = np.array([[10.0, 20.0], [150.0, 90.0], [200.0, 5.0]])
    assert np.allclose(calibration.to_tray(calibration.to_image(points)), points)


def test_top_down_image_puts_markers_where_the_layout_says() -> None:
    scene = tray_scene(9, 0.6)
    assert scene.tray is not None
    top = calibrate(scene.image, scene.tray).top_down(scene.image, px_per_mm=3.0, border_mm=10.0)
    found = detect_markers(top)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        assert np.abs(corners / 3.0 - 10.0 - scene.tray.marker_corners_mm(marker_id)).max() < 1.0


def test_frame_without_markers_is_refused_with_the_missing_ids() -> None:
    scene = render_scene(random.Random(10), SceneSpec(size=(640, 480), die_px=(40, 50), markers=False))
    with pytest.raises(CalibrationError, match=r"\[0, 1, 2, 3\]"):
        calibrate(scene.image, TrayLayout())


def test_tray_layout_refuses_markers_that_do_not_fit() -> None:
    with pytest.raises(ConfigError, match="cannot hold"):
        TrayLayout(width_mm=60, height_mm=60, marker_mm=30, margin_mm=5)


def test_tray_layout_refuses_a_size_that_is_not_a_number() -> None:
    with pytest.raises(ConfigError, match="width_mm"):
        TrayLayout.from_config({"width_mm": "wide"})


ZONES = {
    "community": [[150, 75], [250, 75], [250, 175], [150, 175]],
    "seat1": {"polygon": [[0, 0], [150, 0], [150, 125], [0, 125]]},
    "seat2": [[250, 0], [400, 0], [400, 125]],
}


def test_zone_of_names_the_community_area_and_seats() -> None:
    zones = ZoneMap.from_config(ZONES)
    assert zones.zone_of((200, 100)) == "community"
    assert zones.zone_of((20, 20)) == "seat1"
    assert zones.zone_of((390, 20)) == "seat2"
    assert zones.zone_of((100, 200)) is None


def test_zone_with_fewer_than_three_points_is_refused() -> None:
    with pytest.raises(ConfigError, match="seat3"):
        ZoneMap.from_config({"seat3": [[0, 0], [10, 10]]})


def test_zone_that_is_not_a_point_list_is_refused() -> None:
    with pytest.raises(ConfigError, match="community"):
        ZoneMap.from_config({"community": "middle"})


def test_tray_configuration_is_loaded_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[tray]\nwidth_mm = 420\nheight_mm = 297\nmarker_mm = 35\nfocal_px = 1180\n\n'
                    '[zones]\ncommunity = [[100, 100], [300, 100], [300, 200], [100, 200]]\n')
    config = load_tray_config(path)
    assert config.layout == TrayLayout(420.0, 297.0, 35.0, 5.0)
    assert config.zones.zone_of((200, 150)) == "community"
    assert config.focal_px == 1180.0


def test_configuration_without_tray_tables_gives_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text('[game]\nname = "tao"\n')
    assert load_tray_config(path) == TrayConfig()


def test_negative_focal_length_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text("[tray]\nfocal_px = -3\n")
    with pytest.raises(ConfigError, match="focal_px"):
        load_tray_config(path)


def test_unreadable_tray_configuration_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[tray\nwidth_mm = ")
    with pytest.raises(ConfigError, match="broken.toml"):
        load_tray_config(path)


def test_three_markers_are_enough_when_a_hand_covers_the_fourth() -> None:
    scene = tray_scene(11, 0.5)
    assert scene.tray is not None
    corners = detect_markers(scene.image)[2]
    covered = scene.image.copy()
    lo, hi = corners.min(axis=0).astype(int) - 10, corners.max(axis=0).astype(int) + 10
    covered[max(0, lo[1]):hi[1], max(0, lo[0]):hi[0]] = (60, 80, 120)
    assert_dice_placed_within(calibrate(covered, scene.tray), scene, 2.0)


def covered(image: np.ndarray, marker: int) -> np.ndarray:
    """``image`` with ``marker`` and its white zone painted in the felt's colour (a hand, a die on it)."""
    import cv2

    corners = detect_markers(image)[marker]
    centre = corners.mean(axis=0)
    out = image.copy()
    cv2.fillPoly(out, [(centre + (corners - centre) * 1.7).astype(np.int32)],
                 tuple(int(v) for v in np.median(image.reshape(-1, 3), axis=0)))
    return out


@pytest.mark.parametrize("seed, marker", [(2, 0), (9, 3), (28, 0)])
def test_a_tray_seen_straight_down_with_a_marker_covered_is_still_seen_from_straight_above(seed: int, marker: int) -> None:
    # three markers' slight perspective is noise: the focal length guessed from it was ~30,000 px
    # (lens 2,100), which put the point below the camera a frame's width away, off the frame
    from vision.crops import straight_above

    scene = render_scene(random.Random(seed), SceneSpec(size=(1536, 864), markers=True, n_dice=4, noise=6,
                                                        die_px=(38, 46)))
    assert scene.tray is not None
    image = covered(scene.image, marker)
    calibration = calibrate(image, scene.tray)
    assert sorted(detect_markers(image)) == sorted({0, 1, 2, 3} - {marker})
    assert calibration.focal_px is None
    assert straight_above(calibration.below_camera(), image.shape)


def test_markers_of_other_ids_on_the_tray_are_neither_reported_nor_taken_for_its_corners() -> None:
    import cv2

    from vision.calibrate import MARKER_DICTIONARY

    scene = tray_scene(1, 0.0)
    image = scene.image.copy()
    whole = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    for n, marker in enumerate((4, 17, 33, 49)):
        tile = cv2.aruco.generateImageMarker(whole, marker, 60)
        x, y = 500 + 130 * n, 300
        image[y - 15:y + 75, x - 15:x + 75] = 255
        image[y:y + 60, x:x + 60] = tile[:, :, None]
    assert {marker for marker in (4, 17, 33, 49)
            if marker in cv2.aruco.ArucoDetector(whole).detectMarkers(image)[1].ravel()} == {4, 17, 33, 49}
    found = detect_markers(image)
    assert sorted(found) == [0, 1, 2, 3]
    assert all(np.allclose(found[k], corners, atol=0.5) for k, corners in detect_markers(scene.image).items())


def test_every_marker_of_a_bright_green_tray_is_found_and_none_is_taken_for_another() -> None:
    # tray 71 of the d12 bench trays: OpenCV 4.10 (the Pi's) took the outline of marker 0's white
    # zone for a marker 17 and dropped marker 0 inside it, while looking for every 4x4 marker
    from tests.vision.conftest import bench_script

    image, layout, _ = bench_script("faces_reader.py", "bench_faces").tray_frame("d12", 71)
    assert sorted(detect_markers(image)) == [0, 1, 2, 3]
    assert calibrate(image, layout).focal_px is None
