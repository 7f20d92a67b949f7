"""Reading d12 numerals, Tauren faces and HOLDEM letters: :func:`read_faces`, which ``read_dice``
calls for every kind but pip d6.

How: the frame is looked at in the d6 finder's views (:func:`vision.detect.working_views`: shrunk
to a working size, and less shrunk when its dice look small; closer still when few hits are sure:
no one global size guess can lose a frame), or at the die size a calibrated tray fixes. Every
candidate is cropped, at no particular turn, and classified by one small CNN
(``models/faces.onnx``, trained by :mod:`vision.train_faces` on renders at every rotation) whose
classes are every face of every kind (:mod:`vision.face_classes`), "not a die" and "unreadable".
Sure candidates are grouped into one hit per die, and each hit is looked at again in a sharper
crop of the full frame (four quarter turns averaged) to make sure it is a die. Its face is then
read by a second network, the upright reader (``models/upright.onnx``, :mod:`vision.train_faces`
``--net upright``), which was taught every face standing upright (within 22.5 degrees) and
"turned" for the same face turned away: the top face is cropped in 24 turns, and read where three
neighbouring turns agree best. Standing a face up first is what tells a 6 from a 9, an M from a
W, and makes printed numerals small in the frame readable. A die whose probability lies mostly on
another kind's faces (a pip d6 when letters are asked for) is flagged ``other_kind``, with no
value; a reading under :data:`vision.read.UNCERTAIN` is flagged ``uncertain``, like a d6's.

A set taught from pictures (:mod:`vision.teach`) is found in the table's data folder and read by
its nearest taught crops instead of the network's classes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import cv2
import numpy as np

from controller.games.dice import DieKind
from controller.games.errors import ConfigError, InvalidInput
from vision.classify import unreadable_cleared
from vision.crops import crop, facing, frame_centre, normalise, sharpest_channel, straight_above
from vision.detect import (TRAY_CANDIDATES, Candidate, View, closer_view, is_crumb, propose, shrink,
                           working_views)
from vision.face_classes import (CLASSES, FACE_CROP, FACE_PX, KINDS, NOT_A_DIE, NUMERAL_CROP, TURNED, UNREADABLE,
                                 UPRIGHT_CROP, face_class, face_slice)
from vision.octahedron import TrayCamera, edge_ratio

if TYPE_CHECKING:
    from vision.calibrate import Calibration
    from vision.read import DieReading, Observation
    from vision.teach import TaughtSet

MODEL_PATH = Path(__file__).resolve().parent / "models" / "faces.onnx"
"""The face network: classes of :mod:`vision.face_classes` and an embedding (for teach mode)."""

NUMERALS_PATH = MODEL_PATH.with_name("d12_numerals.onnx")
"""The d12 numeral reader (:mod:`vision.train_faces` ``--net numerals``): a close crop of the top face."""

UPRIGHT_PATH = MODEL_PATH.with_name("upright.onnx")
"""The upright reader (:mod:`vision.train_faces` ``--net upright``): a top face's crop, read as the
face standing upright in it, or "turned"."""

COCKED_PATH = MODEL_PATH.with_name("cocked.onnx")
"""The cocked network (``python -m vision.train_faces --net cocked``): whether a whole die, of any
kind, leans (class 1) or lies flat (0), from the face network's crop turned to face the frame's
centre, or the point straight below the camera (:func:`cocked_shares`)."""

COCKED_D6_PATH = MODEL_PATH.with_name("cocked_d6.onnx")
"""The pip d6 dice's cocked network: :data:`COCKED_PATH` taught on, in addition, real d6 dice lying
flat (the photos in ``data/``, the held-out ones excepted, under the issue 17 changes, cropped where
the d6 finder sees them: :func:`vision.train_faces.cocked_d6_crops`), which the shared one, taught on
rendered dice only, took for leaning too often (:data:`vision.read.D6_LEANS`)."""

KIND_D6_PATH = MODEL_PATH.with_name("kind_d6.onnx")
"""The pip d6 dice's kind network: whether a whole die the d6 readers give a face is a pip d6 or a
die of another kind (:func:`vision.train_faces.kind_d6_crops`: real d6 dice lying flat and rendered
dice of every kind); looked at as :data:`COCKED_D6_PATH` is."""

COCKED_LETTERS_PATH = MODEL_PATH.with_name("cocked_letters.onnx")
"""Letter dice's own cocked network (:data:`COCKED_PATH` taught on, in addition, rendered frames of
letter dice only, one to three of them cocked: ``vision/README.md``), asked on a calibrated tray
seen from about straight above, and with the shared one in a frame with no calibration
(:func:`_cocked_networks`). A letter die is a cube, like a d6, and the shared network let the most
of them through leaning."""


def _cocked_networks(kind: DieKind, on_tray: bool, below: tuple[float, float] | None,
                     shape: tuple[int, ...]) -> tuple[Path, ...]:
    """The cocked networks that look at ``kind`` dice, their shares averaged (:func:`cocked_shares`):
    for letters, their own on a calibrated tray seen from about straight above
    (:func:`vision.crops.straight_above`, by the point ``below`` the camera in a frame of ``shape``),
    the shared one on a tray seen by a tilted camera (letters' own took 22 more of about 180 flat
    letter dice for leaning there: 90 trays seen by a camera tilted 18-30 degrees), and both in a
    frame with no calibration: on ``bench/faces_reader.py``'s 1,000 free letters frames (a third
    of them seen by a camera tilted up to 9 degrees; 98 cocked and 5,309 flat letter dice, every
    die's shares recorded), the shared one over :data:`LEANS` let 18 cocked dice through with a
    sure value and flagged 36 flat ones, letters' own 8 and 46, the two averaged 10 and 29 (frames
    0-499: 10 and 22 against 7 and 15; 500-999: 8 and 14 against 3 and 14). Other kinds: the
    shared one."""
    if kind is not DieKind.LETTERS or not COCKED_LETTERS_PATH.is_file():
        return (COCKED_PATH,)
    if not on_tray:
        return COCKED_PATH, COCKED_LETTERS_PATH
    return (COCKED_LETTERS_PATH,) if straight_above(below, shape) else (COCKED_PATH,)


LEAST_SIDE = 1.1
"""On a calibrated tray seen from about straight above (:func:`vision.crops.straight_above`), the least side of a
hit, in the die side the calibration gives there (``die_px``). The finder's sides for the dice read
right on such trays are 1.1 to 1.4 of it (5th to 95th percentile, 40 trays per kind), but on a die
whose body is hard to tell from the felt a hit can shrink to the face's mark, and the reader then
sees a part of the face: a purple letter die on dark blue felt in the demo, hit at 0.99 of it, read
D at 0.52 for its O (at 1.1, O at 0.89). Not on a tilted camera's view, where the side the
calibration gives at the tray's centre is not a die's side elsewhere."""


UPRIGHT_TURNS = tuple(float(a) for a in range(0, 360, 15))
"""The turns (degrees) each die's top face is cropped in for the upright reader: one of them is
always within 7.5 degrees of the face's upright (the reader was taught +-22.5)."""

UPRIGHT_WINDOW = 3
"""Neighbouring turns averaged: the face is read where the mean of three turns is surest."""

NUMERAL_WEIGHT = 0.8
"""Share of the numeral reader in a d12's face shares (the face network's own have the rest)."""

READABLE = tuple(kind for kind in KINDS if kind is not DieKind.D6)
"""The kinds this module reads (pip d6 dice have their own reader in :mod:`vision.read`)."""

DIE_SCORE = 0.6
"""Least probability of "a die is centred here" for a candidate, and then a hit, to count as a die."""

SURE_FACE = 0.6
"""Least share of the die probability on one face for a hit to count as sure when views are compared."""

SECOND_WEIGHT = 0.85
"""Share of the second, sharper look (four turns) in a hit's probabilities; the finder's has the rest."""

TURNS = (0.0, 90.0, 180.0, 270.0)
"""The turns (degrees) a hit is read in, and averaged over."""

SAME_DIE = 0.7
"""Two hits closer than this many die sides that read the same kind are one die seen twice."""

BOX_PER_SIDE = {DieKind.D12: 1.09, DieKind.D8_TAUREN: 1.17, DieKind.LETTERS: 1.3}
"""A reading's box side per hit side, by kind: the face network's hit sides are larger than the die
for the rounder kinds, so these make the boxes bound the die as the d6 reader's do (median 1.07 of
the rendered die's whole box, 12 frames of each kind at 40-80 px; with the d6 reader's 1.3, a d12's
box was 1.28 of it). The table's owner colour is taken from a disc of 0.3 of the box: a loose box
reached the shaded sides of a yellow d12 and matched no seat."""

LEANS = 0.5
"""The cocked network's share (:data:`COCKED_PATH`) above which a die is flagged cocked, whatever
its face reads. On 150 bench frames per kind (``bench/faces_reader.py``, crops' sharpness in the
grey), dice read wrong but accepted (all but one cocked dice given a value) went from d12 5,
d8-tauren 5, letters 10 to 4, 3, 8 at 0.7 and 4, 3, 5 at 0.5, read right and accepted from 618,
751, 685 to 618, 749, 684 at 0.7 and 618, 738, 675 at 0.5. With the sharpness of the sharpest
channel (:func:`vision.crops.sharpest_channel`), 0.5 keeps the letters at 6 where 0.7 left 9. A
third of the bench's cocked dice that network did not see (under 0.3); the one shipped now looks
at crops turned to face the frame's centre: at the dice's true centres (``bench/faces_reader.py
--lean-frames 150``) it puts 294 of 300 cocked dice above 0.5 and 0 of 600 flat ones, where the
earlier one put 254 and 8; where the reader's hits put those dice, it leaves 19 of the 300 cocked
dice a value and flags none of the flat ones (42 and 4 before it was taught crops placed as the
hits are: ``vision.train_faces.HIT_OFFSET``)."""

TRAY_LEANS = 0.2
""":data:`LEANS` on a calibrated tray seen from about straight above (:func:`vision.crops.straight_above`), where
the cocked network sees each die turned to face the point below the camera, as it was taught. There
a cocked die given a value is the only wrong reading the table would take, while a flat die taken
for leaning costs the players a throw again (:data:`controller.table.camera.COCKED`), not the dealer
an entry. On 300 trays per kind (``bench/faces_reader.py --tray-frames 300``) the cocked dice the
reader gave a value and accepted were at 0.24-0.46 (d12 0.24 and 0.39, d8-tauren 0.35, letters 0.32,
0.39 and 0.46), and the flat dice read right and accepted over 0.3 were 5 of 1494, 5 of 1589 and 2
of 1533 (99th percentile 0.17-0.19). At 0.3 two cocked d8-tauren near the demo tray's centre, at
0.22 and 0.26, were taken with a value (``bench/demo_tray.py --trays 600``) and the d12 at 0.24
above; at 0.2 no cocked die of any face kind is taken on either bench, and 7 more flat dice per
kind of 2,657 on the demo's tray (22 of 7,971) are flagged cocked: a throw again, not a misread."""

LETTERS_TRAY_LEANS = 0.17
""":data:`TRAY_LEANS` for letter dice, whose own cocked network (:data:`COCKED_LETTERS_PATH`) is surer
of flat dice than the shared one. On the demo's tray (``bench/demo_tray.py``'s trays, every die's
share recorded by scratch script: seeds 1, 2, 5, 6 and 7, one cocked die on each tray of the last
three) 4,553 flat and 582 cocked letter dice: at 0.2 three cocked dice were taken with their top
face's value (shares 0.145, 0.186 and 0.194), at 0.17 one, for 2 more flat dice flagged cocked;
checked on seeds 3, 8 and 9 (2,722 flat, 406 cocked): 2 cocked dice taken at 0.2 (0.178, 0.183),
none at 0.17, for 3 more flat dice flagged. A flat die flagged cocked is thrown again or laid flat;
a cocked die taken is a misread. The shared network's dice (d12, d8-tauren) stay at 0.2: at 0.17
it caught 1 of the 3 d8-tauren cocked dice taken there for 13 more flat ones of 2,536."""

def _tray_leans(networks: tuple[Path, ...]) -> float:
    """The cocked share over which a die is flagged on a calibrated tray seen from about straight
    above, by the cocked ``networks`` that look at it: :data:`LETTERS_TRAY_LEANS` for the letters'
    own, else :data:`TRAY_LEANS`."""
    return LETTERS_TRAY_LEANS if networks == (COCKED_LETTERS_PATH,) else TRAY_LEANS


LEAN_SIZES = (0.9, 1.0, 1.1)
"""The sizes (in the hit's) of the cocked network's crops of a die, averaged: its share can jump
at one size (a flat marbled letter die in a table test: 0.29, 0.54 and 0.41 at these three)."""

BATCH = 32
"""Crops per forward pass (larger batches run slower per crop on one core)."""


class FaceNet:
    """The face network run through ``cv2.dnn``: class probabilities and embeddings of crops."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        if not path.is_file():
            raise ConfigError(f"face model {str(path)!r} is missing: run `python -m vision.train_faces`")
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)  # OpenCV 5's classic engine is faster for small nets
        self._net = cv2.dnn.readNetFromONNX(str(path)) if engine is None else cv2.dnn.readNetFromONNX(str(path), engine)
        names = list(self._net.getUnconnectedOutLayersNames())
        self._outputs = ["probs", *(name for name in names if name != "probs")]
        self.run(np.zeros((1, FACE_PX, FACE_PX, 3), np.uint8))  # the first forward sets the network up

    def run(self, patches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Probabilities (N, classes) and unit-length embeddings (N, E) of N BGR crops (N, px, px, 3)."""
        probs, embeddings = [], []
        for i in range(0, len(patches), BATCH):
            self._net.setInput(normalise(patches[i:i + BATCH]))
            out = self._net.forward(self._outputs)
            probs.append(np.asarray(out[0], np.float32).reshape(len(patches[i:i + BATCH]), -1))
            embeddings.append(np.asarray(out[1], np.float32).reshape(len(patches[i:i + BATCH]), -1))
        if not probs:
            return np.zeros((0, UNREADABLE + 1), np.float32), np.zeros((0, 1), np.float32)
        embedding = np.concatenate(embeddings)
        return np.concatenate(probs), embedding / np.maximum(np.linalg.norm(embedding, axis=1, keepdims=True), 1e-6)


@lru_cache(maxsize=4)
def face_net(path: Path = MODEL_PATH) -> FaceNet:
    """The shared face network at ``path``, loaded once per process."""
    return FaceNet(path)


def kind_of(name: str) -> DieKind:
    """The kind this module reads called ``name``; raises :class:`InvalidInput` for any other."""
    kinds = {kind.value: kind for kind in READABLE}
    if name not in kinds:
        supported = ", ".join(["d6", *kinds])
        raise InvalidInput(f"reading {name!r} dice is not supported (supported: {supported})")
    return kinds[name]


@dataclass(frozen=True)
class Hit:
    """One die found: centre and side in its view's pixels, class probabilities, the embeddings of
    its sharp crops in each of the :data:`TURNS` (teach mode compares them), its crop's sharpness
    and how surely it leans."""

    center: tuple[float, float]
    side: float
    probs: np.ndarray
    embeddings: np.ndarray | None = None
    sharpness: float = 1.0
    leaning: float = 0.0
    """How surely the cocked network sees the die leaning, 0..1 (0 without that network)."""
    angle: float = 0.0
    """The turn (degrees) its crops are taken at: a taught set's top face's (:mod:`vision.top_face`)."""
    face_aspect: float | None = None
    """A taught set's top face's short side over its long (:attr:`vision.top_face.TopFace.aspect`),
    None for a die not placed on one."""


def read_faces(image: np.ndarray, kind: str, *, tray: Calibration | None = None,
               data: Path | None = None) -> Observation:
    """Find every die in a BGR ``image`` and read its top face as a ``kind`` die (``d12``,
    ``d8-tauren``, ``letters``); readings number faces in ``DieKind(kind).faces`` order from 1.

    A set of ``kind`` taught in the data folder (``data``, default :func:`vision.teach.data_folder`)
    is read by what it was taught. With ``tray`` the top-down tray view is read, at its die size.

    :raises InvalidInput: for another kind or an image that is not a picture.
    """
    from vision import read
    from vision.teach import taught_set

    die_kind = kind_of(kind)
    taught = taught_set(die_kind, data)
    _load(die_kind)
    start = time.perf_counter()
    if tray is not None:
        dice = _read_on_tray(read.as_bgr(image), die_kind, taught, tray)
    else:
        dice = read.read_bounded(image, lambda frame: _read_frame(frame, die_kind, taught))
    return read.Observation(tuple(dice), (time.perf_counter() - start) * 1000.0)


def _load(kind: DieKind) -> None:
    """Load the networks reading ``kind`` needs (once per process, not counted in a frame's time)."""
    face_net()
    if COCKED_PATH.is_file():
        face_net(COCKED_PATH)
    if kind is DieKind.LETTERS and COCKED_LETTERS_PATH.is_file():
        face_net(COCKED_LETTERS_PATH)
    if UPRIGHT_PATH.is_file():
        face_net(UPRIGHT_PATH)
    elif kind is DieKind.D12 and NUMERALS_PATH.is_file():
        face_net(NUMERALS_PATH)


TRAY_LOOK_PX = 40.0
"""The die side (pixels) a calibrated tray's frame is shrunk to at most, for finding its dice."""


def _read_on_tray(frame: np.ndarray, kind: DieKind, taught: TaughtSet | None, tray: Calibration) -> list[DieReading]:
    """Read a calibrated tray in the frame itself (numerals are too small in the d6 reader's top-down
    view), its markers painted over, at the die side the calibration gives at the tray's centre
    (:func:`_tray_die_mm`)."""
    from vision.read import camera_rise

    centre = np.array([[tray.layout.width_mm / 2, tray.layout.height_mm / 2]], np.float64)
    ends = tray.to_image(np.vstack([centre - (5, 0), centre + (5, 0), centre - (0, 5), centre + (0, 5)]))
    px_per_mm = (float(np.linalg.norm(ends[1] - ends[0])) + float(np.linalg.norm(ends[3] - ends[2]))) / 20
    below = tray.below_camera()
    return _read_frame(_without_markers(frame, tray), kind, taught, _tray_die_mm(tray, below, frame.shape) * px_per_mm,
                       below, camera_rise(tray))


def _tray_die_mm(tray: Calibration, below: tuple[float, float] | None, shape: tuple[int, ...]) -> float:
    """The die side the face kinds look for on a calibrated tray, in the tray plane's millimetres:
    the top face's (:func:`vision.read.tray_die_px`, larger by the camera's height over the face's
    when the calibration knows it) on a tilted camera's tray, but the layout's ``die_mm`` on a tray
    seen from about straight above, where the finder's views, :data:`LEAST_SIDE` and the crumb
    check were measured at that side (the camera's height unknown). At the top face's side (2.4%
    more under the demo's camera), the demo's DiceHoldem and Tauren games (seeds 11-40, 120 games)
    sent 7 rolls to the dealer instead of 4: a letter die not found, Tauren dice doubted."""
    from vision.read import TRAY_PX_PER_MM, tray_die_px

    return tray.layout.die_mm if straight_above(below, shape) else tray_die_px(tray) / TRAY_PX_PER_MM


def _without_markers(frame: np.ndarray, tray: Calibration) -> np.ndarray:
    """``frame`` with the tray's corner markers and their white border painted in the tray's colour."""
    from vision.calibrate import CORNER_IDS
    from vision.read import MARKER_BORDER_MM

    out = frame.copy()
    colour = tuple(int(c) for c in np.median(frame.reshape(-1, 3), axis=0))
    for marker in CORNER_IDS:
        corners = tray.layout.marker_corners_mm(marker)
        lo, hi = corners.min(axis=0) - MARKER_BORDER_MM, corners.max(axis=0) + MARKER_BORDER_MM
        square = tray.to_image(np.array([lo, (hi[0], lo[1]), hi, (lo[0], hi[1])], np.float64))
        cv2.fillConvexPoly(out, np.round(square).astype(np.int32), colour)
    return out


def _read_frame(frame: np.ndarray, kind: DieKind, taught: TaughtSet | None, die_px: float | None = None,
                below: tuple[float, float] | None = None, rise: float | None = None) -> list[DieReading]:
    """Every die in ``frame`` read as ``kind``: found in the best view (or at the known die side
    ``die_px``, shrunk so that it is at most :data:`TRAY_LOOK_PX`), looked at again (``below``:
    the point straight below the camera, when a calibration knows it; ``rise``: a die's height
    over the camera's, when it knows that too: :func:`_doubts_on_top`), read once, crumbs left out
    (:func:`vision.detect.is_crumb`, :func:`_speck`); a frame of the shipped kinds no more than
    :data:`FARTHER_SURE` of whose readings are sure, or whose sure readings crowd together
    (:data:`CROWDED`), looked at again in the other working view and for other die sizes
    (:func:`_farther_look`)."""
    from vision.read import KNOWN_SIDE_SPREAD

    if die_px:
        scale = min(1.0, TRAY_LOOK_PX / die_px)
        work = shrink(frame, scale) if scale < 1 else frame
        view = View(scale, work, propose(work, die_px * scale, KNOWN_SIDE_SPREAD, TRAY_CANDIDATES))
        hits = [h for h in find(view) if not _speck(frame, scale, h, die_px)]
        if straight_above(below, frame.shape):
            least = LEAST_SIDE * die_px * scale
            hits = [replace(h, side=max(h.side, least)) for h in hits]
        return _read_hits(frame, kind, taught, view, hits, below, on_tray=True, rise=rise, die_px=die_px)
    views = working_views(frame)
    close = views.pop() if views[0].proposals.close_side is not None else None
    view, hits = best_view(frame, TAUGHT_SIZES if taught is not None else OTHER_SIZES, views)
    if taught is None:
        hits = [h for h in hits if not _speck(frame, view.scale, h, h.side / view.scale * BOX_PER_SIDE[kind])]
    readings = _close_up(frame, kind, taught, close, _read_hits(frame, kind, taught, view, hits, below, on_tray=False))
    sure = _sure_readings(readings)
    if taught is not None or not readings or (sure > FARTHER_SURE * len(readings) and not _crowded(readings, kind)):
        return readings
    farther = _farther_look(frame, kind, below, view.scale, sure, views)
    return readings if farther is None else farther + _unseen_sure(readings, farther)


def _close_up(frame: np.ndarray, kind: DieKind, taught: TaughtSet | None, close: View | None,
              readings: list[DieReading]) -> list[DieReading]:
    """``readings`` of the best of a frame's views, or those of its close-up's view (``close``: the
    view of a frame whose die-shaped blobs are all too large for a wider view's dice,
    :attr:`vision.detect.Proposals.close_side`) when they are surer. The close view does not
    compete with the others by the finder's count of sure hits: the first view of a close-up
    takes a d12's numerals or a Tauren die's pictures for small dice and reads them surely as
    faces (each then flagged as a die of another kind), and in a wide view a heap of four letter
    dice with no lone die, one die-shaped blob, gave the close view one sure hit that its reading
    dropped, and the frame's four dice went unread (``bench/faces_reader.py --plain`` letters frame
    660; read right in the other views and the farther look)."""
    if close is None:
        return readings
    seen = _read_hits(frame, kind, taught, close, find(close), None, on_tray=False)
    return seen if _sure_readings(seen) > _sure_readings(readings) else readings


CROWDED = 0.75
"""Two sure readings closer than this many die sides (the size the view looked for, the smaller of
the two) say that the frame's size guess is too large: dice lie closer than a die's side, so a die
between two others can be taken into their hits and lost. Such a frame is looked at again as a
frame with few sure readings is (:func:`_farther_look`). A heap of four letter dice with no lone
die set the guess at about 1.3 times the dice's tops; the three hits read surely, two of them 0.67
sides apart, and the H between them and the fourth was never a hit (``bench/faces_reader.py
--plain`` letters frame 547, where the other looks read it but not surely enough to be taken). A
heap of three and two pairs lost the heap (letters frame 296: two dice missed, one taken for
leaning) and, looked at again, reads all eight. ``bench/faces_reader.py --frames 1000
--speed-rounds 0``, under ``--plain``: letters read right 5395 -> 5403 of 5,433, read right and
accepted 5279 -> 5292, false dice 2 as before; d12 and d8-tauren unchanged. On the hard frames:
read right d12 5370 as before, d8-tauren 5427 -> 5429, letters 5382 -> 5388; read right and
accepted d12 4965 -> 4966, d8-tauren 5153 -> 5156, letters 5074 -> 5084; false dice 550 / 487 /
477 -> 550 / 490 / 479; wrong readings accepted 4 / 3 / 2 as before. A crowded frame costs the
farther look's reads (up to nine views)."""


def _crowded(readings: list[DieReading], kind: DieKind) -> bool:
    """Whether two sure ``readings`` lie closer than :data:`CROWDED` sides (their boxes' sides over
    :data:`BOX_PER_SIDE`)."""
    sure = [r for r in readings if r.sure]
    return any(_dist(a.center, b.center) < CROWDED * min(a.box[2], b.box[2]) / BOX_PER_SIDE[kind]
               for i, a in enumerate(sure) for b in sure[i + 1:])


def _unseen_sure(readings: list[DieReading], seen: list[DieReading]) -> list[DieReading]:
    """The sure ``readings`` (a value, no flag) of dice none of ``seen`` lies on: within half the
    smaller box of each other, the two are one die. A farther look is taken for reading more dice
    surely than the first, not for reading each of them: in a heap of four letter dice the first
    look read an L surely at 0.93 and three dice under the threshold, the look at 48 px read two of
    those surely and did not find the L (``bench/faces_reader.py --plain`` letters frame 151). Over
    the bench's 1,000 plain frames of letters, read right 5394 -> 5395, read right and accepted
    5278 -> 5279, false dice as before (2); d12 and d8-tauren under ``--plain``, and the hard
    frames of every kind, unchanged. Keeping the first look's doubtful readings too found two dice
    more but read one fewer right, with 52 false dice more."""
    return [r for r in readings if r.sure
            and not any(_dist(r.center, s.center) < 0.5 * min(r.box[2], s.box[2]) for s in seen)]


def _read_hits(frame: np.ndarray, kind: DieKind, taught: TaughtSet | None, view: View, hits: list[Hit],
               below: tuple[float, float] | None, on_tray: bool, rise: float | None = None,
               die_px: float | None = None) -> list[DieReading]:
    """The readings of a view's ``hits`` (``on_tray``: of a calibrated tray): placed on a taught
    set's top faces, looked at again, one per die, read upright (a doubtful die on a tray seen
    from above again at its top face, when the camera's height gives ``rise``; a doubtful d8 judged
    by its edges too, a die being ``die_px`` across there), flagged."""
    from vision.read import in_one_focus

    from_above = on_tray and straight_above(below, frame.shape)  # a calibrated tray, seen from above
    if taught is not None:
        hits = taught.placed(frame, view.scale, hits)
    between = None if taught is not None else die_between(frame, view.scale)
    networks = _cocked_networks(kind, on_tray, below, frame.shape)
    leans = _tray_leans(networks) if from_above else LEANS
    hits = _one_per_die(second_look(frame, view.scale, hits, below, networks), between=between, leans=leans)
    if UPRIGHT_PATH.is_file():
        tops = TrayCamera(below, rise, die_px) if from_above and below and rise and die_px else None
        hits = _one_per_die(read_upright(frame, view.scale, hits, tops, kind), same_kind=False, between=between,
                            leans=leans)
    elif kind is DieKind.D12 and NUMERALS_PATH.is_file():
        hits = read_numerals(frame, view.scale, hits)
    if from_above:
        hits = in_one_focus(hits)
    facing_known = from_above or not on_tray  # not a tray seen by a tilted camera (FLAT)
    if not facing_known:  # a tilted camera foreshortens every face (teach.SQUARE_UNDER)
        hits = [replace(hit, face_aspect=None) for hit in hits]
    if facing_known and any(network.is_file() for network in networks):  # else every share is 0
        hits = [_seen_flat(hit) for hit in hits]
    return [_reading(hit, kind, taught, view.scale, view.work.shape, leans) for hit in hits]


FLAT = 0.05
"""The cocked network's share under which a die on a calibrated tray seen from about straight above
is taken to lie flat: the readers' "unreadable" share goes back to its faces (:func:`_seen_flat`),
as :data:`vision.read.D6_FLAT` does for pip dice. The upright reader puts a share on "unreadable"
for flat dice that show the camera a side, or a glare: a dark blue Tauren Chieftain at 0.73 (0.13
unreadable, the cocked network's share 0.02) was the one die of 215 Tauren rolls the dealer had to
enter in ten demo games. Of the cocked dice on the demo's tray (150 trays per kind, each with one),
the least share was 0.15 (d8-tauren), 0.26 (letters), 0.32 (d12); 90-95% of the flat dice are
under 0.05. On the demo's tray (``bench/demo_tray.py --trays 300``) d8-tauren dice read right and
accepted 1324 -> 1326 of 1335, d12 and letters as before, no cocked die taken; on 300 trays per kind
(``bench/faces_reader.py --tray-frames 300``) d12 1486 -> 1489 and letters 1524 -> 1525 of about
1,620, d8-tauren as before, none read wrong and accepted (0.1: one d8-tauren and one d12 more).
In a frame with no calibration too, the cocked network facing each die to the frame's centre
(not on a calibrated tray seen by a tilted camera: tried there, it gained one die of 540): over the
1,000 free frames per kind of ``bench/faces_reader.py``, read right and accepted d12 5079 -> 5087
and d8-tauren 5310 -> 5314, letters as before, nothing else changed; on 100 frames per kind with
two cocked dice each, no cocked die more taken."""


def _seen_flat(hit: Hit) -> Hit:
    """``hit`` with the readers' "unreadable" share given to its faces when they give it a face (its
    best face outweighs "unreadable", as :data:`vision.read.D6_FLAT` asks) and the cocked network is
    sure it lies flat (under :data:`FLAT`). A die the readers cannot read stays unread."""
    probs = hit.probs
    readable = probs[UNREADABLE] <= probs[NOT_A_DIE + 1:UNREADABLE].max()
    return replace(hit, probs=unreadable_cleared(probs, UNREADABLE)) if readable and hit.leaning < FLAT else hit


def _speck(frame: np.ndarray, scale: float, hit: Hit, die_px: float) -> bool:
    """Whether a hit (of a view of ``frame`` at ``scale``) is a crumb (:data:`vision.detect.SPECK`) for
    dice ``die_px`` across in ``frame``: the calibration's side on a tray; without one, the hit's box
    (:data:`BOX_PER_SIDE`). There, with twelve crumbs strewn on each of 20 felt frames beside four
    letter dice, 111 false dice -> 18; on the bench's 1,000 free frames per kind
    (``bench/faces_reader.py``) false dice letters 524 -> 504, d12 591 -> 579, d8-tauren 515 -> 495,
    every other figure the same (none of their dice lost)."""
    return is_crumb(frame, (hit.center[0] / scale, hit.center[1] / scale), die_px)


FARTHER_SURE = 0.5
"""The least share of a look's readings that must be sure (a value, no flag): at or under it the
frame is looked at again (:func:`_farther_look`), and another look must reach it, with at least two sure
readings and more than the first look's, to be taken. Looking again only when no reading was sure
left heaps read at a wrong size: eight letter dice 60-79 px across, in a heap, were looked for at
95 px, one read surely of four readings (``bench/faces_reader.py`` letters frame 854), where at
48 px all eight read right and surely. Over the bench's 1,000 free frames per kind, read right d12
5367 -> 5371, d8-tauren 5429 -> 5433, letters 5342 -> 5378 (98.3 -> 99.0%), read right and
accepted 79 more, false dice 28 fewer, the frames' read time (CPU) 5-13% more; wrong readings
accepted d12 4 -> 6, d8-tauren 9 -> 10, letters 14 -> 13: cocked dice that the cocked network sees
flat read surely in the closer look (d12 2 -> 4, d8-tauren 8 -> 9, letters 11 -> 13), misread dice
fewer (letters 3 -> 0). A frame with exactly that share sure is looked at again too (it was
not): a row of six touching letter dice guessed 1.6 times their size was read in four hits, two of
them sure (``--plain`` letters frame 693), and looked at again reads one die more.
``bench/faces_reader.py --frames 1000 --speed-rounds 0``, under ``--plain``: letters read right
5403 -> 5405, read right and accepted 5292 -> 5294 (d12 5319 -> 5322), false dice 2 -> 1,
d8-tauren unchanged; on the hard frames read right d12 5370 -> 5375, d8-tauren 5429 as before,
letters 5388 -> 5393, read right and accepted 4966 -> 4987, 5156 -> 5161, 5084 -> 5096, false
dice 550 / 490 / 479 -> 547 / 492 / 476, wrong readings accepted 4 / 3 / 2 as before."""


def _farther_look(frame: np.ndarray, kind: DieKind, below: tuple[float, float] | None,
                  read_at: float | None = None, sure_there: int = 0,
                  views: list[View] | None = None) -> list[DieReading] | None:
    """``frame`` read again, for a frame few of whose dice were read surely (``sure_there``, under
    :data:`FARTHER_SURE` of its readings) in the view at scale ``read_at``: in the other working view
    (of ``views``, :func:`vision.detect.working_views`, made here when not given), as if its dice were two to four times the size guess
    (:data:`FARTHER_SIZES`), and at fixed sizes (:data:`LADDER_PX`); the look that reads the most
    dice surely, when it reads at least two, more than ``sure_there``, and :data:`FARTHER_SURE` of
    its readings so; else None.
    A heap with no lone die can be sized by the numerals on its faces: six multicoloured d12s 60 px
    across, in a heap in a corner of a bare 960x540 frame (``bench/faces_reader.py`` d12 frame 194),
    were looked for at 12 px and read in pieces, all flagged; at four times that, all six dice read
    right and surely. Over 300 bench frames and 150 frames drawn as the trainer draws them per kind,
    it took the farther look in 6 frames, gaining 22 dice read right and surely, none wrong; two
    looks it passed over, reading 1 of 5 and 4 of 15 dice surely, each gave a wrong or false die a
    value. The working views are told apart by the finder's first, coarse look, which can prefer the
    wrong one: eight d12s 58 px across on green felt (d12 frame 114) were looked for at 25 px, one
    of 32 hits sure against none of 11 at 60 px, and read in pieces; read in the other view, 8 of
    its 11 readings are sure and right."""
    first, *more = views or working_views(frame)
    looks = [v for v in (first, *more) if v.scale != read_at]
    looks += [closer_view(frame, first, factor) for factor in FARTHER_SIZES]
    looks += [closer_view(frame, first, first.proposals.side / (side * first.scale)) for side in LADDER_PX]
    best, most = None, max(1, sure_there)
    for view in looks:
        readings = _read_hits(frame, kind, None, view, find(view), below, on_tray=False)
        sure = _sure_readings(readings)
        if sure > most and sure >= FARTHER_SURE * len(readings):
            best, most = readings, sure
    return best


def _sure_readings(readings: list[DieReading]) -> int:
    """How many of ``readings`` are sure (:attr:`vision.read.DieReading.sure`)."""
    return sum(1 for r in readings if r.sure)


OTHER_SIZES = (2.0,)
"""The other sizes (:func:`best_view`) the shipped kinds' dice are looked for at when few hits are
sure: dice half the size guess."""


def best_view(frame: np.ndarray, sizes: tuple[float, ...] = OTHER_SIZES,
              views: list[View] | None = None) -> tuple[View, list[Hit]]:
    """The view of ``frame`` (among its working ``views``, made here when not given) with the most
    sure hits; while few are sure, looked at again for dice
    of other sizes (``sizes``: how many times too large the size guess may be, in order; by
    default :data:`OTHER_SIZES`), each look taken by the d6 reader's rule
    (:func:`vision.read.closer_wins`, at :data:`SURE_SHARE`); when no view found a die at all, for
    larger dice too (:data:`FARTHER_SIZES`)."""
    from vision.read import closer_wins

    looks = [(view, find(view)) for view in views or working_views(frame)]
    best = max(looks, key=_sure)
    for factor in sizes:
        if _sure(best) >= SURE_SHARE * max(len(best[1]), 1):
            break
        other = closer_view(frame, looks[0][0], factor)
        look = (other, find(other))
        if closer_wins(_sure(look), len(look[1]), _sure(best), SURE_SHARE):
            best = look
    if not best[1]:  # no die at any size: a heap with no lone die to size it by
        farther = [(view, find(view)) for view in (closer_view(frame, looks[0][0], f) for f in FARTHER_SIZES)]
        best = max([best, *farther], key=lambda look: (_sure(look), len(look[1])))
    return best


LADDER_PX = (34.0, 48.0, 68.0, 96.0)
"""Die sides (frame pixels) a frame few of whose dice were read surely is looked at for too
(:func:`_farther_look`), whatever the size guess: the guess comes from the frame's blobs, and
felt's grain or a heap can set it far off. Five d8-tauren 108 px across were guessed 8 px
(``bench/faces_reader.py`` d8-tauren frame 670), where none of the farther looks reached them;
at 68 px all five read right and surely. Over the bench's 1,000 free frames per kind, five frames
gained: read right d12 5363 -> 5367, d8-tauren 5422 -> 5429, letters 5339 -> 5342, read right and
accepted 15 more, false dice 29 fewer; one look taken (d8-tauren frame 582) gave a cocked die at
the frame's edge, which the cocked network sees flat, a sure value (wrong readings accepted
d8-tauren 8 -> 9)."""

FARTHER_SIZES = (1 / 2, 1 / 3, 1 / 4)
"""The other sizes (:func:`best_view`) a frame is looked at when no view found a die at all: dice
two to four times the guess, the view that finds the most (surely) taken. A heap with no lone die
in it gives no die's size, and specks of dirt or grain then set the guess: three letter dice 66 px
across in a heap on wood were guessed 7.5 px (``bench/faces_reader.py`` letters frame 63, the one
frame of 900 whose views found under half its dice), and none was found; at twice the guess all
three were. Only then, or when no die of the first look is read surely (:func:`_farther_look`):
for the shipped kinds a farther look loses dice where the first found some (:data:`TAUGHT_SIZES`)."""


TAUGHT_SIZES = (*OTHER_SIZES, 1 / 3)
"""The other sizes (:func:`best_view`) a taught set's dice are looked for at: also dice three
times the guess (1.7 to 5.4 times, with the view's spread). The face network was not taught a new
set's look, and can take its letters for dice: a set of olive dice with thin white letters, 55 px
across in a 360x240 frame, was guessed 14 px, and most of its dice went unfound
(``bench/teach_reader.py``: found 48.4% of 403 dice, read right 13.4%, 23 read wrong without a
flag; with these sizes 92.3%, 63.5% and 5). For the shipped kinds it loses dice (d12 94.6% read
right to 86.5%: the farther look wins on crops of several dice), so only taught sets use it."""


SURE_SHARE = 0.3
"""The face network's least share of sure hits for a view's die size to stand, and for a closer view
to be taken (:func:`best_view`). The d6 finder's :data:`vision.read.SURE_SHARE`, 0.2, read fewer
dice right here (100 bench frames per kind: d12 528 against 532 of 550, letters 489 against 496 of
525, d8-tauren the same) with more false dice (d12 60 against 54, letters 70 against 64)."""


def _sure(look: tuple[View, list[Hit]]) -> int:
    """How many of a view's hits put most of their die probability on one face."""
    return sum(_best_share(h.probs) >= SURE_FACE for h in look[1])


def _best_face(probs: np.ndarray) -> int:
    """The class number of the best face in ``probs``."""
    return int(np.argmax(probs[1:UNREADABLE])) + 1


def _best_share(probs: np.ndarray) -> float:
    die = max(1.0 - float(probs[NOT_A_DIE]), 1e-6)
    return float(probs[1:UNREADABLE].max()) / die


NEAR_DIE = 0.45
"""Least die score of a candidate under :data:`DIE_SCORE` that is looked at again at the view's die
side when its own side is more than :data:`OFF_SIDE` away from it (:func:`_at_view_side`)."""

OFF_SIDE = 0.15
"""How far (a share of the view's die side) a candidate's side may be from it before a near miss
(:data:`NEAR_DIE`) is looked at again at the view's side."""


def find(view: View, least: float = DIE_SCORE) -> list[Hit]:
    """Classify every candidate of a view (a near miss of another size again at the view's die side:
    :func:`_at_view_side`), then gather those with a die score of at least ``least`` into one hit
    per die, surest first."""
    candidates = view.proposals.candidates
    patches = _candidate_crops(view.work, candidates)
    probs, _ = face_net().run(patches)
    candidates, probs = _at_view_side(view, candidates, probs, least)
    scores = 1.0 - probs[:, NOT_A_DIE] if len(probs) else np.zeros(0)
    positive = [int(i) for i in np.argsort(-scores) if scores[i] >= least]
    points = np.array([candidates[i].center for i in positive], np.float64).reshape(-1, 2)
    hits: list[Hit] = []
    for i in positive:
        side = candidates[i].side
        if any(_dist(candidates[i].center, h.center) < 0.5 * h.side for h in hits):
            continue
        near = np.linalg.norm(points - candidates[i].center, axis=1) < 0.45 * side
        members = [positive[j] for j in np.flatnonzero(near)]
        centre = np.average(points[near], axis=0, weights=scores[members])
        if any(_dist((centre[0], centre[1]), h.center) < 0.55 * h.side for h in hits):
            continue
        hits.append(Hit((float(centre[0]), float(centre[1])), float(np.median([candidates[j].side for j in members])),
                        probs[members].mean(axis=0)))
    return hits


def _at_view_side(view: View, candidates: tuple[Candidate, ...], probs: np.ndarray,
                  least: float) -> tuple[tuple[Candidate, ...], np.ndarray]:
    """``candidates`` and their ``probs``, each near miss (a die score from :data:`NEAR_DIE` up to
    ``least``) whose side is more than :data:`OFF_SIDE` off the view's die side read again at that
    side, and taken so when it then scores ``least``. A dark green letter die on dark grey felt,
    touching a heap (``bench/faces_reader.py --plain`` letters frame 844), had its one candidate
    centred on it cut at 36 px in a view whose dice are 47 px, and scored 0.54: never found.
    ``bench/faces_reader.py --frames 1000 --speed-rounds 0`` (at b4c5d1c, d12's 6 and 9 not yet
    read closer): under ``--plain`` letters read right 5405 -> 5406 of 5433 (99.50%), read right and
    accepted 5294 -> 5295, d12 and d8-tauren unchanged; on the hard frames letters 5393 -> 5394 read
    right, 5096 -> 5097 accepted, false dice 476 -> 480, d12's false dice 547 -> 549, d8-tauren
    unchanged, no wrong reading accepted more; ``--tray-frames 300`` unchanged for all three kinds.
    From a die score of 0.3 the same dice, with 7 more false dice on the hard letters frames."""
    side = view.proposals.side
    scores = 1.0 - probs[:, NOT_A_DIE] if len(probs) else np.zeros(0)
    again = [i for i, c in enumerate(candidates)
             if NEAR_DIE <= scores[i] < least and abs(c.side / side - 1.0) > OFF_SIDE]
    if not again:
        return candidates, probs
    resized = tuple(replace(candidates[i], side=side) for i in again)
    looked, _ = face_net().run(_candidate_crops(view.work, resized))
    kept, probs = list(candidates), probs.copy()
    for i, candidate, p in zip(again, resized, looked):
        if 1.0 - p[NOT_A_DIE] >= least:
            kept[i], probs[i] = candidate, p
    return tuple(kept), probs


def _candidate_crops(work: np.ndarray, candidates: tuple[Candidate, ...]) -> np.ndarray:
    if not candidates:
        return np.zeros((0, FACE_PX, FACE_PX, 3), np.uint8)
    return np.stack([crop(work, c.center, c.side * FACE_CROP, 0.0, False, FACE_PX) for c in candidates])


def second_look(frame: np.ndarray, scale: float, hits: list[Hit],
                below: tuple[float, float] | None = None, networks: tuple[Path, ...] = (COCKED_PATH,)) -> list[Hit]:
    """Read each hit again in sharp crops of the full ``frame`` in the four :data:`TURNS`, averaged
    (and blended with the first look), and see whether it leans (:func:`cocked_shares`, by the cocked
    ``networks``, with the point straight below the camera, ``below``); keep those still a die."""
    if not hits:
        return hits
    patches = hit_crops(frame, scale, hits)
    probs, embeddings = face_net().run(patches)
    views = len(TURNS)
    probs = probs.reshape(len(hits), views, -1).mean(axis=1)
    per_hit = embeddings.reshape(len(hits), views, -1)
    leaning = cocked_shares(frame, scale, hits, below, networks)
    looked = [replace(h, probs=SECOND_WEIGHT * p + (1 - SECOND_WEIGHT) * h.probs, embeddings=e,
                      sharpness=sharpest_channel(patches[k * views], h.side / scale * FACE_CROP), leaning=float(leaning[k]))
              for k, (h, p, e) in enumerate(zip(hits, probs, per_hit))]
    return [h for h in looked if 1.0 - h.probs[NOT_A_DIE] >= DIE_SCORE]


def cocked_shares(frame: np.ndarray, scale: float, hits: list[Hit],
                  below: tuple[float, float] | None = None, networks: tuple[Path, ...] = (COCKED_PATH,)) -> np.ndarray:
    """Each hit's chance of leaning, by the cocked network (:data:`COCKED_PATH`), over two crops
    of the whole die turned to face the point of the tray straight below the camera (``below``,
    in ``frame`` pixels; by default the frame's centre: a camera looking straight down), the
    second mirrored (:func:`vision.crops.facing`): a die lying flat away from that point shows
    the sides below its top face there, a leaning one shows them anywhere. ``networks``: the
    cocked networks to ask (pip d6 dice have their own, :data:`COCKED_D6_PATH`), their shares
    averaged; those not there are left out, and with none, zeros."""
    asked = [network for network in networks if network.is_file()]
    if not hits or not asked:
        return np.zeros(len(hits))
    below = below or frame_centre(frame.shape)
    patches = []
    for hit in hits:
        centre, side = (hit.center[0] / scale, hit.center[1] / scale), hit.side / scale * FACE_CROP
        turn = facing(centre, below)
        patches += [crop(frame, centre, side * size, turn, mirrored, FACE_PX)
                    for size in LEAN_SIZES for mirrored in (False, True)]
    batch = np.stack(patches)
    shares = [face_net(network).run(batch)[0][:, 1].reshape(len(hits), -1).mean(axis=1) for network in asked]
    return np.asarray(np.mean(shares, axis=0))


def read_upright(frame: np.ndarray, scale: float, hits: list[Hit], tops: TrayCamera | None = None,
                 kind: DieKind | None = None) -> list[Hit]:
    """``hits`` with their faces read by the upright reader: each top face cropped in every one of
    :data:`UPRIGHT_TURNS`, read where :data:`UPRIGHT_WINDOW` neighbouring turns agree best on one
    face (or on "unreadable"); the die score is the lower of the two networks', and hits under
    :data:`DIE_SCORE` are dropped. A doubtful 10, 11 or 12 (3, 5, 6, 8 or 9) is read closer
    (:func:`_closer_numerals`). With ``tops`` (the camera straight above a calibrated tray), a
    doubtful die is read again at its top face (:func:`_doubts_on_top`), a doubtful d8 (``kind``)
    the cocked network is unsure of judged by its edges first (:func:`_judged_by_edges`)."""
    read = _upright_read(frame, scale, hits)
    if tops is not None:
        if kind is DieKind.D8_TAUREN:
            read = _judged_by_edges(frame, scale, read, tops)
        read = _doubts_on_top(frame, scale, hits, read, tops.below, tops.rise)
    return [h for h in read if 1.0 - h.probs[NOT_A_DIE] >= DIE_SCORE]


def _upright_read(frame: np.ndarray, scale: float, hits: list[Hit]) -> list[Hit]:
    """:func:`read_upright`'s reading of ``hits``, none dropped."""
    return _closer_numerals(frame, scale, _upright(frame, scale, hits, UPRIGHT_CROP))


TOP_AHEAD = 1.0
"""How far beyond the finder's centre a doubtful face die is read again on a tray seen from above
(:func:`_doubts_on_top`), in shares of the shift between a flat die's footprint and its top face
(:func:`vision.sides.top_shift`). The camera sees a die's top face further from the point below it
than its footprint, and between the two the sides that face it; the upright reader's crop, at the
finder's centre of the whole die, takes in those sides, and a right reading was doubted: a Tauren
Chieftain at 0.75, a blue H under a yellow light at 0.75 (two of the three face dice the dealer
entered in 40 demo games of each of Tauren Hold'em and DiceHoldem, seeds 1-40, ``bench/table.py
--camera-games 40 --camera-game G``); moved a whole shift beyond the finder's centre, the crop
leaves those sides out and they read 0.85 and 0.96 (at 0.5: 0.84 and 0.63). Those games now send
2 of 1,165 Tauren Hold'em rolls to the dealer (3 before) and none of 1,063 DiceHoldem rolls (1),
none misread and taken, the cocked dice taken with a value as before (1 of 50 throws with a cocked
die, 0 of 35). On the demo's tray (``bench/demo_tray.py``, 200 trays of seed 1 per kind) read right
and accepted d8-tauren 860, letters 863 -> 864, d12 859 of 867; on 200 trays of seed 7 each with a
cocked die, 690 -> 691, 694, 692 -> 693 of 695, cocked dice taken 1, 0, 0 as before; none read
wrong and accepted. Every doubtful die read again, not only those the cocked network sees flat
(:data:`FLAT`), took 2 cocked d8-tauren more of those 200 (shares 0.13 and 0.15)."""


def _doubts_on_top(frame: np.ndarray, scale: float, hits: list[Hit], read: list[Hit],
                   below: tuple[float, float], rise: float) -> list[Hit]:
    """``read`` (the upright reading of ``hits``, in a view of ``frame`` at ``scale``) with each
    die it doubts (its best face under the table's threshold) that the cocked network takes to lie
    flat (under :data:`FLAT`) read again with its crops centred
    where its top face lies, :data:`TOP_AHEAD` of the shift away from the point straight below the
    camera (``below``, in ``frame`` pixels); a die rises ``rise`` of the camera's height. That
    reading stands when it reads the same face more surely; the die keeps what ``read`` says of how
    it leans (the edges may have judged it: :func:`_judged_by_edges`)."""
    from vision.read import UNCERTAIN
    from vision.sides import top_shift

    doubtful = [i for i, h in enumerate(read) if _best_share(h.probs) < UNCERTAIN and h.leaning < FLAT]
    if not doubtful:
        return read
    seen_below = (below[0] * scale, below[1] * scale)
    moved = [replace(hits[i], center=_moved(hits[i].center, TOP_AHEAD * top_shift(hits[i].center, seen_below, rise)))
             for i in doubtful]
    out = list(read)
    for i, again in zip(doubtful, _upright_read(frame, scale, moved)):
        if _best_face(again.probs) == _best_face(read[i].probs) and _best_share(again.probs) > _best_share(read[i].probs):
            out[i] = replace(again, center=read[i].center, leaning=read[i].leaning)
    return out


EDGES_FLAT = 0.8
"""The edge ratio (:func:`vision.octahedron.edge_ratio`) under which a doubtful d8 is taken to lie
flat (:func:`_judged_by_edges`). Taking a cocked die for flat may give it a value, so this bar
keeps clear of every cocked die measured: on the 381 dice the reader doubted on 1,000 of the
demo's trays with a cocked die each (seed 61), the 374 cocked dice's ratios were 0.83 and over
(then 0.96, 0.98; median 1.47), the 7 flat dice's 0.70-0.88 and one 1.57; of every die on 40 such
trays (seed 5, with the camera's sensor noise: 139 flat, 40 cocked) the cocked ones' were 1.16 and
over. The two flat dice those 1,000 trays doubted in the band (0.73, 0.78) are taken; issue 18's
flat Tauren die of seed 17 measures 0.78. Checked on 1,000 trays of seed 71, not looked at before:
its 351 doubted cocked dice measured 0.96 and over, and of the three flat dice in the band, two
(0.76, 0.76) are taken and one (0.86) stays doubted."""

EDGES_LEAN = 1.3
"""The edge ratio over which a doubtful d8 is taken to lean (:func:`_judged_by_edges`): a flat die
taken for leaning costs the players a throw again, not a misread. Of the flat dice above, one of
139 on seed 5's trays measured over 1.16 (1.20), and of the 7 flat dice doubted on seed 61's one
(1.57, at a cocked share of 0.49, flagged by it anyway); 292 of the 374 cocked doubted dice are
over it, and the four in the band (1.29-1.58) and issue 18's cocked river die of seed 30 (1.69).
On seed 71's trays: 276 of 351 cocked doubted dice over it, the five in the band among them
(1.37-1.91); of its 10 flat doubted dice one (2.25, at a cocked share of 0.84, flagged anyway).
Since every d8 the cocked network is unsure of is judged, however surely it reads: on those
2,000 trays (seeds 61 and 71) 678 flat and 21 cocked dice were, and between 1.1 and this bar lay
40 flat dice and 6 cocked, 3 of them read surely and taken (seed 71's trays 179, 440 and 990, at
1.14-1.23). Lowering the bar to 1.1 would throw 40 flat dice again to stop those 3: it stays."""


EDGES_ASKED = 0.5
"""The cocked share up to which a d8 the cocked network flags (over :data:`TRAY_LEANS`) is judged by
its edges too (:func:`_judged_by_edges`): issue 18's seed 72 sent a flat die that network flagged
at every throw (0.28, 0.31, 0.43) to the dealer after the throws. On the free frames' bar
(:data:`LEANS`): no further, where nearly every die is cocked."""

EDGES_SURELY_FLAT = 0.75
"""The edge ratio under which a d8 the cocked network flags (up to :data:`EDGES_ASKED`) is taken to
lie flat after all (its share 0, :func:`_judged_by_edges`): wider of the cocked dice than
:data:`EDGES_FLAT`, as the network's flag is a stronger word. Of the cocked dice at shares
0.2-0.5, those doubted on seeds 61 and 71's trays measured 0.96 and over, and on 185 fresh trays
of seed 91 (every cocked die, whatever its reading) the 23 there 1.22 and over, all 185 1.09 and
over; no cocked die anywhere measured under 0.83. The one flat die flagged on those trays (0.32)
measured 0.76, and is thrown again as before. The flat dice flagged at 0.2-0.5 in
issue 18's games of seeds 43, 45, 65 and 72 measured 0.62-1.16 (13 dice), 7 of them under it:
seed 72's 0.71 at its first throw, now read there; a flagged die over it is thrown again, as
before. A judged die costs about 0.2 s of one core here (:mod:`vision.octahedron`)."""


def _judged_by_edges(frame: np.ndarray, scale: float, read: list[Hit], camera: TrayCamera) -> list[Hit]:
    """``read`` (d8 dice read upright, in a view of ``frame`` at ``scale``) with each die whose
    cocked share lies between :data:`FLAT` and :data:`TRAY_LEANS`, where that network mixes flat and
    cocked dice, however surely its face reads (a cocked die shows a face too), judged by its edges as the
    ``camera`` sees them (:func:`vision.octahedron.edge_ratio`): under :data:`EDGES_FLAT` it is taken
    to lie flat (its share 0: read again at its top face, :func:`_doubts_on_top`, its "unreadable"
    share given to its faces, :func:`_seen_flat`), over :data:`EDGES_LEAN` to lean (share 1: flagged
    cocked, which the players settle by throwing it again); between, it stays as read: doubted, or
    taken when its face reads surely (as flat dice do there far more often than cocked ones, the
    figures at :data:`EDGES_LEAN`). A die that
    network flags cocked by a share up to :data:`EDGES_ASKED` is judged too, but taken to lie flat
    only under :data:`EDGES_SURELY_FLAT` (:func:`_edges_bar`). Issue 18's
    line 6 (``bench/table.py --hands 0 --kills 0 --camera-games 40 --camera-game tauren``): seeds
    1-40, dealer entries 2 -> 0 of 1,165 rolls (both such dice), cocked questions the players
    settled 77 -> 78, cocked dice taken with a value 1 of 50 as before; seeds 41-80
    (``--first-seed 41``) as before: 4 of 1,283 (three doubted dice the edges leave between the
    bars, at 0.86, 0.93 and 1.2, and one flagged cocked at every throw by the cocked network),
    74 settled, 0 of 46 cocked dice taken. Asking the flagged dice too (:data:`EDGES_ASKED`):
    seeds 41-80 4 -> 3 (the flagged one read), settled 74 -> 58, 0 of 44 cocked dice taken; seeds
    81-120, not looked at before, 3 -> 3 of 1,150 (two doubted dice, one die not found), settled
    57 -> 46, 0 of 37 cocked dice taken, none misread and taken in either. The dice read surely
    are judged too since the upright reader learnt 25 fonts: it doubts fewer cocked dice, and of
    896 cocked dice on 1,000 of the demo's trays with one each (seed 61, ``cocked_demo_tray`` in
    ``tests/vision/test_read_tray.py``) it took 6 with a value, as the reader before did; judged
    by their edges, 0. Flat dice there read right and accepted 3572 -> 3564 of 3,594 (flagged cocked
    21 -> 29: thrown again), read time (CPU) 0.23 -> 0.45 s a tray. On the demo's trays
    (``bench/demo_tray.py --kinds d8-tauren``, seeds 1 and 7, 200 trays each) accepted right
    864 / 877 -> 864 / 874, cocked dice taken 1 of 14 / 0 of 16 as before, read time median 84 /
    82 -> 98 / 92 ms, the slowest tray 1.0 / 1.3 -> 2.2 / 2.8 s. On 1,000 cocked trays of seed 71,
    not looked at before, it does less: cocked dice taken 8 -> 5 of 888 (the reader before 25 fonts
    took 7), flat dice accepted right 3564 -> 3555 of 3,586 (flagged cocked 20 -> 29), read time
    0.22 -> 0.48 s a tray. Of those 5, two the cocked network sees flat (0.031, 0.034: under
    :data:`FLAT`, where 702 flat dice of seeds 61 and 71's trays lie from 0.03 and no other cocked
    die), three lie between the edges' bars (:data:`EDGES_LEAN`). The edges' sums taken from the
    gradients' structure tensor (:func:`vision.octahedron._edge_scores`, the same ratios to 1e-6)
    cost 0.7 -> 0.2 s a judged die: seeds 61 and 71's trays 0.45 / 0.48 -> 0.22 / 0.24 s, the
    demo's slowest tray (seeds 1 and 7) 2.3 / 2.8 -> 0.70 / 0.89 s, the same dice taken and flagged."""
    out = []
    for hit in read:
        flat_under = _edges_bar(hit)
        if flat_under is not None:
            side = hit.side / scale * BOX_PER_SIDE[DieKind.D8_TAUREN]
            ratio = edge_ratio(frame, (hit.center[0] / scale, hit.center[1] / scale), side, camera)
            hit = replace(hit, leaning=0.0) if ratio < flat_under else replace(hit, leaning=1.0) if ratio > EDGES_LEAN else hit
        out.append(hit)
    return out


def _edges_bar(hit: Hit) -> float | None:
    """The edge ratio under which ``hit`` (a d8 read upright) is taken to lie flat, or None when its
    edges are not asked (:func:`_judged_by_edges`): :data:`EDGES_FLAT` for a die the cocked network
    is unsure of, however surely its face reads; :data:`EDGES_SURELY_FLAT` for one it flags by a
    share up to :data:`EDGES_ASKED`."""
    if TRAY_LEANS < hit.leaning <= EDGES_ASKED:
        return EDGES_SURELY_FLAT
    return EDGES_FLAT if FLAT <= hit.leaning <= TRAY_LEANS else None


def _moved(center: tuple[float, float], by: np.ndarray) -> tuple[float, float]:
    return float(center[0] + by[0]), float(center[1] + by[1])


NEAR_NUMERALS = tuple(face_class(DieKind.D12, value) for value in (3, 5, 6, 8, 9, 10, 11, 12))
"""The d12 faces told apart by a small stroke: 10, 11 and 12 by their second digit, 3, 5 and 8 by
the left half of their curves, 6 and 9 by their mark and by the 3 turned half round, whose open
curves can read as a 9's loop: a 3 about 35 px across, upside down in a blobby font, was read 9 at
0.889 with no flag (``bench/faces_reader.py --plain`` d12 frame 715), and read closer it reads 3.
With 6 and 9 read closer (``--frames 1000 --speed-rounds 0 --kinds d12``): under ``--plain`` read
right 5462 -> 5466 of 5490 (99.56%), read right and accepted 5322 -> 5333, wrong readings accepted
1 -> 0; on the hard frames read right 5375 -> 5374, read right and accepted 4987 -> 4997, wrong
readings accepted 4 -> 3, false dice 547 as before; on 300 calibrated trays (``--tray-frames
300``) read right 1593 of 1611 as before, read right and accepted 1489 -> 1488. 9 alone: 5466,
5327 and 0 under ``--plain``, 5373, 4992 and 3 on the hard frames. Letters' O and D read closer
changed no die read right (5405) and accepted 6 fewer."""

CLOSER_CROP = 0.72
"""The crop (a multiple of the die's side) in which a doubtful numeral of :data:`NEAR_NUMERALS` is
read again: larger, still within the upright reader's training crops (``train_faces.HIT_SIZES``)."""

SURE_NUMERAL = 0.9
"""Least face share of a numeral of :data:`NEAR_NUMERALS` that is not read again closer."""


def _closer_numerals(frame: np.ndarray, scale: float, hits: list[Hit]) -> list[Hit]:
    """``hits`` whose upright reading is one of :data:`NEAR_NUMERALS` under :data:`SURE_NUMERAL`
    read again in the :data:`CLOSER_CROP` instead (their faces; the die score stays the whole
    face's, since a closer crop shows less of the die). In the 48 px crop of the whole face the
    second digit is small: 12 at 0.49 against 11 at 0.48 was the d12's commonest doubt. On
    ``bench/faces_reader.py --kinds d12 --frames 300`` the d12s read right and accepted went from
    1445 to 1468 of 1629 (read right 1577 to 1579, one wrong reading accepted either way); a crop
    of 0.6, 0.65, 0.75 or 0.8, or averaging with the first reading, did about as well or less.
    On the table's calibrated trays, where a d12 is about 45 px across, 5 read against 3 or 8
    was the commonest doubt left (9 of the 25 d12s read right under the threshold over 200 trays
    of ``--tray-frames``); with 3, 5 and 8 read closer too: those trays 988 -> 994 of 1073 dice
    read right and accepted, the first 300 bench frames 1493 -> 1510, 150 frames drawn as the
    trainer draws them 526 -> 537, no wrong reading accepted more. Every face read closer gave
    two more wrong readings accepted on the trainer's frames."""
    doubtful = [i for i, h in enumerate(hits) if int(np.argmax(h.probs)) in NEAR_NUMERALS
                and _best_share(h.probs) < SURE_NUMERAL]
    closer = _upright(frame, scale, [hits[i] for i in doubtful], CLOSER_CROP)
    read = list(hits)
    for i, again in zip(doubtful, closer):
        die = 1.0 - float(hits[i].probs[NOT_A_DIE])
        faces = again.probs[1:] / max(1.0 - float(again.probs[NOT_A_DIE]), 1e-6)
        read[i] = replace(hits[i], probs=np.concatenate([[1.0 - die], die * faces]))
    return read


def _upright(frame: np.ndarray, scale: float, hits: list[Hit], size: float) -> list[Hit]:
    """:func:`read_upright`'s reading of ``hits`` in crops ``size`` times the die's side, none dropped."""
    if not hits:
        return hits
    turns = len(UPRIGHT_TURNS)
    patches = np.stack([crop(frame, (h.center[0] / scale, h.center[1] / scale), h.side / scale * size,
                             turn, False, FACE_PX) for h in hits for turn in UPRIGHT_TURNS])
    probs = face_net(UPRIGHT_PATH).run(patches)[0].reshape(len(hits), turns, -1)
    read = []
    for hit, around in zip(hits, probs):
        window = np.mean([np.roll(around, -k, axis=0) for k in range(UPRIGHT_WINDOW)], axis=0)
        best = window[int(np.argmax(window[:, 1:TURNED].max(axis=1)))]
        die = min(1.0 - float(hit.probs[NOT_A_DIE]), 1.0 - float(around[:, NOT_A_DIE].mean()))
        faces = best[1:TURNED] / max(1.0 - float(best[NOT_A_DIE]), 1e-6)  # "turned" left as doubt
        read.append(replace(hit, probs=np.concatenate([[1.0 - die], die * faces])))
    return read


def read_numerals(frame: np.ndarray, scale: float, hits: list[Hit]) -> list[Hit]:
    """``hits`` with their d12 face shares mostly from the numeral reader: close crops of the top
    face in the four :data:`TURNS`, averaged (the d12 faces' total stays as the face network has it)."""
    if not hits:
        return hits
    dice = [((h.center[0] / scale, h.center[1] / scale), h.side / scale) for h in hits]
    patches = np.stack([crop(frame, centre, side * NUMERAL_CROP, turn, False, FACE_PX)
                        for centre, side in dice for turn in TURNS])
    numerals = face_net(NUMERALS_PATH).run(patches)[0].reshape(len(hits), len(TURNS), -1).mean(axis=1)
    d12 = face_slice(DieKind.D12)
    read = []
    for hit, numeral in zip(hits, numerals):
        probs = hit.probs.copy()
        mass = float(probs[d12].sum())
        probs[d12] = mass * (NUMERAL_WEIGHT * numeral + (1 - NUMERAL_WEIGHT) * probs[d12] / max(mass, 1e-6))
        read.append(replace(hit, probs=probs))
    return read


def sharp_crops(frame: np.ndarray, dice: list[tuple[tuple[float, float], float]],
                turns: tuple[float, ...] = TURNS, angles: list[float] | None = None) -> np.ndarray:
    """Crops of each die (centre, side in ``frame`` pixels) in each of the ``turns`` (from its angle
    in ``angles``, default 0), die by die."""
    return np.stack([crop(frame, centre, side * FACE_CROP, angle + turn, False, FACE_PX)
                     for (centre, side), angle in zip(dice, angles or [0.0] * len(dice)) for turn in turns])


def hit_crops(frame: np.ndarray, scale: float, hits: list[Hit], turns: tuple[float, ...] = TURNS) -> np.ndarray:
    """:func:`sharp_crops` of ``hits`` (in a view of ``frame`` at ``scale``), each from its angle."""
    return sharp_crops(frame, [((h.center[0] / scale, h.center[1] / scale), h.side / scale) for h in hits],
                       turns, [h.angle for h in hits])


def _one_per_die(hits: list[Hit], same_kind: bool = True,
                 between: Callable[[Hit, Hit], float] | None = None, leans: float | None = None) -> list[Hit]:
    """``hits`` without doubles: a hit within :data:`SAME_DIE` sides of a surer one (a d12 seen
    twice may read two numerals), unless they are two dice by :func:`_two_dice` (``between``: the
    die score halfway between two hits, :func:`die_between`; None: never). With ``same_kind`` (the
    finder's hits, before their faces are read) only a double that reads the same kind goes, and
    the surer hit's side counts; after the reader, any double goes, at the larger side of the two
    (a die read twice, once as itself and once as cocked or of another kind). Two hits that both
    lean over ``leans`` are one die up to :data:`LEANING_SAME_DIE` sides apart."""
    classes = [_kind_of_class(int(np.argmax(h.probs[1:])) + 1) for h in hits]
    kept: list[int] = []
    for i in sorted(range(len(hits)), key=lambda i: -_best_share(hits[i].probs)):
        doubles = [k for k in kept if (_double(hits[i], hits[k], same_kind) and (classes[i] == classes[k] or not same_kind))
                   or _one_leaning_die(hits[i], hits[k], leans)]
        if not doubles or (between is not None and all(_two_dice(hits[i], hits[k], between) for k in doubles)):
            kept.append(i)
    return [hits[i] for i in sorted(kept)]


def _two_dice(a: Hit, b: Hit, between: Callable[[Hit, Hit], float]) -> bool:
    """Whether two hits closer than :data:`SAME_DIE` are two dice after all: halfway between them
    the face network sees no die (under :data:`DIE_SCORE`: the edge where two dice touch), and
    neither leans (over :data:`LEANS`: a leaning die shows its top and a side, each of which may
    be taken for a die, with its edge between them). Hits on touching dice are that close when the
    view's one size guess is large for them and the hits lie off their centres: over the first 200
    letters frames of ``bench/faces_reader.py``, the die score halfway between two such hits was
    0.03-0.49 (11 pairs), and between two hits on one die 0.53-0.99 but once (0.33, 12 pairs).
    Over its 1,000 frames the letters found went from 98.4% to 99.5% and read right from 96.4% to
    97.4%, with no more wrong readings accepted and 2 more false dice (none more of them given a
    value over the first 300 frames per kind)."""
    return max(a.leaning, b.leaning) <= LEANS and between(a, b) < DIE_SCORE


def die_between(frame: np.ndarray, scale: float) -> Callable[[Hit, Hit], float]:
    """The face network's die score halfway between two hits of a view of ``frame`` at ``scale``:
    a crop there of their mean side, in the four :data:`TURNS`, averaged."""
    def score(a: Hit, b: Hit) -> float:
        centre = ((a.center[0] + b.center[0]) / 2, (a.center[1] + b.center[1]) / 2)
        halfway = Hit(centre, (a.side + b.side) / 2, a.probs)
        return 1.0 - float(face_net().run(hit_crops(frame, scale, [halfway]))[0][:, NOT_A_DIE].mean())
    return score


LEANING_SAME_DIE = 0.85
"""Two hits that both lean (:func:`_one_per_die`) closer than this many sides (the larger) are one
leaning die: its top face and the side it shows, each taken for a die, 0.74 sides apart in the
demo's DiceHoldem games, beyond :data:`SAME_DIE`. Both are flagged cocked, so no value is lost.
On 200 calibrated trays of letter dice (a quarter with a cocked die, ``bench/faces_reader.py
--tray-frames``' trays) the false dice went from 3 to 0, none lost; at 1.0 two more dice were
lost (a flat die flagged cocked beside a leaning one); d12 and d8-tauren trays did not change.
Over the 1,000 free letter frames of the bench: false dice 535 -> 524, one die more missed."""


def _one_leaning_die(a: Hit, kept: Hit, leans: float | None) -> bool:
    """Whether two hits that both lean over ``leans`` (None: never) lie within :data:`LEANING_SAME_DIE`."""
    return (leans is not None and min(a.leaning, kept.leaning) > leans
            and _dist(a.center, kept.center) < LEANING_SAME_DIE * max(a.side, kept.side))


def _double(a: Hit, kept: Hit, by_kept: bool) -> bool:
    """Whether hit ``a`` lies too close to the ``kept`` one to be another die: at the kept hit's
    side (``by_kept``), else at the larger side of the two."""
    return _dist(a.center, kept.center) < SAME_DIE * (kept.side if by_kept else max(a.side, kept.side))


def _kind_of_class(index: int) -> str:
    """The kind (or 'unreadable') a class belongs to."""
    return CLASSES[index].split(":")[0]


def _reading(hit: Hit, kind: DieKind, taught: TaughtSet | None, scale: float, shape: tuple[int, ...],
             leans: float = LEANS) -> DieReading:
    """The reading of one hit as a ``kind`` die, in frame pixels, flagged as :mod:`vision.read` flags
    (``cocked`` over the cocked network's share ``leans``). A value read is no surer than the
    cocked network's share that the die lies flat (``1 - leaning``): a die that may lean is
    doubted, not taken, whatever its top face reads (:func:`_no_surer_than_flat`)."""
    from vision.read import BLURRED, SURE_THOUGH_BLURRED, UNCERTAIN, DieReading, cut_off, seen_well

    value, confidence, flag = _value(hit, kind, taught, leans)
    blurred = value is not None and confidence < SURE_THOUGH_BLURRED and hit.sharpness < BLURRED
    if value is not None:
        confidence = _no_surer_than_flat(confidence * seen_well(hit.sharpness, hit.side / scale), hit.leaning)
    if cut_off(hit.center, hit.side, shape):
        value, flag = None, "cut_off"
    elif blurred:
        value, flag = None, "blurred"
    elif value is not None and confidence < UNCERTAIN:
        flag = "uncertain"
    half = hit.side * BOX_PER_SIDE[kind] / 2
    cx, cy = hit.center
    box = ((cx - half) / scale, (cy - half) / scale, 2 * half / scale, 2 * half / scale)
    return DieReading(kind.value, value, (cx / scale, cy / scale), box, round(confidence, 4), flag)


SURE_OTHER_KIND = 0.8
"""Least share of a die on another kind's faces for the die to be flagged ``other_kind`` whatever the
cocked network says (:func:`_value`). Letters' own cocked network (:data:`COCKED_LETTERS_PATH`) was
taught on letter dice only and takes most pip d6 for leaning: a d6 on a DiceHoldem tray was flagged
cocked, 47 of 60 (10 calibrated trays), and the table told the players to throw it again instead of
saying it cannot read it. On calibrated trays seen from straight above, dice of another kind put
0.89-1.0 on its faces (336 dice, every pair of kinds among d6, d12, d8-tauren and letters), while
the cocked dice whose faces lean to another kind put 0.41-0.71 there (8 of 1,000 on the bench's
trays and free frames, ``bench/faces_reader.py``): those stay ``cocked``, which the players settle."""


def _no_surer_than_flat(confidence: float, leaning: float) -> float:
    """A reading's ``confidence`` at most the share that its die lies flat: a cocked die's top face
    reads as surely as a flat one's, so the face's share alone does not say the value stands.
    On a calibrated tray seen from about straight above this changes no decision (a share over
    :data:`TRAY_LEANS` is flagged cocked, and under it the cap stays over the threshold); on a
    free frame (:data:`LEANS`, 0.5) or a tilted camera's tray it makes a die that leans by a share
    over ``1 - UNCERTAIN`` (0.245) a question instead of a value. ``bench/faces_reader.py --frames
    1000 --speed-rounds 0`` (d12 / d8-tauren / letters): wrong readings accepted 6 / 10 / 13 -> 4 /
    3 / 2, read right 5371 / 5433 / 5378 -> 5370 / 5427 / 5382, read right and accepted 5087 / 5314
    / 5273 -> 4965 / 5153 / 5074 (of 5490 / 5522 / 5433); with ``--plain`` wrong readings accepted
    1 / 0 / 3 -> 1 / 0 / 0 (d12's one leans at 0.01), read right 5457 / 5495 / 5392 -> 5462 / 5495
    / 5394, accepted 5342 / 5474 / 5379 -> 5319 / 5415 / 5278; ``--tilted-frames 90`` (540 dice):
    wrong readings accepted 17 -> 6, read right and accepted 383 -> 342."""
    return min(confidence, 1.0 - leaning)


def _value(hit: Hit, kind: DieKind, taught: TaughtSet | None, leans: float = LEANS) -> tuple[int | None, float, str | None]:
    """Face number (1-based), confidence and flag of a hit read as ``kind``: ``cocked`` when the
    unreadable class outweighs the best face, ``other_kind`` when another kind's faces outweigh
    this kind's, or ``cocked`` when the cocked network's share is over ``leans`` (all three with no
    value): a die surely of another kind (:data:`SURE_OTHER_KIND`) is told before the lean."""
    probs = hit.probs
    die = max(1.0 - float(probs[NOT_A_DIE]), 1e-6)
    faces = probs[face_slice(kind)]
    others = float(probs[1:UNREADABLE].sum() - faces.sum())
    if probs[UNREADABLE] > probs[1:UNREADABLE].max():
        return None, float(probs[UNREADABLE]) / die, "cocked"
    other_kind = taught is None and others > float(faces.sum())
    if other_kind and others / die >= SURE_OTHER_KIND:
        return None, others / die, "other_kind"
    if hit.leaning > leans:
        return None, hit.leaning, "cocked"
    if taught is not None and hit.embeddings is not None:
        return _taught_value(hit, kind, taught, hit.embeddings, die, leans)
    if other_kind:
        return None, others / die, "other_kind"
    best = int(np.argmax(faces))
    return best + 1, float(faces[best]) / die * min(1.0, die / DIE_SCORE), None


def _taught_value(hit: Hit, kind: DieKind, taught: TaughtSet, embeddings: np.ndarray, die: float,
                  leans: float) -> tuple[int | None, float, str | None]:
    """:func:`_value` of a die of a taught set by its ``embeddings``
    (:meth:`vision.teach.TaughtSet.value`); a face the set doubts that the network's own classes of
    ``kind`` read surely as the same face is taken at the network's confidence (both readers name
    it), but for a cube whose top face is foreshortened
    (:meth:`vision.teach.TaughtSet.foreshortened`). The set's faces may lie close in the network's
    likeness (a d8-tauren set's 6, Shaman and Chieftain within 0.02 at the table camera's size).
    Sets of the table camera's frames (``tests/table/test_camera_teach.py``'s, 40 trays), taken
    right before -> after: d8-tauren 34 -> 108 of 126 flat dice, letters 66 -> 91 of 121, d12
    0 -> 45 of 122; none wrong, no more leaning dice taken. ``bench/teach_reader.py`` (a letters
    look the network was not taught): 312 -> 396 of 403 (``--first 20000``: 297 -> 386 of 398),
    none wrong, one of 150 leaning dice given a value as before. A face the two readers name
    differently stays doubted: a set whose art the network reads as other faces is read by what it
    was taught."""
    from vision.read import UNCERTAIN

    taught_reading = taught.value(embeddings, die, hit.face_aspect)
    value, sureness, _ = taught_reading
    if value is None or sureness >= UNCERTAIN or taught.foreshortened(hit.face_aspect):
        return taught_reading
    own = _value(hit, kind, None, leans)
    return own if own[0] == value and own[2] is None and own[1] >= UNCERTAIN else taught_reading


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))
