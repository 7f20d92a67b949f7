"""The table's camera path: frames -> settled tray -> dice by zone -> the roll the engine waits for.

:class:`TrayWatcher` takes a frame from the camera on every :meth:`TrayWatcher.step` and runs the
settle check on it (cheap); only the frame on which the tray comes to rest is read (calibration
check, the dice reader in the tray's top-down view, zones, the evidence JPEG). :func:`match` then
decides whether what the camera saw is exactly what the engine waits for (``Pending.dice``): a
:class:`~controller.games.rolls.Roll`, or a :class:`~controller.table.records.Question` to the
dealer saying why not. It never guesses. :class:`TableEyes` is the two together as the table loop
looks through them (:class:`controller.table.table.Eyes`).

Zone naming convention (the ``[zones]`` of the table configuration): community dice are read in
the zone named ``community``, the dice of seat N (seats numbered from 0, as the games count them)
in the zone named ``seatN``. Other zones may exist; dice in them count as "elsewhere".

Dice of an owned kind (:data:`OWN_KINDS`: Tao Dice's d12, one per player in the player's colour)
are thrown into the centre, where nothing but their colour tells whose they are: the watcher
measures each one's body colour (:mod:`vision.colour`, the tray's white quiet zones as white
reference) and puts it in its owner's zone, ``seatN``, wherever on the tray it lies; a die of no
seat's colour stays where it lies, flagged :data:`NO_OWNER`, and the dealer is asked.
"""

from __future__ import annotations

import math
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Collection, Mapping, Sequence

import cv2
import numpy as np

from controller.commands.vision import Rect, annotate, free_spot, label_spots
from controller.games.base import REVEAL, DiceNeeded
from controller.games.dice import DieKind
from controller.games.errors import ConfigError, DeviceDisconnected, DeviceTimeout, InvalidInput
from controller.games.rolls import Roll
from controller.games.view import DieView, TableView
from controller.table.records import COCKED as COCKED, DOUBTED as DOUBTED, UNSEEN as UNSEEN
from controller.table.records import DieSeen, Question
from controller.table.table import Sighting
from hardware.devices import Camera, DeviceFailing, DeviceStatus, Frame, camera_focal_px
from vision.calibrate import Calibration, CalibrationError, TrayConfig, ZoneMap, calibrate, detect_markers
from vision.colour import NO_REFERENCE, Light, body_colour, check_colours, lab_of_hex, owner, parse_hex, tray_light
from vision.read import UNCERTAIN as CONFIDENCE_THRESHOLD
from vision.read import DieReading, Observation, read_dice
from vision.settle import Motion, SettleConfig, SettleDetector

COMMUNITY_ZONE = "community"
"""The zone community dice are read in."""

MARKERS_MOVED_PX = 4.0
"""A marker found this many pixels (mean corner distance) from where the calibration puts it means
the camera or the tray moved: calibrate again."""

TIMEOUTS_FOR_FAULT = 3
"""Dropped frames in a row that make the camera a fault (one dropped frame now and then is not)."""

RETRY_FRAMES = 15
"""Frames between tries to find the tray's markers again while they cannot be found on a still tray."""

EVIDENCE_QUALITY = 75
"""JPEG quality of the evidence frame: pips stay sharp; a 1536x864 frame of felt is about 180 KiB (242 at 85)."""

OWN_KINDS = frozenset({DieKind.D12})
"""Kinds whose dice are each seat's own, in the seat's colour, and are told apart by it: Tao Dice's
d12 (every player rolls one into the centre)."""

NO_OWNER = "no_owner"
"""The flag of a die of an owned kind whose colour is no seat's."""

CAMERA_FIX = ("check the camera's cable (the ribbon at the Pi or the USB plug) and its power; "
              "the table goes on by itself when frames come back")
READER_FIX = ("teach the set again (`dicetable vision teach --data` the state directory) or move it out of the "
              "state directory's faces folder; the table goes on by itself once it can read")
TRAY_FIX = ("clear the four corner markers of the tray (nothing on them, no glare) and make sure the "
            "whole tray is in view; the table goes on by itself once they are seen")


def zone_for(seat: int | None) -> str:
    """The tray zone a need's dice are read in: ``community``, or ``seatN`` for seat N.

    >>> zone_for(None), zone_for(2)
    ('community', 'seat2')
    """
    return COMMUNITY_ZONE if seat is None else f"seat{seat}"


@dataclass(frozen=True)
class Words:
    """How the camera's questions name the zones and the seats' dice: by the seats' ``names``
    when the table gives them ("Ana's zone", "Ana's dice"), else by the zones' own names ("the
    seat0 zone", "seat 0's dice"). The community zone is "the community zone" either way. The
    evidence picture labels a seat's zone, and the dice given to the seat, by the name alone."""

    names: Sequence[str] = ()

    def zone(self, zone: str) -> str:
        """``zone`` as a question names it."""
        seat = self._seat(zone)
        return f"the {zone} zone" if seat is None else f"{self.names[seat]}'s zone"

    def label(self, zone: str) -> str:
        """``zone`` as the evidence picture labels it: the seat's name, else the zone's own. The
        picture's font draws ASCII only (OpenCV 4's Hershey fonts): a name's accents are dropped
        ("Zoë": "Zoe"), and a name that has other letters left (Cyrillic, CJK) keeps the zone's.

        >>> [Words(("Ana", "Zoë", "Юля")).label(z) for z in ("seat0", "seat1", "seat2", "seat3", "community")]
        ['Ana', 'Zoe', 'seat2', 'seat3', 'community']
        """
        seat = self._seat(zone)
        if seat is None:
            return zone
        bare = "".join(c for c in unicodedata.normalize("NFKD", self.names[seat]) if not unicodedata.combining(c))
        return bare if bare.isascii() and bare.isprintable() else zone

    def _seat(self, zone: str) -> int | None:
        """The seat whose zone ``zone`` is, among those the names reach."""
        return next((n for n in range(len(self.names)) if zone_for(n) == zone), None)

    def whose(self, seat: int | None) -> str:
        """The dice a need for ``seat`` (None: the community's) waits for."""
        if seat is None:
            return "the community dice"
        return f"{self.names[seat]}'s dice" if seat < len(self.names) else f"seat {seat}'s dice"


@dataclass(frozen=True)
class TrayReading:
    """What the camera saw on a settled tray: the dice in tray order (left to right), the evidence
    frame as JPEG bytes (annotated: each die's box, face and confidence, and the zones' outlines
    and names) and the milliseconds the reading took. ``colour_problem`` says why
    the dice of an owned kind could not be given to their owners (seat colours too close to tell
    apart under the tray's light), "" when they were or the kind is not owned."""

    kind: DieKind
    dice: tuple[DieSeen, ...]
    jpeg: bytes
    ms: float
    colour_problem: str = ""


@dataclass(frozen=True)
class CameraStep:
    """One :meth:`TrayWatcher.step`: the tray's motion after this frame (None: no frame came),
    the reading when the tray was read on it, the fault while the camera or the tray's markers
    fail (problem and fix for the dealer), and ``recovered`` on the first good step after one."""

    motion: Motion | None
    reading: TrayReading | None = None
    fault: DeviceStatus | None = None
    recovered: bool = False


class TrayWatcher:
    """Watches the tray through ``camera``: settle check on every frame, one reading per rest.

    ``pip_stand_ins`` are six-faced kinds played with pip d6 dice at this table (DiceHoldem's
    letters, at a table without letter dice): a die showing n pips reads as the kind's n-th face.
    ``owned`` are the kinds whose dice go to the seat of their colour (given to :meth:`step`).
    ``data`` is the data folder whose taught sets (``dicetable vision teach``) the reader reads by
    (default :func:`vision.teach.data_folder`).
    """

    def __init__(self, camera: Camera, tray: TrayConfig, settle: SettleConfig = SettleConfig(),
                 pip_stand_ins: Collection[DieKind] = (), owned: Collection[DieKind] = OWN_KINDS,
                 data: Path | None = None) -> None:
        bad = [kind.value for kind in pip_stand_ins if len(kind.faces) != 6]
        if bad:
            raise InvalidInput(f"only six-faced kinds can be played with pip dice, not {', '.join(bad)}")
        self.camera = camera
        self.tray = tray
        self.pip_stand_ins = frozenset(pip_stand_ins)
        self.owned = frozenset(owned)
        self.data = data
        self.light: Light = NO_REFERENCE  # the tray's light in the last frame owned dice were read in
        self.detector = SettleDetector(settle)
        self.calibration: Calibration | None = None
        self._calibrated_from = 0  # markers the calibration was made from
        self._blind: DeviceStatus | None = None   # the camera gives no frames
        self._lost: DeviceStatus | None = None    # the tray's markers cannot be found, or the reader cannot read
        self._tray_lost = False   # _lost is the tray's markers (looked for again while no dice are awaited)
        self._timeouts = 0
        self._unread = False      # the tray came to rest and has not been read since
        self._frames = 0
        self._next_try = 0        # frame number of the next calibration try on a still tray

    @property
    def fault(self) -> DeviceStatus | None:
        """What fails now (the camera, or the tray's markers), or None."""
        return self._blind or self._lost

    def step(self, kind: DieKind | None, colours: Sequence[str] = (), names: Sequence[str] = ()) -> CameraStep:
        """Take one frame; read the tray for dice of ``kind`` when it has just come to rest (or is
        at rest and unread). ``kind`` None: the table waits for no dice; the motion is tracked.
        ``colours`` are the seats' colours (``#rrggbb``), which give dice of an owned kind to
        their owners; ``names`` the seats' names, by which the evidence picture names their zones.

        Never raises for a camera fault: a stopped camera, or :data:`TIMEOUTS_FOR_FAULT` dropped
        frames in a row, give a step with a ``fault``; the first frame after it ``recovered``.
        """
        frame = self._grab()
        if frame is None:
            return CameraStep(None, fault=self.fault)
        recovered = self._blind is not None
        if recovered:
            self._blind = None
            self.detector.reset()  # the tray may have changed while the camera was blind
        self._frames += 1
        motion = self.detector.update(frame)
        if motion.settled_now:
            self._unread, self._next_try = True, self._frames
        if motion.state is not Motion.SETTLED or self._frames < self._next_try:
            return CameraStep(motion.state, fault=self.fault, recovered=recovered)
        if kind is None and self._tray_lost:
            return self._find_tray(frame, motion.state, recovered)
        if kind is None or not self._unread:
            return CameraStep(motion.state, fault=self.fault, recovered=recovered)
        return self._read_step(frame, kind, motion.state, recovered, colours, names)

    def _find_tray(self, frame: Frame, state: Motion, recovered: bool) -> CameraStep:
        """Look for the tray's lost markers while no dice are awaited (between games, or while the
        players bet), every :data:`RETRY_FRAMES` still frames: the fault ends when they are seen
        again, not at the next roll (the console and the scoreboard said "the camera cannot find
        the tray" all through the gap between two games). The tray is read when dice are awaited."""
        try:
            self._calibrated(frame)
        except CalibrationError:
            self._next_try = self._frames + RETRY_FRAMES
            return CameraStep(state, fault=self.fault, recovered=recovered)
        self._lost, self._tray_lost = None, False
        return CameraStep(state, recovered=True)

    def _read_step(self, frame: Frame, kind: DieKind, state: Motion, recovered: bool,
                   colours: Sequence[str], names: Sequence[str]) -> CameraStep:
        """Read a settled frame; a tray whose markers cannot be found, or a reader that cannot read
        (a taught set in the data folder that is damaged), is a fault, tried again later."""
        try:
            reading = self.read(frame, kind, colours, names)
        except (CalibrationError, ConfigError) as err:
            self._next_try = self._frames + RETRY_FRAMES
            problem, fix = ((f"the camera cannot find the tray: {err}", TRAY_FIX) if isinstance(err, CalibrationError)
                            else (f"the camera cannot read the dice: {err}", READER_FIX))
            self._lost = DeviceStatus.failing(self.camera.name, problem, fix)
            self._tray_lost = isinstance(err, CalibrationError)
            return CameraStep(state, fault=self._lost, recovered=recovered)
        tray_back = self._lost is not None
        self._lost, self._tray_lost, self._unread = None, False, False
        return CameraStep(state, reading, recovered=recovered or tray_back)

    def _grab(self) -> Frame | None:
        """The next frame, or None (and the fault, if it is one) when the camera gave none."""
        try:
            frame = self.camera.frame()
        except DeviceDisconnected as err:
            said = str(err).removeprefix(f"{self.camera.name}: ")  # the camera's name is said once, first
            self._blind = DeviceStatus.failing(self.camera.name, f"camera stopped sending frames: {said}", CAMERA_FIX)
            return None
        except DeviceTimeout:
            self._timeouts += 1
            if self._timeouts >= TIMEOUTS_FOR_FAULT:  # the same words while it lasts: one fault, not one per frame
                self._blind = DeviceStatus.failing(
                    self.camera.name, f"camera sent no frame {TIMEOUTS_FOR_FAULT} times in a row", CAMERA_FIX)
            return None
        self._timeouts = 0
        return frame

    def read(self, frame: Frame, kind: DieKind, colours: Sequence[str] = (), names: Sequence[str] = ()) -> TrayReading:
        """Read dice of ``kind`` in ``frame`` now, calibrating first if needed; dice of an owned
        kind go to the zone of the seat whose colour (of ``colours``) they are. The evidence
        picture names the seats' zones by the seats' ``names`` when given (:meth:`Words.label`).

        :raises CalibrationError: the tray's markers cannot be found in the frame.
        """
        start = time.perf_counter()
        calibration = self._calibrated(frame)
        as_kind = DieKind.D6 if kind in self.pip_stand_ins else kind
        observation = read_dice(frame, as_kind.value, tray=calibration, data=self.data)
        placed = sorted(((calibration.die_on_tray(r.center), r) for r in observation.dice), key=lambda p: p[0])
        dice = tuple(_die_seen(r, kind, self.tray.zones.zone_of(mm)) for mm, r in placed)
        problem = ""
        if kind in self.owned and colours:
            self.light = tray_light(frame, calibration)
            dice, problem = _owned(frame, self.light, dice, colours)
        owners = [(d, colours[seat]) for seat in range(len(colours)) for d in dice
                  if kind in self.owned and d.zone == zone_for(seat)]
        jpeg = evidence(frame, observation, calibration, self.tray.zones, owners, Words(tuple(names)))
        return TrayReading(kind, dice, jpeg, (time.perf_counter() - start) * 1000.0, problem)

    def _calibrated(self, frame: Frame) -> Calibration:
        """The calibration for ``frame``: the last one while the markers stay where it puts them
        and no more of them are in view than it was made from (a hand over a marker at the first
        reading), a new one when they moved, another came into view, or none was made yet; with
        the lens's focal length that ``[tray] focal_px`` gives, else the one the camera knows of
        its own lens (a Pi camera module: :func:`hardware.devices.camera_focal_px`)."""
        found = detect_markers(frame)
        if (self.calibration is not None and 2 <= len(found) <= self._calibrated_from
                and _markers_agree(found, self.calibration)):
            return self.calibration
        focal = self.tray.focal_px or camera_focal_px(self.camera)  # one configured wins over the camera's own
        self.calibration = calibrate(frame, self.tray.layout, focal)
        self._calibrated_from = len(found)
        return self.calibration


def _owned(frame: Frame, light: Light, dice: tuple[DieSeen, ...],
           colours: Sequence[str]) -> tuple[tuple[DieSeen, ...], str]:
    """Dice of an owned kind put in their owner's zone by colour (a die off every zone stays off,
    a die of no seat's colour stays where it lies, flagged :data:`NO_OWNER`); or the dice as they
    lie and the reason, when the seats' colours are too close to tell apart under ``light``."""
    try:
        check_colours(colours, light=light)
    except ConfigError as err:
        return dice, str(err)
    seats = [lab_of_hex(colour) for colour in colours]
    owned = []
    for die in dice:
        seat = owner(body_colour(frame, die.center, die.box, light), seats) if die.zone is not None else None
        if seat is not None:
            owned.append(replace(die, zone=zone_for(seat)))
        elif die.zone is not None:
            owned.append(replace(die, flag=NO_OWNER))  # whose it is matters before how it reads
        else:
            owned.append(die)
    return tuple(owned), ""


def _markers_agree(found: Mapping[int, np.ndarray], calibration: Calibration) -> bool:
    """True when every found marker lies where the calibration puts it (within :data:`MARKERS_MOVED_PX`)."""
    for marker, corners in found.items():
        expected = calibration.to_image(calibration.layout.marker_corners_mm(marker))
        if float(np.linalg.norm(corners - expected, axis=1).mean()) > MARKERS_MOVED_PX:
            return False
    return True


def _die_seen(reading: DieReading, kind: DieKind, zone: str | None) -> DieSeen:
    """A reading as the table records it: the face as the games write it (a pip stand-in's n-th
    face of ``kind``), None when it was not read."""
    face = None if reading.value is None else kind.faces[reading.value - 1]
    return DieSeen(kind, face, reading.confidence, reading.center, reading.box, zone, reading.flag)


def evidence(frame: Frame, observation: Observation, calibration: Calibration, zones: ZoneMap,
             owners: Sequence[tuple[DieSeen, str]] = (), words: Words = Words()) -> bytes:
    """The evidence JPEG: :func:`evidence_picture`, encoded."""
    ok, data = cv2.imencode(".jpg", evidence_picture(frame, observation, calibration, zones, owners, words),
                            [cv2.IMWRITE_JPEG_QUALITY, EVIDENCE_QUALITY])
    if not ok:
        raise InvalidInput("the evidence frame cannot be encoded as JPEG")
    return bytes(data.tobytes())


def evidence_picture(frame: Frame, observation: Observation, calibration: Calibration, zones: ZoneMap,
                     owners: Sequence[tuple[DieSeen, str]] = (), words: Words = Words()) -> np.ndarray:
    """The frame with every die's box, value and confidence
    (:func:`controller.commands.vision.annotate`), each zone's outline and name, and beside each
    die given to a seat by its colour (``owners``: the die and the seat's ``#rrggbb``) a dot of
    that colour and the seat's label, so the dealer sees whose the camera took it for. ``words``
    label the zones and those dice (:meth:`Words.label`: the seats' names, as the questions name them)."""
    out = annotate(frame, observation)
    scale = max(1.0, frame.shape[1] / 1000)
    taken: list[Rect] = [*label_spots(observation, frame.shape),
                         *((round(x), round(y), round(w), round(h)) for x, y, w, h in (d.box for d in observation.dice))]
    for zone in zones.zones:
        corners = np.round(calibration.to_image(np.array(zone.polygon, np.float64))).astype(np.int32)
        cv2.polylines(out, [corners], True, (255, 255, 0), max(1, round(scale)), cv2.LINE_AA)
        label = words.label(zone.name)
        spot = _zone_name_spot(label, corners, scale, taken)
        taken.append(spot)
        cv2.putText(out, label, (spot[0], spot[1] + spot[3]), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5 * scale, (255, 255, 0), max(1, round(scale)), cv2.LINE_AA)
    for die, colour in owners:
        x, y, w, _ = die.box
        dot = (int(x + w) + round(8 * scale), int(y) + round(8 * scale))
        cv2.circle(out, dot, round(6 * scale), (255, 255, 255), -1, cv2.LINE_AA)
        cv2.circle(out, dot, round(5 * scale), parse_hex(colour), -1, cv2.LINE_AA)
        cv2.putText(out, words.label(str(die.zone)), (dot[0] + round(9 * scale), dot[1] + round(5 * scale)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45 * scale, (255, 255, 255), max(1, round(scale)), cv2.LINE_AA)
    return out


def _zone_name_spot(name: str, corners: np.ndarray, scale: float, taken: list[Rect]) -> Rect:
    """Where a zone's name goes in the evidence picture (x, y, width, height): inside the zone's
    top left corner, or its bottom left when a die or a die's label lies there (:func:`free_spot`)."""
    (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, max(1, round(scale)))
    (left, top), bottom = corners.min(axis=0), int(corners[:, 1].max())
    margin = round(6 * scale)
    return free_spot([(int(left) + margin, int(top) + margin, tw, th),
                      (int(left) + margin, bottom - margin - th, tw, th)], taken)


def match(needed: DiceNeeded, seen: TrayReading, zones: ZoneMap,
          on_table: Mapping[str, Sequence[str]] | None = None, lay: Sequence[DieSeen] = (),
          names: Sequence[str] = ()) -> Roll | Question:
    """The roll ``needed`` asks for, if the camera saw exactly that; else a question to the dealer.

    The dice must lie in the need's zone (:func:`zone_for`), be exactly ``needed.count`` of them,
    and each be read at or above the reader's confidence threshold
    (:data:`vision.read.UNCERTAIN`) with no flag. ``on_table`` names the faces already lying in
    each zone from earlier rolls (the flop when the turn is rolled, revealed seats' dice): they
    must still be there, and only the dice beyond them are the new roll. The faces are in tray
    order (left to right). The question's ``id`` is 0 and ``evidence`` None: the table numbers it
    and links the evidence when it asks.

    ``lay`` are the dice the camera saw on the tray before this throw. When exactly the zone's
    earlier dice still lie where dice lay then (:func:`_lying_still`), they are those dice, whose
    faces the table knows: only the others, the new roll, must be read surely, and a die lying
    still that is read surely must show one of the earlier faces (else it was turned). ``names``
    (the seats' names, when known) name the zones and dice in the question (:class:`Words`).
    """
    words = Words(tuple(names))
    earlier = on_table or {}
    zone = zone_for(needed.seat)
    before = tuple(earlier.get(zone, ()))
    still = _lying_still(seen, zone, before, lay)
    reason = (_unreadable(needed, seen) or _no_zone(zone, zones) or _ownerless(needed, seen, words)
              or _astray(needed, seen, earlier, words)
              or _cocked(needed, seen, zone, still, words) or _miscount(needed, seen, zone, earlier, words)
              or _doubtful(needed, seen, zone, still, words) or _moved(seen, zone, before, still, words))
    if reason is None:
        if still is not None:
            return Roll(needed.seat, needed.kind, tuple(d.face for d in _in_zone(seen, zone) if d not in still and d.face))
        return Roll(needed.seat, needed.kind, _new_faces(_faces_in(seen, zone), before))
    code, text = reason
    return Question(0, needed.seat, needed.kind, needed.count, code, text, seen.dice, code=code)


@dataclass(frozen=True)
class Lying:
    """A die that stays on the tray from an earlier roll: its face, the zone the camera puts it in
    (its owner's, for an owned kind it waits for), its kind, and its owner (None: not an owned die)."""

    face: str
    zone: str
    kind: DieKind
    owner: int | None = None


def lying(view: TableView, need: DiceNeeded | None) -> list[Lying]:
    """The dice that stay on the tray from earlier rolls while the table waits for ``need``: the
    community's; while it waits for an owned kind (Tao Dice's d12s, all in the centre), every
    seat's die of that kind, in its owner's zone (the camera gives them their owners by colour);
    else every other seat's shown dice of the kind it waits for, in that seat's zone (a hand
    revealed at the showdown, or before an all-in's last community dice, stays where it was
    thrown). A seat's shown dice of another kind lie where they were thrown: an owned kind's in the
    centre (Tao Dice's d12s while the hands are revealed), others in the seat's zone. A die marked
    for a reroll (``reroll``, ``reroll-due``) is picked up to be thrown again, and a seat's other
    open dice of the kind awaited lying in its zone are picked up before its reveal: neither stays."""
    dice = [Lying(face, COMMUNITY_ZONE, die.kind) for die in view.community if (face := _lies(die))]
    if need is None:
        return dice
    return dice + [_lying_die(face, die.kind, seat.seat, need) for seat in view.seats for die in seat.dice
                   if (face := _lies(die)) and (die.kind is not need.kind or die.kind in OWN_KINDS or seat.seat != need.seat)]


def _lies(die: DieView) -> str | None:
    """The face of a die of the view that lies on the tray (shown, and not marked to be thrown
    again), else None."""
    return None if die.state.startswith("reroll") else die.face


def _lying_die(face: str, kind: DieKind, seat: int, need: DiceNeeded) -> Lying:
    """A seat's shown die as it lies on the tray while the table waits for ``need``."""
    if kind in OWN_KINDS and kind is not need.kind:
        return Lying(face, COMMUNITY_ZONE, kind, seat)
    return Lying(face, zone_for(seat), kind, seat if kind in OWN_KINDS else None)


def dice_on_table(view: TableView, need: DiceNeeded | None) -> dict[str, tuple[str, ...]]:
    """The faces of :func:`lying`, by zone: ``on_table`` of :func:`match` while the table waits for ``need``."""
    zones: dict[str, list[str]] = {}
    for die in lying(view, need):
        zones.setdefault(die.zone, []).append(die.face)
    return {zone: tuple(faces) for zone, faces in zones.items()}


Reason = tuple[str, str]
"""Why the camera's reading is not taken: a short code (``unreadable``, ``no_zone``, ``owner``,
``outside``, ``other_zone``, ``count``, :data:`COCKED`, :data:`OTHER_KIND`, ``flagged``,
``confidence``, :data:`UNSEEN`, ``moved``) and the dealer's sentence; those the players settle
themselves are :data:`controller.table.records.PLAYERS_SETTLE` (COCKED, DOUBTED, UNSEEN live there,
with the question)."""

MOVE_IT = "move it a little, the same face up"
"""What the players do about a die the camera doubts (:data:`DOUBTED`)."""

MOVE_APART = "move the dice apart, the same faces up"
"""What the players do about dice the camera did not all find (:data:`UNSEEN`)."""

OTHER_KIND = "other_kind"
"""The code of a question about a die the reader takes for another kind than the one the table
waits for (the reader's flag of the same name: a pip d6 where Tauren dice are awaited)."""


def _dice(n: int) -> str:
    return f"{n} die" if n == 1 else f"{n} dice"


def _unreadable(needed: DiceNeeded, seen: TrayReading) -> Reason | None:
    if seen.kind is not needed.kind:
        return "unreadable", f"the camera read {seen.kind.noun()}, but the table waits for {needed.kind.noun()}"
    return None


def _ownerless(needed: DiceNeeded, seen: TrayReading, words: Words) -> Reason | None:
    """Dice of an owned kind that could not be given to a seat by their colour."""
    if seen.colour_problem:
        return "owner", f"{seen.colour_problem}; enter the {_dice(needed.count)} by hand"
    strangers = [d for d in seen.dice if d.flag == NO_OWNER]
    where = next((d.zone for d in strangers if d.zone is not None), None)  # (each lies in a zone)
    if where is None:
        return None
    return "owner", (f"{'a' if len(strangers) == 1 else len(strangers)} {needed.kind.noun(len(strangers))} "
                     f"in {words.zone(where)} "
                     f"{'is' if len(strangers) == 1 else 'are'} of no seat's colour: whose? "
                     f"enter {words.whose(needed.seat)} by hand")


def _no_zone(zone: str, zones: ZoneMap) -> Reason | None:
    if any(z.name == zone for z in zones.zones):
        return None
    return "no_zone", f"the tray has no {zone} zone (add it to [zones]): enter the dice by hand"


def _astray(needed: DiceNeeded, seen: TrayReading, earlier: Mapping[str, Sequence[str]], words: Words) -> Reason | None:
    """Dice outside every zone, or more dice in another zone than lay there before."""
    outside = sum(d.zone is None for d in seen.dice)
    if outside:
        return "outside", (f"{'a die lies' if outside == 1 else f'{outside} dice lie'} outside every zone "
                           f"while the table waits for {words.whose(needed.seat)}")
    zone = zone_for(needed.seat)
    counts = Counter(d.zone for d in seen.dice if d.zone != zone)
    for other, count in sorted((z, c) for z, c in counts.items() if z is not None):
        extra = count - len(earlier.get(other, ()))
        if extra > 0:
            return "other_zone", (f"{'a die' if extra == 1 else f'{extra} dice'} in {words.zone(other)} "
                                  f"while the table waits for {words.whose(needed.seat)}")
    return None


def _miscount(needed: DiceNeeded, seen: TrayReading, zone: str, earlier: Mapping[str, Sequence[str]],
              words: Words) -> Reason | None:
    before = len(earlier.get(zone, ()))
    mine = sum(d.zone == zone for d in seen.dice)
    if mine == before + needed.count:
        return None
    earlier_too = f" ({before} there before and {needed.count} new)" if before else ""
    said = f"{_dice(before + needed.count)} expected in {words.zone(zone)}{earlier_too}, {mine} seen"
    if mine > before + needed.count:
        return "count", said
    return UNSEEN, f"{said}: {MOVE_IT if before + needed.count == 1 else MOVE_APART}"


STILL_SIDES = 0.25
"""A die whose centre is within this many of its sides of where a die lay before the throw lay
still (:func:`_lying_still`): a die read twice where it lies moves a few pixels at most, and one
knocked by the throw moves further."""


def _in_zone(seen: TrayReading, zone: str) -> list[DieSeen]:
    return [d for d in seen.dice if d.zone == zone]


def _lying_still(seen: TrayReading, zone: str, before: Sequence[str], lay: Sequence[DieSeen]) -> list[DieSeen] | None:
    """The zone's dice that lie where dice lay before the throw (``lay``), when they are exactly as
    many as the faces ``before`` (the zone's earlier dice); else None: which dice are new cannot be
    told by where they lie (a die was moved, picked up, or one landed where another lay)."""
    if not before or not lay:
        return None
    still = [d for d in _in_zone(seen, zone)
             if any(math.dist(d.center, old.center) <= STILL_SIDES * max(old.box[2], old.box[3]) for old in lay)]
    return still if len(still) == len(before) else None


def _sure(die: DieSeen) -> bool:
    return die.face is not None and die.confidence >= CONFIDENCE_THRESHOLD and not die.flag


def _cocked(needed: DiceNeeded, seen: TrayReading, zone: str, still: Sequence[DieSeen] | None,
            words: Words) -> Reason | None:
    """The first new die of the zone flagged cocked, with what the players do about it. Asked
    before the dice are counted: a leaning die shows its top and a side, which the reader may
    take for two dice, and the players settle a cocked die themselves, where a wrong count goes
    to the dealer (on the demo's DiceHoldem trays, 3 of the 5 dealer entries over 60 games of
    ``bench/table.py --camera-games``, seeds 11-40 with 2 and 4 players, were dice counted so)."""
    for n, die in enumerate(_in_zone(seen, zone), 1):
        if die.flag == "cocked" and (still is None or die not in still):  # the reader's flag (vision.read)
            fix = ("lay it flat on the face most up" if needed.reason == REVEAL
                   else f"throw the {'die' if needed.count == 1 else 'dice'} again")
            return COCKED, f"die {n} in {words.zone(zone)} lies cocked: {fix}"
    return None


def _doubtful(needed: DiceNeeded, seen: TrayReading, zone: str, still: Sequence[DieSeen] | None,
              words: Words) -> Reason | None:
    """The first die of the zone that is flagged or read below the confidence threshold, but for
    the dice lying ``still`` since before the throw (their faces are known). A die the reader
    takes for another kind than ``needed`` is named so (:data:`OTHER_KIND`): the wrong die on the
    tray, which the players can swap, not a die the camera failed to read."""
    for n, die in enumerate(_in_zone(seen, zone), 1):
        if still is not None and die in still:
            continue
        if die.flag == OTHER_KIND:
            return OTHER_KIND, (f"die {n} in {words.zone(zone)} is not a {needed.kind.noun(1)}: "
                                f"the table waits for {needed.kind.noun()}")
        if die.face is None:
            why = die.flag.replace("_", " ") if die.flag else "no face"
            return "flagged", f"die {n} in {words.zone(zone)} cannot be read ({why}): {MOVE_IT}"
        if die.confidence < CONFIDENCE_THRESHOLD:
            shown = math.floor(die.confidence * 100) / 100  # 0.596 is not shown as the threshold, 0.60
            return "confidence", f"die {n} in {words.zone(zone)} read {die.face} at {shown:.2f} confidence: {MOVE_IT}"
        if die.flag:
            return "flagged", f"die {n} in {words.zone(zone)} read {die.face} but is {die.flag.replace('_', ' ')}: {MOVE_IT}"
    return None


def _faces_in(seen: TrayReading, zone: str) -> list[str]:
    return [d.face for d in _in_zone(seen, zone) if d.face is not None]


def _moved(seen: TrayReading, zone: str, before: Sequence[str], still: Sequence[DieSeen] | None,
           words: Words) -> Reason | None:
    """The zone's dice no longer show every face that lay there ``before``; with the dice lying
    ``still`` known, those of them read surely show faces that are not all among ``before``."""
    faces = _faces_in(seen, zone)
    if still is not None:
        if not Counter(d.face for d in still if _sure(d)) - Counter(before):
            return None
    elif not Counter(before) - Counter(faces):
        return None
    return "moved", (f"{words.zone(zone)} shows {' '.join(faces)}, but {' '.join(before)} lay there before: "
                     "was a die moved or turned?")


def _new_faces(faces: Sequence[str], before: Sequence[str]) -> tuple[str, ...]:
    """``faces`` (in tray order) without one of each face that lay there ``before``."""
    left = Counter(before)
    new = []
    for face in faces:
        if left[face] > 0:
            left[face] -= 1
        else:
            new.append(face)
    return tuple(new)


class TableEyes:
    """The camera path as the table loop uses it (:class:`controller.table.table.Eyes`): one
    :meth:`TrayWatcher.step` per look, the reading matched to the need.

    ``on_table`` (optional) says which faces lie in each zone from earlier rolls of the hand
    (see :func:`match`); without it the table clears the tray before each roll. ``colours``
    (optional) gives the seats' colours, by which dice of an owned kind go to their owners; and
    :meth:`check_colours` refuses, at setup, colours the camera could not tell apart. ``names``
    (optional) gives the seats' names, by which the questions name the seats' zones and dice
    ("die 1 in Ana's zone lies cocked": the room reads them on the scoreboard).
    """

    def __init__(self, watcher: TrayWatcher,
                 on_table: Callable[[], Mapping[str, Sequence[str]]] | None = None,
                 colours: Callable[[], Sequence[str]] | None = None,
                 names: Callable[[], Sequence[str]] | None = None) -> None:
        self.watcher = watcher
        self._on_table = on_table
        self._colours = colours
        self._names = names
        self._moved = False  # the tray moved since its last reading (something was thrown)
        self._lay: tuple[DieSeen, ...] = ()  # the dice of the last reading: how they lay before a throw

    def check_colours(self, colours: Sequence[str], names: Sequence[str] = ()) -> None:
        """Refuse seat colours the camera could not tell apart under the tray's light (the light
        of the last calibrated frame, the reference white before one), when the table owns
        dice by colour (:data:`OWN_KINDS`).

        :raises ConfigError: naming both seats and their colours.
        """
        if self.watcher.owned:
            check_colours(colours, names, self.watcher.light)

    def look(self, need: DiceNeeded | None) -> Sighting | None:
        """One frame: None while the tray moves or nothing new settled (or ``need`` is None),
        else the roll ``need`` asks for, or the reason the dealer must decide, with the evidence.

        :raises DeviceFailing: while the camera gives no frames or the tray's markers are not found
            (its problem and fix are the dealer's to read).
        """
        colours = tuple(self._colours()) if self._colours is not None else ()
        names = tuple(self._names()) if self._names is not None else ()
        step = self.watcher.step(None if need is None else need.kind, colours, names)
        if step.fault is not None:
            raise DeviceFailing(step.fault)
        self._moved = self._moved or step.motion is Motion.MOVING
        if step.reading is None:
            return None
        lay, self._lay = self._lay, step.reading.dice
        if need is None:
            return None
        earlier = self._on_table() if self._on_table is not None else None
        moved, self._moved = self._moved, False
        if not moved and not _thrown(need, step.reading, earlier or {}):
            return None  # a still tray with nothing new on it: not thrown yet, nothing to ask
        result = match(need, step.reading, self.watcher.tray.zones, earlier, lay, names)
        sure = tuple(d.face for d in _in_zone(step.reading, zone_for(need.seat)) if d.face is not None and _sure(d))
        if isinstance(result, Roll):
            return Sighting(result, seen=step.reading.dice, jpeg=step.reading.jpeg, sure=sure)
        return Sighting(None, result.text, result.seen, step.reading.jpeg, code=result.code, thrown=moved, sure=sure)


def _thrown(needed: DiceNeeded, seen: TrayReading, earlier: Mapping[str, Sequence[str]]) -> bool:
    """Whether anything changed in the tray for ``needed``: more dice in its zone than lay there
    before, or dice elsewhere that no earlier roll left (a throw that landed astray)."""
    zone = zone_for(needed.seat)
    lying = sum(len(faces) for faces in earlier.values())
    in_zone = sum(1 for die in seen.dice if die.zone == zone)
    return in_zone > len(earlier.get(zone, ())) or len(seen.dice) > lying
