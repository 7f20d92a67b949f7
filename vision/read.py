"""Reading dice from one frame: the public API the table calls (``read_dice`` -> ``Observation``).

How: the frame is shrunk to a working size; :mod:`vision.detect` proposes candidate centres
(foreground blobs and a grid over them); each candidate is cropped, turned to the die's own axes
(:mod:`vision.crops`) and classified by a small CNN, the finder (:mod:`vision.classify`: not a
die, 1..6, unreadable); positive candidates are grouped into one hit per die. Each hit is then
looked at again by a second CNN, the reader, in a sharper crop taken from the full frame (in
more views, turned and mirrored, when it is unsure, and a dark die in its red channel too: red
pips on a smoky body stand out there), and the readers' class probabilities give the value and the
confidence; a die seen twice (two close hits reading alike) is read once. With a calibrated tray
the same happens in the top-down tray view.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Protocol, Sequence, TypeVar

import cv2
import numpy as np

from controller.games.errors import InvalidInput
from vision.classify import NOT_A_DIE, UNREADABLE, FaceClassifier, classifier, readers, unreadable_cleared
from vision.crops import (CROP_SCALE, READ_PX, aligned_crop, crop, dark_body, dominant_angle, frame_centre, red_channel,
                          sharpest_channel, straight_above)
from vision.detect import (TRAY_CANDIDATES, Candidate, View, closer_view, is_crumb, propose, shrink, uncovered,
                           working_views)
from vision.sides import PAINTED_AHEAD, SideView

if TYPE_CHECKING:
    from pathlib import Path

    from vision.calibrate import Calibration

DIE_SCORE = 0.6
"""Least probability of "a die is centred here" for a candidate to count as a die."""

UNREADABLE_SCORE = 0.8
"""Least die probability for a hit whose best class is "unreadable" (set on the training photos)."""

UNCERTAIN = 0.755
"""Below this confidence a reading is flagged ``uncertain`` (the value is still the best guess): the
one threshold, which the command line's green boxes use too. Set so that no wrong reading is
accepted on the dev photos under any change of ``bench/dice_reader.py --changes``. Since the shifted
crops and the lighter red views (:data:`SHIFTED_BY`, :data:`RED_WEIGHT`) the surest wrong one is
0.7368 (112419 blurred, a dark marbled die whose glint looks like a second pip), then 0.7095 and
0.6911 under JPEG q30 (111628, 112005); before them it was 0.7542, a 5 read as a 3 in 112005 under
JPEG q30. The price: 70 of the 1,482 clean dice read right (4.7%, all 200 photos) go to the dealer
(79 of 1,484 before); 0.7 would have sent 4.2% and accepted 3 wrong readings, 0.6 2.1% and
accepted 14. The threshold stays where it was, a margin over the surest wrong reading: the face
dice (:mod:`vision.faces`) are measured against it too. The confidence is lowered for dice seen soft
or small (:func:`seen_well`); before, the surest wrong readings were that blurred die at 0.903
and the same die shrunk to 35% (12 px) at 0.902, and the threshold was 0.904, sending 11.9%."""

COCKED_SHARE = 1.0
"""A die is flagged ``cocked`` when the unreadable class has more than this share of its best face's
probability: a plain majority. (On 300 rendered frames, 0.6 flagged 33 of 50 cocked dice instead of
28, but also 97 of 1,341 flat dice instead of 60; the 5 cocked dice that 1.0 does not flag ``cocked``
are flagged ``uncertain``, so no more dice are read wrong without a flag.)"""

BLURRED = 0.19
"""Least sharpness (:func:`vision.crops.sharpest_channel`) of a die crop in focus: the real photos'
dice are 0.216 and up at their 1st percentile (0.190 in grey, :func:`vision.crops.sharpness`, which
this was set on)."""

SURE_THOUGH_BLURRED = 0.6
"""Least confidence to take the value of a blurred die; below it the die is flagged ``blurred``, with no
value (above it, a value under :data:`UNCERTAIN` is still flagged ``uncertain``). On the real photos
blurred at sigma 1.5, 17 of the 18 wrong values lay under 0.6 and 329 right ones above it: 0.9 withheld
423 values, 405 of them right (86.8% read right; at 0.6, with small dice no longer taken for blurred,
95.8%; wrong and accepted: none either way)."""

BOX_PER_SIDE = 1.3
"""A die's box side as a multiple of its blob side, so the box holds the whole die as a person would draw it."""


@dataclass(frozen=True)
class DieReading:
    """One die seen in a frame."""

    kind: str
    value: int | None
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    confidence: float
    flag: str | None = None

    @property
    def sure(self) -> bool:
        """Whether the reading gives a value without a flag: the table takes it without asking."""
        return self.value is not None and self.flag is None

    def to_json(self) -> dict[str, Any]:
        """The reading as the command line's JSON prints it."""
        return {"kind": self.kind, "value": self.value, "center": [round(c, 1) for c in self.center],
                "box": [round(b, 1) for b in self.box], "confidence": round(self.confidence, 3),
                "flag": self.flag}


@dataclass(frozen=True)
class Observation:
    """One frame's reading: every die found, and the time it took."""

    dice: tuple[DieReading, ...]
    ms: float

    @property
    def values(self) -> tuple[int | None, ...]:
        """Face values of the dice, in reading order."""
        return tuple(d.value for d in self.dice)


@dataclass(frozen=True)
class _Hit:
    center: tuple[float, float]
    side: float
    probs: np.ndarray
    sharpness: float = 1.0
    leaning: float = 0.0
    other: float = 0.0  # how surely the kind network sees a die of another kind than a pip d6


def read_dice(image: np.ndarray, kind: str = "d6", *, tray: Calibration | None = None,
              data: Path | None = None) -> Observation:
    """Find every die of ``kind`` in a BGR ``image`` and read its top face: the one entry point of
    the table and ``dicetable vision read`` for every kind. Pip dice (``d6``) are read here; the
    face kinds (``d12``, ``d8-tauren``, ``letters``) by :func:`vision.faces.read_faces`, with a set
    taught in the data folder ``data`` (default: :func:`vision.teach.data_folder`) if there is one.

    With ``tray`` (a calibration of the tray's markers) the frame is warped to the top-down tray
    view, read there, and the readings mapped back to the frame's pixels.

    :raises InvalidInput: for a kind no reader reads or an image that is not a picture.
    """
    if kind != "d6":
        from vision.faces import read_faces

        return read_faces(image, kind, tray=tray, data=data)
    classifier(), readers()  # loaded once per process, not counted in the frame's time
    start = time.perf_counter()
    dice = _read_on_tray(as_bgr(image), tray) if tray is not None else read_bounded(image, _read_frame)
    return Observation(tuple(dice), (time.perf_counter() - start) * 1000.0)


def read_bounded(image: np.ndarray, read_frame: Callable[[np.ndarray], list[DieReading]]) -> list[DieReading]:
    """``read_frame``'s readings of a picture (BGR, BGRA or grey), shrunk first to :data:`MAX_FRAME_PX`
    when it is longer, before any copy or colour conversion, so that time and memory stay bounded;
    the readings are in the picture's own pixels. The face reader reads its kinds this way too.

    :raises InvalidInput: for an image that is not a picture.
    """
    scale = _bounding_scale(image)
    if scale < 1 and min(image.shape[:2]) * scale < 8:
        height, width = image.shape[:2]
        raise InvalidInput(f"image is {width}x{height} pixels: too narrow for its length (it is read at most "
                           f"{MAX_FRAME_PX} px long, and would be under 8 px across)")
    frame = without_tray_markers(as_bgr(shrink(image, scale) if scale < 1 else image))
    readings = read_frame(frame)
    if not any(r.sure for r in readings):
        wider = in_a_wider_frame(frame, read_frame)
        readings = wider if any(r.sure for r in wider) else readings
    return [scaled(d, 1 / scale) for d in readings]


WIDER = 3
"""How many times as wide and tall as a photo the frame is that :func:`in_a_wider_frame` lays it in."""

WIDER_PX = 640
"""The longest side a photo is shrunk to before :func:`in_a_wider_frame` lays it in a frame."""


def in_a_wider_frame(frame: np.ndarray, read_frame: Callable[[np.ndarray], list[DieReading]]) -> list[DieReading]:
    """``read_frame``'s readings of ``frame`` laid in the middle of a frame :data:`WIDER` times as wide
    and tall, of the colour around its edge (shrunk first to :data:`WIDER_PX`), in ``frame``'s
    pixels; those whose centres lie outside it left out.

    A photo of a die taken close, the die a fifth of the photo across or more, is larger than the
    finder's background (a median a fifth of the photo across): the die's face is taken for the
    background, and its pips, numerals or pictures for small dice, none of them read surely. Laid
    in a wider frame it is a die of a wide view. Of twelve dice of the development photos cut out
    close (``vision.perturb.close_up``), 1 was read surely, 11 with the wider frame."""
    from vision.perturb import place

    factor = min(1.0, WIDER_PX / max(frame.shape[:2]))
    small = shrink(frame, factor) if factor < 1 else frame
    height, width = small.shape[:2]
    wide, _ = place(small, [], (width * WIDER, height * WIDER))
    left, top = (wide.shape[1] - width) // 2, (wide.shape[0] - height) // 2
    inside = []
    for reading in read_frame(wide):
        x, y = reading.center[0] - left, reading.center[1] - top
        if 0 <= x < width and 0 <= y < height:
            bx, by, bw, bh = reading.box
            inside.append(scaled(replace(reading, center=(x, y), box=(bx - left, by - top, bw, bh)), 1 / factor))
    return inside


def pip_dice(frame: np.ndarray, die_px: float) -> list[DieReading]:
    """The pip dice of a BGR ``frame`` whose dice are about ``die_px`` across, read as a calibrated
    tray's view is: at that side (shrunk to :data:`PIP_LOOK_PX` first), and by the kind network,
    which flags a die of another kind ``other_kind``, as seen from straight above the frame's
    centre. Teach mode asks it whether a picture of a face die shows a pip die: :func:`read_dice`
    guesses a lone die's side from its pips and read none of 30 rendered pictures of one d6, and
    without the kind network it read a thin-lettered H as a sure 6 in 8 of 150 pictures."""
    factor = min(1.0, PIP_LOOK_PX / die_px)
    small = shrink(frame, factor) if factor < 1 else frame
    return [scaled(d, 1 / factor) for d in _read_frame(small, die_px * factor, frame_centre(small.shape))]


PIP_LOOK_PX = 40.0
"""The die side (pixels) :func:`pip_dice` shrinks a picture to at most: about the real photos' dice."""


def without_tray_markers(frame: np.ndarray) -> np.ndarray:
    """``frame`` with the tray's corner markers that show in it painted over, each in the colour
    around it (:data:`MARKER_COVER`). A frame of the table read without its calibration
    (``dicetable vision read`` of a frame saved from the table's camera) shows them: a marker is a
    black-and-white square about a die's size, which the finder took for dice, and by which it
    guessed the dice's size. On ten rendered 1536x864 trays with markers and five dice of 38-46 px
    each, read right went d6 30 -> 49, d12 29 -> 50, d8-tauren 20 -> 50, letters 16 -> 50 of 50,
    and false dice per frame from 4.4-6.6 to none. (A calibrated tray's view paints them over by
    the calibration: :func:`tray_view`.)"""
    from vision.calibrate import detect_markers

    look = min(1.0, MARKER_LOOK_PX / max(frame.shape[:2]))
    found = detect_markers(shrink(frame, look) if look < 1 else frame)
    if not found:
        return frame
    out = frame.copy()
    for corners in (c / look for c in found.values()):
        centre = corners.mean(axis=0)
        cover, beyond = (np.round(centre + (corners - centre) * grown).astype(np.int32)
                         for grown in (MARKER_COVER, MARKER_COVER + 0.3))  # the square painted, and a ring past it
        around = np.zeros(frame.shape[:2], np.uint8)
        cv2.fillConvexPoly(around, beyond, 255)
        cv2.fillConvexPoly(around, cover, 0)
        ring = frame[around > 0]
        colour = np.median(ring if len(ring) else frame.reshape(-1, 3), axis=0)
        cv2.fillConvexPoly(out, cover, tuple(float(c) for c in colour))
    return out


MARKER_LOOK_PX = 1000
"""Longest side of the view the tray markers are looked for in (:func:`without_tray_markers`): a
1536x864 frame's markers are still 60 px across there, and looking takes 7 ms of CPU against 29."""

MARKER_COVER = 1.5
"""How much larger than a tray marker found in a frame (:func:`without_tray_markers`) the square
painted over it is: its white quiet zone is one cell of the marker's six wide on every side (1.33),
and a little more."""


MAX_FRAME_PX = 4096
"""Longest side of a frame the reader reads at its own size: a larger one (a 15000x15000 scan) is
shrunk to this first, before any copy or colour conversion, so that its time and memory stay
bounded (the readings are in the input's pixels all the same). A tray frame is warped to the
tray's own size anyway."""


def _bounding_scale(image: np.ndarray) -> float:
    """The factor that brings a picture's longer side down to :data:`MAX_FRAME_PX` (1: none needed,
    or not a picture, which :func:`as_bgr` refuses)."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        return 1.0
    return min(1.0, MAX_FRAME_PX / float(max(image.shape[:2])))


def scaled(reading: DieReading, factor: float) -> DieReading:
    """``reading`` with its centre and box multiplied by ``factor`` (back to the input's pixels)."""
    if factor == 1.0:
        return reading
    x, y, w, h = reading.box
    return replace(reading, center=(reading.center[0] * factor, reading.center[1] * factor),
                   box=(x * factor, y * factor, w * factor, h * factor))


def as_bgr(image: np.ndarray) -> np.ndarray:
    """A picture as the readers take it: BGR uint8 (from grey or BGRA too).

    :raises InvalidInput: for anything that is not a picture at least 8 pixels across.
    """
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or min(image.shape[:2]) < 8:
        raise InvalidInput("image must be a BGR, BGRA or grey picture at least 8 pixels across")
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise InvalidInput(f"image has {image.shape[2]} channels; expected 1, 3 or 4")
    return image


def _read_frame(frame: np.ndarray, die_px: float | None = None,
                below: tuple[float, float] | None = None, sides: SideView | None = None) -> list[DieReading]:
    """Every die in ``frame``: looked at in :func:`vision.detect.working_views`, or, when the die side
    ``die_px`` is known (a calibrated tray's top-down view), at the frame's own size for that side.
    ``below`` is the point of ``frame`` straight below the camera, known on a calibrated tray: only
    there does the d6 cocked network look for dice that lean (:func:`_leaning`), and the kind
    network for dice of another kind (:func:`_other_kinds`). With ``sides`` (a calibrated tray whose
    camera's height is known), seen from about straight above, the readers read a doubted flat die
    again with the sides the camera sees of it painted over (:func:`_sides_painted`)."""
    known = [View(1.0, frame, propose(frame, die_px, KNOWN_SIDE_SPREAD, TRAY_CANDIDATES, around=True))] if die_px else None
    view, hits = _found(frame, known)
    hits = hits + _passed_over(view, hits)
    if die_px:  # a calibrated tray: a crumb there is no die
        hits = [h for h in hits if not is_crumb(frame, (h.center[0] / view.scale, h.center[1] / view.scale), die_px)]
    hits = _second_look(frame, view.scale, view.work, hits)
    hits = _one_per_die(_split_between(frame, view, hits))
    from_above = below is not None and straight_above(below, frame.shape)
    leans = D6_TRAY_LEANS if from_above else D6_LEANS
    if below is not None:
        hits = _leaning(frame, view.scale, view.work.shape, hits, below)
        if sides is not None and from_above:
            hits = _sides_painted(frame, view.scale, view.work, hits, sides)
        hits = _other_kinds(frame, view.scale, hits, below, leans)
    if from_above:
        hits = in_one_focus(hits)
    return [_reading(hit, view.scale, view.work.shape, leans) for hit in hits]


D6_LEANS = 0.5
"""The d6 cocked network's share (:data:`vision.faces.COCKED_D6_PATH`) above which a die the readers
give a face is flagged ``cocked``, with no value. On the demo's tray (200 rolls, every other one
with a cocked d6) it leaves 5 of the 27 cocked dice the readers take (4 at 0.3, 8 at 0.7) and flags
none of the 353 flat dice they take (one at 0.3); of the real photos' 20,606 dice read right under
the bench's changes, looked at from their centre, 13 are over it (none of the clean photos')."""


def _leaning(frame: np.ndarray, scale: float, shape: tuple[int, ...], hits: list[_Hit],
             below: tuple[float, float]) -> list[_Hit]:
    """``hits`` with the d6 cocked network's share of leaning for each that the readers give a face
    (not cut off): it looks at the whole die turned to face the point straight below the camera
    (``below``, in ``frame``'s pixels; :func:`vision.faces.cocked_shares`). The readers give a die
    that leans on another, or on the tray's wall, the face nearest the camera: on the demo's tray,
    12 of 50 rolls with a cocked die were taken with a value for it. Not on a photo with no
    calibration: where the camera looked from is not known, and a die lying flat in a tilted view
    shows its sides as a leaning one does (of 218 dice read right in rendered frames tilted 30
    degrees, 152 were over :data:`D6_LEANS` when taken to be seen from straight above). A die it
    is sure lies flat (under :data:`D6_FLAT`) loses the readers' doubt that it may lean."""
    from vision.faces import COCKED_D6_PATH

    asked = [i for i, h in enumerate(hits) if _face(h.probs) is not None and not cut_off(h.center, h.side, shape)]
    leaning = _whole_die_shares(frame, scale, hits, asked, below, COCKED_D6_PATH)
    return [replace(h, leaning=float(leaning.get(i, 0.0)),
                    probs=_flat_cleared(h.probs, leaning.get(i, 1.0)))
            for i, h in enumerate(hits)]


def _flat_cleared(probs: np.ndarray, leaning: float) -> np.ndarray:
    """``probs`` with the readers' "unreadable" share given to the faces when the d6 cocked network's
    share ``leaning`` is under :data:`D6_FLAT` (the die lies flat), else as they are."""
    return unreadable_cleared(probs) if leaning < D6_FLAT else probs


def _sides_painted(frame: np.ndarray, scale: float, work: np.ndarray, hits: list[_Hit],
                   sides: SideView) -> list[_Hit]:
    """``hits`` with each die that the readers give a face but doubt (under :data:`REFINE_BELOW`),
    whose sides the camera sees and that the d6 cocked network takes to lie flat (under
    :data:`SIDES_FLAT`), read again with those sides painted over (:mod:`vision.sides`), its top
    face taken at each place of :data:`vision.sides.PAINTED_AHEAD` in turn: the readers were taught
    dice seen from straight above. The surest reading (with the readers' "unreadable" share
    cleared as :func:`_leaning` clears it) stands when it reads the same face more surely:
    the paint follows the die's edges as :func:`vision.crops.dominant_angle` and the finder's
    centre place them, and where they are off it can cover pips (a 4 read at 0.85 read 2 at 0.38
    painted, in a demo game of Tao Dice)."""
    again = [i for i, h in enumerate(hits)
             if _face(h.probs) is not None and h.leaning < SIDES_FLAT and _view_confidence(h.probs) < REFINE_BELOW
             and sides.seen((h.center[0] / scale, h.center[1] / scale))]
    if not again:
        return hits
    chosen = [hits[i] for i in again]
    angles = [dominant_angle(work, h.center, h.side * CROP_SCALE) for h in chosen]
    out = list(hits)
    for ahead in PAINTED_AHEAD:
        painted = [sides.painted(frame, (h.center[0] / scale, h.center[1] / scale), angle, ahead)
                   for h, angle in zip(chosen, angles)]
        for i, p in zip(again, _read_crops(painted, scale, chosen, angles)[0]):
            p = _flat_cleared(p, hits[i].leaning)
            if _face(p) == _face(hits[i].probs) and _confidence(p) > _confidence(out[i].probs):
                out[i] = replace(hits[i], probs=p)
    return out


SIDES_FLAT = 0.2
"""The d6 cocked network's share under which :func:`_sides_painted` reads a doubted die again with
its sides painted over. Painted, a cocked die's crop looks like a flat one's: on 500 of the demo's
trays with a cocked d6 each (``bench/demo_tray.py``'s trays of seeds 7 and 8), reading every
doubted die painted took three cocked dice more with a value (their shares 0.21, 0.25 and 0.30),
and the flat dice it took were all under 0.16. Under 0.2: cocked dice taken 9 as before, flat dice
read right and accepted 1724 -> 1731 of 1741. Not on a tilted camera's tray, where the cocked
network is less sure (:data:`D6_LEANS`): on 60 rendered trays tilted up to 30 degrees with a cocked
d6 each, painting took 5 more flat dice of 240 and 1 more cocked die (26 of 60 were taken already)."""


def _other_kinds(frame: np.ndarray, scale: float, hits: list[_Hit], below: tuple[float, float],
                 leans: float) -> list[_Hit]:
    """``hits`` with the kind network's share of another kind than a pip d6 (:data:`vision.faces.KIND_D6_PATH`)
    for each that the readers give a face and do not see leaning (up to ``leans``: a die over it is
    flagged cocked whatever its kind), looked at as :func:`_leaning` looks: the d6 readers take a
    letter die, a cube too, for a pip die (41 of 112 on the demo's tray, above the threshold)."""
    from vision.faces import KIND_D6_PATH

    asked = [i for i, h in enumerate(hits) if _face(h.probs) is not None and h.leaning <= leans]
    other = _whole_die_shares(frame, scale, hits, asked, below, KIND_D6_PATH)
    return [replace(h, other=other.get(i, 0.0)) for i, h in enumerate(hits)]


def _whole_die_shares(frame: np.ndarray, scale: float, hits: list[_Hit], asked: list[int],
                      below: tuple[float, float], network: Path) -> dict[int, float]:
    """The class-1 share of a two-class whole-die ``network`` (the d6 cocked or kind network) for
    each of the ``hits`` numbered in ``asked``, looked at as :func:`vision.faces.cocked_shares` looks."""
    from vision.faces import Hit, cocked_shares

    shares = cocked_shares(frame, scale, [Hit(hits[i].center, hits[i].side, hits[i].probs) for i in asked],
                           below, (network,))
    return {i: float(share) for i, share in zip(asked, shares)}


D6_TRAY_LEANS = 0.3
""":data:`D6_LEANS` on a tray seen from about straight above (:func:`vision.crops.straight_above`),
as :data:`vision.faces.TRAY_LEANS` for the face kinds: a cocked die given a value is a wrong reading
the table takes, a flat die taken for leaning costs the players a throw again. On the demo's tray
(400 throws, 209 of them with a cocked d6, scratch script) cocked dice taken 7 -> 4, flat dice
flagged cocked 3 -> 10 of 1,368 (read right and accepted 1353 -> 1347)."""


D6_OTHER_KIND = 0.75
"""The kind network's share (:func:`_other_kinds`) above which a die the readers give a face is
flagged ``other_kind``, with no value: a die of another kind is never read as a pip value."""


D6_FLAT = 0.05
"""The d6 cocked network's share under which a die the readers give a face is taken to lie flat:
the readers' "unreadable" share goes back to its faces (:func:`vision.classify.unreadable_cleared`). Far from the
point below the camera a flat die shows the camera its sides, which the readers take for a die
that may lean. On the demo's tray (400 rolls, every other one with a cocked d6: 722 flat dice, 198
cocked) it took 4 more flat dice (707 to 711 read right and accepted) and no cocked one more (9);
on 60 calibrated trays tilted 30 degrees, 244 to 248 and 4. Of the 106 cocked dice the readers
give a face on that tray, the least share was 0.097. Since the tray view reaches past the tray's
edges (:data:`TRAY_BORDER_MM`), the readers doubt fewer of those dice: of 450 trays with two dice
in a seat's zone, one is still a question without it and a roll with it."""


def _found(frame: np.ndarray, views: list[View] | None = None) -> tuple[View, list[_Hit]]:
    """The finder's hits in the view of ``frame`` (default: :func:`vision.detect.working_views`)
    where it reads most dice surely (the first view on a tie): in a view too close for the dice,
    it sees pips as small dice, but not surely. When the best default view reads under
    :data:`SURE_SHARE` of its hits surely, its die size may be a wrong guess: the frame is also
    looked at closer (:func:`vision.detect.closer_view`), for dice half that size (see
    :data:`CLOSER_FACTORS`)."""
    looks = [(view, _find(view.work, view.proposals.candidates)) for view in views or working_views(frame)]
    best = max(looks, key=_sure)
    first = best
    for factor in CLOSER_FACTORS if views is None else ():
        if _sure(best) >= SURE_SHARE * max(len(best[1]), 1):
            break
        closer = closer_view(frame, first[0], factor)
        look = (closer, _find(closer.work, closer.proposals.candidates))
        if closer_wins(_sure(look), len(look[1]), _sure(best)):
            best = look
    return best


def _passed_over(view: View, hits: list[_Hit]) -> list[_Hit]:
    """Dice the finder's first look passed over: the foreground that no hit covers (a disc of
    :data:`HIT_COVERS` sides around each) looked at again, for dice a little smaller than the
    view's side (:data:`PASSED_OVER_SIDES`); a hit counts there when it is surely a die
    (:data:`PASSED_OVER_SCORE`) and lies clear of every other. In a heap the one grid of the
    view's die side can miss a die smaller than that side, or give its candidates to a
    neighbour's hit; a white die on a white tray under bright light shows only part of its
    outline. On all 200 photos this finds the dice that brightness x1.4 and shrinking to 50% and
    35% lost two at a time (IMG_20191208_111642, 112404)."""
    candidates = uncovered(view.proposals, [(h.center, HIT_COVERS * h.side) for h in hits],
                           [view.proposals.side * f for f in PASSED_OVER_SIDES], PASSED_OVER_CANDIDATES)
    found: list[_Hit] = []
    for hit in _find(view.work, candidates):
        clear = all(_dist(hit.center, k.center) >= HIT_COVERS * max(k.side, hit.side) for k in hits + found)
        if clear and 1.0 - float(hit.probs[NOT_A_DIE]) >= PASSED_OVER_SCORE:
            found.append(hit)
    return found


def _split_between(frame: np.ndarray, view: View, hits: list[_Hit]) -> list[_Hit]:
    """``hits`` with each unsure one in a heap that lies between two dice replaced by those two
    (:func:`_pair_around`). In a heap of dice smaller than the view's side, one hit can settle at
    the midpoint of two dice, its crop showing half of each, and the die it takes from the other
    hits is lost. The two replace it when each reads surer than it did, and at least
    :data:`SPLIT_SURE`, and neither is a die that a sure hit reads already (the unsure hit is then
    a die of its own, between two others). On all 200 photos under the bench's changes this finds
    the two dice IMG_20191208_111628 lost when turned 17 degrees (a red 6 and a purple 6, each
    beside another die); when it came in, no other photo gained or lost a die, and noise read 2 more right."""
    sure = [h for h in hits if _confidence(h.probs) >= SPLIT_TRUSTED]
    out: list[_Hit] = []
    for hit in hits:
        unsure = _confidence(hit.probs) < SPLIT_TRUSTED
        pair = _pair_around(frame, view, hit) if unsure and _in_heap(hit, hits) else []
        out += pair if _splits(pair, hit, sure) else [hit]
    return out


def _in_heap(hit: _Hit, hits: list[_Hit]) -> bool:
    """Whether another of ``hits`` lies within :data:`SPLIT_NEAR` sides of ``hit``."""
    return any(other is not hit and _dist(hit.center, other.center) < SPLIT_NEAR * hit.side for other in hits)


def _splits(pair: list[_Hit], hit: _Hit, sure: list[_Hit]) -> bool:
    """Whether the two read ``pair`` replace ``hit`` (see :func:`_split_between`)."""
    if len(pair) != 2 or min(_confidence(h.probs) for h in pair) < max(SPLIT_SURE, _confidence(hit.probs)):
        return False
    return not any(_dist(h.center, s.center) < SAME_DIE * s.side and _face(h.probs) == _face(s.probs)
                   for h in pair for s in sure)


def _pair_around(frame: np.ndarray, view: View, hit: _Hit) -> list[_Hit]:
    """Two dice of :data:`SPLIT_SIDE` sides that the finder sees around ``hit`` (within
    :data:`SPLIT_REACH` sides), apart by :data:`SPLIT_APART` of their side and with their midpoint
    near ``hit``, as the readers read them; or none."""
    side = SPLIT_SIDE * hit.side
    offsets = np.arange(-SPLIT_REACH * hit.side, SPLIT_REACH * hit.side + 1e-6, side / 4)
    height, width = view.work.shape[:2]
    points = [(hit.center[0] + dx, hit.center[1] + dy) for dy in offsets for dx in offsets]
    candidates = tuple(Candidate(p, side, 0.0, False) for p in points if 0 <= p[0] < width and 0 <= p[1] < height)
    found = [f for f in _find(view.work, candidates) if 1.0 - float(f.probs[NOT_A_DIE]) >= PASSED_OVER_SCORE]
    for a, b in itertools.combinations(found, 2):
        midpoint = ((a.center[0] + b.center[0]) / 2, (a.center[1] + b.center[1]) / 2)
        if _dist(a.center, b.center) >= SPLIT_APART * side and _dist(midpoint, hit.center) < SPLIT_MID * hit.side:
            return _second_look(frame, view.scale, view.work, [a, b])
    return []


SPLIT_NEAR = 1.2
"""A hit with another within this many sides is in a heap, where :func:`_split_between` looks at it."""

SPLIT_SIDE = 0.8
"""The die side, times the hit's, that :func:`_pair_around` looks for (as :data:`PASSED_OVER_SIDES`)."""

SPLIT_REACH = 0.5
"""How far from the hit, in its sides, :func:`_pair_around` looks: a grid of a quarter of the smaller side."""

SPLIT_APART = 0.8
"""Least distance of the two dice, in their side: nearer, they are one die seen twice."""

SPLIT_MID = 0.3
"""Most distance, in the hit's sides, from the hit to the two dice's midpoint."""

SPLIT_TRUSTED = 0.904
"""Least confidence (the readers' face shares alone) of a hit that :func:`_split_between` takes for
a die of its own: neither split nor one of a split pair may copy it (the table's threshold,
:data:`UNCERTAIN`, when the split came in: measured there)."""

SPLIT_SURE = 0.8
"""Least confidence of each of the two dice (and more than the hit's) for them to replace it. On the
photos, splits where one of the two read under 0.8 (0.2-0.77) were a die cut in two: each half read
unsure, or a real 4 read beside a found one."""


HIT_COVERS = 0.6
"""Radius, in die sides, of the disc around a hit that :func:`_passed_over` takes as that die's."""

PASSED_OVER_SIDES = (0.8,)
"""The die sides (times the view's) that :func:`_passed_over` looks for: a grid for 0.8 of the side
is finer than the first look's, and its crops fit the dice the first look's side was too large
for. (0.8, 1.0) found the same dice on all 200 photos under the bench's changes, with one more
false die in some changes, at twice the cost; 0.9 or 1.0 alone lost IMG_20191208_112404's dice.)"""

PASSED_OVER_CANDIDATES = 200
"""Most candidates :func:`_passed_over` proposes per side, so that noise cannot multiply its work."""

PASSED_OVER_SCORE = 0.7
"""Least die score of a hit found by :func:`_passed_over`: above the first look's (:data:`DIE_SCORE`),
as most of the foreground no hit covers is not a die. On all 200 photos, against accepting every
hit there (0.6): false dice none 6 -> 4, brightness x1.4 14 -> 12, with the same dice found; 0.85
lost IMG_20191208_112404's two dice again when shrunk to 35%."""


def _sure(look: tuple[View, list[_Hit]]) -> int:
    """How many of a view's hits the finder reads surely (best face at least :data:`SURE_FACE`)."""
    return sum(float(h.probs[1:UNREADABLE].max()) >= SURE_FACE for h in look[1])


SURE_SHARE = 0.2
"""Least share of a view's hits read surely for its die size to be taken without looking closer
(:func:`_found`), and least share of a closer view's hits read surely for it to be taken
(:func:`closer_wins`): on the real photos placed in a 1536x864 frame, the views whose size guess was
1.7-2.4 times too large read 0-12% of their hits surely, the right ones mostly over 40%, and the
right closer view of IMG_20191208_113004 22%. On all 200 photos under every change, 0.2 against
0.3: photos losing more than one die 5 against 6, the 1536x864 frame 99.0% against 98.5% read
right; on 300 rendered frames 1299 against 1305 of 1443 right, 31 against 27 false dice."""


def closer_wins(sure: int, hits: int, best_sure: int, share: float = SURE_SHARE) -> bool:
    """Whether a closer look with ``sure`` of its ``hits`` read surely replaces the best view, which
    read ``best_sure`` surely: by :data:`CLOSER_GAIN` more sure hits, that are also at least
    ``share`` of its hits (:data:`SURE_SHARE` for the d6 finder; the face reader has its own)."""
    return sure > CLOSER_GAIN * best_sure and sure >= share * hits


CLOSER_FACTORS = (2.0, 3.0)
"""How many times too large the size guess of an unsure view may be, in the order the closer looks
are taken while the best view is unsure. The real photos in a 1536x864 frame had guesses 1.7 to
3.4 times too large; a closer look is taken only when its sure hits are a fair share of its hits
(:data:`SURE_SHARE`), so that seeing pips or pieces of dice as small dice does not win on a few
sure ones. (2, 3) read 97.9% of the dice of those photos right, against 93.8% for (2,) with the
gain alone; on 300 rendered frames 1289 of 1443 dice, against 1296, with 37 false dice, against 31."""

CLOSER_GAIN = 1.5
"""How many times as many sure dice the closer view must read to be taken (:func:`_found`): a closer
view also sees parts of large dice as small unsure ones (on 300 rendered frames, taking it when it
reads more sure dice at all gave 40 false dice, against 19 without looking closer; 1.5 with
:data:`SURE_SHARE` 0.3 gives 30, and finds 11 more dice)."""

SURE_FACE = 0.6
"""Least probability of the finder's best face for a hit that counts towards its view (:func:`_found`)."""


def sightings(frame: np.ndarray) -> list[tuple[float, float, float]]:
    """Where the finder alone sees dice in a BGR ``frame``: centre x, y and side, in frame pixels.

    The reader is trained on crops placed this way (:mod:`vision.train`).
    """
    view, hits = _found(frame)
    return [(h.center[0] / view.scale, h.center[1] / view.scale, h.side / view.scale) for h in hits]


def _find(work: np.ndarray, candidates: tuple[Candidate, ...]) -> list[_Hit]:
    """Classify every candidate in the working image, then gather the positive ones into one hit per
    die, surest first: a hit's candidates are its own, and do not pull a later hit towards it (in a
    heap, the candidates between two dice would otherwise draw the second onto the first)."""
    patches = np.stack([aligned_crop(work, c.center, c.side * CROP_SCALE) for c in candidates]) if candidates else \
        np.zeros((0, 32, 32, 3), np.uint8)
    probs = classifier().probabilities(patches)
    scores = 1.0 - probs[:, NOT_A_DIE]
    positive = [i for i in np.argsort(-scores) if scores[i] >= DIE_SCORE]
    points = np.array([candidates[i].center for i in positive], np.float64).reshape(-1, 2)
    sides = np.array([candidates[i].side for i in positive])
    strength = scores[positive]
    free = np.ones(len(positive), bool)
    hits: list[_Hit] = []
    for k, i in enumerate(positive):
        if any(_dist(candidates[i].center, h.center) < 0.5 * h.side for h in hits):
            continue
        weights = np.where(free, strength, 0.0)
        weights[k] = strength[k]
        center = _mean_shift(points, weights, points[k], sides[k])
        near = np.linalg.norm(points - center, axis=1) < 0.45 * sides[k]
        if any(_dist((center[0], center[1]), h.center) < 0.55 * h.side for h in hits):
            continue
        members = [positive[j] for j in np.flatnonzero(near)]
        free &= ~near
        hits.append(_Hit((float(center[0]), float(center[1])), float(np.median(sides[near])),
                         probs[members].mean(axis=0)))
    return hits


def _mean_shift(points: np.ndarray, weights: np.ndarray, center: np.ndarray, side: float) -> np.ndarray:
    """Move ``center`` to the weighted mean of the positive candidates around it, twice (those of
    weight 0 do not count)."""
    for _ in range(2):
        near = (np.linalg.norm(points - center, axis=1) < 0.45 * side) & (weights > 0)
        center = np.average(points[near], axis=0, weights=weights[near])
    return center


def _second_look(frame: np.ndarray, scale: float, work: np.ndarray, hits: list[_Hit]) -> list[_Hit]:
    """Read each die again with the readers (:func:`_read_crops`): a sharper crop of the full
    frame, turned to the die's axes."""
    if not hits:
        return hits
    angles = [dominant_angle(work, h.center, h.side * CROP_SCALE) for h in hits]
    probs, patches = _read_crops([frame] * len(hits), scale, hits, angles)
    looked = [_Hit(h.center, h.side, p, sharpness=sharpest_channel(patch, h.side * CROP_SCALE / scale))
              for h, p, patch in zip(hits, probs, patches)]
    return [h for h in looked if 1.0 - h.probs[NOT_A_DIE] >= _least_score(h.probs)]


def _read_crops(frames: list[np.ndarray], scale: float, hits: list[_Hit],
                angles: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """The readers' class shares for each hit, read in its own of ``frames``, and its first crop.
    The first reader looks at every die; the others only at the dice it is unsure of. A die they
    are still unsure of is read in seven more views (quarter turns, mirrored or not: a pip face
    means the same in each), and the views averaged; a dark one also in its red channel."""
    nets = readers()
    first, *others = nets
    patches = _reader_crops(frames, scale, hits, angles, ((0.0, False),))
    probs = _read_views(patches, (first,), 1)
    unsure = [i for i, p in enumerate(probs) if _view_confidence(p) < REFINE_BELOW]
    if unsure and others:
        second = _read_views(patches[unsure], tuple(others), 1)
        probs[unsure] = (probs[unsure] + len(others) * second) / (1 + len(others))
    doubtful = [i for i in unsure if _view_confidence(probs[i]) < REFINE_BELOW]
    if doubtful:
        views = _reader_crops([frames[i] for i in doubtful], scale, [hits[i] for i in doubtful],
                              [angles[i] for i in doubtful], MORE_VIEWS)
        more = _read_views(views, nets, len(MORE_VIEWS))
        probs[doubtful] = (probs[doubtful] + len(MORE_VIEWS) * more) / (1 + len(MORE_VIEWS))
        _read_shifted(probs, doubtful, frames, scale, hits, angles, nets)
        _read_red_pips(probs, doubtful, patches, views, nets)
    return probs, patches


SHIFTED_BY = 0.04
"""How far (in die sides) the crops of a die still doubtful after :data:`MORE_VIEWS` are moved, each
way along both axes, to be read once more (:func:`_read_shifted`). A die found a little off its
centre, or one whose pips a JPEG blotch borders, reads better from crops that do not all share one
centre. ``bench/dice_reader.py --changes`` (with :data:`RED_WEIGHT` 0.33; against neither): JPEG
quality 30 read right 1188 -> 1194 of 1228 dev dice and 253 -> 256 of 263 held-out, shrunk to 35%
1182 -> 1190, warm light 1221 -> 1224, noise 1220 -> 1223, but turned 17 degrees 1221 -> 1217, blur
1193 -> 1189 and the clean photos 1223 -> 1221; no wrong reading accepted under any change. 0.08
read 2 fewer JPEG dev dice."""


def _read_shifted(probs: np.ndarray, doubtful: list[int], frames: list[np.ndarray], scale: float,
                  hits: list[_Hit], angles: list[float], nets: tuple[FaceClassifier, ...]) -> None:
    """Read the ``doubtful`` dice again from crops moved :data:`SHIFTED_BY` of a side right, left,
    down and up, each in the first view and :data:`MORE_VIEWS`, and average those four readings
    with theirs in ``probs``, in place."""
    every = ((0.0, False), *MORE_VIEWS)
    looks = [probs[doubtful]]
    for dx, dy in ((SHIFTED_BY, 0.0), (-SHIFTED_BY, 0.0), (0.0, SHIFTED_BY), (0.0, -SHIFTED_BY)):
        moved = [replace(hits[i], center=(hits[i].center[0] + dx * hits[i].side, hits[i].center[1] + dy * hits[i].side))
                 for i in doubtful]
        views = _reader_crops([frames[i] for i in doubtful], scale, moved, [angles[i] for i in doubtful], every)
        looks.append(_read_views(views, nets, len(every)))
    probs[doubtful] = np.mean(looks, axis=0)


RED_WEIGHT = 0.33
"""What the red channel's views of a dark doubtful die count for against its colour views
(:func:`_read_red_pips`). They once counted alike (weighing them 2:1 or 3:1 read the same or 1 fewer
real dice right, 1-2 fewer held-out); but under JPEG quality 30, whose halved and coarse colour
leaves red blotches on dark bodies, the red views read extra pips. Under JPEG quality 30, read
right of 1228 dev / 263 held-out dice: 1188 / 253 at 1 (the old weight), 1191 / 255 at 0.5,
1189 / 256 at 0.33, and 1194 / 256 at 0.33 with :data:`SHIFTED_BY`'s crops."""


def _read_red_pips(probs: np.ndarray, doubtful: list[int], patches: np.ndarray, views: np.ndarray,
                   nets: tuple[FaceClassifier, ...]) -> None:
    """Read the doubtful dice with a dark body once more, in every view, in their red channel only
    (:func:`vision.crops.red_channel`), and average those face shares with the colour views' in
    ``probs``, in place, the red views counting :data:`RED_WEIGHT` (the die and unreadable classes
    stay as the colour views have them: the red channel alone is a poor judge of what is a die)."""
    dark = [k for k, i in enumerate(doubtful) if _view_confidence(probs[i]) < REFINE_BELOW and dark_body(patches[i])]
    if not dark:
        return
    per_die = len(MORE_VIEWS)
    crops = np.concatenate([np.stack([patches[doubtful[k]], *views[k * per_die:(k + 1) * per_die]]) for k in dark])
    red = _read_views(red_channel(crops), nets, 1 + per_die)[:, 1:UNREADABLE]
    rows = [doubtful[k] for k in dark]
    faces = probs[rows, 1:UNREADABLE]
    share = faces.sum(axis=1, keepdims=True) * red / np.maximum(red.sum(axis=1, keepdims=True), 1e-6)
    probs[rows, 1:UNREADABLE] = (faces + RED_WEIGHT * share) / (1 + RED_WEIGHT)


SAME_DIE = 0.7
"""Two hits closer than this many die sides that read the same face (or none) are one die seen
twice (:func:`_one_per_die`). Dice of one size cannot lie closer than one side; in a heap of mixed
sizes two real dice read 0.74 apart, and the real photos' doubles lie 0.56-0.68 apart (0.62-0.72
all read the same dice right there, with 7 to 5 false dice)."""


def _one_per_die(hits: list[_Hit]) -> list[_Hit]:
    """``hits`` without the doubles: a hit within :data:`SAME_DIE` sides of a surer one reading the
    same face (or none), in their order. A die seen twice reads alike twice; two dice side by side
    mostly do not, which a distance alone cannot tell in a heap (:func:`_find` keeps the
    candidates between two dice from merging them)."""
    faces = [_face(h.probs) for h in hits]
    kept: list[int] = []
    for i in sorted(range(len(hits)), key=lambda i: -_confidence(hits[i].probs)):
        if not any(_dist(hits[i].center, hits[k].center) < SAME_DIE * hits[k].side and faces[i] in (None, faces[k])
                   for k in kept):
            kept.append(i)
    return [hits[i] for i in sorted(kept)]


def _blurred(hit: _Hit) -> bool:
    """Whether a die is too blurred to take its value: not read surely, and its crop not sharp."""
    return _confidence(hit.probs) < SURE_THOUGH_BLURRED and hit.sharpness < BLURRED


MORE_VIEWS = ((90.0, False), (180.0, False), (270.0, False), (0.0, True), (90.0, True), (180.0, True), (270.0, True))
"""The further views (turn in degrees, mirrored) a doubtful die is read in (``bench/dice_reader.py``: 1459
of the 1487 real dice read right, against 1455 with three more quarter turns only)."""


def _reader_crops(frames: list[np.ndarray], scale: float, hits: list[_Hit], angles: list[float],
                  views: tuple[tuple[float, bool], ...]) -> np.ndarray:
    """The readers' crops of each hit (in its own of ``frames``: the frame, or the frame with that
    die's sides painted over) in each of the ``views`` (turn in degrees, mirrored), hit by hit."""
    return np.stack([crop(frame, (h.center[0] / scale, h.center[1] / scale), h.side * CROP_SCALE / scale,
                          angle + turn, mirrored, READ_PX)
                     for frame, h, angle in zip(frames, hits, angles) for turn, mirrored in views])


def _read_views(patches: np.ndarray, nets: tuple[FaceClassifier, ...], views: int) -> np.ndarray:
    """Class probabilities (N, 8) of N hits from their crops (``views`` each, hit by hit), averaged
    over the ``nets`` and the views."""
    probs = np.mean([net.probabilities(patches) for net in nets], axis=0)
    return np.asarray(probs.reshape(len(patches) // views, views, -1).mean(axis=1))


REFINE_BELOW = 0.9
"""Dice the reader reads with at least this confidence in one view are not turned and read again."""


def _view_confidence(probs: np.ndarray) -> float:
    """The lesser of "a die is here" and the best face's share of the die classes, in one reader view."""
    die = max(1.0 - float(probs[NOT_A_DIE]), 1e-6)
    return min(die, float(probs[1:UNREADABLE].max()) / die)


def _least_score(probs: np.ndarray) -> float:
    """The die score a hit needs: more when it would be flagged unreadable (tray corners and frame
    edges look a little like a leaning die; a readable face is stronger evidence)."""
    return UNREADABLE_SCORE if probs[UNREADABLE] > probs[1:UNREADABLE].max() else DIE_SCORE


def _confidence(probs: np.ndarray) -> float:
    """How sure a reading is: the best face's share of the die classes, less when the die score is low."""
    die = max(1.0 - float(probs[NOT_A_DIE]), 1e-6)
    return float(probs[1:UNREADABLE].max()) / die * min(1.0, die / DIE_SCORE)


def _face(probs: np.ndarray) -> int | None:
    """The face a die reads, or None when it is unreadable (flagged ``cocked``)."""
    value = int(np.argmax(probs[1:UNREADABLE])) + 1
    return None if probs[UNREADABLE] > COCKED_SHARE * probs[value] else value


def _reading(hit: _Hit, scale: float, shape: tuple[int, ...], leans: float = D6_LEANS) -> DieReading:
    die = max(1.0 - float(hit.probs[NOT_A_DIE]), 1e-6)
    value = _face(hit.probs)
    confidence = _confidence(hit.probs) * seen_well(hit.sharpness, hit.side / scale)
    flag = None
    cut = cut_off(hit.center, hit.side, shape)
    if cut or value is None:
        flag, value = ("cut_off" if cut else "cocked"), None
        confidence = float(max(hit.probs[UNREADABLE], hit.probs[1:UNREADABLE].max())) / die
    elif hit.leaning > leans:  # how surely it leans, as for the unreadable class above
        flag, value, confidence = "cocked", None, hit.leaning
    elif hit.other > D6_OTHER_KIND:
        flag, value, confidence = "other_kind", None, hit.other
    elif _blurred(hit):
        flag, value = "blurred", None
    elif confidence < UNCERTAIN:
        flag = "uncertain"
    half = hit.side * BOX_PER_SIDE / 2
    cx, cy = hit.center
    box = ((cx - half) / scale, (cy - half) / scale, 2 * half / scale, 2 * half / scale)
    return DieReading("d6", value, (cx / scale, cy / scale), box, round(confidence, 4), flag)


class _Measured(Protocol):
    """A die found (:class:`_Hit`, :class:`vision.faces.Hit`): a dataclass with its crop's sharpness."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def sharpness(self) -> float: ...


MeasuredT = TypeVar("MeasuredT", bound=_Measured)


def in_one_focus(hits: Sequence[MeasuredT]) -> list[MeasuredT]:
    """``hits`` on a calibrated tray seen from about straight above, each as sharp as the sharpest
    (:func:`seen_well`). The dice lie on one plane, in the camera's one focus, and the tray is read
    once it is still: a die whose crop measures softer than another's shows faint marks (a pale
    symbol on a pink die, a grey one on grey), not blur. In a photo, dice may lie at any distance.
    On the demo's tray (``bench/demo_tray.py --trays 600``) flat dice read right and accepted went
    d12 2618 -> 2621, d8-tauren 2631 -> 2633, letters 2641 -> 2647, with no wrong reading accepted,
    as before; on trays all blurred (1.2 px) as many dice read right, and none wrong was accepted."""
    focus = max((hit.sharpness for hit in hits), default=0.0)
    return [replace(hit, sharpness=focus) for hit in hits]


def seen_well(sharp: float, side_px: float) -> float:
    """How well a die was seen, 0..1, as a factor of its reading's confidence: less for a soft crop
    (:func:`vision.crops.sharpest_channel` under :data:`SHARP_ENOUGH`) or a small die (a side under
    :data:`LARGE_ENOUGH` frame pixels), in proportion. The readers' face shares alone do not know
    how little a die showed them: the surest wrong readings came from such dice."""
    return min(1.0, sharp / SHARP_ENOUGH) * min(1.0, side_px / LARGE_ENOUGH)


SHARP_ENOUGH = 0.25
"""Crop sharpness from which a die counts as seen sharply (:func:`seen_well`): a die in focus is
about 0.3 (the real photos' median 0.325 in the sharpest channel, a tenth of their dice under 0.255;
0.296 and 0.243 in grey, where this was set), blurred under 0.2. The sharpest colour channel, as for
the face dice: pale pips on a yellow die, or white ones on pink, are faint in grey and were measured
soft there (the demo's Tao Dice d6 reveals read at 0.62-0.75 for face shares of 0.92-0.96)."""

LARGE_ENOUGH = 20.0
"""Die side (frame pixels) from which a die counts as seen large enough (:func:`seen_well`): the
finder and readers learnt dice of about 20 to 70 pixels; the real photos' dice are 28 to 40 in
the frame."""


def cut_off(center: tuple[float, float], side: float, shape: tuple[int, ...]) -> bool:
    """Whether the frame's edge cuts a die seen at ``center``, ``side`` across, in a frame of ``shape``:
    the centre of what is seen lies closer to the edge than a whole die's centre can (half a side)."""
    cx, cy = center
    return min(cx, cy, shape[1] - cx, shape[0] - cy) < 0.42 * side


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


TRAY_PX_PER_MM = 1.8
"""Scale of the top-down tray view the reader works in: a 16 mm die is about 29 pixels across."""

MARKER_BORDER_MM = 5.0
"""White border printed around each tray marker, painted over with it."""

TRAY_BORDER_MM = 10.0
"""How far past the tray's edges the top-down view reaches. A die resting against the tray's edge
shows its top face a little outside the tray's plane outline (the face is a die's height nearer
the camera): cut at the tray's edge, the view cut it off, and the die went to the dealer."""


KNOWN_SIDE_SPREAD = 1.3
"""How far (a factor) a die's side in the top-down tray view may lie from the calibration's: the
top face's parallax (a few percent) and a die's blob merging with its shadow or a neighbour."""


def _read_on_tray(frame: np.ndarray, tray: Calibration) -> list[DieReading]:
    """Warp to the top-down tray view, read there with the die side the calibration fixes, map
    centres and boxes back to the frame."""
    view = tray_view(frame, tray)
    below = _below_on_tray(frame, tray)
    return [_to_frame(reading, tray) for reading in _read_frame(view, tray_die_px(tray), below,
                                                                _side_view(view, tray, below))]


def tray_view(frame: np.ndarray, tray: Calibration) -> np.ndarray:
    """The top-down view of the tray the reader reads: :data:`TRAY_PX_PER_MM`, :data:`TRAY_BORDER_MM`
    past its edges, its corner markers painted over (:func:`_without_markers`)."""
    return _without_markers(tray.top_down(frame, TRAY_PX_PER_MM, TRAY_BORDER_MM), tray)


def _view_px(points_mm: np.ndarray) -> np.ndarray:
    """Tray points (mm) in the pixels of :func:`tray_view`."""
    return (points_mm + TRAY_BORDER_MM) * TRAY_PX_PER_MM


def _view_mm(points_px: np.ndarray) -> np.ndarray:
    """Pixels of :func:`tray_view` as tray points (mm)."""
    return points_px / TRAY_PX_PER_MM - TRAY_BORDER_MM


def _below_on_tray(frame: np.ndarray, tray: Calibration) -> tuple[float, float]:
    """The point of the top-down tray view straight below the camera: where the calibration puts
    it when it knows the camera's pose, else under the frame's centre (a camera looking straight down)."""
    point = tray.below_camera() or frame_centre(frame.shape)
    x, y = _view_px(tray.to_tray(np.array([point], dtype=np.float64)))[0]
    return float(x), float(y)


def _side_view(view: np.ndarray, tray: Calibration, below: tuple[float, float]) -> SideView | None:
    """How the camera sees flat dice's sides in the top-down tray ``view`` (:mod:`vision.sides`), or
    None when the camera's height is not known (no focal length: set ``[tray] focal_px``)."""
    rise = camera_rise(tray)
    if rise is None:
        return None
    felt = np.median(view[::4, ::4].reshape(-1, 3), axis=0)
    return SideView(below, rise, tray_die_px(tray), tray.layout.die_mm * TRAY_PX_PER_MM,
                    (int(felt[0]), int(felt[1]), int(felt[2])))


def camera_rise(tray: Calibration) -> float | None:
    """A die's height (the layout's ``die_mm``) over the camera's above the tray, or None when the
    camera's height is not known (no focal length)."""
    if tray.focal_px is None:
        return None
    height = -float(tray.camera_mm()[2])
    return tray.layout.die_mm / max(height, 2 * tray.layout.die_mm)


def tray_die_px(tray: Calibration) -> float:
    """A die's top face side in the top-down tray view, in its pixels: the layout's ``die_mm``, seen
    larger by the camera's height over the face's (a face ``die_mm`` above the tray is nearer the
    camera; uniform over the view, as the tray is flat), when the camera's height is known."""
    side = tray.layout.die_mm * TRAY_PX_PER_MM
    if tray.focal_px is None:
        return side
    height = -float(tray.camera_mm()[2])
    return side * height / max(height - tray.layout.die_mm, tray.layout.die_mm)


def _without_markers(top: np.ndarray, tray: Calibration) -> np.ndarray:
    """The top-down view with the corner markers (and their white border) painted over in the tray's colour.

    A marker is a black-and-white square about a die's size: left in view it would read as a die.
    """
    from vision.calibrate import CORNER_IDS

    out = top.copy()
    colour = tuple(int(c) for c in np.median(top.reshape(-1, 3), axis=0))
    for marker in CORNER_IDS:
        corners = tray.layout.marker_corners_mm(marker)
        lo = _view_px(corners.min(axis=0) - MARKER_BORDER_MM)
        hi = _view_px(corners.max(axis=0) + MARKER_BORDER_MM)
        cv2.rectangle(out, (int(lo[0]), int(lo[1])), (int(np.ceil(hi[0])), int(np.ceil(hi[1]))), colour, -1)
    return out


def _to_frame(reading: DieReading, tray: Calibration) -> DieReading:
    """A reading made in the top-down view, in frame pixels (the box bounds the mapped box)."""
    x, y, w, h = reading.box
    pixels = tray.to_image(_view_mm(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h], list(reading.center)])))
    lo, hi = pixels[:4].min(axis=0), pixels[:4].max(axis=0)
    box = (float(lo[0]), float(lo[1]), float(hi[0] - lo[0]), float(hi[1] - lo[1]))
    return replace(reading, center=(float(pixels[4][0]), float(pixels[4][1])), box=box)
