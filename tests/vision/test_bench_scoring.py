"""The scoring of ``bench/dice_reader.py``: matching readings to labels, and the picture of the errors."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from vision.photos import LabelledPhoto
from vision.read import DieReading


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    from tests.vision.conftest import dice_bench

    return dice_bench()


def _reading(value: int | None, x: float, y: float, confidence: float = 0.9, flag: str | None = None) -> DieReading:
    return DieReading("d6", value, (x, y), (x - 10, y - 10, 20, 20), confidence, flag)


def test_each_label_is_matched_once_most_confident_reading_first(bench: ModuleType) -> None:
    truths = [bench.Truth(3, (0, 0, 20, 20)), bench.Truth(5, (40, 0, 20, 20)), bench.Truth(2, (80, 0, 20, 20))]
    readings = [_reading(3, 10, 10, 0.5), _reading(4, 12, 8, 0.9), _reading(5, 50, 10, flag="uncertain"),
                _reading(1, 200, 200)]
    found, false = bench.match(readings, truths)
    assert found[0].value == 4 and found[1].value == 5 and 2 not in found
    assert false == 2  # the second reading inside the first box, and the one far away
    tally = bench.score(readings, truths)
    assert (tally.labelled, tally.found, tally.right, tally.false, tally.sure_wrong) == (3, 2, 1, 2, 1)


def test_a_value_accepted_for_a_die_showing_no_face_is_counted_apart(bench: ModuleType) -> None:
    truths = [bench.Truth(None, (0, 0, 20, 20)), bench.Truth(None, (40, 0, 20, 20)), bench.Truth(2, (80, 0, 20, 20))]
    readings = [_reading(3, 10, 10), _reading(5, 50, 10, flag="uncertain"), _reading(4, 90, 10)]
    tally = bench.score(readings, truths) + bench.score(readings[:1], truths[:1])
    assert (tally.frames, tally.sure_wrong, tally.faceless) == (2, 3, 2)  # the cocked die read 3, twice
    assert "read wrong but not flagged 3 (2 on dice showing no face)" in tally.line("x")


def test_error_sheet_shows_every_die_not_read_right(bench: ModuleType, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    image = np.full((120, 120, 3), 200, np.uint8)
    truths = [bench.Truth(3, (10, 10, 20, 20)), bench.Truth(5, (60, 60, 20, 20)), bench.Truth(6, (90, 10, 20, 20))]
    found = {0: _reading(3, 20, 20), 1: _reading(2, 70, 70)}
    tiles = bench.error_tiles(image, truths, found, "IMG_1")
    assert len(tiles) == 2  # the misread 5 and the missed 6
    sheet = tmp_path / "errors.png"
    bench.write_sheet(sheet, tiles, columns=8)
    assert capsys.readouterr().out == f"wrote '{sheet}': the 2 labelled dice not read right\n"
    picture = cv2.imread(str(sheet))
    assert picture is not None and picture.shape == (bench.TILE, 8 * bench.TILE, 3)
    assert (picture[:, :2 * bench.TILE] != 200).any() and (picture[:, 2 * bench.TILE:] == 0).all()


def test_an_error_sheet_whose_name_is_not_utf8_is_named_escaped(bench: ModuleType, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # its name was printed raw: '\udce9' for the byte 0xe9
    bench.write_sheet(tmp_path / os.fsdecode(b"caf\xe9.png"), [])
    assert capsys.readouterr().out == f"no errors: '{tmp_path}/caf\\xe9.png' not written\n"


def test_an_error_sheet_is_written_under_a_name_that_is_not_utf8(bench: ModuleType, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # cv2.imwrite crashed the process (SIGSEGV) on such a name
    bench.write_sheet(tmp_path / os.fsdecode(b"caf\xe9.png"), [np.zeros((bench.TILE, bench.TILE, 3), np.uint8)])
    assert capsys.readouterr().out == f"wrote '{tmp_path}/caf\\xe9.png': the 1 labelled dice not read right\n"
    assert (tmp_path / os.fsdecode(b"caf\xe9.png")).read_bytes().startswith(b"\x89PNG")


def test_a_labelled_photo_under_a_name_that_is_not_utf8_is_read(tmp_path: Path) -> None:
    # cv2.imread crashed the process (SIGSEGV) on such a name
    path = tmp_path / os.fsdecode(b"caf\xe9.png")
    path.write_bytes(cv2.imencode(".png", np.full((6, 8, 3), 7, np.uint8))[1].tobytes())
    assert LabelledPhoto(path, ()).load().shape == (6, 8, 3)


def test_under_each_change_the_dice_not_read_right_go_on_a_sheet_of_its_own(
        bench: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from vision.photos import DEFAULT_SET, load_set
    from vision.read import Observation

    monkeypatch.setattr(bench, "read_dice", lambda image: Observation((), 1.0))  # a reader that sees nothing
    bench.under_changes(DEFAULT_SET, 1000, ["none", "JPEG quality 30"], None, tmp_path / "errors.png")
    dice = len(load_set(DEFAULT_SET)[0].dice)
    for name in ("errors-none.png", "errors-jpeg-quality-30.png"):
        picture = cv2.imread(str(tmp_path / name))
        assert picture is not None, name
        assert picture.shape[:2] == (bench.TILE * -(-dice // 8), bench.TILE * 8)  # every die, missed
    assert "read right 0/" in capsys.readouterr().out


def test_captions_are_outlined_where_their_letters_are(bench: ModuleType) -> None:
    tile = np.full((40, 160, 3), 128, np.uint8)
    bench._caption(tile, "L2: 3 uncertain 0.40", 20)
    white, dark = (tile > 250).all(axis=2), (tile < 64).all(axis=2)
    columns = [np.flatnonzero(mask.any(axis=0)) for mask in (white, dark)]
    assert int(columns[1].max()) - int(columns[0].max()) <= 3  # an outline 1 px wide, not one drifting 6 px past
    assert (cv2.dilate(np.asarray(dark, np.uint8), np.ones((5, 5), np.uint8)).astype(bool) | ~white).all()


def test_a_photo_seen_wide_keeps_its_dice_in_the_mirror_images(tmp_path: Path) -> None:
    from vision.photos import LabelledDie, LabelledPhoto

    image = np.zeros((60, 80, 3), np.uint8)
    image[10:20, 5:25] = 255  # one white "die" at x 5..25, y 10..20
    path = tmp_path / "one.png"
    cv2.imwrite(str(path), image)
    wide, dice = LabelledPhoto(path, (LabelledDie(3, (5.0, 10.0, 20.0, 10.0)),)).seen_wide()
    assert wide.shape == (180, 240, 3) and len(dice) == 9 and all(d.value == 3 for d in dice)
    for die in dice:
        x, y, w, h = (int(v) for v in die.box)
        assert wide[y:y + h, x:x + w].min() == 255 and wide[y:y + h, x:x + w].size == 10 * 20 * 3
    assert sorted(d.box[:2] for d in dice)[4] == (85.0, 70.0)  # the middle copy's box is the photo's, moved


def test_the_calibrated_threshold_accepts_no_wrong_reading_and_counts_the_dealer_s_load(bench: ModuleType) -> None:
    seen = [bench.Seen("none", "a", 3, 3, 0.95, None), bench.Seen("none", "a", 4, 4, 0.70, None),
            bench.Seen("JPEG quality 30", "a", 4, 2, 0.80, None),  # wrong, and sure of it
            bench.Seen("blur sigma 1.5", "a", 5, None, 0.99, "blurred"),  # withheld: not a wrong reading
            bench.Seen("blur sigma 1.5", "a", 5, 6, 0.50, "uncertain")]
    line = bench.threshold_line(seen)
    assert "0.8001" in line and "1/2 (50.0%)" in line


def test_with_accepted_the_sheet_also_shows_the_dice_read_right_that_the_dealer_is_asked_about(
        bench: ModuleType) -> None:
    image = np.full((120, 120, 3), 200, np.uint8)
    truths = [bench.Truth(3, (10, 10, 20, 20)), bench.Truth(None, (60, 60, 20, 20)), bench.Truth(6, (90, 10, 20, 20))]
    found = {0: _reading(3, 20, 20, 0.6, "uncertain"),  # right, but asked about
             1: _reading(None, 70, 70, 0.9, "cocked"),  # a cocked die withheld: right, nothing to ask
             2: _reading(6, 100, 20)}
    assert bench.error_tiles(image, truths, found, "IMG_1") == []
    assert len(bench.error_tiles(image, truths, found, "IMG_1", accepted=True)) == 1


def test_the_bench_s_help_shows_and_a_change_it_does_not_know_is_one_line(
        bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as shown:
        bench.main(["--help"])  # a change's name with "%" once broke the help
    assert shown.value.code == 0 and "'shrunk to 35%'" in " ".join(capsys.readouterr().out.split())
    with pytest.raises(SystemExit) as refused:
        bench.main(["--changes", "jpeg30"])
    said = capsys.readouterr().err
    assert refused.value.code == 2 and "invalid choice: 'jpeg30'" in said and "Traceback" not in said


def test_the_face_bench_draws_each_kind_s_dice_not_read_right_and_accepted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.vision.conftest import bench_script
    from vision.read import Observation

    faces = bench_script("faces_reader.py", "bench_faces")
    monkeypatch.setattr(faces, "read_faces", lambda image, kind: Observation((), 1.0))  # a reader that sees nothing
    faces.accuracy("letters", 1, tmp_path / "faces.png")
    dice = len(faces.bench_frame("letters", 0)[1])
    picture = cv2.imread(str(tmp_path / "faces-letters.png"))
    assert picture is not None and picture.shape[:2] == (faces.TILE * -(-dice // 8), faces.TILE * 8)
    assert f"the {dice} dice not read right and accepted" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        faces.main(["--kinds", "d6"])
    assert refused.value.code == 2


def test_the_face_bench_s_help_says_its_whole_first_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.vision.conftest import bench_script

    faces = bench_script("faces_reader.py", "bench_faces")
    with pytest.raises(SystemExit) as shown:
        faces.main(["--help"])  # it once ended "accuracy on rendered frames it was not"
    assert shown.value.code == 0 and "it was not tuned on, and the read time" in " ".join(capsys.readouterr().out.split())


def test_the_teach_bench_s_leaning_frames_show_one_leaning_die_each() -> None:
    from tests.vision.conftest import bench_script

    teach = bench_script("teach_reader.py", "bench_teach")
    for n in range(3):
        dice = teach.leaning_frame(teach.FIRST_LEANING + n).dice
        assert len(dice) == 1 and dice[0].cocked and dice[0].value is None


def test_the_demo_tray_bench_scores_each_die_once_and_counts_false_and_cocked_dice_apart() -> None:
    from types import SimpleNamespace

    from tests.vision.conftest import bench_script

    demo_tray = bench_script("demo_tray.py", "bench_demo_tray")
    scene = SimpleNamespace(dice=[SimpleNamespace(value=value, center=(x, 10.0), box=(x - 10, 0, 20, 20))
                                  for value, x in ((3, 10), (5, 50), (2, 90), (6, 130), (None, 170), (4, 210))])
    readings = (_reading(3, 11, 10), _reading(5, 50, 12, 0.6, "uncertain"), _reading(1, 90, 10),
                _reading(4, 172, 10), _reading(2, 400, 10), _reading(6, 211, 10, flag="cocked"))
    tally = demo_tray.score_tray(scene, readings)
    assert tally["dice"] == 5 and tally["cocked"] == 1
    assert (tally["read right and accepted"], tally["read right but withheld"], tally["read wrong and accepted"],
            tally["read wrong, flagged"], tally["not found"]) == (1, 1, 1, 1, 1)
    assert tally["false dice accepted"] == 1  # the 2 at x=400: no die lies there
    assert tally["cocked dice taken with a value"] == 1


def test_the_demo_tray_bench_draws_the_dice_it_got_wrong_and_the_cocked_dice_it_took() -> None:
    from types import SimpleNamespace

    from tests.vision.conftest import bench_script

    demo_tray = bench_script("demo_tray.py", "bench_demo_tray")
    scene = SimpleNamespace(image=np.full((120, 300, 3), 90, np.uint8),
                            dice=[SimpleNamespace(value=value, center=(x, 60.0), box=(x - 10, 50, 20, 20))
                                  for value, x in ((3, 30), (5, 90), (None, 150), (2, 210), (None, 270))])
    readings = (_reading(3, 30, 60), _reading(6, 90, 60), _reading(4, 150, 60), _reading(2, 210, 60, flag="uncertain"),
                _reading(None, 270, 60, flag="cocked"))
    tiles = demo_tray.error_pictures(scene, readings, "tray 0")
    assert len(tiles) == 3  # the 5 read 6, the cocked die taken as 4, the 2 withheld; not the right 3 nor the flagged cocked die


def test_the_demo_tray_bench_gives_a_reading_to_the_nearest_die_only() -> None:
    """A cocked die leaning on a flat one (seed 1's tray 149): the flat die's sure reading lies
    within reach of the cocked die's centre too, but is the flat die's; the cocked die was counted
    taken with a value by it."""
    from types import SimpleNamespace

    from tests.vision.conftest import bench_script

    demo_tray = bench_script("demo_tray.py", "bench_demo_tray")
    scene = SimpleNamespace(image=np.full((200, 200, 3), 90, np.uint8),
                            dice=[SimpleNamespace(value=6, center=(68.0, 78.0), box=(37, 52, 63, 60)),
                                  SimpleNamespace(value=None, center=(99.0, 112.0), box=(67, 83, 82, 81))])
    readings = (_reading(6, 66, 82), _reading(None, 108, 120, flag="cocked"))
    tally = demo_tray.score_tray(scene, readings)
    assert tally["read right and accepted"] == 1 and tally["cocked"] == 1
    assert tally["cocked dice taken with a value"] == 0 and tally["false dice accepted"] == 0
    assert demo_tray.error_pictures(scene, readings, "tray 149") == []


def test_the_face_bench_s_plain_frames_are_its_frames_with_only_the_issue_s_changes() -> None:
    from tests.vision.conftest import bench_script

    faces = bench_script("faces_reader.py", "bench_faces")
    image, truths = faces.bench_frame("d12", 22)  # a frame with a cocked die, blurred or noisy
    plain_image, plain = faces.bench_frame("d12", 22, plain=True)
    assert None in [t.value for t in truths] and None not in [t.value for t in plain]  # no cocked die
    assert [t.value for t in truths if t.value is not None] == [t.value for t in plain][:len(truths) - 1]
    assert plain_image.shape == image.shape and not np.array_equal(plain_image, image)


def test_the_font_bench_prints_the_lettered_frames_in_the_fonts_given_and_keeps_their_dice(tmp_path: Path) -> None:
    from tests.vision.conftest import bench_script
    from vision.face_art import draws_with

    faces = bench_script("faces_reader.py", "bench_faces")
    assert [faces.unseen_lettering(("a.ttf", "b.ttf"), n).face for n in (1, 3, 5, 7)] == ["a.ttf", "b.ttf"] * 2
    fake = tmp_path / "not-a-font.ttf"
    fake.write_text("not a font")
    assert not draws_with(str(fake)) and not draws_with(str(tmp_path / "missing.ttf"))
    own, even = faces.bench_frame("d12", 1), faces.bench_frame("d12", 0)
    # OpenCV draws a file that is no font in its sans face: the odd frame's dice, in other lettering
    other, even_again = faces.bench_frame("d12", 1, fonts=(str(fake),)), faces.bench_frame("d12", 0, fonts=(str(fake),))
    assert other[1] == own[1] and not np.array_equal(other[0], own[0])
    assert np.array_equal(even_again[0], even[0])


def test_the_close_up_bench_draws_each_die_a_fifth_of_the_photo_across_or_more() -> None:
    from tests.vision.conftest import bench_script

    close = bench_script("close_ups.py", "bench_close_ups")
    for kind in close.KINDS:
        for n in range(3):
            image, truths = close.close_up(kind, (640, 640), n)
            assert image.shape == (640, 640, 3) and 1 <= len(truths) <= 3
            assert all(max(t.box[2:]) >= 0.18 * 640 for t in truths if t.value is not None)
