"""``dicetable print-faces``: true-size sticker sheets to make Tauren, letter or d12 dice from blank dice.

Tauren d8 and HOLDEM letter dice are not sold: a table owner buys blank dice and sticks these
faces on. Every sticker is a die face at true size (a square, triangle or pentagon whose side is
the blank die's edge for its size), cut line and art, the art being the design of
:mod:`vision.face_art` at the size and place the renderer draws it on a die
(:func:`vision.render_solid.face_marks`), so the camera's reader knows it and the scoreboard can
draw the same.
The sheet holds a sticker per face per die of a set (``--dice``), on as many pages of the paper as
that needs, each page labelled with the kind, the die size and a 50 mm bar to check the print.
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence
from xml.sax.saxutils import escape

import numpy as np

from controller.commands.common import check_output, given, shown, write_file
from controller.commands.print_tray import PAGE_MARGIN_MM, PAPERS, PT_PER_MM, Box, Text, _pdf, _pdf_op
from controller.games.dice import DieKind
from controller.games.errors import InvalidInput

KINDS = (DieKind.D8_TAUREN, DieKind.LETTERS, DieKind.D12)
"""The kinds that need stickers (pip d6 dice are sold everywhere)."""

SET_DICE = {DieKind.D8_TAUREN: 17, DieKind.LETTERS: 17, DieKind.D12: 6}
"""Dice in a set: hold'em, two private dice for each of six seats and five community dice; Tao
Dice, one d12 per seat of six."""

GAP_MM = 3.0
"""Room between two stickers' cut lines."""

HEADER_MM = 14.0
"""Room at the top of a page for its label and the check bar."""

BAR_MM = 50.0
"""Length of the bar that checks the print's scale."""

DIE_MM = (8.0, 60.0)
"""Die sizes the sheet is made for: smaller faces cannot be cut by hand, larger dice are not sold."""

PIP_RADIUS = 0.085
"""A pip's radius as a share of the die's size (the renderer draws 0.065 to 0.105)."""


@dataclass(frozen=True)
class Sticker:
    """One face on a page: its face, which die of the set, its centre (page mm), its cut line and
    its art (polygons in page mm; a hole cuts the art it lies in)."""

    face: str
    die: int
    centre: tuple[float, float]
    outline: np.ndarray
    art: tuple[tuple[np.ndarray, bool], ...]


@dataclass(frozen=True)
class Page:
    """One sheet of paper: its size (mm), its stickers and its label."""

    width: float
    height: float
    stickers: tuple[Sticker, ...]
    label: str


def register(subparsers: Any) -> None:
    """Add the ``print-faces`` subcommand."""
    parser = subparsers.add_parser(
        "print-faces", help="write true-size sticker sheets to turn blank dice into Tauren, letter or d12 dice",
        description="Write a true-size SVG or PDF (chosen by the file's suffix) of die-face stickers for "
                    "blank dice: one sticker per face for every die of a set, each the size of the "
                    "die's face, with its cut line and the art the camera reads. Print at 100% (no "
                    "'fit to page'), check the 50 mm bar with a ruler, cut on the lines and stick "
                    "each face centred on its own face of the die (the faces' order does not matter "
                    "to the camera). An SVG holds one page: a set needing more is written as "
                    "NAME.svg, NAME-2.svg, ...; a PDF holds them all.")
    parser.add_argument("--kind", required=True, choices=[k.value for k in KINDS],
                        help="the dice: d8-tauren (2-6 pips, Warrior, Chieftain, Shaman), letters "
                             "(H O L D E M) or d12 (numerals 1-12)")
    parser.add_argument("--die-mm", required=True, type=float, metavar="N",
                        help="the blank die's size in mm, measured across two opposite faces as it lies "
                             "(a cube's edge; the size dice are sold by, e.g. 16)")
    parser.add_argument("--dice", type=int, metavar="COUNT",
                        help="dice in the set (default: 17 for d8-tauren and letters, two for each of "
                             "six seats and five community; 6 for d12, one per seat)")
    parser.add_argument("--paper", choices=tuple(PAPERS), default="a4", help="paper size (default a4)")
    parser.add_argument("--out", type=given, help="output file, .svg or .pdf (default faces-KIND-Nmm.svg)")
    parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the sheets and say where they went."""
    kind = DieKind(args.kind)
    die_mm = float(args.die_mm)
    if not (math.isfinite(die_mm) and DIE_MM[0] <= die_mm <= DIE_MM[1]):
        raise InvalidInput(f"--die-mm {args.die_mm:g}: give the die's size in mm, "
                           f"from {DIE_MM[0]:g} to {DIE_MM[1]:g}")
    dice = SET_DICE[kind] if args.dice is None else int(args.dice)
    if not 1 <= dice <= 200:
        raise InvalidInput(f"--dice {dice}: give how many dice the set has, from 1 to 200")
    out = Path(args.out or f"faces-{kind.value}-{die_mm:g}mm.svg")
    suffix = out.suffix.lower()
    if suffix not in (".svg", ".pdf"):
        raise InvalidInput(f"--out {shown(out)}: the file must end in .svg or .pdf")
    pages = sheets(kind, die_mm, dice, PAPERS[args.paper])
    targets = [out] if suffix == ".pdf" else page_files(out, len(pages))
    for target in targets:
        check_output(target, args.force, "sticker sheet")  # all refused before any is written
    if suffix == ".pdf":
        write_file(out, to_pdf(pages), args.force)
    else:
        for target, page in zip(targets, pages):
            write_file(target, to_svg(page).encode("utf-8"), args.force)
    names = ", ".join(shown(t) for t in targets)
    print(f"wrote {names}: {dice} {kind.value} dice x {len(kind.faces)} faces for {die_mm:g} mm dice "
          f"on {len(pages)} {args.paper} page{'s' if len(pages) > 1 else ''}; print at 100% and check the "
          f"{BAR_MM:g} mm bar")
    stale = _later_pages(out, len(targets)) if suffix == ".svg" else []
    if stale:
        print(f"note: {', '.join(shown(p) for p in stale)} {'is' if len(stale) == 1 else 'are'} from an earlier run, "
              "not of this set: leave them out when printing", file=sys.stderr)
    return 0


def _later_pages(out: Path, count: int) -> list[Path]:
    """The pages past the ``count`` written that an earlier, longer run left (``NAME-N.svg``)."""
    later, n = [], count + 1
    while (page := page_files(out, n)[-1]).is_file():
        later.append(page)
        n += 1
    return later


def page_files(out: Path, count: int) -> list[Path]:
    """The SVG files of ``count`` pages: ``out``, then ``NAME-2.svg``, ...

    >>> [p.name for p in page_files(Path("d8.svg"), 3)]
    ['d8.svg', 'd8-2.svg', 'd8-3.svg']
    """
    return [out] + [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(2, count + 1)]


def face_outline(kind: DieKind, die_mm: float) -> np.ndarray:
    """The cut line of one face (N, 2) in mm around its centre, y down, standing on an edge.

    The face of the renderer's solid of that kind (one unit between opposite faces), scaled to
    ``die_mm``: a cube's face is ``die_mm`` square, an octahedron's a triangle of side
    ``die_mm * sqrt(3/2)``, a dodecahedron's a pentagon of side ``die_mm / 2.2270``.
    """
    from vision.render_solid import SOLIDS
    corners = np.asarray(SOLIDS[kind].outlines[0], np.float64) * die_mm
    return np.asarray(corners @ _upright(corners).T)


def _upright(corners: np.ndarray) -> np.ndarray:
    """The rotation that puts the middle of the polygon's first edge straight down (y down)."""
    middle = (corners[0] + corners[1]) / 2
    angle = math.pi / 2 - math.atan2(middle[1], middle[0])
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


def face_art(kind: DieKind, face: str, die_mm: float) -> tuple[tuple[np.ndarray, bool], ...]:
    """The face's art (polygons in mm around the face's centre, y down; True for a hole), as the
    renderer draws it on a die of ``die_mm``, upright."""
    from vision.render_solid import SOLIDS, face_marks
    marks = face_marks(kind, SOLIDS[kind], kind.faces.index(face) + 1, 0, PIP_RADIUS)
    return tuple((np.asarray(mark.polygon, np.float64) * die_mm, mark.hole) for mark in marks)


def sheets(kind: DieKind, die_mm: float, dice: int, paper: tuple[float, float]) -> list[Page]:
    """The pages of a set: stickers die by die, face by face, in rows from the top-left."""
    outline = face_outline(kind, die_mm)
    lo, hi = outline.min(axis=0), outline.max(axis=0)
    cell = hi - lo + GAP_MM
    width, height = paper
    cols = int((width - 2 * PAGE_MARGIN_MM + GAP_MM) // cell[0])
    rows = int((height - 2 * PAGE_MARGIN_MM - HEADER_MM + GAP_MM) // cell[1])
    if cols < 1 or rows < 1:
        raise InvalidInput(f"--die-mm {die_mm:g}: a face does not fit on the paper")
    art = {face: face_art(kind, face, die_mm) for face in kind.faces}
    wanted = [(die, face) for die in range(dice) for face in kind.faces]
    per_page = cols * rows
    count = math.ceil(len(wanted) / per_page)
    pages = []
    for number in range(count):
        stickers = []
        for slot, (die, face) in enumerate(wanted[number * per_page:(number + 1) * per_page]):
            row, col = divmod(slot, cols)
            x = PAGE_MARGIN_MM + col * cell[0] - lo[0]
            y = PAGE_MARGIN_MM + HEADER_MM + row * cell[1] - lo[1]
            at = np.array([x, y])
            stickers.append(Sticker(face, die, (float(x), float(y)), outline + at,
                                    tuple((polygon + at, hole) for polygon, hole in art[face])))
        label = (f"dicetable {kind.value} stickers for {die_mm:g} mm dice: {dice} dice x {len(kind.faces)} "
                 f"faces, page {number + 1} of {count}. Print at 100%; this bar is {BAR_MM:g} mm:")
        pages.append(Page(width, height, tuple(stickers), label))
    return pages


def _points(polygon: np.ndarray) -> str:
    return " ".join(f"{x:.3f},{y:.3f}" for x, y in polygon)


def svg_path(polygons: Sequence[tuple[np.ndarray, bool]]) -> str:
    """SVG path data of a face's art: one closed subpath per polygon (fill-rule evenodd cuts holes)."""
    return " ".join("M" + " L".join(f"{x:.3f} {y:.3f}" for x, y in polygon) + " Z" for polygon, _ in polygons)


def to_svg(page: Page) -> str:
    """A page as SVG in millimetre user units (prints at true size): cut lines thin grey, art black."""
    w, h = page.width, page.height
    bar_x, bar_y = PAGE_MARGIN_MM, PAGE_MARGIN_MM + 8
    body = [f'<text x="{PAGE_MARGIN_MM:g}" y="{PAGE_MARGIN_MM + 3:g}" font-family="Helvetica, Arial, sans-serif" '
            f'font-size="3.2">{escape(page.label)}</text>',
            f'<rect class="check-bar" x="{bar_x:g}" y="{bar_y:g}" width="{BAR_MM:g}" height="1.5" fill="black"/>']
    for sticker in page.stickers:
        body.append(f'<g class="sticker" data-die="{sticker.die + 1}" data-face="{escape(sticker.face)}">'
                    f'<polygon class="cut" points="{_points(sticker.outline)}" fill="none" stroke="#888" '
                    f'stroke-width="0.2"/><path class="art" d="{svg_path(sticker.art)}" fill="black" '
                    f'fill-rule="evenodd"/></g>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" viewBox="0 0 {w:g} {h:g}">\n'
            f'<rect width="{w:g}" height="{h:g}" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n")


def to_pdf(pages: Sequence[Page]) -> bytes:
    """The pages as one PDF: cut lines stroked grey, art filled black (even-odd), the label in Helvetica."""
    streams = []
    for page in pages:
        top = page.height * PT_PER_MM
        ops = [_pdf_op(Text(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 3, 3.2, page.label), top),
               _pdf_op(Box(PAGE_MARGIN_MM, PAGE_MARGIN_MM + 8, BAR_MM, 1.5), top)]
        for sticker in page.stickers:
            ops.append("0.53 G 0.57 w " + _pdf_polygon(sticker.outline, top) + " S")
            ops.append("0 g " + " ".join(_pdf_polygon(polygon, top) for polygon, _ in sticker.art) + " f*")
        streams.append((page.width, page.height, "\n".join(ops)))
    return _pdf(streams)


def _pdf_polygon(polygon: np.ndarray, top: float) -> str:
    """A closed subpath in PDF points (origin bottom-left)."""
    k = PT_PER_MM
    moves = [f"{x * k:.3f} {top - y * k:.3f} {'m' if i == 0 else 'l'}" for i, (x, y) in enumerate(polygon)]
    return " ".join(moves) + " h"
