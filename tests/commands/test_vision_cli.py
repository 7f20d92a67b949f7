"""``dicetable vision read``: JSON lines, readable summary, annotated copies, bad files reported and skipped."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.render import SceneSpec, render_scene


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
    drawn = cv2.imread(str(out / "three.png"))
    assert drawn is not None and drawn.shape == cv2.imread(str(photo)).shape


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
    for name in ("b.PNG", "a.jpg"):
        cv2.imwrite(str(folder / name), cv2.imread(str(photo)))
    (folder / "notes.txt").write_text("not a photo")
    assert main(["vision", "read", str(folder), "--json"]) == 0
    read = [json.loads(line)["image"] for line in capsys.readouterr().out.splitlines()]
    assert read == [str(folder / "a.jpg"), str(folder / "b.PNG")]


def test_a_folder_without_photos_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a photo")
    assert main(["vision", "read", str(tmp_path)]) == 2
    assert f"no photos (.jpg, .jpeg, .png, .bmp, .tif, .tiff, .webp) in folder {str(tmp_path)!r}" in \
        capsys.readouterr().err


def test_boxes_and_labels_are_drawn_at_the_die_s_size_whatever_the_picture_s() -> None:
    from controller.commands.vision import annotate
    from vision.read import DieReading, Observation

    die = DieReading("d6", 3, (120.0, 120.0), (100.0, 100.0, 40.0, 40.0), 0.95)
    for shape in ((360, 640, 3), (2160, 3840, 3)):  # the same 40 px die in a small and a 4K frame
        drawn = annotate(np.zeros(shape, np.uint8), Observation((die,), 1.0)).any(axis=2)
        rows, columns = np.nonzero(drawn)
        assert drawn[100, 100:141].all() and not drawn[120, 102:139].any()  # a thin box edge around an open face
        assert columns.max() < 100 + 80 and rows.min() > 100 - 20  # a label about a die wide, just above it
