"""The face designs: every non-pip face drawn once, as non-overlapping filled outlines in a unit box."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput
from vision.face_art import DESIGNS_PATH, Lettering, Mark, drawn, lettering, marks, svg_path, write_designs
from vision.render_solid import FACE_FILL, SOLIDS, face_marks

DESIGNED = [(kind, face) for kind in (DieKind.D12, DieKind.D8_TAUREN, DieKind.LETTERS) for face in kind.faces]


def raster(kind: DieKind, face: str, px: int = 96, turns: int = 0) -> np.ndarray:
    """The design filled as the renderer fills it (ink, then holes), ``turns`` half turns."""
    return filled(marks(kind, face), px, -1.0 if turns % 2 else 1.0)


def filled(designs: tuple[Mark, ...], px: int = 96, scale: float = 1.0) -> np.ndarray:
    canvas = np.zeros((px, px), np.uint8)
    for mark in designs:
        cv2.fillPoly(canvas, [np.round((mark.polygon * scale + 0.5) * px).astype(np.int32)], 0 if mark.hole else 255)
    return canvas > 0


@pytest.mark.parametrize(("kind", "face"), DESIGNED)
def test_every_design_fits_the_inscribed_circle(kind: DieKind, face: str) -> None:
    designs = marks(kind, face)
    assert designs and not designs[0].hole
    reach = max(float(np.linalg.norm(m.polygon, axis=1).max()) for m in designs)
    assert 0.3 < reach <= 0.5


def test_holes_are_where_the_letters_have_them() -> None:
    holes = {face: sum(m.hole for m in marks(DieKind.LETTERS, face)) for face in DieKind.LETTERS.faces}
    assert holes == {"M": 0, "E": 0, "D": 1, "L": 0, "O": 1, "H": 0}
    assert sum(m.hole for m in marks(DieKind.D12, "8")) == 2
    assert sum(m.hole for m in marks(DieKind.D12, "10")) == 1  # an oval zero, not a slashed one


def test_six_and_nine_differ_upside_down() -> None:
    six, nine = raster(DieKind.D12, "6"), raster(DieKind.D12, "9", turns=1)
    assert (six ^ nine).mean() > 0.03


def test_tauren_faces_are_pips_and_three_different_pictures() -> None:
    for face in "23456":
        assert len(marks(DieKind.D8_TAUREN, face)) == int(face) and not any(m.hole for m in marks(DieKind.D8_TAUREN, face))
    pictures = [raster(DieKind.D8_TAUREN, face) for face in "WCS"]
    for i in range(3):
        for j in range(i + 1, 3):
            assert (pictures[i] ^ pictures[j]).mean() > 0.05


@pytest.mark.parametrize(("kind", "face"), [(DieKind.LETTERS, "O"), (DieKind.D8_TAUREN, "W"), (DieKind.D12, "12")])
def test_svg_path_is_one_closed_subpath_per_mark_in_the_unit_box(kind: DieKind, face: str) -> None:
    path = svg_path(kind, face)
    assert path.count("M ") == path.count(" Z") == len(marks(kind, face))
    numbers = np.array([float(n) for n in re.findall(r"-?\d+\.\d+", path)])
    assert numbers.size and np.abs(numbers).max() <= 0.5


def test_unknown_face_is_refused() -> None:
    with pytest.raises(InvalidInput):
        marks(DieKind.LETTERS, "Q")


def test_renderer_draws_the_designs_scaled_to_the_face() -> None:
    solid = SOLIDS[DieKind.D8_TAUREN]
    drawn = face_marks(DieKind.D8_TAUREN, solid, 8, 0, 0.08)  # the eighth face: S
    design = marks(DieKind.D8_TAUREN, "S")
    scale = 2 * solid.inradius * FACE_FILL[DieKind.D8_TAUREN]
    assert len(drawn) == len(design)
    assert all(np.allclose(d.polygon, m.polygon * scale) and d.hole == m.hole for d, m in zip(drawn, design))


def test_renderer_letters_in_another_font_when_asked() -> None:
    solid = SOLIDS[DieKind.LETTERS]
    plain = face_marks(DieKind.LETTERS, solid, 6, 0, 0.08)
    look = Lettering("italic", 300, 0.2, 0.8)
    other = face_marks(DieKind.LETTERS, solid, 6, 0, 0.08, look)
    assert len(lettering("H", look)) == len(other)
    assert (filled(plain) ^ filled(other)).mean() > 0.03


def test_stored_designs_are_the_drawn_ones(tmp_path: Path) -> None:
    """The frozen designs are what tracing draws now, up to the font rasteriser: OpenCV 5.0 and 5.1
    trace the same glyphs with a few points more or less, so the shapes are compared, not the points."""
    if not hasattr(cv2, "FontFace"):
        pytest.skip("the designs are traced with OpenCV 5's font faces")
    assert write_designs(tmp_path / "designs.json") == 21
    written = json.loads((tmp_path / "designs.json").read_text())
    assert written.keys() == json.loads(DESIGNS_PATH.read_text()).keys()
    for kind, face in DESIGNED:
        if kind is DieKind.D8_TAUREN and face.isdigit():
            continue
        now, stored = drawn(kind, face), marks(kind, face)
        assert [m.hole for m in now] == [m.hole for m in stored], (kind, face)
        a, b = filled(now, 192), filled(stored, 192)
        assert (a & b).sum() / (a | b).sum() > 0.95, (kind, face)


def test_a_six_can_be_dotted_instead_of_underlined() -> None:
    underlined = filled(lettering("6", Lettering(six_nine="underline"), True))
    dotted = filled(lettering("6", Lettering(six_nine="dot"), True))
    assert (underlined ^ dotted).mean() > 0.03


FONT_FILES = tuple(str(Path("/usr/share/fonts/truetype/dejavu") / name) for name in (
    "DejaVuSans.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf"))
"""Font files of Debian's fonts-dejavu-core, on every machine the suite runs on."""

_DRAW_ALONE = """
import sys, numpy as np
sys.path.insert(0, sys.argv[1])
from vision.face_art import Lettering, _put
for text in sys.argv[3:]:
    canvas = np.zeros((64, 96), np.uint8)
    _put(canvas, text, (4, 50), Lettering(sys.argv[2], 400))
    print(int(canvas.astype(np.int64).sum()), int((canvas.astype(np.int64) * np.arange(96)).sum()))
"""
"""Draws each text in one font, in a process that drew nothing before."""


def test_each_font_draws_its_own_glyphs_whatever_was_drawn_before() -> None:
    """OpenCV 5.1 keeps drawn glyphs by the face object: with a face made and freed for each text,
    a font file drew another font's glyphs (``face_art.font_face``)."""
    import subprocess
    import sys

    from vision.face_art import _put

    if not hasattr(cv2, "FontFace") or not all(Path(font).is_file() for font in FONT_FILES):
        pytest.skip("needs OpenCV 5's font faces and fonts-dejavu-core")
    texts = ("1", "3", "8", "H")
    root = str(Path(__file__).resolve().parents[2])
    alone = {font: subprocess.run([sys.executable, "-c", _DRAW_ALONE, root, font, *texts], capture_output=True,
                                  text=True, check=True).stdout.split("\n")[:len(texts)] for font in FONT_FILES}
    for _ in range(3):
        for font in ("sans", *FONT_FILES, "italic"):
            for text in texts:
                canvas = np.zeros((64, 96), np.uint8)
                _put(canvas, text, (4, 50), Lettering(font, 400))
                if font in alone:
                    ink = canvas.astype(np.int64)
                    assert f"{int(ink.sum())} {int((ink * np.arange(96)).sum())}" == alone[font][texts.index(text)], \
                        (font, text)
