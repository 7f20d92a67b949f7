"""``dicetable print-tray``: true-size marker sheets whose markers the camera code detects."""

from __future__ import annotations

import errno
import os
import re
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.commands.print_tray import (
    DEFAULT_MARGIN_MM, DEFAULT_MARKER_MM, DEFAULT_SIZE, PAGE_MARGIN_MM, PT_PER_MM, tiles,
)
from vision.calibrate import TrayLayout, detect_markers, load_tray_config

SVG = "{http://www.w3.org/2000/svg}"


def svg_boxes(path: Path) -> list[tuple[float, float, float, float]]:
    """The filled black rectangles of an SVG sheet, mm."""
    root = ET.parse(path).getroot()
    return [tuple(float(rect.get(k, 0)) for k in ("x", "y", "width", "height"))  # type: ignore[misc]
            for rect in root.iter(f"{SVG}rect") if rect.get("fill") == "black"]


def pdf_boxes(path: Path) -> list[tuple[float, float, float, float]]:
    """The filled rectangles of a PDF sheet, converted back to mm from the top-left corner."""
    data = path.read_bytes().decode("latin-1")
    page_h = float(re.search(r"/MediaBox \[0 0 [\d.]+ ([\d.]+)\]", data).group(1))  # type: ignore[union-attr]
    boxes = []
    for x, y, w, h in re.findall(r"([\d.-]+) ([\d.-]+) ([\d.-]+) ([\d.-]+) re f", data):
        x, y, w, h = (float(v) / PT_PER_MM for v in (x, y, w, h))
        boxes.append((x, page_h / PT_PER_MM - y - h, w, h))
    return boxes


def rasterise(boxes: list[tuple[float, float, float, float]], size_mm: tuple[float, float],
              px_per_mm: float) -> np.ndarray:
    """Paint the boxes black on white paper, as a printer would."""
    image = np.full((round(size_mm[1] * px_per_mm), round(size_mm[0] * px_per_mm)), 255, np.uint8)
    for x, y, w, h in boxes:
        cv2.rectangle(image, (round(x * px_per_mm), round(y * px_per_mm)),
                      (round((x + w) * px_per_mm) - 1, round((y + h) * px_per_mm) - 1), 0, -1)
    return image


def write(tmp_path: Path, name: str, *options: str) -> Path:
    out = tmp_path / name
    assert main(["print-tray", "--out", str(out), *options]) == 0
    return out


def test_svg_sheet_is_the_tray_size_in_millimetres(tmp_path: Path) -> None:
    root = ET.parse(write(tmp_path, "tray.svg", "--size", "420x297")).getroot()
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("420mm", "297mm", "0 0 420 297")


def test_svg_markers_have_the_requested_size(tmp_path: Path) -> None:
    boxes = svg_boxes(write(tmp_path, "tray.svg", "--marker-mm", "36"))
    layout = TrayLayout(*DEFAULT_SIZE, marker_mm=36, margin_mm=DEFAULT_MARGIN_MM)
    for marker_id in range(4):
        x0, y0 = layout.marker_origin_mm(marker_id)
        mine = [b for b in boxes if x0 <= b[0] < x0 + 36 and y0 <= b[1] < y0 + 36]
        right = max(b[0] + b[2] for b in mine)
        bottom = max(b[1] + b[3] for b in mine)
        assert (min(b[0] for b in mine), min(b[1] for b in mine)) == pytest.approx((x0, y0))
        assert (right - x0, bottom - y0) == pytest.approx((36, 36))


@pytest.mark.parametrize("name", ["tray.svg", "tray.pdf"])
def test_printed_markers_are_detected_where_the_layout_puts_them(tmp_path: Path, name: str) -> None:
    out = write(tmp_path, name, "--size", "300x200", "--marker-mm", "25")
    boxes = svg_boxes(out) if name.endswith(".svg") else pdf_boxes(out)
    found = detect_markers(rasterise(boxes, (300, 200), px_per_mm=4.0))
    layout = TrayLayout(300, 200, 25, DEFAULT_MARGIN_MM)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        assert np.abs(corners / 4.0 - layout.marker_corners_mm(marker_id)).max() < 0.5


def test_pdf_page_is_the_tray_size(tmp_path: Path) -> None:
    data = write(tmp_path, "tray.pdf").read_bytes()
    width, height = (float(v) for v in re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data).groups())  # type: ignore[union-attr]
    assert (width / PT_PER_MM, height / PT_PER_MM) == pytest.approx((400, 300), abs=0.01)


def test_pdf_cross_reference_points_at_each_object(tmp_path: Path) -> None:
    data = write(tmp_path, "tray.pdf").read_bytes()
    start = int(re.search(rb"startxref\n(\d+)", data).group(1))  # type: ignore[union-attr]
    assert data[start:start + 4] == b"xref"
    offsets = [int(line[:10]) for line in data[start:].split(b"\n")[3:8]]
    assert [data[o:o + 7] for o in offsets] == [b"%d 0 obj" % n for n in range(1, 6)]
    assert data.rstrip().endswith(b"%%EOF")


def test_sheet_shows_ids_and_a_scale_bar(tmp_path: Path) -> None:
    text = write(tmp_path, "tray.svg").read_text()
    assert all(f">id {i}<" in text for i in range(4))
    assert "100 mm" in text


def test_unknown_file_type_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print-tray", "--out", str(tmp_path / "tray.png")]) == 2
    assert ".svg or .pdf" in capsys.readouterr().err


def test_malformed_size_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print-tray", "--size", "big"]) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_markers_too_big_for_the_tray_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print-tray", "--out", str(tmp_path / "t.svg"), "--size", "60x60", "--marker-mm", "30"]) == 2
    assert "cannot hold" in capsys.readouterr().err


@pytest.mark.parametrize("options", [["--size", "infx300"], ["--size", "1e9x300"], ["--marker-mm", "nan"]])
def test_a_size_no_tray_has_is_refused_and_nothing_written(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           options: list[str]) -> None:
    out = tmp_path / "t.svg"
    assert main(["print-tray", "--out", str(out), *options]) == 2
    assert "at most 3000" in capsys.readouterr().err and not out.exists()


def test_existing_file_is_not_overwritten_without_force(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = write(tmp_path, "tray.svg")
    out.write_text("mine")
    assert main(["print-tray", "--out", str(out)]) == 2
    assert "--force" in capsys.readouterr().err and out.read_text() == "mine"
    assert main(["print-tray", "--out", str(out), "--force"]) == 0 and out.read_text() != "mine"


def pdf_pages(path: Path) -> list[tuple[float, float, str]]:
    """Each page's size (mm) and content stream."""
    data = path.read_bytes().decode("latin-1")
    sizes = re.findall(r"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    streams = re.findall(r"stream\n(.*?)\nendstream", data, re.S)
    return [(float(w) / PT_PER_MM, float(h) / PT_PER_MM, st) for (w, h), st in zip(sizes, streams)]


def reassemble(path: Path, layout: TrayLayout, paper: tuple[float, float]) -> list:
    """What a person gets by cutting each page at its marks and butting the pieces: every
    filled box of every page, clipped to its piece, back in tray mm."""
    boxes = []
    for (page_w, page_h, stream), tile in zip(pdf_pages(path), tiles(layout, paper)):
        for x, y, w, h in re.findall(r"([\d.-]+) ([\d.-]+) ([\d.-]+) ([\d.-]+) re f", stream):
            x, y, w, h = (float(v) / PT_PER_MM for v in (x, y, w, h))
            top = page_h - y - h
            x0, x1 = max(x, PAGE_MARGIN_MM), min(x + w, PAGE_MARGIN_MM + tile.w)
            y0, y1 = max(top, PAGE_MARGIN_MM), min(top + h, PAGE_MARGIN_MM + tile.h)
            if x1 > x0 and y1 > y0:
                dx, dy = tile.x - PAGE_MARGIN_MM, tile.y - PAGE_MARGIN_MM
                boxes.append((x0 + dx, y0 + dy, x1 - x0, y1 - y0))
    return boxes


@pytest.mark.parametrize("paper, size", [("a4", (210, 297)), ("letter", (215.9, 279.4))])
def test_tray_larger_than_the_paper_is_tiled_and_reassembles(tmp_path: Path, paper: str,
                                                             size: tuple[float, float]) -> None:
    out = write(tmp_path, "tray.pdf", "--paper", paper)
    pages = pdf_pages(out)
    layout = TrayLayout(*DEFAULT_SIZE, DEFAULT_MARKER_MM, DEFAULT_MARGIN_MM)
    assert len(pages) == 4
    assert all(sorted((w, h)) == pytest.approx(sorted(size), abs=0.01) for w, h, _ in pages)
    assert all("re W n" in stream and "Cut at the corner marks" in stream for _, _, stream in pages)
    found = detect_markers(rasterise(reassemble(out, layout, size), DEFAULT_SIZE, px_per_mm=4.0))
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        assert np.abs(corners / 4.0 - layout.marker_corners_mm(marker_id)).max() < 0.5


def test_each_page_has_cut_marks_at_its_pieces_corners(tmp_path: Path) -> None:
    _, page_h, stream = pdf_pages(write(tmp_path, "tray.pdf", "--paper", "a4"))[0]
    marks = re.findall(r"0 G 0.7 w ([\d.-]+) ([\d.-]+) m ([\d.-]+) ([\d.-]+) l S", stream.split("Q")[-1])
    assert len(marks) == 8


def test_a_small_tray_fits_on_one_page(tmp_path: Path) -> None:
    assert len(pdf_pages(write(tmp_path, "tray.pdf", "--paper", "a4", "--size", "180x120",
                               "--marker-mm", "20"))) == 1


def test_tiling_needs_a_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print-tray", "--out", str(tmp_path / "t.svg"), "--paper", "a4"]) == 2
    assert "PDF" in capsys.readouterr().err


def test_tray_defaults_agree_with_the_example_configuration_and_the_readme() -> None:
    root = Path(__file__).resolve().parents[2]
    tray = load_tray_config(root / "table.example.toml").layout
    assert (tray.width_mm, tray.height_mm, tray.marker_mm, tray.margin_mm) == (
        *DEFAULT_SIZE, DEFAULT_MARKER_MM, DEFAULT_MARGIN_MM)
    readme = (root / "hardware" / "README.md").read_text()
    assert f"{DEFAULT_SIZE[0]:g} × {DEFAULT_SIZE[1]:g} mm inside" in readme
    assert f"--size {DEFAULT_SIZE[0]:g}x{DEFAULT_SIZE[1]:g}" in readme


def test_markers_too_small_for_the_camera_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 0.001 mm was written, a sheet no camera can find
    assert main(["print-tray", "--out", str(tmp_path / "t.svg"), "--marker-mm", "0.001"]) == 2
    assert "cannot find markers under 10 mm" in capsys.readouterr().err and not (tmp_path / "t.svg").exists()


def test_an_out_that_is_a_folder_is_refused_even_with_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # with --force it said "Is a directory" after the sheet was made
    (tmp_path / "d.svg").mkdir()
    assert main(["print-tray", "--out", str(tmp_path / "d.svg"), "--force"]) == 2
    assert "'" + str(tmp_path / "d.svg") + "' is a folder; give the name of a tray sheet" in capsys.readouterr().err



def test_a_disk_that_fills_up_leaves_the_old_sheet_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tray.svg"
    out.write_text("mine")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert main(["print-tray", "--out", str(out), "--force"]) == 2
    assert capsys.readouterr().err == f"dicetable: cannot write '{out}': the disk is full\n"
    assert out.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["tray.svg"]
    assert main(["print-tray", "--out", str(tmp_path / "new.svg")]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tray.svg"]


def test_a_sheet_is_written_with_the_usual_permissions(tmp_path: Path) -> None:
    out = tmp_path / "tray.svg"
    mask = os.umask(0o027)
    try:
        assert main(["print-tray", "--out", str(out)]) == 0
    finally:
        os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640 and out.read_text().startswith("<?xml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tray.svg"]


def test_a_sheet_is_written_on_a_file_system_without_hard_links(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(src: object, dst: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    out = tmp_path / "tray.svg"
    assert main(["print-tray", "--out", str(out)]) == 0
    assert out.read_text().startswith("<?xml") and sorted(p.name for p in tmp_path.iterdir()) == ["tray.svg"]


def test_forcing_a_sheet_over_a_link_writes_the_file_it_names(tmp_path: Path) -> None:
    (tmp_path / "sheets").mkdir()
    real = tmp_path / "sheets" / "tray.svg"
    real.write_text("old")
    (tmp_path / "latest.svg").symlink_to(real)
    assert main(["print-tray", "--out", str(tmp_path / "latest.svg"), "--force"]) == 0
    assert (tmp_path / "latest.svg").is_symlink() and real.read_text().startswith("<?xml")
