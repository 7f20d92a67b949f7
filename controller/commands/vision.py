"""``dicetable vision read``: read the dice in photos, print values (or JSON) and draw annotated copies."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any, Literal, Sequence, TextIO

import cv2
import numpy as np

from controller.commands.common import (FileProblem, Progress, check_output, folders_kept_if_used, given_path,
                                        made_folder, read_bytes, reason, shown, stderr_held, write_file)
from controller.games.dice import DieKind
from controller.games.errors import DiceTableError, InvalidInput
from hardware.camera_opencv import opencv_quiet
from hardware.config import load_config
from vision.calibrate import Calibration, CalibrationError, TrayConfig, calibrate, load_tray_config
from vision.read import MAX_FRAME_PX


KINDS = [kind.value for kind in DieKind]
"""Every kind of die the reader reads."""


def register(subparsers: Any) -> None:
    """Add the ``vision`` subcommand with its ``read`` and ``teach`` actions."""
    parser = subparsers.add_parser("vision", help="camera dice reading from image files",
                                   description="Dice reading from the command line.")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    read = actions.add_parser(
        "read", help="read the dice in one or more photos",
        description="Find every die in each photo and read its top face. Prints one line per "
                    "photo (or one JSON object per photo with --json); unreadable dice show as '?' "
                    "(JSON value null) with a flag saying why (cocked, cut_off, blurred, other_kind: a die "
                    "of another kind than --kind). Faces print as games write them (5, 12, W, H). A photo over "
                    "50 megapixels is read at 1/2, 1/4 or 1/8 of its size when it is a JPEG (positions stay "
                    "in its pixels) and refused otherwise, so that reading stays within 500 MB.")
    read.add_argument("images", nargs="+", type=given_path, metavar="IMAGE",
                      help="photo files (JPEG, PNG, BMP, TIFF or WebP), or folders: every photo in them (their other "
                           "files, a HEIC photo or a broken link, are named in one line on stderr and skipped)")
    read.add_argument("--kind", default="d6", choices=KINDS, help="kind of dice in the photos (default d6)")
    read.add_argument("--data", type=given_path, metavar="DIR",
                      help="the table's data folder, where taught sets are found (default $STATE_DIRECTORY, "
                           "else ~/.local/share/dicetable)")
    read.add_argument("--json", action="store_true", help="one JSON object per image per line")
    read.add_argument("--annotate", type=given_path, metavar="DIR",
                      help="also write each photo with boxes and values drawn into DIR, as "
                           "NAME.png (NAME-2.png, ... when photos share a name)")
    read.add_argument("--force", action="store_true",
                      help="overwrite annotated pictures already in DIR")
    read.add_argument("--config", type=given_path, metavar="FILE",
                      help="the table's configuration (table.toml): read each photo as the table reads "
                           "its tray, calibrated by the tray's markers and its [tray] sizes (the dice's "
                           "size, whether a die leans), and say which of its [zones] each die lies in "
                           "(JSON: each die's \"zone\", null off every zone; --annotate draws the zones); "
                           "a photo whose markers are not found is reported")
    read.set_defaults(run=run_read)
    _register_teach(actions)
    parser.set_defaults(run=lambda args: (parser.print_help(), 2)[1])


def run_read(args: argparse.Namespace) -> int:
    """Read every image; report bad files one line each and exit 2 at the end if any failed."""
    if args.data is not None and not args.data.is_dir():  # a typo read with the shipped sets, unsaid
        raise InvalidInput(f"--data {shown(args.data)} is not a folder: give the table's data folder, where "
                           f"'dicetable vision teach' stores its sets")
    if args.kind != DieKind.D6.value:  # a damaged taught set: one line, not one per photo blaming each
        from vision.teach import taught_set
        taught_set(DieKind(args.kind), args.data)
    images, skipped = photo_paths(args.images)
    outputs = annotation_paths(args.annotate, images, args.force) if args.annotate else {}
    tray = None if args.config is None else table_tray(args.config)  # a bad one: one line, nothing read
    if skipped:  # once for the whole run, before the photos' lines; after the refusals, which stay one line
        print(f"warning: skipped {skipped_line(skipped)}", file=sys.stderr)
    failures = 0
    progress = Progress("vision read", len(images), "photos", enabled=not args.json)
    for n, path in enumerate(images):
        progress.update(n)
        try:
            photo = load_photo(path)
            observation, calibration = _read(photo.image, args.kind, args.data, tray, path)
        except DiceTableError as err:
            failures += 1
            progress.close()
            print(f"dicetable: {_naming(err, path)}", file=sys.stderr)
            continue
        progress.close()  # the reading goes to stdout, often the same terminal
        note = photo.note(path)
        if note:
            print(note, file=sys.stderr)
        zones = None if tray is None or calibration is None else zones_of(observation, calibration, tray)
        order = () if tray is None else tuple(zone.name for zone in tray.zones.zones)
        print_observation(path, in_file_pixels(observation, photo.reduced), args.json, sys.stdout, zones, order)
        if path in outputs:  # once, for a photo named twice
            write_png(outputs.pop(path), _picture(photo.image, observation, calibration, tray), args.force)
    return 2 if failures else 0


def table_tray(path: Path) -> TrayConfig:
    """The tray of the table's configuration at ``path``, once the file is checked whole by the
    parser ``run`` uses (:func:`hardware.config.load_config`): the same file gets the same one-line
    refusal from both. Checking only ``[tray]`` and ``[zones]`` let a bad ``[panel]`` or a typo'd
    key through here, to be refused by ``run`` at the table."""
    load_config(path)
    return load_tray_config(path)


def in_file_pixels(observation: Any, reduced: int) -> Any:
    """An observation of a photo decoded at 1/``reduced`` of its size, in the file's pixels."""
    from vision.read import scaled

    return replace(observation, dice=tuple(scaled(d, reduced) for d in observation.dice))


def _read(image: np.ndarray, kind: str, data: Path | None, tray: TrayConfig | None,
          path: Path) -> tuple[Any, Calibration | None]:
    """Read ``image`` (the photo ``path``) as ``kind`` dice (a taught set in the data folder ``data``
    or the default one); with ``tray``, as the table reads its tray: calibrated by its markers (the
    calibration is returned too; None without ``tray``).

    :raises CalibrationError: with ``tray``, the photo's markers are not found.
    """
    from vision.read import read_dice

    if tray is None:
        return read_dice(image, kind, data=data), None
    try:
        calibration = calibrate(image, tray.layout, tray.focal_px)
    except CalibrationError as err:
        raise CalibrationError(f"{shown(path)}: {err}") from None
    return read_dice(image, kind, tray=calibration, data=data), calibration


def zones_of(observation: Any, calibration: Calibration, tray: TrayConfig) -> tuple[str | None, ...]:
    """Each die's zone as the table places it (None off every zone)."""
    return tuple(tray.zones.zone_of(calibration.die_on_tray(d.center)) for d in observation.dice)


def _picture(image: np.ndarray, observation: Any, calibration: Calibration | None,
             tray: TrayConfig | None) -> np.ndarray:
    """The annotated picture: with a calibration, as the table's evidence picture (the zones'
    outlines and names too)."""
    if calibration is None or tray is None:
        return annotate(image, observation)
    from controller.table.camera import evidence_picture  # it draws with this module's annotate

    return evidence_picture(image, observation, calibration, tray.zones)


def annotation_paths(folder: Path, images: list[Path], force: bool) -> dict[Path, Path]:
    """Where each image's annotated copy goes: ``NAME.png`` in ``folder``, ``NAME-2.png`` and on
    for later photos of the same name, so none overwrites another. The folder is made if needed;
    every output is checked before any photo is read.
    """
    made_folder(folder, "--annotate")
    outputs: dict[Path, Path] = {}
    taken: set[str] = set()
    for image in dict.fromkeys(images):
        name, n = f"{image.stem}.png", 1
        while name in taken:
            n += 1
            name = f"{image.stem}-{n}.png"
        taken.add(name)
        outputs[image] = folder / name
        check_output(outputs[image], force, "picture")
    return outputs


def write_png(path: Path, image: np.ndarray, force: bool) -> None:
    """Write ``image`` as a PNG file (through Python, which takes any file name)."""
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise FileProblem(f"cannot encode {shown(path)} as PNG")
    write_file(path, data.tobytes(), force)


PHOTO_SUFFIXES = (".jpg", ".jpeg", ".jpe", ".jfif", ".png", ".bmp", ".dib", ".tif", ".tiff", ".webp")
"""The files a folder given to ``vision read`` is read for (any case): every name of the formats
:func:`load_photo` decodes (OpenCV's own names, and .jfif, Windows' name for a JPEG saved from a
browser). OpenCV also decodes GIF, AVIF, JPEG 2000, PNM, Sun raster and Radiance HDR, but
:func:`header_size` does not know their sizes, so a photo in them is refused, not risked."""


class Skip(Enum):
    """Why an entry of a folder of photos is not read: each names the entries, one and many."""

    NOT_A_PHOTO = ("file that is not a JPEG, PNG, BMP, TIFF or WebP photo",
                   "files that are not JPEG, PNG, BMP, TIFF or WebP photos")
    BROKEN_LINK = ("broken link (its file is gone)", "broken links (their files are gone)")
    FOLDER = ("folder inside a folder of photos (its photos are not read)",
              "folders inside a folder of photos (their photos are not read)")


@dataclass(frozen=True)
class Skipped:
    """An entry of a folder of photos that is not read, and why: said, so that an owner who gave
    HEIC photos from a phone learns why a face has fewer pictures than they gave."""

    path: Path
    why: Skip


SHOWN_SKIPPED = 3
"""How many entries of each kind a line names before it counts the rest."""


def skipped_line(skipped: Sequence[Skipped]) -> str:
    """What was skipped, by why (a few named, the rest counted), and what to do: one clause."""
    parts = []
    for why in Skip:
        paths = [entry.path for entry in skipped if entry.why is why]
        if paths:
            names = ", ".join(shown(path) for path in paths[:SHOWN_SKIPPED])
            more = f" and {len(paths) - SHOWN_SKIPPED} more" if len(paths) > SHOWN_SKIPPED else ""
            parts.append(f"{len(paths)} {why.value[len(paths) > 1]}: {names}{more}")
    return "; ".join(parts + _skipped_fixes(skipped))


def _skipped_fixes(skipped: Sequence[Skipped]) -> list[str]:
    """What the owner can do about what was skipped (notes and other files may well stay)."""
    whys = {entry.why for entry in skipped}
    heic = any(entry.path.suffix.lower() in (".heic", ".heif") for entry in skipped)
    return ((["convert HEIC photos to JPEG"] if heic else [])
            + (["copy the photos themselves, not links"] if Skip.BROKEN_LINK in whys else [])
            + (["move the photos out of inner folders"] if Skip.FOLDER in whys else []))


def photo_paths(paths: list[Path]) -> tuple[list[Path], list[Skipped]]:
    """The photos to read: each path as given, or for a folder its photo files, sorted by name (a
    folder with none stays, for :func:`load_image` to report), and what the folders held besides."""
    out: list[Path] = []
    skipped: list[Skipped] = []
    for path in paths:
        photos, others = _photos_in(path) if path.is_dir() else ([path], [])
        out += photos
        skipped += others
    return out, skipped


def _photos_in(folder: Path) -> tuple[list[Path], list[Skipped]]:
    """The photo files in ``folder`` by name and the entries skipped, or ``[folder]`` and nothing
    when it holds no photo (its refusal says what it holds)."""
    photos, skipped = _sorted_out(folder)
    return (photos, skipped) if photos else ([folder], [])


def _sorted_out(folder: Path) -> tuple[list[Path], list[Skipped]]:
    """The photo files in ``folder`` by name, and its other entries (:func:`_entries`)."""
    photos: list[Path] = []
    skipped: list[Skipped] = []
    for entry in _entries(folder):
        why = _why_skipped(entry)
        if why is None:
            photos.append(entry)
        else:
            skipped.append(Skipped(entry, why))
    return photos, skipped


def _entries(folder: Path) -> list[Path]:
    """The entries of ``folder`` by name, but hidden ones: .DS_Store, .thumbnails, and the
    ``._IMG_1.jpg`` that macOS writes beside each photo copied to a USB stick (its metadata, not a
    photo: it was read and refused as unreadable). They are the system's, not the owner's, and not
    shown to them."""
    try:
        return sorted(entry for entry in folder.iterdir() if not entry.name.startswith("."))
    except OSError as err:
        raise FileProblem(f"cannot list the folder {shown(folder)}: {reason(err)}") from None


def _why_skipped(entry: Path) -> Skip | None:
    """Why ``entry`` is not a photo to read, or None when it is one (by its name's ending: the
    bytes are checked when it is read)."""
    if entry.is_symlink() and not entry.exists():
        return Skip.BROKEN_LINK
    if entry.is_dir():
        return Skip.FOLDER
    return None if entry.is_file() and entry.suffix.lower() in PHOTO_SUFFIXES else Skip.NOT_A_PHOTO


def _no_photos(folder: Path) -> str:
    """The refusal of a folder without a photo, saying what it holds instead."""
    skipped = _sorted_out(folder)[1]
    held = f"it holds {skipped_line(skipped)}" if skipped else "it is empty"
    return f"no photos in folder {shown(folder)}: {held}"


def load_image(path: Path) -> np.ndarray:
    """The image at ``path`` as BGR (see :func:`load_photo`; a huge JPEG is decoded at a reduced size)."""
    return load_photo(path).image


@dataclass(frozen=True)
class LoadedPhoto:
    """A photo as decoded: ``image`` is 1/``reduced`` of the file's ``size`` (width, height) each way."""

    image: np.ndarray
    reduced: int
    size: tuple[int, int]

    def note(self, path: Path) -> str:
        """The line that says a photo was read reduced ("" when it was not)."""
        if self.reduced == 1:
            return ""
        width, height = self.size
        return (f"{shown(path)}: {width}x{height} pixels, more than the reader needs: read at 1/{self.reduced} "
                f"of its size ({self.image.shape[1]}x{self.image.shape[0]}); positions are in the file's pixels")


MAX_DECODED_PIXELS = 50_000_000
"""Most pixels a photo is decoded at (150 MB as BGR), so that reading one stays within 500 MB: a
larger JPEG is decoded at 1/2, 1/4 or 1/8 of its size (libjpeg scales as it decodes), and any
larger photo is refused. The reader itself works on at most 4096 px a side (``vision.read.MAX_FRAME_PX``):
a photo longer than that and over half of :data:`MAX_DECODED_PIXELS`, of another format, is halved
once decoded, before it is read, as a JPEG is decoded (a 7000x7000 PNG of sensor noise took 550 MB,
its decoded pixels kept while it was read)."""

REDUCED_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                 8: cv2.IMREAD_REDUCED_COLOR_8}


def _naming(err: DiceTableError, path: Path) -> str:
    """``err``'s message, led by the photo's name when it does not say it (the reader's own
    refusals, of a picture too small or too narrow, do not know the file)."""
    return str(err) if shown(path) in str(err) or str(path) in str(err) else f"{shown(path)}: {err}"


def load_photo(path: Path) -> LoadedPhoto:
    """The image at ``path`` as BGR; raises :class:`InvalidInput` for a missing, unreadable or too
    large file (:data:`MAX_DECODED_PIXELS`, read from its header before decoding: a file whose
    header does not say its size, in a format the reader does not know, is not decoded at all).

    The bytes are read by Python and decoded by OpenCV: ``cv2.imread`` crashes the process on a
    file name that is not UTF-8.
    """
    if path.is_dir():
        raise InvalidInput(_no_photos(path))
    data = read_bytes(path, "image file")
    if not data:
        raise InvalidInput(f"{shown(path)} is empty, not an image")
    size = header_size(data)
    if size is None:
        raise InvalidInput(f"not a readable image: {shown(path)} (photos are read as JPEG, PNG, BMP, TIFF or WebP)")
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data.rfind(b"IEND") < 0:  # else libpng says so on stderr, in its words
        raise InvalidInput(f"{shown(path)} is cut short (a PNG without its end): copy it again")
    reduced = _reduction(path, size, data[:2] == b"\xff\xd8")
    image = _decoded(data, REDUCED_FLAGS[reduced])
    del data  # the file's bytes: no longer needed while the photo is read
    if image is None:
        raise InvalidInput(f"not a readable image: {shown(path)}")
    height, width = image.shape[:2]
    while reduced < 8 and max(height, width) > MAX_FRAME_PX and height * width > MAX_DECODED_PIXELS // 2:
        height, width = (height + 1) // 2, (width + 1) // 2
        image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
        reduced *= 2
    return LoadedPhoto(image, reduced, size)


def _decoded(data: bytes, flags: int) -> np.ndarray | None:
    """The image ``data`` holds, or None, without OpenCV's own log lines on stderr (a broken BMP
    printed "[ERROR:0@0.1] global loadsave.cpp:1377 imdecode_ ... Assertion failed" before the
    command's one line) or the decoders' (libpng writes "libpng error: IDAT: incorrect data check"
    itself, past OpenCV's log: :func:`common.stderr_held`)."""
    with opencv_quiet(), stderr_held():
        return cv2.imdecode(np.frombuffer(data, np.uint8), flags)


def _reduction(path: Path, size: tuple[int, int], jpeg: bool) -> int:
    """By how much to decode a photo of ``size`` (1: not at all); refuses one too large for that."""
    pixels = size[0] * size[1]
    for factor in (1, 2, 4, 8) if jpeg else (1,):
        if pixels <= MAX_DECODED_PIXELS * factor * factor:
            return factor
    other = "" if jpeg else " (a JPEG that large would be read at a reduced size)"
    raise InvalidInput(f"{shown(path)} is {size[0]}x{size[1]} pixels ({pixels / 1e6:.0f} megapixels): too large to "
                       f"read within memory; at most {MAX_DECODED_PIXELS / 1e6:.0f} megapixels{other}: shrink it first")


def header_size(data: bytes) -> tuple[int, int] | None:
    """A photo's width and height from its header, without decoding it: JPEG, PNG, BMP, TIFF or
    WebP (None for another format, or a header too short to say).

    >>> header_size(bytes.fromhex("89504e470d0a1a0a0000000d49484452") + (3000).to_bytes(4, "big") + (2000).to_bytes(4, "big"))
    (3000, 2000)
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":
        return _jpeg_size(data)
    if data[:2] == b"BM" and len(data) >= 26:
        return abs(int.from_bytes(data[18:22], "little", signed=True)), abs(int.from_bytes(data[22:26], "little", signed=True))
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(data)
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    """The size in a WebP's first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X)."""
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30:
        return int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """The size in a TIFF's first image directory (tags 256 and 257, ImageWidth and ImageLength)."""
    order: Literal["little", "big"] = "little" if data[:2] == b"II" else "big"
    start = int.from_bytes(data[4:8], order)
    count = int.from_bytes(data[start:start + 2], order)
    size: dict[int, int] = {}
    for entry in range(start + 2, start + 2 + 12 * count, 12):
        tag, kind = int.from_bytes(data[entry:entry + 2], order), int.from_bytes(data[entry + 2:entry + 4], order)
        if tag in (256, 257) and kind in (3, 4):  # SHORT or LONG, stored in the entry itself
            size[tag] = int.from_bytes(data[entry + 8:entry + (10 if kind == 3 else 12)], order)
    return (size[256], size[257]) if len(size) == 2 else None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The size in a JPEG's first frame header (SOF0-SOF15 but DHT, JPG and DAC), walking the segments."""
    i = 2
    while i + 9 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker == 0xFF:  # a fill byte
            i += 1
        elif marker == 0x01 or 0xD0 <= marker <= 0xD9:  # markers without a length
            i += 2
        elif 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        else:
            i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return None


def print_observation(path: Path, observation: Any, as_json: bool, out: TextIO,
                      zones: Sequence[str | None] | None = None, order: Sequence[str] = ()) -> None:
    """One line for one image: JSON, or the values, count and time; with ``zones`` (each die's,
    None off every zone), each die's zone too: JSON ``zone``, or the faces in each zone, the zones
    in ``order`` (:func:`by_zone`)."""
    if as_json:
        dice = [d.to_json() for d in observation.dice]
        if zones is not None:
            dice = [{**die, "zone": zone} for die, zone in zip(dice, zones)]
        out.write(json.dumps({"image": shown(path, quoted=False), "ms": round(observation.ms, 2), "dice": dice}) + "\n")
        return
    faces = " ".join(face_label(d) for d in observation.dice)
    flagged = sum(1 for d in observation.dice if d.flag)
    note = f", {flagged} flagged" if flagged else ""
    where = "" if zones is None else "; " + by_zone(observation.dice, zones, order)
    out.write(f"{shown(path, quoted=False)}: {len(observation.dice)} dice [{faces}]{note} ({observation.ms:.0f} ms){where}\n")


def by_zone(dice: Sequence[Any], zones: Sequence[str | None], order: Sequence[str] = ()) -> str:
    """The dice's faces zone by zone, the zones as ``order`` lists them (the tray's configuration:
    seat2 before seat10), any other by name, dice off every zone last:
    ``community: 3 5; seat0: ?; off every zone: 6`` (``no dice`` when there are none)."""
    rank = {name: i for i, name in enumerate(order)}
    names = sorted(set(zones), key=lambda z: (z is None, rank.get(z or "", len(rank)), z or ""))
    return "; ".join(f"{name or 'off every zone'}: " + " ".join(face_label(d) for d, z in zip(dice, zones) if z == name)
                     for name in names) or "no dice"


def annotate(image: np.ndarray, observation: Any) -> np.ndarray:
    """A copy of ``image`` with every die's box and value: green sure, orange flagged, red unreadable;
    each label on a dark band, where it covers no other label nor die (:func:`label_spots`)."""
    out = image.copy()
    labels = [_label(die, out.shape[1]) for die in observation.dice]
    for die, (lx, ly, lw, lh), (label, size, thickness) in zip(observation.dice, label_spots(observation, out.shape),
                                                             labels):
        x, y, w, h = (int(round(v)) for v in die.box)
        colour = _colour(die.value, die.flag)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, thickness)  # lines and labels grow with the die
        band = out[max(0, ly):ly + lh, max(0, lx):lx + lw]
        band[:] = band // 3
        cv2.putText(out, label, (lx + 1, ly + lh - 1 - thickness), cv2.FONT_HERSHEY_SIMPLEX, size, colour,
                    thickness, cv2.LINE_AA)
    return out


def _label(die: Any, width: int) -> tuple[str, float, int]:
    """A die's label (face, flag, confidence), its font scale and line thickness: both grow with
    the die, and shrink to fit a picture ``width`` pixels wide (a close-up's die, large in a small
    picture, had a label wider than the picture, cut at its edge)."""
    label = face_label(die) + (f" {die.flag}" if die.flag else "") + f" {die.confidence:.2f}"
    size = 0.4 * max(1.0, die.box[2] / 50)
    text = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, size, max(1, round(size / 0.5)))[0][0]
    size = min(size, size * (width - 4) / max(text, 1))
    return label, size, max(1, round(size / 0.5))


Rect = tuple[int, int, int, int]


def label_spots(observation: Any, shape: tuple[int, ...]) -> list[Rect]:
    """Where each die's label goes (x, y, width, height), in the order of the dice: just above its
    box, else below, right or left of it, at the first of these inside the picture that covers no
    label placed before nor another die's box (the least covered one when every spot covers some)."""
    boxes: list[Rect] = [(round(die.box[0]), round(die.box[1]), round(die.box[2]), round(die.box[3]))
                         for die in observation.dice]
    spots: list[Rect] = []
    for k, (die, (x, y, w, h)) in enumerate(zip(observation.dice, boxes)):
        label, size, thickness = _label(die, shape[1])
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, size, thickness)
        lw, lh = tw + 2, th + base + 2
        around = [(x, y - lh - 1), (x, y + h + 1), (x + w + 1, y), (x - lw - 1, y)]
        inside = [(min(max(0, ax), max(0, shape[1] - lw)), min(max(0, ay), max(0, shape[0] - lh))) for ax, ay in around]
        others = spots + [b for i, b in enumerate(boxes) if i != k]
        spots.append(free_spot([(ax, ay, lw, lh) for ax, ay in inside], others))
    return spots


def free_spot(candidates: Sequence[Rect], taken: Sequence[Rect]) -> Rect:
    """The first of ``candidates`` that covers none of ``taken`` (rectangles x, y, width, height),
    else the first of the least covered.

    >>> free_spot([(0, 0, 10, 10), (20, 0, 10, 10)], [(5, 5, 10, 10)])
    (20, 0, 10, 10)
    """
    covered = [sum(_overlap(spot, other) for other in taken) for spot in candidates]
    return candidates[covered.index(min(covered))]


def _overlap(a: Rect, b: Rect) -> int:
    """The area two rectangles (x, y, width, height) share."""
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return max(0, width) * max(0, height)


def face_label(die: Any) -> str:
    """A die's face as games write it ('5', '12', 'W', 'H'), '?' when it has no value."""
    if die.value is None:
        return "?"
    return str(DieKind(die.kind).faces[die.value - 1])


def _colour(value: int | None, flag: str | None) -> tuple[int, int, int]:
    """Red unreadable, orange flagged by the reader (its own confidence threshold), else green."""
    if value is None:
        return (0, 0, 255)
    return (0, 165, 255) if flag else (0, 200, 0)


TEACH_HELP = """Learn a set of dice from labelled pictures of its faces, and store it in the table's
data folder, where reading finds it (`vision read --kind K`, the table's camera). Pictures are
given as DIR/<face>/*.jpg (a folder per face) or DIR/<face>_*.jpg (the face, an underscore, any
name), faces as games write them (1..12, 2..6 W C S, H O L D E M); every die in a picture must show
that face. One picture of each face is the least; give 5 per face, each die turned another way and
lit as at the table, alone on a tray of another colour (the set's body colour is taken from them:
the dice are then placed on their top faces by it). A rendered set of a new look taught 5 per face
reads 99% of its dice right and takes 97-98% without a question (a face the set doubts is taken
when the shipped reader surely names the same face), and a leaning die of a taught set is given a
value more often than one of the shipped sets (bench/teach_reader.py, vision/README.md). A set
whose pictures hardly tell its faces apart (each picture read by the others) is taught with a
warning: a d12 set taught from the table camera's frames reads worse than no set, as the shipped
reader reads its numerals. A picture that would spoil the set is named and nothing is taught: one under 40
pixels across (give the photo, not a thumbnail), with no die, showing a pip die, or a die that is
far more like the pictures of another face than like the other pictures of its own (it can tell
with 2 pictures of a face or more). A picture whose die is unlike the other pictures of its face
is taught, and named in a warning: a pip die the pip reader doubts, or a die the finder placed
badly (6% of the pictures of a rendered new look). Files that are not JPEG, PNG, BMP, TIFF or WebP
photos (a HEIC photo from a phone, notes, a broken link) are skipped and named in one warning."""


def _register_teach(actions: Any) -> None:
    """Add the ``teach`` action."""
    teach = actions.add_parser("teach", help="learn a set of dice from labelled pictures of its faces",
                               description=TEACH_HELP)
    teach.add_argument("--kind", required=True, choices=[k for k in KINDS if k != DieKind.D6.value],
                       help="the kind of dice the set is")
    teach.add_argument("--images", required=True, type=given_path, metavar="DIR",
                       help="the pictures: DIR/<face>/*.jpg or DIR/<face>_*.jpg")
    teach.add_argument("--data", type=given_path, metavar="DIR",
                       help="the table's data folder (default $STATE_DIRECTORY, else ~/.local/share/dicetable)")
    teach.add_argument("--force", action="store_true",
                       help="replace the set of this kind already taught there (else it is kept and nothing is taught)")
    teach.set_defaults(run=run_teach)


def run_teach(args: argparse.Namespace) -> int:
    """Teach the set from the pictures; one line on stdout (after a warning on stderr naming the files
    skipped, and one for each picture taught though doubtful), or one line on stderr and exit 2."""
    from vision.teach import PictureDoubt, PictureRefused, SetDoubt, set_path, teach

    kind = DieKind(args.kind)
    pictures: dict[str, list[Path]] = {}
    skipped: list[Skipped] = []
    doubts: list[PictureDoubt | SetDoubt] = []
    try:
        path = set_path(kind, args.data)
        if path.exists() and not args.force:  # checked before the pictures are read
            raise InvalidInput(f"a {kind.value} set is taught already, in {shown(path)}: add --force to replace it")
        with folders_kept_if_used(path.parent):
            made_folder(path.parent, "--data")  # so is where the set goes
            pictures, skipped = face_pictures(args.images, kind)
            taught = teach(kind, {face: [load_image(p) for p in paths] for face, paths in pictures.items()},
                           doubts.append)
            taught.save(path)
    except PictureRefused as err:  # named by its file, which teach() does not know
        print(f"dicetable: {shown(pictures[err.face][err.number - 1])}: {err.problem}: {err.fix}", file=sys.stderr)
        return 2
    except DiceTableError as err:  # a face without pictures may be one whose photos were skipped
        print(f"dicetable: {err}" + (f" (skipped {skipped_line(skipped)})" if skipped else ""), file=sys.stderr)
        return 2
    except OSError as err:
        print(f"dicetable: cannot store the taught set: {reason(err)}", file=sys.stderr)
        return 2
    if skipped:
        print(f"warning: skipped {skipped_line(skipped)}", file=sys.stderr)
    for doubt in doubts:  # said once the set is stored: a refusal stays one line
        about = (f"the {kind.value} set" if isinstance(doubt, SetDoubt)
                 else shown(pictures[doubt.face][doubt.number - 1]))
        print(f"warning: {about}: {doubt.problem}: {doubt.fix}", file=sys.stderr)
    count = sum(len(paths) for paths in pictures.values())
    print(f"taught the {kind.value} set from {count} pictures ({len(taught.values)} crops); stored in {shown(path)}")
    return 0


def face_pictures(folder: Path, kind: DieKind) -> tuple[dict[str, list[Path]], list[Skipped]]:
    """The pictures of each face in ``folder``: its sub-folders named by face, or its files named
    ``<face>_*``, and the entries skipped; raises :class:`InvalidInput` when it holds neither or a
    name is not a face."""
    if not folder.is_dir():
        raise InvalidInput(f"--images {shown(folder)} is not a folder")
    found: dict[str, list[Path]] = {}
    skipped: list[Skipped] = []
    for entry in _entries(folder):
        why = _why_skipped(entry)
        if why is Skip.FOLDER:
            photos, others = _photos_in(entry)
            found.setdefault(kind.parse_face(entry.name), []).extend(photos)
            skipped += others
        elif why is None:
            found.setdefault(_face_named(entry, kind), []).append(entry)
        else:
            skipped.append(Skipped(entry, why))
    if not found:
        held = f" (it holds {skipped_line(skipped)})" if skipped else ""
        raise InvalidInput(f"no pictures in {shown(folder)}: give DIR/<face>/*.jpg or DIR/<face>_*.jpg{held}")
    return found, skipped


def _face_named(picture: Path, kind: DieKind) -> str:
    """The face a picture named ``<face>_*`` shows."""
    if "_" not in picture.stem:
        raise InvalidInput(f"{shown(picture)} is not named <face>_*: cannot tell its face")
    return kind.parse_face(picture.stem.split("_")[0])
