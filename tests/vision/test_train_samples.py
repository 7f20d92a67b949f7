"""The trainers' samples: what the finder and the reader are taught on (PyTorch only for training on from a model)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision.classify import FaceClassifier
from vision.crops import CROP_PX, READ_PX
from vision.render import Scene, SceneSpec
from vision.train import (DEEP_READER, FINDER, READER, UNREADABLE, NetSpec, camera, epoch_samples, load_onnx,
                          synthetic_photos, with_sightings)


def test_reader_is_taught_where_the_finder_sees_each_die() -> None:
    photo = with_sightings(synthetic_photos(1, seed=3)[0])
    assert photo.sightings is not None and len(photo.sightings) == len(photo.values)
    readable = [k for k, v in enumerate(photo.values) if v != UNREADABLE]
    for k in readable:
        seen = photo.sightings[k]
        assert not np.isnan(seen[0]), f"die {k} not seen"
        assert np.linalg.norm(seen[:2] - photo.centers[k]) < 0.3 * photo.sizes[k]
        assert 0.5 * photo.sizes[k] < seen[2] < 1.5 * photo.sizes[k]


@pytest.mark.parametrize("net", ["reader", "deep-reader"])
def test_reader_samples_are_sharper_crops_with_the_same_classes(net: str) -> None:
    photo = with_sightings(synthetic_photos(1, seed=4)[0])
    rng = np.random.default_rng(0)
    x, y = epoch_samples([photo], rng, per_die=2, negatives_per_photo=3, net=net)
    assert x.shape == (2 * len(photo.values) + 3, READ_PX, READ_PX, 3)
    assert sorted(set(y)) == sorted({0} | {int(v) for v in photo.values})


def test_the_cocked_network_is_taught_on_dice_turned_to_face_the_point_below_the_camera(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the reader of a calibrated tray crops each die facing the point of the tray straight below
    # the camera (faces.cocked_shares, Calibration.below_camera): so must the trainer, from the
    # renderer's camera; here a tilted one, whose point lies far from the frame's centre
    import random

    from vision import train_faces
    from vision.calibrate import calibrate
    from vision.crops import facing
    from vision.render import SceneSpec, render_scene

    scene = render_scene(random.Random(8), SceneSpec(size=(960, 540), n_dice=5, kind="letters", cocked=2,
                                                     markers=True, perspective=1.0))
    assert scene.tray is not None
    below = calibrate(scene.image, scene.tray).below_camera()
    assert below is not None and np.hypot(below[0] - 479.5, below[1] - 269.5) > 200
    taken: list[tuple[tuple[float, float], float]] = []
    real_crop = train_faces.crop

    def crop(image: np.ndarray, centre: tuple[float, float], side: float, turn: float, *rest: object) -> np.ndarray:
        taken.append((centre, turn))
        return real_crop(image, centre, side, turn, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(train_faces, "crop", crop)
    patches, labels = train_faces._cocked_scene(scene, np.random.default_rng(0), per_die=4)
    assert len(patches) == len(taken) >= 8 and 0 < sum(labels) < len(labels)
    for centre, turn in taken:
        off = (turn - facing(centre, below) + 180) % 360 - 180
        assert abs(off) < 4 * train_faces.FACING_SLACK


def test_the_d6_kind_networks_crops_are_class_1_for_every_die_of_another_kind() -> None:
    import random

    from vision import train_faces
    from vision.render import SceneSpec, render_scene

    scene = render_scene(random.Random(3), SceneSpec(size=(960, 540), n_dice=5, kind="letters", cocked=1))
    _, labels = train_faces._cocked_scene(scene, np.random.default_rng(0), 2, train_faces._other_kind)
    assert len(labels) >= 8 and all(labels)  # a cocked letter die too
    d6 = render_scene(random.Random(3), SceneSpec(size=(960, 540), n_dice=5, kind="d6", cocked=1))
    _, labels = train_faces._cocked_scene(d6, np.random.default_rng(0), 2, train_faces._other_kind)
    assert len(labels) >= 8 and not any(labels)


def drawn_specs(monkeypatch: pytest.MonkeyPatch) -> list:
    """The scene specs the face trainer renders from, recorded as it draws them."""
    from vision import train_faces

    specs: list = []
    real = train_faces.render_scene

    def recorded(rng: random.Random, spec: SceneSpec) -> Scene:
        specs.append(spec)
        return real(rng, spec)

    monkeypatch.setattr(train_faces, "render_scene", recorded)
    return specs


def test_the_cocked_networks_heaps_are_crowded_and_mostly_flat(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import train_faces

    specs = drawn_specs(monkeypatch)
    x, y = train_faces.cocked_letters_heaps_crops(6, seed=3)
    assert len(specs) == 6 and all(s.kind == "letters" and s.touching and 5 <= s.n_dice <= 8 and s.cocked <= 2
                                   for s in specs)
    assert len(x) == len(y) >= 6 * 5 * 3 * 0.6 and 0 < y.mean() < 0.3  # flat dice in heaps, a few cocked


def test_the_cocked_networks_tilted_views_lean_further_than_the_usual_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import train_faces

    specs = drawn_specs(monkeypatch)
    _, y = train_faces.cocked_tilted_crops(4, seed=5)
    assert len(specs) == 4 and all(s.perspective >= 0.3 and s.cocked >= 1 for s in specs) and y.any()
    assert {s.kind for s in specs} <= {"d6", "d12", "d8-tauren", "letters"}


def test_finder_samples_stay_small() -> None:
    photo = synthetic_photos(1, seed=5)[0]
    x, y = epoch_samples([photo], np.random.default_rng(0), per_die=1, negatives_per_photo=2)
    assert x.shape == (len(photo.values) + 2, CROP_PX, CROP_PX, 3) and (y == 0).sum() >= 2


@pytest.mark.parametrize("spec", [FINDER, READER, DEEP_READER], ids=lambda spec: spec.name)
def test_each_shipped_model_has_the_layers_of_its_net(spec: NetSpec) -> None:
    """The shipped ONNX file of each net is the network its spec builds: per convolution a Conv (of
    the stage's width) and a Relu, per stage a MaxPool, then Flatten, the dense layers and Softmax
    (read from the file itself: OpenCV 5.1 fuses and renames the layers it loads)."""
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    graph = onnx.load(spec.path).graph
    convs = [op for width, n in spec.stages for op in ["Conv", "Relu"] * n + ["MaxPool"]]
    dense = ["Gemm", "Relu", "Gemm"] if spec.hidden else ["Gemm"]
    assert [node.op_type for node in graph.node] == convs + ["Flatten", *dense, "Softmax"]
    weights = {w.name: numpy_helper.to_array(w) for w in graph.initializer}
    widths = [weights[node.input[1]].shape[0] for node in graph.node if node.op_type == "Conv"]
    assert widths == [width for width, n in spec.stages for _ in range(n)]
    assert FaceClassifier(spec.path, spec.px).probabilities(np.zeros((1, spec.px, spec.px, 3), np.uint8)).shape[1] \
        == UNREADABLE + 1


def test_camera_keeps_the_die_where_its_crop_says() -> None:
    """However the camera changes the part around a die (its scale above all), the returned centre
    and side still frame the same die: a bright square stays at the centre, its side scaled alike."""
    image = np.full((200, 300, 3), 40, np.uint8)
    image[90:120, 140:170] = 230  # a 30 px "die" centred at (154.5, 104.5)
    sides = set()
    for seed in range(40):
        part, center, side = camera(image, (154.5, 104.5), 48.0, np.random.default_rng(seed))
        grey = part.astype(np.float32).mean(axis=2)
        ys, xs = np.nonzero(grey > 135)
        assert abs(xs.mean() - center[0]) < 1.5 and abs(ys.mean() - center[1]) < 1.5, seed
        assert abs(np.sqrt(len(xs)) - 30 * side / 48) < 0.2 * 30 * side / 48 + 2, seed
        sides.add(round(side, 1))
    assert min(sides) < 0.6 * 48 and max(sides) > 1.2 * 48  # dice from 35% to 150% of their size


def test_camera_is_deterministic_for_one_generator() -> None:
    image = np.random.default_rng(1).integers(0, 255, (120, 120, 3)).astype(np.uint8)
    first = camera(image, (60.0, 60.0), 40.0, np.random.default_rng(7))
    again = camera(image, (60.0, 60.0), 40.0, np.random.default_rng(7))
    assert np.array_equal(first[0], again[0]) and first[1:] == again[1:]


@pytest.mark.parametrize("spec", [FINDER, READER, DEEP_READER], ids=lambda spec: spec.name)
def test_training_on_from_a_shipped_model_starts_where_it_is(spec: NetSpec) -> None:
    """``--start``: the network loaded from a shipped ONNX file gives the shipped file's probabilities."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from vision.crops import normalise

    net = load_onnx(spec, spec.path).eval()
    crops = np.random.default_rng(0).integers(0, 255, (4, spec.px, spec.px, 3)).astype(np.uint8)
    with torch.no_grad():
        ours = torch.softmax(net(torch.from_numpy(normalise(crops))), 1).numpy()
    assert np.abs(ours - FaceClassifier(spec.path, spec.px).probabilities(crops)).max() < 1e-4


def test_the_d6_cocked_network_is_taught_the_real_photos_dice_as_lying_flat(monkeypatch: pytest.MonkeyPatch) -> None:
    # the shared cocked network, taught on rendered dice only, took 8.6% of the real photos' flat d6
    # for leaning; the d6 one is also taught those dice (class 0), cropped where the finder sees
    # them, facing the photo's centre, and never the held-out photos
    from vision import photos, train_faces
    from vision.crops import facing

    chosen = [p for i, p in enumerate(photos.load_set(photos.DEFAULT_SET)) if i in (0, 1)]
    monkeypatch.setattr(photos, "load_set", lambda folder: chosen)
    monkeypatch.setattr(photos, "is_held_out", lambda index: index == 1)
    monkeypatch.setattr(train_faces, "FLAT_PHOTO_CHANGES", ("none",))
    turns: list[float] = []
    real_crop = train_faces.crop

    def crop(image: np.ndarray, centre: tuple[float, float], side: float, turn: float, *rest: object) -> np.ndarray:
        turns.append(turn - facing(centre, (319.5, 319.5)))
        return real_crop(image, centre, side, turn, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(train_faces, "crop", crop)
    x, y = train_faces._flat_photo_crops(seed=1, per_die=2)
    assert x.shape[1:] == (48, 48, 3) and not y.any()
    assert len(chosen[0].dice) - 1 <= len(y) / 2 <= len(chosen[0].dice)
    assert all(abs(t) < 4 * train_faces.FACING_SLACK for t in turns)


def test_a_sighting_is_kept_for_the_labelled_die_it_lies_in_once() -> None:
    from vision.train_faces import _in_boxes

    seen = [(10.0, 10.0, 8.0), (12.0, 11.0, 8.0), (50.0, 50.0, 8.0)]
    assert _in_boxes(seen, [(0.0, 0.0, 20.0, 20.0), (100.0, 100.0, 10.0, 10.0)]) == [(10.0, 10.0, 8.0)]
