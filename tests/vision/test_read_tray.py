"""Reading on a calibrated tray: the top-down view, markers ignored, readings in frame pixels; and a
tray's frame read without its calibration, markers ignored too."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from vision.calibrate import calibrate
from vision.read import read_dice
from vision.render import SceneSpec, render_scene

from tests.vision.conftest import found

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too


def test_calibrated_tray_reads_every_die_and_not_the_markers() -> None:
    scene = render_scene(random.Random(12), SceneSpec(markers=True, perspective=0.6), values=[1, 3, 5, 2, 6])
    assert scene.tray is not None
    observation = read_dice(scene.image, tray=calibrate(scene.image, scene.tray))
    assert len(observation.dice) == len(scene.dice)
    for truth in scene.dice:
        x, y, w, h = truth.box
        inside = [d for d in observation.dice if x <= d.center[0] <= x + w and y <= d.center[1] <= y + h]
        assert [d.value for d in inside] == [truth.value]


def test_letter_dice_on_a_calibrated_tray_are_never_read_as_pip_values() -> None:
    # letter dice are cubes: the d6 readers took 41 of 112 on the demo's tray for pip dice
    for seed in range(6):
        scene = render_scene(random.Random(seed), SceneSpec(markers=True, kind="letters", n_dice=6))
        assert scene.tray is not None
        observation = read_dice(scene.image, tray=calibrate(scene.image, scene.tray))
        assert len(observation.dice) >= 5
        assert [d.value for d in observation.dice] == [None] * len(observation.dice)
        assert {d.flag for d in observation.dice} <= {"other_kind", "cocked"}


def test_the_tray_fixes_the_die_size_when_the_photo_alone_would_guess_twice_it() -> None:
    """Eight square chips twice a die's size lie on the tray between five dice: from the photo
    alone the finder takes them for the typical die; the calibration's die size finds every die."""
    import cv2
    import numpy as np

    from vision.detect import propose
    from vision.read import tray_die_px, tray_view

    scene = render_scene(random.Random(12), SceneSpec(markers=True, perspective=0.6, die_px=(40, 40)),
                         values=[1, 3, 5, 2, 6])
    assert scene.tray is not None
    tray = calibrate(scene.image, scene.tray)
    image = scene.image.copy()
    for k, (x, y) in enumerate(_chip_places(tray, [d.center for d in scene.dice], 8)):
        half = scene.tray.die_mm
        corners = tray.to_image(np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                                          [x - half, y + half]]))
        cv2.fillConvexPoly(image, np.round(corners).astype(np.int32), (40, 40, 180) if k % 2 else (200, 120, 30))
    top = tray_view(image, tray)
    assert propose(top).side > 1.8 * tray_die_px(tray)  # the photo alone: the chips' size
    observation = read_dice(image, tray=tray)
    assert len(observation.dice) == len(scene.dice)
    for truth in scene.dice:
        x, y, w, h = truth.box
        inside = [d for d in observation.dice if x <= d.center[0] <= x + w and y <= d.center[1] <= y + h]
        assert [d.value for d in inside] == [truth.value]


def _chip_places(tray: object, dice_px: list[tuple[float, float]], count: int) -> list[tuple[float, float]]:
    """``count`` chip centres on the tray (mm), 40 mm from every die and chip and 60 mm from its edges."""
    import numpy as np

    dice = [tuple(p) for p in tray.to_tray(np.array(dice_px))]  # type: ignore[attr-defined]
    layout = tray.layout  # type: ignore[attr-defined]
    rng = random.Random(3)
    placed: list[tuple[float, float]] = []
    while len(placed) < count:
        x, y = rng.uniform(60, layout.width_mm - 60), rng.uniform(60, layout.height_mm - 60)
        if all(np.hypot(x - a, y - b) > 40 for a, b in dice + placed):
            placed.append((x, y))
    return placed


def test_a_die_nearly_the_felts_colour_showing_two_is_found_on_a_calibrated_tray() -> None:
    """A green die on green felt, a dark one on grey felt, a purple one on blue felt: the foreground
    mask keeps one pip or a sliver of each, and nothing proposed the die's centre (three of the 11
    flat dice ``bench/demo_tray.py --trays 600`` did not find; all showed 2)."""
    from tests.vision.conftest import bench_script

    tray_scene = bench_script("demo_tray.py", "bench_demo_tray").tray_scene
    for index in (23, 71, 101):
        scene = tray_scene("d6", 4, 1, index)
        assert scene.tray is not None
        observation = read_dice(scene.image, tray=calibrate(scene.image, scene.tray))
        twos = [truth for truth in scene.dice if truth.value == 2]
        assert twos, index
        for truth in twos:
            x, y, w, h = truth.box
            inside = [d for d in observation.dice if x <= d.center[0] <= x + w and y <= d.center[1] <= y + h]
            assert [d.value for d in inside] == [2], (index, truth.center)


def test_a_flat_face_die_the_upright_reader_doubts_is_taken_when_the_cocked_network_sees_it_flat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A flat d8-tauren on the demo's tray (a 1, tray 95) that the upright reader doubts (0.752;
    0.754 on the Pi's libraries) and the cocked network is sure lies flat: under
    :data:`vision.faces.FLAT` the share the reader kept for "unreadable" (a side, a glare) goes back
    to its faces, and it is taken (0.780; 0.782). It was a dark blue Tauren Chieftain (trays 132 and
    195, 0.73-0.76) until the upright reader learnt 25 fonts: it reads that one surely either way,
    and of 300 such trays doubts a flat die that FLAT then takes in two, this one on both libraries."""
    import vision.faces
    from tests.vision.conftest import bench_script
    from vision.read import UNCERTAIN

    tray_scene = bench_script("demo_tray.py", "bench_demo_tray").tray_scene
    scene = tray_scene("d8-tauren", 4, 1, 95)
    assert scene.tray is not None
    (one,) = [truth for truth in scene.dice if truth.value == 1]
    readings = []
    for flat in (-1.0, vision.faces.FLAT):
        monkeypatch.setattr(vision.faces, "FLAT", flat)
        observation = read_dice(scene.image, "d8-tauren", tray=calibrate(scene.image, scene.tray))
        (reading,) = found(one.box, observation.dice)
        assert reading.value == one.value
        readings.append(reading)
    doubted, taken = readings
    assert doubted.flag == "uncertain"
    assert taken.flag is None and taken.confidence >= max(UNCERTAIN, doubted.confidence + 0.02), readings


def cocked_demo_tray(seed: int, index: int) -> Any:
    """Tray ``index`` of ``seed`` drawn as ``bench/demo_tray.py`` draws the demo's throws, but with
    one die cocked on every tray (as the d8-tauren dice the cocked network is unsure of were found)."""
    from controller.table.build import seat_zones
    from hardware.camera_sim import TRAY_DIE_MM, TRAY_FILL
    from vision.calibrate import TrayLayout

    layout, size = TrayLayout(), (1536, 864)
    zones = seat_zones(4, layout.width_mm, layout.height_mm)
    px_per_mm = TRAY_FILL * min(size[0] / layout.width_mm, size[1] / layout.height_mm)
    rng = random.Random(seed * 100_000 + index)
    count = rng.randint(2, 7)
    areas = tuple(tuple((float(x), float(y)) for x, y in zones[rng.choice(sorted(zones))]) for _ in range(count))
    spec = SceneSpec(size=size, tray=layout, markers=True, px_per_mm=px_per_mm, kind="d8-tauren",
                     die_px=(TRAY_DIE_MM[0] * px_per_mm, TRAY_DIE_MM[1] * px_per_mm), n_dice=count,
                     areas_mm=areas, cocked=1)
    return render_scene(random.Random(rng.getrandbits(32)), spec)


@pytest.mark.parametrize(("index", "value"), [(412, 5), (380, 7)])
def test_a_cocked_d8_the_cocked_network_is_unsure_of_is_judged_by_its_edges_however_surely_it_reads(
        monkeypatch: pytest.MonkeyPatch, index: int, value: int) -> None:
    """Cocked d8-tauren dice on the demo's tray, seen by its calibrated camera, that the cocked
    network is unsure of (between ``FLAT`` and ``TRAY_LEANS``) and the upright reader reads surely
    (a 5 at 0.81 and a 7 at 0.84; 0.80 and 0.84 on the Pi's libraries): without the edges they were
    taken with a value. Their edges fit a leaning octahedron (edge ratio 1.50 and 1.47, on both
    libraries): they are flagged cocked, which the players settle. The edges were asked of doubted
    dice only, nearly all the cocked ones the reader before doubted (374 of 381); the reader taught
    25 fonts doubts fewer, and took 6 of 896 cocked dice on 1,000 such trays (as many as the reader
    before, not all the same dice). Until then the test held a doubted flat die (tray 55, an 8) and
    a doubted cocked one (tray 367, 1.32): the new reader reads both surely, and the flat side is
    tested with its edges' ratio given (``test_faces.py``)."""
    import vision.faces

    scene = cocked_demo_tray(61, index)
    assert scene.tray is not None and scene.camera is not None
    tray = calibrate(scene.image, scene.tray, scene.camera.focal_px)
    (die,) = [truth for truth in scene.dice if truth.cocked]
    readings = []
    for flat, lean in ((-1.0, float("inf")), (vision.faces.EDGES_FLAT, vision.faces.EDGES_LEAN)):
        monkeypatch.setattr(vision.faces, "EDGES_FLAT", flat)
        monkeypatch.setattr(vision.faces, "EDGES_LEAN", lean)
        (reading,) = found(die.box, read_dice(scene.image, "d8-tauren", tray=tray).dice)
        readings.append((reading.value, reading.flag))
    assert readings == [(value, None), (None, "cocked")]


def test_a_flat_d8_the_cocked_network_flags_is_taken_when_its_edges_are_surely_flat(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A flat d8-tauren (a 1) on the demo's tray that the cocked network flags (0.205, over
    ``TRAY_LEANS``): a throw again, and issue 18's seed 72 sent such a die, flagged at every throw, to
    the dealer. Its edges fit a flat octahedron (edge ratio 0.698, 0.701 on the Pi's libraries),
    under ``EDGES_SURELY_FLAT``: it is read. Without asking the edges of a flagged die it stays cocked."""
    import vision.faces

    scene = cocked_demo_tray(61, 859)
    assert scene.tray is not None and scene.camera is not None
    tray = calibrate(scene.image, scene.tray, scene.camera.focal_px)
    (die,) = [truth for truth in scene.dice if truth.value == 1 and truth.center[1] < 300]
    readings = []
    for asked in (vision.faces.TRAY_LEANS, vision.faces.EDGES_ASKED):
        monkeypatch.setattr(vision.faces, "EDGES_ASKED", asked)
        (reading,) = found(die.box, read_dice(scene.image, "d8-tauren", tray=tray).dice)
        readings.append((reading.value, reading.flag))
    assert readings == [(None, "cocked"), (1, None)]


def test_on_a_still_tray_seen_from_above_every_die_counts_as_sharp_as_the_sharpest(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice lie on one plane, in the camera's one focus: a die measured softer than the others
    has faint marks (a white symbol on a pink die), not blur, and its confidence is not lowered for
    it (``read.seen_well``). A photo's dice may lie at any distance: each keeps its own."""
    import cv2

    from vision import read
    from vision.faces import read_faces

    measured: list[float] = []
    seen_well = read.seen_well

    def measuring(sharp: float, side: float) -> float:
        measured.append(sharp)
        return seen_well(sharp, side)

    monkeypatch.setattr(read, "seen_well", measuring)
    for kind in ("d6", "d8-tauren"):
        scene = render_scene(random.Random(2), SceneSpec(size=(1536, 864), markers=True, kind=kind, n_dice=4,
                                                         die_px=(40, 46)))
        assert scene.tray is not None
        image = scene.image.copy()
        x, y, w, h = (int(v) for v in scene.dice[0].box)
        image[y:y + h, x:x + w] = cv2.GaussianBlur(image[y:y + h, x:x + w], (0, 0), 1.5)  # one die soft
        measured.clear()
        tray = calibrate(image, scene.tray)
        dice = (read_dice(image, tray=tray) if kind == "d6" else read_faces(image, kind, tray=tray)).dice
        assert len([d for d in dice if d.value is not None]) == 4 and len(measured) == 4
        assert set(measured) == {max(measured)}, kind  # each as sharp as the sharpest
        if kind == "d6":  # the same frame as a photo: the blurred die is measured soft
            measured.clear()
            assert len([d for d in read_dice(image).dice if d.value is not None]) >= 4
            assert min(measured) < 0.6 * max(measured)


@pytest.mark.parametrize("kind", ["d6", "d8-tauren"])
def test_a_frame_of_the_tray_read_without_its_calibration_takes_no_marker_for_a_die(kind: str) -> None:
    """``dicetable vision read`` of a frame saved from the table's camera: the corner markers, black
    and white squares about a die's size, were taken for dice and set the finder's size guess (on
    these two frames the d6 were read, beside 21 false dice; none of the d8-tauren was read right)."""
    from vision.faces import read_faces

    for seed in (100, 101):
        scene = render_scene(random.Random(seed), SceneSpec(size=(1536, 864), markers=True, kind=kind, n_dice=5,
                                                            die_px=(38, 46)))
        dice = (read_dice(scene.image) if kind == "d6" else read_faces(scene.image, kind)).dice
        assert len(dice) == 5, seed  # no marker read as a die
        for truth in scene.dice:
            assert [d.value for d in found(truth.box, dice)] == [truth.value]


def crumbs_on(scene_image: np.ndarray, boxes: list[tuple[float, float, float, float]], seed: int, count: int = 12) -> np.ndarray:
    """The frame with ``count`` crumbs (round, 4-10 px, dark, grey or brown) strewn on the tray, away from the dice."""
    import cv2

    image, rng, strewn = scene_image.copy(), random.Random(seed), 0
    while strewn < count:
        x, y = rng.uniform(250, 1286), rng.uniform(150, 714)
        if any(bx - 20 <= x <= bx + bw + 20 and by - 20 <= y <= by + bh + 20 for bx, by, bw, bh in boxes):
            continue
        colour = rng.choice([(20, 20, 20), (30, 40, 60), (200, 200, 200), (60, 90, 140)])
        cv2.circle(image, (int(x), int(y)), int(rng.uniform(2, 5)), colour, -1, cv2.LINE_AA)
        strewn += 1
    return image


@pytest.mark.parametrize("kind, seed", [("d6", 6), ("letters", 1), ("d12", 4), ("d8-tauren", 9)])
def test_crumbs_on_a_calibrated_tray_are_no_dice_and_every_die_is_still_read(
        monkeypatch: pytest.MonkeyPatch, kind: str, seed: int) -> None:
    import vision.detect

    scene = render_scene(random.Random(seed), SceneSpec(size=(1536, 864), markers=True, kind=kind, n_dice=4,
                                                        die_px=(38, 46), background="felt"))
    assert scene.tray is not None
    image = crumbs_on(scene.image, [truth.box for truth in scene.dice], seed)
    calibration = calibrate(image, scene.tray)

    def read() -> tuple[int, int]:  # dice read as their truth, readings elsewhere (crumbs)
        dice = read_dice(image, kind, tray=calibration).dice
        right = sum([d.value for d in found(t.box, dice)] == [t.value] for t in scene.dice)
        return right, sum(not any(found(t.box, [d]) for t in scene.dice) for d in dice)

    assert read() == (len(scene.dice), 0)
    monkeypatch.setattr(vision.detect, "SPECK", 0.0)
    assert read()[1] >= 1  # without: crumbs read as dice (the d6 readers gave two of them a sure 1)


def test_the_marks_span_of_a_die_is_its_side_and_of_a_crumb_its_few_pixels() -> None:
    import cv2

    from vision.detect import SPECK, marks_span

    rng = np.random.default_rng(3)
    felt = np.clip(rng.normal((40, 110, 40), 4, (200, 300, 3)), 0, 255).astype(np.uint8)
    cv2.rectangle(felt, (50, 80), (89, 119), (50, 120, 50), -1)  # a die barely the felt's colour...
    cv2.circle(felt, (60, 90), 4, (240, 240, 240), -1)           # ...showing two
    cv2.circle(felt, (79, 109), 4, (240, 240, 240), -1)
    cv2.circle(felt, (200, 100), 4, (20, 20, 20), -1)            # a crumb
    assert marks_span(felt, (70.0, 100.0), 40.0) >= 0.5 > SPECK
    assert marks_span(felt, (200.0, 100.0), 40.0) < SPECK
    large = cv2.resize(felt, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)  # a photo's dice, looked at sparsely
    assert marks_span(large, (560.0, 800.0), 320.0) >= 0.5 > SPECK
    assert marks_span(large, (1600.0, 800.0), 320.0) < SPECK
    heap = felt.copy()
    heap[60:140, 170:230] = (200, 60, 200)  # dice all around it: not judged
    cv2.circle(heap, (200, 100), 4, (20, 20, 20), -1)
    assert marks_span(heap, (200.0, 100.0), 40.0) == 1.0


@pytest.mark.parametrize("kind, seed", [("letters", 1), ("d12", 1), ("d8-tauren", 1)])
def test_crumbs_on_a_frame_read_without_a_calibration_are_no_dice_of_the_face_kinds(
        monkeypatch: pytest.MonkeyPatch, kind: str, seed: int) -> None:
    import vision.detect

    scene = render_scene(random.Random(seed), SceneSpec(size=(1536, 864), markers=True, kind=kind, n_dice=4,
                                                        die_px=(38, 46), background="felt"))
    image = crumbs_on(scene.image, [truth.box for truth in scene.dice], seed)

    def elsewhere() -> int:  # readings on no die: crumbs
        dice = read_dice(image, kind).dice
        return sum(not any(found(t.box, [d]) for t in scene.dice) for d in dice)

    assert elsewhere() == 0
    monkeypatch.setattr(vision.detect, "SPECK", 0.0)
    assert elsewhere() >= 2  # of the twelve crumbs, 3 / 2 / 2 read as dice (letters / d12 / d8-tauren; 3 each before 25 fonts)


def _demo_tray(kind: str, seed: int, index: int, monkeypatch: pytest.MonkeyPatch, cocked: bool = False) -> Any:
    """Tray ``index`` of ``seed`` as ``bench/demo_tray.py`` draws the demo's throws (with a die
    lying cocked when ``cocked``)."""
    from tests.vision.conftest import bench_script

    bench = bench_script("demo_tray.py", "bench_demo_tray")
    if cocked:
        monkeypatch.setattr(bench, "SceneSpec", lambda **fields: SceneSpec(**{**fields, "cocked": 1}))
    return bench.tray_scene(kind, 4, seed, index)


@pytest.mark.parametrize("index", [196, 205])
def test_a_flat_d6_whose_sides_the_camera_sees_is_read_again_with_them_painted_over(
        index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Away from the point below the camera it sees a die's sides, pips and all (at the demo tray's
    edge, a third of a die's side); the d6 readers doubt such a die (a 5 at 0.39, and at 0.75).
    With the lens's focal length the camera's height is known, and read again with its sides
    painted over that die is taken; the tray's other dice read as before."""
    import vision.read
    from vision.read import UNCERTAIN

    scene = _demo_tray("d6", 1, index, monkeypatch)
    tray = calibrate(scene.image, scene.tray, scene.camera.focal_px)
    observations = []
    for flat in (-1.0, vision.read.SIDES_FLAT):
        monkeypatch.setattr(vision.read, "SIDES_FLAT", flat)
        dice = read_dice(scene.image, tray=tray).dice
        observations.append([found(truth.box, dice) for truth in scene.dice])
    before, after = observations
    fives = [n for n, truth in enumerate(scene.dice) if truth.value == 5]
    doubted = min(fives, key=lambda n: before[n][0].confidence)  # the 5 the camera sees the sides of
    assert before[doubted][0].value == 5 and after[doubted][0].value == 5
    assert after[doubted][0].confidence >= max(UNCERTAIN, before[doubted][0].confidence + 0.1)
    if index == 196:  # 0.39 without (the other 0.75, at the threshold: by the libraries, either side)
        assert before[doubted][0].flag == "uncertain"
    assert all(reading.flag is None and reading.value == truth.value for (reading,), truth in zip(after, scene.dice))
    assert [r for n, r in enumerate(after) if n != doubted] == [r for n, r in enumerate(before) if n != doubted]


def test_a_cocked_d6_is_not_read_again_painted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A die leaning at the tray's far edge: painted over, what the camera sees of its sides would
    go, and the readers take the face nearest the camera, a 2 (0.95); the cocked network keeps it
    from being painted (:data:`vision.read.SIDES_FLAT`), and it stays a question (a 2 at 0.64,
    doubted). (Tray 76, the die of the first such case, stood tilted on nothing before the renderer
    leaned a zone's cocked die on something.)"""
    import vision.read

    scene = _demo_tray("d6", 7, 239, monkeypatch, cocked=True)
    tray = calibrate(scene.image, scene.tray, scene.camera.focal_px)
    (leaning,) = [t for t in scene.dice if t.value is None]
    readings = []
    for flat in (vision.read.SIDES_FLAT, 1.0):
        monkeypatch.setattr(vision.read, "SIDES_FLAT", flat)
        (reading,) = found(leaning.box, read_dice(scene.image, tray=tray).dice)
        readings.append(reading)
    kept, painted = readings
    assert kept.flag is not None
    assert painted.flag is None and painted.value is not None  # what the guard keeps from happening


@pytest.mark.parametrize("seed, index", [(1, 247), (8, 389)])
def test_a_cocked_letter_die_the_letters_network_sees_leaning_a_little_is_flagged_not_taken(
        seed: int, index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Letter dice leaning on the demo's tray, which their own cocked network puts under the shared
    bar, 0.2: at it, each is taken with a value; letters' own bar flags them cocked
    (:data:`vision.faces.LETTERS_TRAY_LEANS`), and the tray's flat dice read as before. (Trays 5/79
    and 7/179, the first cases, at 0.19, stood tilted on nothing before the renderer leaned a zone's
    cocked die on something; none of seeds 5 and 7's trays 0-399 is such a case since. Both cases
    hold on the Pi's libraries too (``scripts/test-pi``): letters' own bar did not flag tray 3/238's die there.)"""
    import vision.faces
    from vision.faces import read_faces

    scene = _demo_tray("letters", seed, index, monkeypatch, cocked=True)
    tray = calibrate(scene.image, scene.tray, scene.camera.focal_px)
    observations = []
    for leans in (vision.faces.TRAY_LEANS, vision.faces.LETTERS_TRAY_LEANS):
        monkeypatch.setattr(vision.faces, "LETTERS_TRAY_LEANS", leans)
        dice = read_faces(scene.image, "letters", tray=tray).dice
        observations.append([found(truth.box, dice) for truth in scene.dice])
    shared, own = observations
    (leaning,) = [n for n, truth in enumerate(scene.dice) if truth.value is None]
    assert shared[leaning][0].value is not None and shared[leaning][0].flag is None  # a misread taken
    assert own[leaning] == [replace(own[leaning][0], value=None, flag="cocked")]
    assert [r for n, r in enumerate(own) if n != leaning] == [r for n, r in enumerate(shared) if n != leaning]
