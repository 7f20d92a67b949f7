"""``dicetable print-tray``: a true-size SVG or PDF of the four ArUco tray markers, their ids and a scale bar.

A tray larger than the printer's paper is tiled (``--paper a4`` or ``letter``) onto pages that
each show one piece at true size, clipped to it, with corner marks to cut at and a label saying
where the piece goes.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import cv2

from controller.commands.common import check_output, given, shown, write_file
from controller.games.errors import ConfigError, InvalidInput
from vision.calibrate import CORNER_IDS, MARKER_DICTIONARY, TrayLayout

PT_PER_MM = 72 / 25.4
DEFAULT_SIZE = (400.0, 300.0)   # the tray the README describes and table.example.toml's [tray]
SIZE_WANTED = "a tray size must be two positive numbers in millimetres, WIDTHxHEIGHT (e.g. 400x300)"
DEFAULT_MARKER_MM = 40.0
LEAST_MARKER_MM = 10.0  # a cell 1.7 mm: about 4 px of a 1536x864 frame of Camera Module 3 470 mm up
DEFAULT_MARGIN_MM = 10.0
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAGE_MARGIN_MM = 12.0           # what every printer can print up to, with room for the marks
MARK_MM = 6.0


@dataclass(frozen=True)
class Box:
    """A filled black rectangle, mm from the sheet's top-left corner."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Line:
    """A thin black line, mm."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Text:
    """A line of text whose baseline starts at (x, y), ``size`` mm high."""

    x: float
    y: float
    size: float
    text: str


Shape = Box | Line | Text


def register(subparsers: Any) -> None:
    """Add the ``print-tray`` subcommand."""
    parser = subparsers.add_parser(
        "print-tray", help="write a printable sheet of the tray's four calibration markers",
        description="Write a true-size SVG or PDF (chosen by the file's suffix) of the four ArUco "
                    "markers (4x4_50, ids 0-3 clockwise from top-left) that the camera uses to map "
                    "the tray, with their ids and a 100 mm scale bar. Print at 100% (no 'fit to "
                    "page') and check the scale bar with a ruler; the same sizes go in the table "
                    "configuration's [tray] table.")
    width, height = DEFAULT_SIZE
    parser.add_argument("--out", type=given, default="tray.pdf", help="output file, .svg or .pdf (default tray.pdf)")
    parser.add_argument("--size", default=f"{width:g}x{height:g}", metavar="WxH",
                        help=f"tray (and sheet) width x height in mm (default {width:g}x{height:g})")
    parser.add_argument("--marker-mm", type=float, default=DEFAULT_MARKER_MM,
                        help=f"side of each marker's black square in mm (default {DEFAULT_MARKER_MM:g})")
    parser.add_argument("--margin-mm", type=float, default=DEFAULT_MARGIN_MM,
                        help="gap between the tray edge and each marker in mm "
                             f"(default {DEFAULT_MARGIN_MM:g})")
    parser.add_argument("--paper", choices=("tray", *PAPERS), default="tray",
                        help="tray: one page of the tray's size (default); a4 or letter: tile a "
                             "larger tray onto pages with cut marks (PDF only)")
    parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the sheet and say where it went."""
    width, height = parse_size(args.size)
    if math.isfinite(args.marker_mm) and args.marker_mm < LEAST_MARKER_MM:
        raise InvalidInput(f"--marker-mm {args.marker_mm:g}: the camera cannot find markers under "
                           f"{LEAST_MARKER_MM:g} mm (default {DEFAULT_MARKER_MM:g})")
    try:
        layout = TrayLayout(width, height, args.marker_mm, args.margin_mm)
    except ConfigError as err:
        raise InvalidInput(str(err)) from err
    out = Path(args.out)
    suffix = out.suffix.lower()
    if suffix not in (".svg", ".pdf"):
        raise InvalidInput(f"--out {shown(out)}: the file must end in .svg or .pdf")
    if args.paper != "tray" and suffix != ".pdf":
        raise InvalidInput(f"--paper {args.paper}: tiled pages are written as one PDF; use "
                           "--out tray.pdf")
    check_output(out, args.force, "tray sheet")  # a folder, no folder, or there already
    shapes = sheet(layout)
    pages = tiles(layout, PAPERS[args.paper]) if args.paper != "tray" else []
    if suffix == ".svg":
        data = to_svg(shapes, layout).encode("utf-8")
    else:
        data = to_tiled_pdf(shapes, layout, pages, PAPERS[args.paper]) if pages else to_pdf(shapes, layout)
    write_file(out, data, args.force)  # as every command writes: not over a file that came meanwhile
    on = f" on {len(pages)} {args.paper} pages: cut at the corner marks, butt the pieces" \
        if pages else ""
    print(f"wrote {shown(out)} ({width:g} x {height:g} mm, markers {args.marker_mm:g} mm){on}: "
          "print at 100%")
    return 0


@dataclass(frozen=True)
class Tile:
    """One page's piece of the tray: column ``col``, row ``row``, at tray mm (x, y), w x h."""

    col: int
    row: int
    x: float
    y: float
    w: float
    h: float


def tiles(layout: TrayLayout, paper: tuple[float, float]) -> list[Tile]:
    """The pieces of the tray, row by row, on pages of ``paper`` (portrait or landscape,
    whichever needs fewer pages); a tray that fits on one page is one piece.

    >>> [(t.col, t.row, t.w, t.h) for t in tiles(TrayLayout(400, 300, 40, 10), (210, 297))]
    [(0, 0, 200.0, 150.0), (1, 0, 200.0, 150.0), (0, 1, 200.0, 150.0), (1, 1, 200.0, 150.0)]
    """
    def grid(page_w: float, page_h: float) -> tuple[int, int]:
        usable_w, usable_h = page_w - 2 * PAGE_MARGIN_MM, page_h - 2 * PAGE_MARGIN_MM
        return math.ceil(layout.width_mm / usable_w), math.ceil(layout.height_mm / usable_h)

    cols, rows = min(grid(*paper), grid(*paper[::-1]), key=lambda g: g[0] * g[1])
    w, h = layout.width_mm / cols, layout.height_mm / rows  # equal pieces: marks line up
    return [Tile(c, r, c * w, r * h, w, h) for r in range(rows) for c in range(cols)]


def _page_size(tile: Tile, paper: tuple[float, float]) -> tuple[float, float]:
    portrait_fits = tile.w <= paper[0] - 2 * PAGE_MARGIN_MM and tile.h <= paper[1] - 2 * PAGE_MARGIN_MM
    return paper if portrait_fits else (paper[1], paper[0])


def _shift(shape: Shape, dx: float, dy: float) -> Shape:
    if isinstance(shape, Line):
        return Line(shape.x1 + dx, shape.y1 + dy, shape.x2 + dx, shape.y2 + dy)
    return replace(shape, x=shape.x + dx, y=shape.y + dy)


def tile_page(shapes: list[Shape], tile: Tile, layout: TrayLayout, number: int,
              total: int) -> tuple[list[Shape], list[Shape]]:
    """One page in page mm: the tray's shapes shifted so the piece sits at the page margin (to
    be clipped to it), and the page's own cut marks at the piece's corners and label."""
    dx, dy = PAGE_MARGIN_MM - tile.x, PAGE_MARGIN_MM - tile.y
    left, top = PAGE_MARGIN_MM, PAGE_MARGIN_MM
    right, bottom = left + tile.w, top + tile.h
    marks: list[Shape] = []
    for x, y, sx, sy in ((left, top, -1, -1), (right, top, 1, -1), (right, bottom, 1, 1),
                         (left, bottom, -1, 1)):
        marks += [Line(x + sx, y, x + sx * (1 + MARK_MM), y),
                  Line(x, y + sy, x, y + sy * (1 + MARK_MM))]
    marks.append(Text(left, bottom + 8, 3.0,
                      f"dicetable tray {layout.width_mm:g} x {layout.height_mm:g} mm: page "
                      f"{number} of {total}, row {tile.row + 1}, column {tile.col + 1}. Cut at "
                      "the corner marks, butt the pieces edge to edge, tape them from behind."))
    return [_shift(shape, dx, dy) for shape in shapes], marks


def to_tiled_pdf(shapes: list[Shape], layout: TrayLayout, pages: list[Tile],
                 paper: tuple[float, float]) -> bytes:
    """The sheet cut into ``pages``, one PDF page each, every piece clipped to its own area."""
    streams = []
    for number, tile in enumerate(pages, start=1):
        page_w, page_h = _page_size(tile, paper)
        tray, marks = tile_page(shapes, tile, layout, number, len(pages))
        k = PT_PER_MM
        clip = (f"q {PAGE_MARGIN_MM * k:.3f} {(page_h - PAGE_MARGIN_MM - tile.h) * k:.3f} "
                f"{tile.w * k:.3f} {tile.h * k:.3f} re W n")
        ops = [clip, *(_pdf_op(s, page_h * k) for s in tray), "Q",
               *(_pdf_op(s, page_h * k) for s in marks)]
        streams.append((page_w, page_h, "\n".join(ops)))
    return _pdf(streams)


def parse_size(text: str) -> tuple[float, float]:
    """``"400x250"`` -> (400.0, 250.0), millimetres.

    >>> parse_size("420 X 297")
    (420.0, 297.0)
    """
    parts = text.lower().replace(" ", "").split("x")
    try:
        width, height = (float(p) for p in parts)
    except ValueError:
        raise InvalidInput(f"--size {text!r}: {SIZE_WANTED}") from None
    if width <= 0 or height <= 0:
        raise InvalidInput(f"--size {text!r}: {SIZE_WANTED}")
    return width, height


def sheet(layout: TrayLayout) -> list[Shape]:
    """Everything on the sheet: the tray outline, the markers with ids, a scale bar and a title."""
    shapes: list[Shape] = _outline(layout)
    for marker_id in CORNER_IDS:
        shapes += marker_boxes(layout, marker_id)
        shapes.append(_label(layout, marker_id))
    shapes += _scale_bar(layout)
    shapes.append(Text(layout.width_mm / 2 - 40, layout.height_mm / 2, 3.5,
                       f"dicetable tray {layout.width_mm:g} x {layout.height_mm:g} mm, "
                       f"ArUco 4x4_50 markers {layout.marker_mm:g} mm"))
    return shapes


def marker_boxes(layout: TrayLayout, marker_id: int) -> list[Box]:
    """The black cells of one marker as boxes (runs of cells in a row merged)."""
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICTIONARY)
    bits = cv2.aruco.generateImageMarker(dictionary, marker_id, 6) < 128
    x0, y0 = layout.marker_origin_mm(marker_id)
    cell = layout.marker_mm / 6
    boxes = []
    for row in range(6):
        col = 0
        while col < 6:
            if not bits[row, col]:
                col += 1
                continue
            end = col
            while end < 6 and bits[row, end]:
                end += 1
            boxes.append(Box(x0 + col * cell, y0 + row * cell, (end - col) * cell, cell))
            col = end
    return boxes


def _outline(layout: TrayLayout) -> list[Shape]:
    w, h = layout.width_mm, layout.height_mm
    return [Line(0, 0, w, 0), Line(w, 0, w, h), Line(w, h, 0, h), Line(0, h, 0, 0)]


def _label(layout: TrayLayout, marker_id: int) -> Text:
    x, y = layout.marker_origin_mm(marker_id)
    top = y < layout.height_mm / 2
    size = max(2.5, min(5.0, layout.marker_mm / 6))
    baseline = y + layout.marker_mm + layout.marker_mm / 6 + size if top else y - layout.marker_mm / 6 - 1
    return Text(x, baseline, size, f"id {marker_id}")


def _scale_bar(layout: TrayLayout) -> list[Shape]:
    """A bar 100 mm long (shorter on a small tray) with a tick every 10 mm, above the bottom edge."""
    length = 100.0 if layout.width_mm - 2 * (layout.marker_mm + layout.margin_mm) > 110 else 50.0
    x0 = (layout.width_mm - length) / 2
    y = layout.height_mm - layout.margin_mm - 6
    shapes: list[Shape] = [Box(x0, y, length, 1.0)]
    for k in range(int(length // 10) + 1):
        shapes.append(Line(x0 + 10 * k, y - (3 if k % 5 == 0 else 1.5), x0 + 10 * k, y))
    shapes.append(Text(x0, y - 4, 3.0, f"{length:g} mm: check with a ruler"))
    return shapes


def to_svg(shapes: list[Shape], layout: TrayLayout) -> str:
    """The sheet as SVG with millimetre user units, so it prints at true size."""
    w, h = layout.width_mm, layout.height_mm
    body = []
    for shape in shapes:
        if isinstance(shape, Box):
            body.append(f'<rect x="{shape.x:.3f}" y="{shape.y:.3f}" width="{shape.w:.3f}" '
                        f'height="{shape.h:.3f}" fill="black"/>')
        elif isinstance(shape, Line):
            body.append(f'<line x1="{shape.x1:.3f}" y1="{shape.y1:.3f}" x2="{shape.x2:.3f}" '
                        f'y2="{shape.y2:.3f}" stroke="black" stroke-width="0.25"/>')
        else:
            body.append(f'<text x="{shape.x:.3f}" y="{shape.y:.3f}" font-family="Helvetica, Arial, '
                        f'sans-serif" font-size="{shape.size:.2f}">{escape(shape.text)}</text>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
            f'viewBox="0 0 {w:g} {h:g}">\n<rect width="{w:g}" height="{h:g}" fill="white"/>\n'
            + "\n".join(body) + "\n</svg>\n")


def to_pdf(shapes: list[Shape], layout: TrayLayout) -> bytes:
    """The sheet as a one-page PDF of the tray's size: boxes filled, lines stroked, Helvetica text."""
    page_h = layout.height_mm * PT_PER_MM
    stream = "\n".join(_pdf_op(shape, page_h) for shape in shapes)
    return _pdf([(layout.width_mm, layout.height_mm, stream)])


def _pdf(pages: list[tuple[float, float, str]]) -> bytes:
    """A PDF of ``pages`` (width mm, height mm, content stream), Helvetica as font F1."""
    count = len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(count))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, (width, height, text) in enumerate(pages):
        stream = text.encode("latin-1")
        objects.append(
            (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width * PT_PER_MM:.3f} "
             f"{height * PT_PER_MM:.3f}] /Resources << /Font << /F1 3 0 R >> >> "
             f"/Contents {5 + 2 * i} 0 R >>").encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, content in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + content + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _pdf_op(shape: Shape, page_h: float) -> str:
    """One shape as PDF drawing operators (PDF's origin is bottom-left, in points)."""
    k = PT_PER_MM
    if isinstance(shape, Box):
        return f"0 g {shape.x * k:.3f} {page_h - (shape.y + shape.h) * k:.3f} {shape.w * k:.3f} {shape.h * k:.3f} re f"
    if isinstance(shape, Line):
        return (f"0 G 0.7 w {shape.x1 * k:.3f} {page_h - shape.y1 * k:.3f} m "
                f"{shape.x2 * k:.3f} {page_h - shape.y2 * k:.3f} l S")
    text = shape.text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 {shape.size * k:.2f} Tf {shape.x * k:.3f} {page_h - shape.y * k:.3f} Td ({text}) Tj ET"
