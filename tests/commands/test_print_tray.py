"""``dicetable print-tray``: true-size marker sheets whose markers the camera code detects."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from controller.commands.print_tray import PT_PER_MM
from vision.calibrate import TrayLayout, detect_markers

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
    layout = TrayLayout(marker_mm=36)
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
    layout = TrayLayout(300, 200, 25)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        assert np.abs(corners / 4.0 - layout.marker_corners_mm(marker_id)).max() < 0.5


def test_pdf_page_is_the_tray_size(tmp_path: Path) -> None:
    data = write(tmp_path, "tray.pdf").read_bytes()
    width, height = (float(v) for v in re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data).groups())  # type: ignore[union-attr]
    assert (width / PT_PER_MM, height / PT_PER_MM) == pytest.approx((400, 250), abs=0.01)


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
