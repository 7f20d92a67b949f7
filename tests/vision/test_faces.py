"""The face reader's flags: uncertain below the one threshold, cocked when the unreadable class wins."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from controller.games.dice import DieKind
from vision.face_classes import CLASSES, NOT_A_DIE, UNREADABLE, face_class, face_slice
from vision.faces import DIE_SCORE, LEANING_SAME_DIE, LEANS, SAME_DIE, TRAY_LEANS, Hit, _one_per_die, _reading
from vision.read import UNCERTAIN

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too


def test_a_reading_just_below_the_threshold_is_flagged_uncertain() -> None:
    probs = np.zeros(len(CLASSES), np.float32)
    probs[NOT_A_DIE] = 0.0
    probs[face_class(DieKind.LETTERS, 6)] = UNCERTAIN - 0.001
    probs[face_class(DieKind.LETTERS, 5)] = 1 - probs[face_class(DieKind.LETTERS, 6)]
    hit = Hit((100.0, 100.0), 40.0, probs)
    below = _reading(hit, DieKind.LETTERS, None, 1.0, (400, 400, 3))
    assert (below.value, below.flag) == (6, "uncertain")
    probs[face_class(DieKind.LETTERS, 6)], probs[face_class(DieKind.LETTERS, 5)] = UNCERTAIN + 0.001, 0.109
    above = _reading(Hit((100.0, 100.0), 40.0, probs), DieKind.LETTERS, None, 1.0, (400, 400, 3))
    assert (above.value, above.flag) == (6, None)


def test_unreadable_class_flags_a_cocked_die() -> None:
    probs = np.zeros(len(CLASSES), np.float32)
    probs[UNREADABLE], probs[face_slice(DieKind.D12).start] = 0.6, 0.4
    reading = _reading(Hit((100.0, 100.0), 40.0, probs), DieKind.D12, None, 1.0, (400, 400, 3))
    assert (reading.value, reading.flag) == (None, "cocked")


def test_a_die_read_twice_is_kept_once_whatever_the_second_reading_says() -> None:
    sure, cocked = np.zeros(len(CLASSES), np.float32), np.zeros(len(CLASSES), np.float32)
    sure[face_class(DieKind.D12, 7)] = 0.95
    sure[NOT_A_DIE] = 0.05
    cocked[UNREADABLE] = 0.7
    cocked[NOT_A_DIE] = 0.3
    die = Hit((100.0, 100.0), 40.0, sure)
    near = Hit((100.0 + 0.9 * SAME_DIE * 40.0, 100.0), 30.0, cocked)
    apart = Hit((100.0 + 1.1 * SAME_DIE * 40.0, 100.0), 30.0, cocked)
    assert _one_per_die([near, die], same_kind=False) == [die]
    assert len(_one_per_die([apart, die], same_kind=False)) == 2
    assert len(_one_per_die([near, die])) == 2  # the finder's hits: other kinds are kept


def test_two_close_hits_are_two_dice_when_no_die_lies_halfway_and_neither_leans() -> None:
    surer, other = np.zeros(len(CLASSES), np.float32), np.zeros(len(CLASSES), np.float32)
    surer[face_class(DieKind.LETTERS, 2)], surer[NOT_A_DIE] = 0.9, 0.1
    other[face_class(DieKind.LETTERS, 5)], other[face_class(DieKind.LETTERS, 4)], other[NOT_A_DIE] = 0.5, 0.2, 0.3
    a = Hit((100.0, 100.0), 40.0, surer)
    b = Hit((100.0 + 0.8 * SAME_DIE * 40.0, 100.0), 40.0, other)
    assert _one_per_die([b, a]) == [a]  # no look between them: one die seen twice
    assert _one_per_die([b, a], between=lambda x, y: DIE_SCORE + 0.1) == [a]  # a die halfway: one die
    assert _one_per_die([b, a], between=lambda x, y: DIE_SCORE - 0.1) == [b, a]  # an edge halfway: two dice
    leaning = replace(b, leaning=LEANS + 0.1)  # a leaning die's top and side, the edge between them
    assert _one_per_die([leaning, a], between=lambda x, y: DIE_SCORE - 0.1) == [a]
    assert _one_per_die([leaning, a], same_kind=False, between=lambda x, y: DIE_SCORE - 0.1) == [a]
    assert _one_per_die([b, a], same_kind=False, between=lambda x, y: DIE_SCORE - 0.1) == [b, a]


def test_a_leaning_dies_top_and_side_are_one_die_where_flat_dice_as_far_apart_are_two() -> None:
    top, side = np.zeros(len(CLASSES), np.float32), np.zeros(len(CLASSES), np.float32)
    top[face_class(DieKind.LETTERS, 2)], top[NOT_A_DIE] = 0.9, 0.1
    side[face_class(DieKind.LETTERS, 5)], side[face_class(DieKind.LETTERS, 4)], side[NOT_A_DIE] = 0.6, 0.2, 0.2
    gap = (SAME_DIE + LEANING_SAME_DIE) / 2 * 40.0  # beyond SAME_DIE, within LEANING_SAME_DIE
    a = Hit((100.0, 100.0), 40.0, top, leaning=TRAY_LEANS + 0.1)
    b = Hit((100.0 + gap, 100.0), 40.0, side, leaning=TRAY_LEANS + 0.2)
    assert _one_per_die([b, a], same_kind=False, leans=TRAY_LEANS) == [a]
    assert _one_per_die([b, a], leans=TRAY_LEANS) == [a]  # the finder's hits too
    assert _one_per_die([b, a], same_kind=False, leans=LEANS) == [b, a]  # neither leans over LEANS
    assert _one_per_die([b, replace(a, leaning=0.0)], same_kind=False, leans=TRAY_LEANS) == [b, replace(a, leaning=0.0)]
    far = replace(b, center=(100.0 + 1.05 * LEANING_SAME_DIE * 40.0, 100.0))
    assert _one_per_die([far, a], same_kind=False, leans=TRAY_LEANS) == [far, a]


def test_a_die_seen_soft_is_read_less_surely() -> None:
    probs = np.zeros(len(CLASSES), np.float32)
    probs[face_class(DieKind.LETTERS, 6)], probs[face_class(DieKind.LETTERS, 5)] = 0.98, 0.02
    sharp = _reading(Hit((100.0, 100.0), 40.0, probs, sharpness=0.3), DieKind.LETTERS, None, 1.0, (400, 400, 3))
    soft = _reading(Hit((100.0, 100.0), 40.0, probs, sharpness=0.2), DieKind.LETTERS, None, 1.0, (400, 400, 3))
    assert (sharp.value, sharp.flag, soft.value) == (6, None, 6)
    assert soft.confidence == pytest.approx(sharp.confidence * 0.2 / 0.25, abs=1e-4)


def test_a_die_the_cocked_network_sees_leaning_is_flagged_whatever_its_face_reads() -> None:
    from vision.faces import LEANS

    probs = np.zeros(len(CLASSES), np.float32)
    probs[face_class(DieKind.LETTERS, 6)] = 0.98
    leaning = _reading(Hit((100.0, 100.0), 40.0, probs, leaning=LEANS + 0.01), DieKind.LETTERS, None, 1.0, (400, 400, 3))
    flat = _reading(Hit((100.0, 100.0), 40.0, probs, leaning=0.05), DieKind.LETTERS, None, 1.0, (400, 400, 3))
    assert (leaning.value, leaning.flag, flat.value, flat.flag) == (None, "cocked", 6, None)


def test_a_die_that_may_lean_is_doubted_however_surely_its_face_reads() -> None:
    # under LEANS (0.5, a frame with no calibration) a cocked die's sure top face was taken: most
    # wrong readings the face bench accepted were cocked dice with shares of 0.15-0.5
    probs = np.zeros(len(CLASSES), np.float32)
    probs[face_class(DieKind.LETTERS, 6)] = 0.98

    def read(leaning: float) -> tuple[int | None, str | None, float]:
        reading = _reading(Hit((100.0, 100.0), 40.0, probs, leaning=leaning), DieKind.LETTERS, None, 1.0, (400, 400, 3))
        return reading.value, reading.flag, reading.confidence

    assert read(LEANS - 0.01) == (6, "uncertain", pytest.approx(1 - (LEANS - 0.01), abs=1e-4))  # its value kept, asked
    assert read(1 - UNCERTAIN + 0.01)[1] == "uncertain" and read(1 - UNCERTAIN - 0.01)[1] is None
    assert read(0.1) == (6, None, pytest.approx(0.9, abs=1e-4))  # no surer than it lies flat
    assert read(0.0)[2] == pytest.approx(0.98, abs=1e-4)


def test_a_die_the_cocked_network_sees_flat_loses_the_readers_doubt_unless_they_cannot_read_it() -> None:
    from vision.faces import FLAT, _seen_flat

    chieftain = face_class(DieKind.D8_TAUREN, 7)
    glare = np.zeros(len(CLASSES), np.float32)  # read C, with a share kept for "unreadable"
    glare[chieftain], glare[UNREADABLE], glare[face_class(DieKind.D8_TAUREN, 8)] = 0.73, 0.13, 0.14
    hidden = np.zeros(len(CLASSES), np.float32)  # the readers cannot read it: "unreadable" wins
    hidden[UNREADABLE], hidden[chieftain] = 0.6, 0.4

    def read(probs: np.ndarray, leaning: float) -> tuple[int | None, str | None]:
        reading = _reading(_seen_flat(Hit((100.0, 100.0), 40.0, probs, leaning=leaning)), DieKind.D8_TAUREN,
                           None, 1.0, (400, 400, 3), TRAY_LEANS)
        return reading.value, reading.flag

    assert read(glare, FLAT - 0.01) == (7, None)
    assert read(glare, FLAT + 0.01) == (7, "uncertain")
    assert read(hidden, 0.0) == (None, "cocked")


def test_the_sharpest_channel_measures_ink_that_is_faint_in_grey() -> None:
    from vision.crops import sharpest_channel, sharpness

    patch = np.zeros((48, 48, 3), np.uint8)
    patch[:] = (255, 40, 40)  # a blue die (BGR) with a red bar: alike in grey, apart in the blue and red channels
    patch[10:38, 18:29] = (40, 40, 150)
    assert sharpness(patch) < 0.2 < sharpest_channel(patch)
    blurred = np.asarray(cv2.GaussianBlur(patch, (0, 0), 2.5))
    assert sharpest_channel(blurred) < 0.2  # a blurred die stays soft in every channel


def test_a_crop_facing_a_point_has_it_straight_below() -> None:
    from vision.crops import crop_matrix, facing, frame_centre

    assert frame_centre((540, 960, 3)) == (479.5, 269.5)
    for centre, below in [((900.0, 100.0), (479.5, 269.5)), ((10.0, 500.0), (479.5, 269.5)),
                          ((479.5, 20.0), (479.5, 269.5)), ((100.0, 269.5), (479.5, 269.5)),
                          ((300.0, 300.0), (700.0, 1400.0))]:  # a tilted camera's point: outside the frame
        down = crop_matrix(centre, 48, facing(centre, below), False, 48)[:, :2] @ np.array([0.0, 1.0])
        towards = np.subtract(below, centre)
        assert float(np.dot(down, towards)) / (np.linalg.norm(down) * np.linalg.norm(towards)) == pytest.approx(1.0)


def test_a_die_read_again_at_its_top_face_keeps_what_its_edges_said(monkeypatch: pytest.MonkeyPatch) -> None:
    # a d8 the cocked network flagged (0.205) whose edges fit a flat octahedron is taken to lie flat
    # (leaning 0); doubted, it is read again at its top face, and that surer reading took the
    # finder's hit's share back with it: the die was flagged cocked again (cocked_demo_tray 61, 859)
    import vision.faces as faces

    one = face_class(DieKind.D8_TAUREN, 1)
    doubted, surer = np.zeros(len(CLASSES), np.float32), np.zeros(len(CLASSES), np.float32)
    doubted[one], doubted[face_class(DieKind.D8_TAUREN, 2)] = UNCERTAIN - 0.01, 1 - UNCERTAIN + 0.01
    surer[one], surer[face_class(DieKind.D8_TAUREN, 2)] = 0.9, 0.1
    found = Hit((100.0, 100.0), 40.0, doubted, leaning=0.205)
    judged = replace(found, leaning=0.0)
    monkeypatch.setattr(faces, "_upright_read", lambda frame, scale, hits: [replace(h, probs=surer) for h in hits])
    frame = np.zeros((400, 400, 3), np.uint8)
    (again,) = faces._doubts_on_top(frame, 1.0, [found], [judged], (200.0, 200.0), 0.05)
    assert again.probs[one] == pytest.approx(0.9) and again.leaning == 0.0 and again.center == judged.center
    reading = _reading(again, DieKind.D8_TAUREN, None, 1.0, frame.shape, TRAY_LEANS)
    assert (reading.value, reading.flag) == (1, None)


@pytest.mark.parametrize(("leaning", "ratio", "judged", "share"), [
    # doubted, the cocked network unsure
    (0.1, 0.7, 0.0, 0.7), (0.1, 0.79, 0.0, 0.7), (0.1, 1.0, 0.1, 0.7), (0.1, 1.4, 1.0, 0.7),
    # flagged by it, up to EDGES_ASKED: flat only surely
    (0.3, 0.7, 0.0, 0.7), (0.3, 0.77, 0.3, 0.7), (0.3, 1.4, 1.0, 0.7),
    (0.6, 0.7, 0.6, 0.7), (0.02, 0.7, 0.02, 0.7),  # flagged surely, or seen flat: the edges are not asked
    (0.1, 1.4, 1.0, 0.9)])  # read surely: a cocked die shows a face too
def test_a_d8_is_judged_flat_or_leaning_by_its_edges(monkeypatch: pytest.MonkeyPatch, leaning: float, ratio: float,
                                                     judged: float, share: float) -> None:
    # the scene test (tests/vision/test_read_tray.py) lost its flat die when the upright reader
    # learnt 25 fonts: in 1,800 cocked trays it doubted no flat d8 the cocked network was unsure of
    import vision.faces as faces
    from vision.octahedron import TrayCamera

    probs = np.zeros(len(CLASSES), np.float32)
    probs[face_class(DieKind.D8_TAUREN, 1)], probs[face_class(DieKind.D8_TAUREN, 2)] = share, 1 - share
    asked: list[float] = []

    def edge_ratio(frame: np.ndarray, centre: tuple[float, float], side: float, camera: TrayCamera) -> float:
        asked.append(side)
        return ratio

    monkeypatch.setattr(faces, "edge_ratio", edge_ratio)
    hit = Hit((100.0, 100.0), 40.0, probs, leaning=leaning)
    camera = TrayCamera((200.0, 200.0), 0.05, 40.0)
    (seen,) = faces._judged_by_edges(np.zeros((400, 400, 3), np.uint8), 1.0, [hit], camera)
    assert seen.leaning == judged and len(asked) == (leaning > faces.FLAT and leaning <= faces.EDGES_ASKED)
