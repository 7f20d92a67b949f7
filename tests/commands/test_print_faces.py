"""``dicetable print-faces``: sticker sheets at true size, a sticker per face per die, art inside its face."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.commands.print_faces import face_art, face_outline
from controller.games.dice import DieKind

SVG = "{http://www.w3.org/2000/svg}"

FACE_SIDE = {  # the side of a face of a die N mm between opposite faces, from the solids' geometry
    "letters": lambda n: n,                                   # cube
    "d8-tauren": lambda n: n * math.sqrt(3 / 2),              # octahedron: height = side * sqrt(2/3)
    "d12": lambda n: n / (2 * 1.1135163644116068),            # dodecahedron: inradius = 1.1135 * side
}
CORNERS = {"letters": 4, "d8-tauren": 3, "d12": 5}


def stickers(path: Path) -> tuple[ET.Element, list[tuple[str, str, np.ndarray, str]]]:
    root = ET.parse(path).getroot()
    found = []
    for group in root.iter(f"{SVG}g"):
        cut = group.find(f"{SVG}polygon")
        art = group.find(f"{SVG}path")
        assert cut is not None and art is not None
        points = np.array([[float(v) for v in p.split(",")] for p in cut.get("points", "").split()])
        found.append((group.get("data-die", ""), group.get("data-face", ""), points, art.get("d", "")))
    return root, found


@pytest.mark.parametrize("kind,die_mm", [("d8-tauren", 16), ("letters", 19), ("d12", 22)])
def test_every_sticker_is_the_dies_face_at_true_size(tmp_path: Path, kind: str, die_mm: float) -> None:
    out = tmp_path / "faces.svg"
    assert main(["print-faces", "--kind", kind, "--die-mm", str(die_mm), "--dice", "3", "--out", str(out)]) == 0
    root, found = stickers(out)
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("210mm", "297mm", "0 0 210 297")
    faces = DieKind(kind).faces
    assert sorted((d, f) for d, f, _, _ in found) == sorted((str(d), f) for d in (1, 2, 3) for f in faces)
    for _, _, cut, _ in found:
        sides = np.linalg.norm(cut - np.roll(cut, 1, axis=0), axis=1)
        assert len(cut) == CORNERS[kind]
        assert sides == pytest.approx([FACE_SIDE[kind](die_mm)] * len(cut), abs=0.01)
        assert cut.min() >= 12 - 1e-6 and cut[:, 0].max() <= 210 - 12 and cut[:, 1].max() <= 297 - 12


@pytest.mark.parametrize("kind", ["d8-tauren", "letters", "d12"])
def test_every_faces_art_lies_inside_its_cut_line(kind: str) -> None:
    outline = face_outline(DieKind(kind), 16).astype(np.float32).reshape(-1, 1, 2)
    for face in DieKind(kind).faces:
        art = face_art(DieKind(kind), face, 16)
        assert art, face
        for polygon, _ in art:
            inside = [cv2.pointPolygonTest(outline, (float(x), float(y)), True) for x, y in polygon]
            assert min(inside) > 0.3, (face, min(inside))  # clear of the cut by at least 0.3 mm


def test_a_set_too_large_for_a_page_goes_on_more_pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tauren.svg"
    assert main(["print-faces", "--kind", "d8-tauren", "--die-mm", "30", "--out", str(out)]) == 0
    files = sorted(tmp_path.glob("tauren*.svg"))
    total = [s for f in files for s in stickers(f)[1]]
    assert len(files) > 1 and len(total) == 17 * 8
    assert "on %d a4 pages" % len(files) in capsys.readouterr().out


def test_pages_an_earlier_longer_run_left_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # printing tauren*.svg after a shorter run gave a mixed set, and nothing said so
    out = tmp_path / "tauren.svg"
    assert main(["print-faces", "--kind", "d8-tauren", "--die-mm", "30", "--out", str(out)]) == 0
    pages = len(list(tmp_path.glob("tauren*.svg")))
    capsys.readouterr()
    assert main(["print-faces", "--kind", "d8-tauren", "--die-mm", "30", "--dice", "1", "--out", str(out), "--force"]) == 0
    err = capsys.readouterr().err
    assert pages > 2 and f"tauren-{pages}.svg" in err and "tauren-2.svg" in err and "from an earlier run" in err
    assert "tauren.svg," not in err  # the page written now is not named


def test_a_pdf_holds_every_page_at_paper_size(tmp_path: Path) -> None:
    out = tmp_path / "letters.pdf"
    assert main(["print-faces", "--kind", "letters", "--die-mm", "25", "--paper", "letter", "--out", str(out)]) == 0
    data = out.read_bytes()
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert len(boxes) >= 2 and data.startswith(b"%PDF-")
    assert {(round(float(w) * 25.4 / 72, 1), round(float(h) * 25.4 / 72, 1)) for w, h in boxes} == {(215.9, 279.4)}
    assert data.count(b" f*") == 17 * 6  # one filled art per sticker


@pytest.mark.parametrize("args,words", [
    (["--kind", "d6", "--die-mm", "16"], "invalid choice"),
    (["--kind", "d12", "--die-mm", "2"], "--die-mm 2"),
    (["--kind", "d12", "--die-mm", "nan"], "--die-mm nan"),
    (["--kind", "d12", "--die-mm", "16", "--dice", "0"], "--dice 0"),
    (["--kind", "d12", "--die-mm", "16", "--out", "x.png"], "must end in .svg or .pdf"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert exit_status(["print-faces", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_an_existing_sheet_is_kept_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d12.svg"
    out.write_text("mine")
    assert main(["print-faces", "--kind", "d12", "--die-mm", "16", "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err and out.read_text() == "mine"
    assert main(["print-faces", "--kind", "d12", "--die-mm", "16", "--out", str(out), "--force"]) == 0
    assert out.read_text().startswith("<?xml")


def test_help_says_how_to_print_and_measure(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["print-faces", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "100%" in text and "opposite faces" in text and "Warrior" in text


def exit_status(argv: list[str]) -> int:
    """``main``'s status, or argparse's when it exits on a bad option."""
    try:
        return main(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
