"""``dicetable vision read``: JSON lines, readable summary, annotated copies, bad files reported and skipped;
with the table's configuration, a frame read as the table reads its tray."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.render import Scene, SceneSpec, render_scene


@pytest.fixture(scope="module")
def photo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    scene = render_scene(random.Random(3), SceneSpec(size=(640, 360), n_dice=3, die_px=(40, 46), background="felt"),
                         values=[2, 4, 6])
    path = tmp_path_factory.mktemp("photos") / "three.png"
    cv2.imwrite(str(path), scene.image)
    return path


def test_json_prints_one_object_per_image_with_every_die(photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "read", str(photo), str(photo), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    record = json.loads(lines[0])
    assert record["image"] == str(photo) and isinstance(record["ms"], float)
    assert sorted(d["value"] for d in record["dice"]) == [2, 4, 6]
    assert set(record["dice"][0]) >= {"kind", "value", "center", "box", "confidence", "flag"}


def test_summary_line_names_the_image_and_the_values(photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "read", str(photo)]) == 0
    out = capsys.readouterr().out
    assert str(photo) in out and "3 dice" in out


def test_annotate_writes_a_picture_per_image(photo: Path, tmp_path: Path) -> None:
    out = tmp_path / "annotated"
    assert main(["vision", "read", str(photo), "--annotate", str(out)]) == 0
    drawn, original = cv2.imread(str(out / "three.png")), cv2.imread(str(photo))
    assert drawn is not None and original is not None and drawn.shape == original.shape


def test_missing_file_is_one_error_line_and_the_rest_are_still_read(
        photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.jpg"
    assert main(["vision", "read", str(missing), str(photo), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [f"dicetable: no such image file: {str(missing)!r}"]
    assert len(captured.out.splitlines()) == 1


def test_file_that_is_not_an_image_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.jpg"
    junk.write_text("not a picture")
    assert main(["vision", "read", str(junk)]) == 2
    assert "not a readable image" in capsys.readouterr().err


def test_a_folder_is_read_photo_by_photo_in_name_order(photo: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "roll"
    folder.mkdir()
    image = cv2.imread(str(photo))
    assert image is not None
    for name in ("b.PNG", "a.jpg"):
        cv2.imwrite(str(folder / name), image)
    (folder / "notes.txt").write_text("not a photo")
    assert main(["vision", "read", str(folder), "--json"]) == 0
    read = [json.loads(line)["image"] for line in capsys.readouterr().out.splitlines()]
    assert read == [str(folder / "a.jpg"), str(folder / "b.PNG")]


REAL_PHOTO = Path(__file__).resolve().parents[2] / "data/dice-photos/byler-d6-dev/images/IMG_20191208_112645.jpg"


def test_a_folder_s_other_files_are_named_in_one_line_and_its_photos_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # HEIC photos from a phone, notes and a link whose photo is gone were skipped without a word
    folder = tmp_path / "roll"
    folder.mkdir()
    (folder / "IMG_1.JPG").write_bytes(REAL_PHOTO.read_bytes())
    (folder / "IMG_2.heic").write_bytes(b"\x00\x00\x00\x18ftypheic")
    (folder / "notes.txt").write_text("table 3, evening")
    (folder / "IMG_3.jpg").symlink_to(tmp_path / "gone.jpg")
    (folder / ".DS_Store").write_bytes(b"\x00")
    assert main(["vision", "read", str(folder), "--json"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["image"] for line in out.splitlines()] == [str(folder / "IMG_1.JPG")]
    assert err.splitlines() == [
        f"warning: skipped 2 files that are not JPEG, PNG, BMP, TIFF or WebP photos: '{folder}/IMG_2.heic', "
        f"'{folder}/notes.txt'; 1 broken link (its file is gone): '{folder}/IMG_3.jpg'; convert HEIC photos to JPEG; "
        f"copy the photos themselves, not links"]


APPLE_DOUBLE = b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X        " + bytes(4000)
"""The start of a ``._IMG_1.jpg`` file, which macOS writes beside each file copied to a USB stick."""


def test_the_metadata_files_macos_leaves_beside_photos_are_not_read(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # a folder of photos copied from a Mac: each ._IMG_1.jpg was read as a photo and refused as unreadable
    (tmp_path / "IMG_1.jpg").write_bytes(REAL_PHOTO.read_bytes())
    (tmp_path / "._IMG_1.jpg").write_bytes(APPLE_DOUBLE)
    assert main(["vision", "read", str(tmp_path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["image"] for line in out.splitlines()] == [str(tmp_path / "IMG_1.jpg")]
    assert err == ""


def test_a_folder_s_photos_are_read_by_every_name_of_their_format(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # a JPEG named .jfif (as Windows saves one from a browser) or .jpe, a BMP named .dib: skipped
    for name in ("a.jfif", "b.JPE", "c.jpg"):
        (tmp_path / name).write_bytes(REAL_PHOTO.read_bytes())
    photo = cv2.imread(str(REAL_PHOTO))
    assert photo is not None
    cv2.imwrite(str(tmp_path / "d.bmp"), photo)
    (tmp_path / "d.bmp").rename(tmp_path / "d.dib")
    assert main(["vision", "read", str(tmp_path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert [Path(json.loads(line)["image"]).name for line in out.splitlines()] == ["a.jfif", "b.JPE", "c.jpg", "d.dib"]
    assert err == ""


def test_a_refusal_stays_one_line_when_files_were_skipped(photo: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "roll").mkdir()
    (tmp_path / "roll" / "a.png").write_bytes(photo.read_bytes())
    (tmp_path / "roll" / "b.heic").write_bytes(b"\x00\x00\x00\x18ftypheic")
    (tmp_path / "table.toml").write_text("[tray]\nwidth_mm = -1\n")
    assert main(["vision", "read", str(tmp_path / "roll"), "--config", str(tmp_path / "table.toml")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("dicetable: ")


def test_many_skipped_files_are_one_line_naming_a_few(photo: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    for folder in (tmp_path / "a", tmp_path / "b"):
        (folder / "older").mkdir(parents=True)
        (folder / "roll.png").write_bytes(photo.read_bytes())
        for n in range(3):
            (folder / f"{n}.gif").write_bytes(b"GIF89a")
    assert main(["vision", "read", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"warning: skipped 6 files that are not JPEG, PNG, BMP, TIFF or WebP "
                                               f"photos: '{tmp_path}/a/0.gif', '{tmp_path}/a/1.gif', '{tmp_path}/a/2.gif' "
                                               f"and 3 more; 2 folders inside a folder of photos")


def test_a_folder_without_photos_is_one_line_saying_what_it_holds(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "IMG_1.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    assert main(["vision", "read", str(tmp_path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"dicetable: no photos in folder '{tmp_path}': it holds 1 file that is not a JPEG, PNG, BMP, TIFF or WebP "
        f"photo: '{tmp_path}/IMG_1.HEIC'; convert HEIC photos to JPEG"]
    (tmp_path / "empty").mkdir()
    assert main(["vision", "read", str(tmp_path / "empty")]) == 2
    assert capsys.readouterr().err == f"dicetable: no photos in folder '{tmp_path}/empty': it is empty\n"


def test_boxes_and_labels_are_drawn_at_the_die_s_size_whatever_the_picture_s() -> None:
    from controller.commands.vision import annotate
    from vision.read import DieReading, Observation

    die = DieReading("d6", 3, (120.0, 120.0), (100.0, 100.0, 40.0, 40.0), 0.95)
    for shape in ((360, 640, 3), (2160, 3840, 3)):  # the same 40 px die in a small and a 4K frame
        drawn = np.any(annotate(np.zeros(shape, np.uint8), Observation((die,), 1.0)), axis=2)
        rows, columns = np.nonzero(drawn)
        assert drawn[100, 100:141].all() and not drawn[120, 102:139].any()  # a thin box edge around an open face
        assert columns.max() < 100 + 80 and rows.min() > 100 - 20  # a label about a die wide, just above it


def test_the_labels_of_dice_side_by_side_cover_no_other_label_nor_die() -> None:
    # IMG_20191209_095854: two pairs of dice a little apart; each label went just above its box, and
    # the two labels of a pair were drawn over each other
    from controller.commands.vision import _overlap, label_spots
    from vision.read import DieReading, Observation

    boxes = [(240.0, 280.0, 40.0, 40.0), (268.0, 282.0, 40.0, 40.0), (150.0, 250.0, 40.0, 40.0),
             (160.0, 227.0, 40.0, 40.0), (5.0, 2.0, 40.0, 40.0)]  # the last at the picture's corner
    dice = tuple(DieReading("d6", 2, (x + w / 2, y + h / 2), (x, y, w, h), 0.51, "uncertain") for x, y, w, h in boxes)
    spots = label_spots(Observation(dice, 1.0), (640, 640, 3))
    whole = [(round(x), round(y), round(w), round(h)) for x, y, w, h in boxes]
    for k, (x, y, w, h) in enumerate(spots):
        assert 0 <= x and x + w <= 640 and 0 <= y and y + h <= 640
        assert not any(_overlap(spots[k], other) for other in spots[:k] + spots[k + 1:])
        assert not any(_overlap(spots[k], box) for i, box in enumerate(whole) if i != k)
        assert _overlap((x - 2, y - 2, w + 4, h + 4), whole[k])  # beside its own die


def test_the_label_of_a_die_taken_close_fits_its_small_picture() -> None:
    # a real die cut out close, 130 px: "3 uncertain 0.34" at the die's own scale was about 150 px
    # wide, and the picture cut it at its edge ("3 uncertain 0.")
    from controller.commands.vision import annotate, label_spots
    from vision.read import DieReading, Observation

    dice = (DieReading("d6", 4, (68.0, 66.0), (27.0, 25.0, 82.0, 82.0), 1.0, None),
            DieReading("d6", 3, (17.0, 111.0), (-24.0, 70.0, 82.0, 82.0), 0.34, "uncertain"))
    observation = Observation(dice, 1.0)
    for x, y, w, h in label_spots(observation, (130, 130, 3)):
        assert 0 <= x and x + w <= 130 and 0 <= y and y + h <= 130
    picture = annotate(np.full((130, 130, 3), 200, np.uint8), observation)
    assert picture.shape == (130, 130, 3) and (picture != 200).any()


def test_the_header_gives_a_photo_s_size_before_decoding() -> None:
    from controller.commands.vision import header_size

    image = np.zeros((30, 70, 3), np.uint8)
    for suffix, params in ((".jpg", []), (".png", []), (".bmp", []), (".tiff", []),
                           (".webp", [cv2.IMWRITE_WEBP_QUALITY, 80]), (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101])):
        assert header_size(cv2.imencode(suffix, image, params)[1].tobytes()) == (70, 30), (suffix, params)
    extended_webp = b"RIFF\x00\x00\x00\x00WEBPVP8X" + bytes(8) + (69).to_bytes(3, "little") + (29).to_bytes(3, "little")
    big_endian_tiff = (b"MM\x00*" + (8).to_bytes(4, "big") + (2).to_bytes(2, "big")
                       + bytes.fromhex("0100 0004 00000001") + (70).to_bytes(4, "big")
                       + bytes.fromhex("0101 0003 00000001") + (30).to_bytes(2, "big") + bytes(2))
    assert header_size(extended_webp) == header_size(big_endian_tiff) == (70, 30)
    assert header_size(cv2.imencode(".ppm", image)[1].tobytes()) is None  # a format the reader does not know
    assert header_size(b"BM") is None and header_size(b"II*\x00") is None  # headers too short to say


def test_a_photo_in_a_format_without_a_known_header_is_not_decoded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # OpenCV decodes by the content, not the name: a PPM named .jpg would be decoded whole, however large
    path = tmp_path / "dice.jpg"
    path.write_bytes(cv2.imencode(".ppm", np.zeros((30, 70, 3), np.uint8))[1].tobytes())
    assert main(["vision", "read", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a readable image" in err[0] and "JPEG, PNG, BMP, TIFF or WebP" in err[0]


@pytest.fixture(scope="module")
def wide_scene() -> Scene:
    return render_scene(random.Random(7), SceneSpec(size=(1280, 720), n_dice=3, die_px=(60, 70), background="felt"),
                        values=[1, 3, 5])


def test_a_jpeg_larger_than_the_decoding_bound_is_read_reduced_positions_in_its_pixels(
        wide_scene: Scene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import controller.commands.vision as command

    path = tmp_path / "wide.jpg"
    cv2.imwrite(str(path), wide_scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    monkeypatch.setattr(command, "MAX_DECODED_PIXELS", 300_000)  # 1280x720 is 921,600: read at 1/2
    assert main(["vision", "read", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    assert "1280x720 pixels" in captured.err and "read at 1/2 of its size (640x360)" in captured.err
    dice = json.loads(captured.out)["dice"]
    assert sorted(d["value"] for d in dice) == [1, 3, 5]
    for truth in wide_scene.dice:
        x, y, w, h = truth.box
        assert any(x <= d["center"][0] <= x + w and y <= d["center"][1] <= y + h for d in dice)


def test_a_large_png_is_halved_once_decoded_positions_in_its_pixels(
        wide_scene: Scene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # a 7000x7000 PNG of noise kept its 147 MB of pixels while it was read: 550 MB in all
    import controller.commands.vision as command

    path = tmp_path / "wide.png"
    cv2.imwrite(str(path), wide_scene.image)
    monkeypatch.setattr(command, "MAX_DECODED_PIXELS", 1_000_000)  # 1280x720 is 921,600: decoded whole
    monkeypatch.setattr(command, "MAX_FRAME_PX", 1000)  # longer than the reader reads: halved
    assert main(["vision", "read", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    assert "1280x720 pixels" in captured.err and "read at 1/2 of its size (640x360)" in captured.err
    dice = json.loads(captured.out)["dice"]
    assert sorted(d["value"] for d in dice) == [1, 3, 5]
    for truth in wide_scene.dice:
        x, y, w, h = truth.box
        assert any(x <= d["center"][0] <= x + w and y <= d["center"][1] <= y + h for d in dice)


@pytest.mark.parametrize("suffix", [".png", ".bmp", ".tiff", ".webp"])
def test_a_photo_larger_than_the_decoding_bound_is_refused_in_one_line(
        suffix: str, wide_scene: Scene, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import controller.commands.vision as command

    path = tmp_path / f"wide{suffix}"
    cv2.imwrite(str(path), wide_scene.image)
    monkeypatch.setattr(command, "MAX_DECODED_PIXELS", 300_000)
    assert main(["vision", "read", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "1280x720 pixels" in err[0] and "shrink it first" in err[0]


def test_a_15000_px_jpeg_is_read_within_500_mb(tmp_path: Path) -> None:
    # measured in its own process: the photo is decoded at 1/4 of its size, not as 675 MB of BGR
    import subprocess
    import sys

    path = tmp_path / "huge.jpg"
    cv2.imwrite(str(path), np.full((15000, 15000), 200, np.uint8))
    # VmHWM: the peak resident size of this process's own memory since its exec (ru_maxrss would
    # also count the forking test process's, which Linux carries across the exec)
    code = ("import re, sys; from pathlib import Path; from controller.cli import main; "
            "code = main(['vision', 'read', sys.argv[1]]); "
            "print(re.search(r'VmHWM:\\s+(\\d+) kB', Path('/proc/self/status').read_text())[1]); sys.exit(code)")
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout.splitlines()[-1]) < 500 * 1024  # kilobytes
    assert "read at 1/4 of its size (3750x3750)" in run.stderr


@pytest.fixture(scope="module")
def tray_frame(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Scene]:
    """A 1536x864 frame of a tray with its markers and a cocked d6, and the table configuration of that tray."""
    scene = render_scene(random.Random(4), SceneSpec(size=(1536, 864), markers=True, n_dice=4, die_px=(40, 46),
                                                     cocked=1))
    assert scene.tray is not None
    folder = tmp_path_factory.mktemp("tray")
    cv2.imwrite(str(folder / "tray.png"), scene.image)
    layout = scene.tray
    (folder / "table.toml").write_text(f"[tray]\nwidth_mm = {float(layout.width_mm)}\nheight_mm = {float(layout.height_mm)}\n"
                                       f"marker_mm = {float(layout.marker_mm)}\nmargin_mm = {float(layout.margin_mm)}\n")
    return folder / "tray.png", folder / "table.toml", scene


def test_with_the_tables_configuration_a_frame_is_read_as_the_table_reads_its_tray(
        tray_frame: tuple[Path, Path, Scene], capsys: pytest.CaptureFixture[str]) -> None:
    frame, config, scene = tray_frame
    cocked = next(d for d in scene.dice if d.value is None)
    x, y, w, h = cocked.box

    def the_cocked_die(args: list[str]) -> dict[str, object]:
        assert main(["vision", "read", str(frame), "--json", *args]) == 0
        dice = json.loads(capsys.readouterr().out)["dice"]
        return next(d for d in dice if x <= d["center"][0] <= x + w and y <= d["center"][1] <= y + h)

    assert the_cocked_die([])["value"] is not None  # as a photo: where the camera looked from is unknown
    as_the_table = the_cocked_die(["--config", str(config)])  # calibrated: the cocked network looks
    assert (as_the_table["value"], as_the_table["flag"]) == (None, "cocked")


def test_with_the_tables_configuration_a_photo_without_the_tray_markers_is_one_error_line(
        tray_frame: tuple[Path, Path, Scene], photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame, config, _ = tray_frame
    assert main(["vision", "read", str(photo), str(frame), "--config", str(config)]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines() == [
        f"dicetable: '{photo}': tray markers [0, 1, 2, 3] not found: is the whole tray in view and lit?"]
    assert captured.out.splitlines()[0].startswith(f"{frame}: 4 dice")  # the frame is still read


def test_with_the_tables_configuration_each_die_is_said_to_lie_in_its_zone(
        tray_frame: tuple[Path, Path, Scene], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    frame, config, scene = tray_frame
    across = sorted(d.tray_mm[0] for d in scene.dice if d.tray_mm is not None)
    middle = (across[1] + across[2]) / 2  # the tray cut in two zones between its second and third dice (45 mm apart)
    left, right = [[0, 0], [middle, 0], [middle, 1000], [0, 1000]], [[middle, 0], [2000, 0], [2000, 1000], [middle, 1000]]
    zoned = tmp_path / "zoned.toml"
    zoned.write_text(config.read_text() + f"[zones]\ncommunity = {json.dumps(left)}\nseat0 = {json.dumps(right)}\n")

    assert main(["vision", "read", str(frame), "--json", "--config", str(zoned)]) == 0
    dice = json.loads(capsys.readouterr().out)["dice"]
    for truth in scene.dice:
        assert truth.tray_mm is not None
        x, y, w, h = truth.box
        read = [d for d in dice if x <= d["center"][0] <= x + w and y <= d["center"][1] <= y + h]
        assert [d["zone"] for d in read] == ["community" if truth.tray_mm[0] < middle else "seat0"]
    assert {d["zone"] for d in dice} == {"community", "seat0"}  # the frame has dice on both sides

    assert main(["vision", "read", str(frame), "--config", str(zoned)]) == 0
    line = capsys.readouterr().out
    faces = {zone: [face_label_of(d) for d in dice if d["zone"] == zone] for zone in ("community", "seat0")}
    assert all(f"{zone}: {' '.join(shown)}" in line for zone, shown in faces.items())

    assert main(["vision", "read", str(frame), "--json"]) == 0  # no configuration: no zones
    assert all("zone" not in d for d in json.loads(capsys.readouterr().out)["dice"])

    def outline_pixels(args: list[str], folder: Path) -> int:  # the zones' outlines: cyan, as on the evidence picture
        assert main(["vision", "read", str(frame), "--annotate", str(folder), *args]) == 0
        picture = cv2.imread(str(folder / "tray.png"))
        return int(np.all(picture == (255, 255, 0), axis=2).sum())

    assert outline_pixels([], tmp_path / "plain") == 0
    assert outline_pixels(["--config", str(zoned)], tmp_path / "zoned") > 2 * 864  # two zones' sides, top to bottom


def face_label_of(die: dict[str, object]) -> str:
    """A JSON die's face as the summary line prints it."""
    return "?" if die["value"] is None else str(die["value"])


@pytest.mark.parametrize(("content", "said"), [
    (None, "table.toml': no such configuration file"),  # in the words doctor and run use
    ("[tray]\nwidth_mm = 'wide'\n", "tray.width_mm: must be a number of millimetres above 0, not 'wide'")])
def test_a_table_configuration_that_cannot_be_used_is_one_line_before_any_photo_is_read(
        photo: Path, tmp_path: Path, content: str | None, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "table.toml"
    if content is not None:
        config.write_text(content)
    assert main(["vision", "read", str(photo), "--config", str(config)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1 and said in captured.err


@pytest.mark.parametrize("content", [
    "[panel]\nsource = \"gpoi\"\n",  # a bad value outside [tray] and [zones]
    "[camera]\nwidht = 640\n",  # a typo'd key
    "[tray]\nfocal_px = -3\n",  # the tray's own check, which named no file here
])
def test_vision_read_refuses_a_configuration_in_the_same_line_as_run(
        photo: Path, tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]) -> None:
    # vision read checked only [tray] and [zones]: a bad [panel] or a typo'd key was accepted
    # here and refused later by run, at the table
    config = tmp_path / "table.toml"
    config.write_text(content)
    assert main(["run", "--config", str(config), "--state", str(tmp_path / "state")]) == 2
    refused_by_run = capsys.readouterr().err
    assert refused_by_run.startswith(f"dicetable: {str(config)!r}: ") and not (tmp_path / "state").exists()
    assert main(["vision", "read", str(photo), "--config", str(config)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == refused_by_run and len(captured.err.splitlines()) == 1


def test_the_summary_line_gives_the_zones_in_the_configurations_order_and_dice_off_every_zone_last() -> None:
    from types import SimpleNamespace

    from controller.commands.vision import by_zone

    dice = [SimpleNamespace(value=v, kind="d6") for v in (3, 5, None, 6, 2)]
    zones = ["seat10", "seat2", "seat2", None, "community"]
    order = ("community", "seat2", "seat10")  # as the tray's configuration lists them
    assert by_zone(dice, zones, order) == "community: 2; seat2: 5 ?; seat10: 3; off every zone: 6"
    assert by_zone(dice, zones) == "community: 2; seat10: 3; seat2: 5 ?; off every zone: 6"  # no order: by name
    assert by_zone([], []) == "no dice"


def test_a_cut_or_broken_photo_is_one_line_without_the_decoders_own(photo: Path, tmp_path: Path) -> None:
    # a real process: libpng and OpenCV write their own lines to the process's stderr ("libpng error: PNG
    # input buffer is incomplete", "[ERROR:0@0.1] global loadsave.cpp:1377 imdecode_ ... Assertion failed")
    import subprocess
    import sys

    (tmp_path / "cut.png").write_bytes(photo.read_bytes()[:2000])
    (tmp_path / "broken.bmp").write_bytes(b"BM" + bytes(100))
    whole = bytearray(cv2.imencode(".png", np.full((50, 50, 3), 120, np.uint8))[1].tobytes())
    whole[60:90] = bytes(b ^ 0x5A for b in whole[60:90])  # its image data damaged: "libpng error: IDAT: ..."
    (tmp_path / "damaged.png").write_bytes(bytes(whole))
    run = subprocess.run([sys.executable, "-m", "controller", "vision", "read", "cut.png", "broken.bmp", "damaged.png"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.splitlines() == ["dicetable: 'cut.png' is cut short (a PNG without its end): copy it again",
                                       "dicetable: not a readable image: 'broken.bmp'",
                                       "dicetable: not a readable image: 'damaged.png'"]
