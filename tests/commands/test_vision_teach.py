"""``dicetable vision teach``: pictures by folder or by name, the set stored where reading finds it,
bad input one line and exit 2."""

from __future__ import annotations

import random
from pathlib import Path

from typing import Callable

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.commands.vision import face_label
from controller.games.dice import DieKind
from tests.commands.test_vision_cli import APPLE_DOUBLE
from tests.vision.test_teach import real_d6, three_of_each
from vision.read import DieReading
from vision.render import SceneSpec, render_scene


def write_faces(folder: Path, by_name: bool) -> None:
    """One picture of each letter face, as DIR/<face>/x.png or DIR/<face>_x.png."""
    for k, face in enumerate(DieKind.LETTERS.faces):
        image = render_scene(random.Random(40 + k), SceneSpec(size=(320, 240), die_px=(50, 60), kind="letters"),
                             values=[k + 1]).image
        path = folder / f"{face}_1.png" if by_name else folder / face / "1.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), image)


@pytest.mark.parametrize("by_name", [False, True])
def test_teach_stores_the_set_in_the_data_folder(tmp_path: Path, by_name: bool,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    write_faces(tmp_path / "pictures", by_name)
    assert main(["vision", "teach", "--kind", "letters", "--images", str(tmp_path / "pictures"),
                 "--data", str(tmp_path / "data")]) == 0
    assert (tmp_path / "data" / "faces" / "letters.npz").is_file()
    assert "taught the letters set from 6 pictures" in capsys.readouterr().out


def test_teaching_again_keeps_the_stored_set_unless_forced(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # a second teach replaced the stored set without a word
    write_faces(tmp_path / "pictures", by_name=True)
    teach = ["vision", "teach", "--kind", "letters", "--images", str(tmp_path / "pictures"), "--data", str(tmp_path)]
    assert main(teach) == 0
    stored = tmp_path / "faces" / "letters.npz"
    before = stored.read_bytes()
    capsys.readouterr()
    assert main(teach) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is taught already" in err[0] and "--force" in err[0]
    assert stored.read_bytes() == before
    assert main([*teach, "--force"]) == 0 and not stored.with_name("letters.npz.new").exists()


@pytest.mark.parametrize("data, said", [("afile", "cannot make the --data folder"),
                                        ("/proc/nope", "cannot make the --data folder '/proc/nope/faces'")])
def test_a_data_folder_the_set_cannot_go_in_is_refused_before_the_pictures_are_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data: str, said: str) -> None:
    # it read and taught every picture, then said "cannot store the taught set: not a directory"
    import controller.commands.vision as command
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("not a folder")
    write_faces(tmp_path / "pictures", by_name=True)
    monkeypatch.setattr(command, "face_pictures", lambda *args: pytest.fail("the pictures were read"))
    assert main(["vision", "teach", "--kind", "letters", "--images", "pictures", "--data", data]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0] and (tmp_path / "afile").read_text() == "not a folder"


@pytest.mark.parametrize("damage", [b"", b"PK\x03\x04 cut short", bytes(range(256)) * 4])
def test_a_damaged_taught_set_is_one_line_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          damage: bytes) -> None:
    # an empty file raised EOFError, a cut one BadZipFile; junk quoted numpy's advice to unpickle it
    (tmp_path / "faces").mkdir()
    (tmp_path / "faces" / "letters.npz").write_bytes(damage)
    picture = tmp_path / "dice.png"
    cv2.imwrite(str(picture), render_scene(random.Random(3), SceneSpec(size=(320, 240), n_dice=2, die_px=(50, 60),
                                                                       kind="letters")).image)
    assert main(["vision", "read", str(picture), "--kind", "letters", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is damaged or not a taught set: teach it again" in err[0]
    assert "pickle" not in err[0]


def test_a_damaged_taught_set_is_said_once_before_any_photo_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # it was said once per photo, each line led by the photo's name as if the photo were at fault
    import controller.commands.vision as command
    (tmp_path / "faces").mkdir()
    (tmp_path / "faces" / "letters.npz").write_bytes(b"PK\x03\x04 cut short")
    photos = [tmp_path / f"photo{n}.png" for n in range(3)]
    for photo in photos:
        photo.write_bytes(b"a photo")
    monkeypatch.setattr(command, "load_photo", lambda path: pytest.fail("a photo was read"))
    assert main(["vision", "read", *map(str, photos), "--kind", "letters", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is damaged or not a taught set: teach it again" in err[0] and "photo" not in err[0]


@pytest.mark.parametrize(("layout", "message"), [
    ({}, "no pictures in"),
    ({"Q_1.png": True}, "'Q' is not a face of a letters die"),
    ({"photo.png": True}, "is not named <face>_*"),
    ({"M_1.png": True}, "no pictures of faces E D L O H of the letters set"),
    ({"M_1.png": False}, "not a readable image"),
])
def test_bad_pictures_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              layout: dict[str, bool], message: str) -> None:
    folder = tmp_path / "pictures"
    folder.mkdir()
    for name, real in layout.items():
        if real:
            cv2.imwrite(str(folder / name), render_scene(random.Random(1), SceneSpec(size=(200, 150), n_dice=1, die_px=(40, 50),
                                                                                   kind="letters")).image)
        else:
            (folder / name).write_text("not a picture")
    if layout == {"M_1.png": False}:
        for face in DieKind.LETTERS.faces[1:]:
            (folder / f"{face}_1.png").write_text("not a picture")
    assert main(["vision", "teach", "--kind", "letters", "--images", str(folder), "--data",
                 str(tmp_path / "new" / "data")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("dicetable: ") and message in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pictures"]  # no empty data folder left behind


@pytest.mark.parametrize(("picture", "said"), [
    (real_d6, "'{folder}/H/stray.png': a pip die, not a letters die: take it out of the pictures of face H"),
    (lambda: render_scene(random.Random(1), SceneSpec(size=(320, 240), n_dice=0, kind="letters")).image,
     "'{folder}/H/stray.png': no die found: give a photo of one die of the set showing H"),
    (lambda: np.full((18, 24, 3), 128, np.uint8),
     "'{folder}/H/stray.png': 24x18 pixels, too small to show a die (at least 40 across): give the photo itself"),
])
def test_a_picture_that_would_spoil_the_set_is_named_and_nothing_is_taught(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], picture: Callable[[], np.ndarray], said: str) -> None:
    # a pip die (or the empty tray) filed under H was taught as an H, silently; a thumbnail was too
    folder = tmp_path / "pictures"
    write_faces(folder, by_name=False)
    cv2.imwrite(str(folder / "H" / "stray.png"), picture())
    assert main(["vision", "teach", "--kind", "letters", "--images", str(folder), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("dicetable: " + said.format(folder=folder))
    assert not (tmp_path / "data").exists()


def test_a_doubtful_picture_is_named_after_the_set_is_stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a pip die the pip reader doubts was taught as an H without a word
    folder = tmp_path / "pictures"
    for face, images in three_of_each().items():
        for n, image in enumerate(images, 1):
            (folder / face).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(folder / face / f"{n}.png"), image)
    cv2.imwrite(str(folder / "H" / "stray.png"), render_scene(random.Random(8), SceneSpec(size=(320, 240), die_px=(50, 60),
                                                                                         kind="d6"), values=[3]).image)
    assert main(["vision", "teach", "--kind", "letters", "--images", str(folder), "--data", str(tmp_path / "data")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("taught the letters set from 19 pictures") and (tmp_path / "data/faces/letters.npz").is_file()
    assert f"warning: '{folder}/H/stray.png': taught, but unlike the other pictures of H (0." in err
    assert all(line.startswith("warning: ") for line in err.splitlines())


def test_a_set_whose_pictures_hardly_tell_its_faces_apart_is_said_so_once_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import teach as teaching

    monkeypatch.setattr(teaching, "TOLD_APART_LEAST", 1.01)  # no set tells every die apart by more
    folder = tmp_path / "pictures"
    for face, images in three_of_each().items():  # a face of one picture has none to be told from
        for n, image in enumerate(images, 1):
            (folder / face).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(folder / face / f"{n}.png"), image)
    assert main(["vision", "teach", "--kind", "letters", "--images", str(folder), "--data", str(tmp_path / "data")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("taught the letters set") and (tmp_path / "data/faces/letters.npz").is_file()
    said = [line for line in err.strip().splitlines() if line.startswith("warning: the letters set: ")]
    assert len(said) == 1 and "its pictures tell its faces apart for only " in said[0]
    assert said[0].endswith("(remove letters.npz from the data folder's faces/)")


def test_read_takes_every_kind_and_prints_faces_as_games_write_them(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    image = render_scene(random.Random(5), SceneSpec(size=(480, 320), die_px=(50, 64), kind="d8-tauren",
                                                     background="felt"), values=[6, 7]).image
    cv2.imwrite(str(tmp_path / "two.png"), image)
    assert main(["vision", "read", "--kind", "d8-tauren", str(tmp_path / "two.png")]) == 0
    line = capsys.readouterr().out
    faces = line[line.index("[") + 1:line.index("]")].split()
    assert faces and all(face in (*DieKind.D8_TAUREN.faces, "?") for face in faces)
    assert face_label(DieReading("d8-tauren", 6, (0, 0), (0, 0, 1, 1), 1.0)) == "W"
    assert face_label(DieReading("d12", 12, (0, 0), (0, 0, 1, 1), 1.0)) == "12"


def test_files_that_are_not_pictures_are_named_in_one_line_and_the_set_taught(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an H folder of HEIC photos from a phone taught fewer pictures of H than given, without a word
    folder = tmp_path / "pictures"
    write_faces(folder, by_name=False)
    (folder / "H" / "IMG_2.heic").write_bytes(b"\x00\x00\x00\x18ftypheic")
    (folder / "H" / "IMG_3.jpg").symlink_to(tmp_path / "gone.jpg")
    (folder / "notes.txt").write_text("the red set")
    assert main(["vision", "teach", "--kind", "letters", "--images", str(folder), "--data", str(tmp_path / "data")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("taught the letters set from 6 pictures")
    assert err.splitlines() == [
        f"warning: skipped 2 files that are not JPEG, PNG, BMP, TIFF or WebP photos: '{folder}/H/IMG_2.heic', "
        f"'{folder}/notes.txt'; 1 broken link (its file is gone): '{folder}/H/IMG_3.jpg'; convert HEIC photos to JPEG; "
        f"copy the photos themselves, not links"]


@pytest.mark.parametrize("by_name", [False, True])
def test_the_metadata_files_macos_leaves_beside_pictures_are_not_taught(tmp_path: Path, by_name: bool,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # pictures copied from a Mac: ._H_1.png was refused as not named <face>_*, ._1.png as unreadable
    folder = tmp_path / "pictures"
    write_faces(folder, by_name)
    (folder / ("._H_1.png" if by_name else "H/._1.png")).write_bytes(APPLE_DOUBLE)
    (folder / "._H").write_bytes(APPLE_DOUBLE)
    assert main(["vision", "teach", "--kind", "letters", "--images", str(folder), "--data", str(tmp_path / "data")]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("taught the letters set from 6 pictures")
    assert err == ""


def test_a_face_whose_pictures_were_all_skipped_is_refused_saying_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # "no pictures of face M" while M_1.heic lay there: the owner could not tell why
    folder = tmp_path / "pictures"
    write_faces(folder, by_name=True)
    (folder / "M_1.png").rename(folder / "M_1.heic")
    assert main(["vision", "teach", "--kind", "letters", "--images", str(folder), "--data", str(tmp_path / "data")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("dicetable: no pictures of face") and \
        err[0].endswith(f"(skipped 1 file that is not a JPEG, PNG, BMP, TIFF or WebP photo: '{folder}/M_1.heic'; "
                        f"convert HEIC photos to JPEG)")
    assert not (tmp_path / "data").exists()


def test_a_folder_of_no_pictures_is_refused_saying_what_it_holds(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "pictures"
    folder.mkdir()
    (folder / "IMG_1.HEIC").write_bytes(b"\x00\x00\x00\x18ftypheic")
    assert main(["vision", "teach", "--kind", "letters", "--images", str(folder), "--data", str(tmp_path / "data")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"dicetable: no pictures in '{folder}': give DIR/<face>/*.jpg or DIR/<face>_*.jpg (it holds 1 file that is "
        f"not a JPEG, PNG, BMP, TIFF or WebP photo: '{folder}/IMG_1.HEIC'; convert HEIC photos to JPEG)"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pictures"]
