"""Teach mode: learn a set of dice from a few labelled pictures of each face, and read it by them.

Every die in a picture is found as :mod:`vision.faces` finds dice, placed on its top face by the
set's body colour (:mod:`vision.top_face`, :func:`placed`), and its sharp crop turned through
:data:`TEACH_TURNS` from the face's axes; the face network's embedding of each turn is kept with the
face's label. A die of that set is then placed and cropped alike, and read by its nearest taught
embeddings (cosine similarity, the best of each face, turned into shares by a softmax at
:data:`TEMPERATURE`): no training, no PyTorch, only numpy and OpenCV. What was learnt is stored per
kind in the table's data folder (``faces/<kind>.npz``), with the fingerprint of the network that
made the embeddings: after a retrained network, the set must be taught again (reading says so).
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from controller.games.dice import DieKind
from controller.games.errors import ConfigError, InvalidInput
from vision import top_face
from vision.detect import working_views

if TYPE_CHECKING:
    from vision.faces import Hit

TEACH_TURNS = tuple(float(a) for a in range(0, 360, 20))
"""The turns (degrees) each taught die is stored in, so that a die read at any turn has a near one."""

TEMPERATURE = 0.025
"""Softmax temperature over the faces' best similarities: a face 0.075 nearer than the next gets 95%.
``bench/teach_reader.py`` (200 frames, dice placed on their top faces): read right and accepted
34.0%, 77%, 92% at 0.025, 0.01, 0.005, none read wrong but accepted at any; but of 150 frames with
a leaning die of the set, 8, 14 and 17 leaning dice were given a value without a flag (10, 18 and
26 before the cocked network's crops faced the frame's centre; it does not know a new look).
Before the dice were placed: read wrong but accepted 11, 4, 3 and right accepted 19.6%, 9.9%,
2.7% at 0.02, 0.025, 0.03. These figures are of a letters set, read at :data:`CUBE_TEMPERATURE`
since its dice's top faces are asked too; the other kinds' sets are read at this one."""

CUBE_TEMPERATURE = 0.01
""":data:`TEMPERATURE` for a set of cubes (letters), whose leaning dice their top face's shape
doubts (:data:`SQUARE_UNDER`). ``bench/teach_reader.py`` (the letters set of a new look, 5 pictures
per face): read right and accepted 140 -> 312 of 403 dice (34.7 -> 77.4%), ``--first 20000``
126 -> 297 of 398, none read wrong but accepted; of 150 leaning dice one given a value without a
flag, as at 0.025 without the shape (7 at 0.01 without it). The table camera's frames of a letters
set in the shipped lettering, orange (``tests/table/test_camera_teach.py``'s, 40 trays): 26 -> 66
of 121 flat dice, none wrong, no leaning die taken. A d8-tauren set there took wrong readings at
0.01 (1 of 126 flat dice; 2 at 0.005), so other kinds stay at 0.025. At 0.005 the letters bench
accepted 90.8% (366 of 403), none wrong, but nothing tells it apart from the d8's."""

SQUARE_UNDER = 0.95
"""The short side over the long of a cube's top face (its least rectangle's) under which a die of
a taught set is doubted (:meth:`TaughtSet.value`): the cocked network never saw the set's look,
but a leaning cube's top face is foreshortened. Seen from about straight above only, where a flat
die's top face lies square to the camera (:func:`vision.faces._read_hits`).
``bench/teach_reader.py`` (the letters set taught from 5 pictures per face): of 403 flat dice in
200 frames, 5% measured under 0.984, the least 0.843; of 148 leaning dice, half measured under
0.838, 95% under 0.979."""

FORESHORTENED_SURENESS = 0.5
"""How surely a die whose top face is foreshortened (:data:`SQUARE_UNDER`) is read at most: doubted
(the players move it), not taken; a flat one keeps its value for the dealer's question."""

LEAST_SIMILARITY = 0.6
"""Least similarity to any taught crop for a die to be read as the taught set at all; below, the die
is flagged ``other_kind`` (it looks like none of the taught faces)."""

LIKELIEST = 0.05
"""Least die score of the likeliest die of a teaching picture in which none is surely a die."""

LEAST_PICTURES = 1
"""Pictures of every face needed at the least (3 to 5 each read better: see ``dicetable vision teach --help``)."""


LEAST_PICTURE_PX = 40
"""Least side (pixels) of a teaching picture: a die of :data:`vision.read.LARGE_ENOUGH` (20 px, the
least the readers learnt) and the tray around it. The finder's hits do not say a die's size: it
took thin new letters 55 px across for dice of 14 px."""


def data_folder(explicit: Path | None = None) -> Path:
    """The table's data folder: ``explicit``, else ``$STATE_DIRECTORY`` (its first entry), else
    ``~/.local/share/dicetable``."""
    if explicit is not None:
        return explicit
    state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    return Path(state) if state else Path.home() / ".local" / "share" / "dicetable"


def set_path(kind: DieKind, folder: Path | None = None) -> Path:
    """Where a taught set of ``kind`` is stored in the data folder."""
    return data_folder(folder) / "faces" / f"{kind.value}.npz"


@dataclass(frozen=True, eq=False)
class TaughtSet:
    """The embeddings of a taught set's crops (unit rows), the face number (1-based) of each, and
    the set's body colour (CIELAB; None for a set stored without it: its dice are read where the
    finder puts them)."""

    kind: DieKind
    embeddings: np.ndarray
    values: np.ndarray
    body: np.ndarray | None = None

    def placed(self, frame: np.ndarray, scale: float, hits: list[Hit]) -> list[Hit]:
        """``hits`` (in a view of ``frame`` at ``scale``), and hits at the spots of this set's body
        colour none of them lies on (:func:`vision.top_face.spots`: the finder misses some dice of
        a new look), each placed on its top face (:func:`placed`)."""
        return hits if self.body is None else placed(frame, scale, hits, self.body, spot=True)

    @property
    def _cubes(self) -> bool:
        """Whether the set's dice are cubes, whose top face shows a lean (:data:`SQUARE_UNDER`)."""
        return self.kind is DieKind.LETTERS

    def foreshortened(self, face_aspect: float | None) -> bool:
        """Whether a die of this set whose top face's short side over its long is ``face_aspect``
        leans by its shape: a cube's face under :data:`SQUARE_UNDER` (None: not asked)."""
        return self._cubes and face_aspect is not None and face_aspect < SQUARE_UNDER

    def value(self, embeddings: np.ndarray, die: float,
              face_aspect: float | None = None) -> tuple[int | None, float, str | None]:
        """Face number, confidence and flag of a die from the embeddings (V, E) of its views and its
        die probability: per face, the best similarity of each view to that face's crops, averaged.
        A cube whose top face was found foreshortened (``face_aspect``, its short side over its long,
        under :data:`SQUARE_UNDER`) is read no surer than :data:`FORESHORTENED_SURENESS`."""
        near = _likeness(embeddings, self.embeddings, self.values)
        best = np.array([near.get(v, -1.0) for v in range(1, len(self.kind.faces) + 1)])
        if best.max() < LEAST_SIMILARITY:
            return None, float(best.max()), "other_kind"
        shares = np.exp((best - best.max()) / (CUBE_TEMPERATURE if self._cubes else TEMPERATURE))
        shares /= shares.sum()
        face = int(np.argmax(shares))
        sureness = float(shares[face]) * min(1.0, die / 0.6)
        if self.foreshortened(face_aspect):
            sureness = min(sureness, FORESHORTENED_SURENESS)
        return face + 1, sureness, None

    def save(self, path: Path) -> None:
        """Store the set at ``path`` (made with its folders), with the face network's fingerprint:
        written beside it and moved over it whole, so that a crash leaves the set there before."""
        path.parent.mkdir(parents=True, exist_ok=True)
        fields: dict[str, Any] = {"embeddings": self.embeddings.astype(np.float16), "values": self.values,
                                  "kind": self.kind.value, "network": network_fingerprint()}
        if self.body is not None:
            fields["body"] = self.body
        partial = path.with_name(path.name + ".new")
        with partial.open("wb") as out:
            np.savez_compressed(out, **fields)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, path)


def placed(frame: np.ndarray, scale: float, hits: list[Hit], body: np.ndarray, spot: bool = False) -> list[Hit]:
    """``hits`` (in a view of ``frame`` at ``scale``) moved onto the top faces of the ``body`` colour
    near them (:func:`vision.top_face.locate`), turned to the faces' axes. Crops taken there
    compare: the finder's hits lie up to half a side off and 0.3-1.3 times the size, and a taught
    set's crops compared there read 60% of the dice right. The dice of a set in one frame are of
    one size: a hit placed on a face off the others' median side by more than :data:`SIZE_SPREAD`
    (a letter's bowl, two dice side by side), or on none, is placed again from a hint of that size;
    a hit still on no face stays as it is. With ``spot``, hits at the spots of the body colour
    (:func:`_spotted`) are placed alike; their sizes do not count in the median."""
    faces, usual = _faces(frame, scale, hits, body)
    if spot:
        more = _spotted(frame, scale, body, [hit for hit, face in zip(hits, faces) if face is not None])
        hits, faces = hits + more, faces + _faces(frame, scale, more, body, usual)[0]
    return [hit if face is None else replace(hit, center=(face.center[0] * scale, face.center[1] * scale),
                                             side=face.side * top_face.DIE_PER_FACE * scale, angle=face.angle,
                                             face_aspect=face.aspect)
            for hit, face in zip(hits, faces)]


def _spotted(frame: np.ndarray, scale: float, body: np.ndarray, hits: list[Hit]) -> list[Hit]:
    """Hits (unread: every class alike) at the spots of the ``body`` colour none of the ``hits``
    (placed on their faces) lies on at about the spot's size (a hit placed on a letter's bowl does
    not hide the face around it)."""
    from vision.face_classes import CLASSES
    from vision.faces import Hit

    unread = np.full(len(CLASSES), 1.0 / len(CLASSES))
    spots = [Hit((x * scale, y * scale), side * scale, unread) for (x, y), side in top_face.spots(frame, body)]
    return [spot for spot in spots if not any(_same_place(spot, hit) for hit in hits)]


def _faces(frame: np.ndarray, scale: float, hits: list[Hit], body: np.ndarray,
           usual: float | None = None) -> tuple[list[top_face.TopFace | None], float | None]:
    """The top face of each hit (see :func:`placed`), and the faces' usual side (their median, unless
    given in ``usual``)."""
    faces = [_face_of(frame, hit.center, hit.side, scale, body) for hit in hits]
    sides = [face.side for face in faces if face is not None]
    usual = usual or (float(np.median(sides)) if sides else None)
    if usual is None:
        return faces, None
    return [face if face is not None and abs(np.log(face.side / usual)) <= np.log(SIZE_SPREAD)
            else _face_of(frame, hit.center, usual * top_face.DIE_PER_FACE * scale, scale, body) or face
            for hit, face in zip(hits, faces)], usual


def _same_place(a: Hit, b: Hit) -> bool:
    """Whether two hits lie on one die: within half a side, of sizes within :data:`SIZE_SPREAD`."""
    return bool(np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < 0.5 * max(a.side, b.side)
                and abs(np.log(a.side / b.side)) <= np.log(SIZE_SPREAD))


SIZE_SPREAD = 1.25
"""How many times larger or smaller than the frame's median top face a placed face may be."""


def _face_of(frame: np.ndarray, center: tuple[float, float], side: float, scale: float,
             body: np.ndarray) -> top_face.TopFace | None:
    """The top face near a hint given in a view's pixels (at ``scale``)."""
    return top_face.locate(frame, (center[0] / scale, center[1] / scale), side / scale, body)


def network_fingerprint() -> str:
    """A short hash of the face network file: embeddings of another network do not compare."""
    from vision.faces import MODEL_PATH

    return hashlib.sha256(MODEL_PATH.read_bytes()).hexdigest()[:16]


def taught_set(kind: DieKind, folder: Path | None = None) -> TaughtSet | None:
    """The set of ``kind`` taught in the data folder, or None when none was.

    :raises ConfigError: when the stored set cannot be read or was taught with another face network.
    """
    path = set_path(kind, folder)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return None
    return _loaded(path, stamp)


@lru_cache(maxsize=8)
def _loaded(path: Path, stamp: int) -> TaughtSet:
    try:
        with np.load(path) as stored:
            kind, network = DieKind(str(stored["kind"])), str(stored["network"])
            embeddings, values = stored["embeddings"].astype(np.float32), stored["values"].astype(np.int64)
            body = stored["body"].astype(np.float32) if "body" in stored.files else None
    except OSError as err:
        raise ConfigError(f"the taught set {str(path)!r} cannot be read ({err.strerror or err}): "
                          f"teach it again") from None
    except (ValueError, KeyError, EOFError, zipfile.BadZipFile):  # numpy's words would advise unpickling it
        raise ConfigError(f"the taught set {str(path)!r} is damaged or not a taught set: teach it again "
                          f"(dicetable vision teach)") from None
    if network != network_fingerprint():
        raise ConfigError(f"the taught set {str(path)!r} was taught with another face network: teach it again")
    return TaughtSet(kind, embeddings, values, body)


class PictureRefused(InvalidInput):
    """A teaching picture that would spoil the set: which one (``face`` as :meth:`DieKind.parse_face`
    writes it, ``number`` from 1 among that face's pictures), what is wrong with it and what to do;
    the command names the picture's file instead."""

    def __init__(self, face: str, number: int, problem: str, fix: str) -> None:
        super().__init__(f"{problem} in picture {number} of face {face}: {fix}")
        self.face, self.number, self.problem, self.fix = face, number, problem, fix


@dataclass(frozen=True)
class PictureDoubt:
    """A teaching picture taught all the same, though its die may not be one of its face: which one
    (as :class:`PictureRefused` says), why it is doubted and what to check."""

    face: str
    number: int
    problem: str
    fix: str


@dataclass(frozen=True)
class SetDoubt:
    """A set taught all the same, though its pictures hardly tell its faces apart
    (:data:`TOLD_APART_LEAST`): why, and what to do."""

    problem: str
    fix: str


TOLD_APART_LEAST = 0.8
"""The share of a set's taught dice that the set's other pictures must read as their own face (each
picture left out in turn) for the set to be taught without a warning (:class:`SetDoubt`). Sets of
the table camera's frames, 5 pictures per face (``tests/table/test_camera_teach.py``'s): letters
29 of 30, d8-tauren 37 of 40, but d12 22 of 60, which then read 50 of 122 flat dice right on the
tray, where the shipped reader reads nearly all; the new look of ``tests/vision/test_teach.py``
29 of 30."""


def teach(kind: DieKind, pictures: dict[str, list[np.ndarray]],
          doubted: Callable[[PictureDoubt | SetDoubt], None] | None = None) -> TaughtSet:
    """Learn a set of ``kind`` dice from BGR pictures of each face (face as games write it -> pictures;
    every die in a picture shows that face), telling ``doubted`` of each picture taught though
    doubtful (:func:`_judged`), and of the set when its pictures hardly tell its faces apart
    (:data:`TOLD_APART_LEAST`). The tray's markers that show in a picture are painted
    over first, as reading a frame without its calibration does (:func:`vision.read.without_tray_markers`):
    in frames of the table's own camera the finder took each marker for a die, taught as the face,
    and the largest patch unlike the tray was a marker's white border, taught as the body colour.

    :raises InvalidInput: for a face the kind lacks or a face without pictures;
        :class:`PictureRefused` for a picture that is no picture, too small, shows no die, a pip
        die (:func:`_picture`, :func:`_learnt`) or a die of another face (:func:`_judged`).
    """
    faces = {kind.parse_face(face): [_picture(kind.parse_face(face), n, image) for n, image in enumerate(images, 1)]
             for face, images in pictures.items()}
    missing = [face for face in kind.faces if len(faces.get(face, [])) < LEAST_PICTURES]
    if missing:
        raise InvalidInput(f"no pictures of face{'s' if len(missing) > 1 else ''} {' '.join(missing)} "
                           f"of the {kind.value} set")
    body = np.median([top_face.picture_body(image) for images in faces.values() for image in images], axis=0)
    learnt = [(face, n, _learnt(kind, face, n, image, body)) for face, images in faces.items()
              for n, image in enumerate(images, 1)]
    values = np.concatenate([np.full(len(found), kind.faces.index(face) + 1) for face, _, found in learnt])
    taught = TaughtSet(kind, np.concatenate([found for _, _, found in learnt]), values.astype(np.int64),
                       body.astype(np.float32))
    picture = np.repeat(np.arange(len(learnt)), [len(found) for _, _, found in learnt])  # of each crop
    told = dice = 0
    for k, (face, n, _) in enumerate(learnt):
        nearest = _left_out(taught, picture == k)
        doubt = _judged(taught.kind, face, n, nearest)
        if doubt is not None and doubted is not None:
            doubted(doubt)
        right, count = _told_apart(taught.kind, face, nearest)
        told, dice = told + right, dice + count
    if doubted is not None and told < TOLD_APART_LEAST * dice:
        doubted(SetDoubt(f"its pictures tell its faces apart for only {told} of {dice} dice (each picture "
                         f"read by the others): its faces look alike at this size, and reading by the set "
                         f"may be worse than without it",
                         "give pictures where the dice are larger, or read the dice without a taught set "
                         f"(remove {kind.value}.npz from the data folder's faces/)"))
    return taught


MISFILED_LIKE = 0.99
"""Least similarity of a taught die to another face's pictures (each turn's best crop, averaged) for
it to be that face's die, filed under the wrong face (:func:`_judged`); it must also be
:data:`MISFILED_BY` less like the other pictures of its own face. A new look's dice are all much
alike: in the 30 pictures of ``tests/vision/test_teach.py`` (5 per letter) a die is 0.93-0.99 like
the nearest other face and 0.58-1.0 like its own (0.58 where the finder's likeliest spot, not
surely a die, was taught, and 0.98 like another face; 0.75 and 0.96 for another); an O filed under H was 0.999 like the O pictures and
0.66 like the other H pictures, a D under M 0.998 and 0.68. Three more sets of that look and the
table camera's d8-tauren set of ``tests/table/test_camera_teach.py`` are taught; an L filed under
E and an O under D are not told."""

MISFILED_BY = 0.1
"""How much less like its own face's other pictures a die must be to be misfiled (:data:`MISFILED_LIKE`)."""


DOUBTED_UNDER = 0.9
"""Similarity to the other pictures of its face under which a taught die's picture is doubted
(:func:`_judged`). A pip die the pip reader does not read surely, filed under H among the 30
pictures of ``tests/vision/test_teach.py``, is 0.49-0.74 like the other H pictures (7 rendered
pictures of one d6), 0.55-0.89 (5 real photos of one); of 30 more pictures of the new look, 28
are 0.94-1.0 like the pictures of their face there, two Os 0.72 and 0.46; and 3 of the 30 test
pictures are under it beside the other 29 (0.58, 0.75, 0.84)."""


def _left_out(taught: TaughtSet, rows: np.ndarray) -> list[dict[int, float]]:
    """How like each face of the set's other pictures each die of one picture is (its dice's crops:
    the ``rows`` of ``taught``, each die in every :data:`TEACH_TURNS`), the picture left out."""
    dice = taught.embeddings[rows].reshape(-1, len(TEACH_TURNS), taught.embeddings.shape[1])
    return [_likeness(die, taught.embeddings[~rows], taught.values[~rows]) for die in dice]


def _judged(kind: DieKind, face: str, number: int, nearest: list[dict[int, float]]) -> PictureDoubt | None:
    """Refuses picture ``number`` of ``face`` (its dice ``nearest`` the other pictures' faces,
    :func:`_left_out`) when a die of it is another face's die (:data:`MISFILED_LIKE`), as near as
    the other pictures show; doubts it when a die of it is under :data:`DOUBTED_UNDER` like the
    other pictures of its face. A face with no other picture cannot tell."""
    own = kind.faces.index(face) + 1
    least = 1.0
    for near in nearest:
        other = max((v for v in near if v != own), key=near.__getitem__)
        if own in near and near[other] >= MISFILED_LIKE and near[other] - near[own] >= MISFILED_BY:
            like = kind.faces[other - 1]
            which, fix = (("it", f"move it to the pictures of face {like}") if len(nearest) == 1 else
                          ("one of its dice", f"give pictures of {face} dice only"))
            raise PictureRefused(face, number, f"{which} shows {like}, not {face} (as alike as {near[other]:.3f} to "
                                 f"the pictures of {like}, {near[own]:.3f} to the other pictures of {face})", fix)
        least = min(least, near.get(own, 1.0))
    if least >= DOUBTED_UNDER:
        return None
    return PictureDoubt(face, number, f"taught, but unlike the other pictures of {face} ({least:.2f} alike)",
                        f"if it is not one {face} of this set, take it out and teach again")


def _told_apart(kind: DieKind, face: str, nearest: list[dict[int, float]]) -> tuple[int, int]:
    """How many dice of a picture of ``face`` (``nearest`` the other pictures' faces,
    :func:`_left_out`) the set's other pictures read as that face, of how many they can (none when
    no other picture shows the face)."""
    own = kind.faces.index(face) + 1
    told = [near for near in nearest if own in near]
    return sum(max(near, key=near.__getitem__) == own for near in told), len(told)


def _likeness(die: np.ndarray, embeddings: np.ndarray, values: np.ndarray) -> dict[int, float]:
    """How like each face's crops (``embeddings`` of face numbers ``values``) a die is, from its crops
    ``die`` in every turn or view: each one's best similarity, averaged (:meth:`TaughtSet.value` reads by it)."""
    similarity = die @ embeddings.T
    return {v: float(similarity[:, values == v].max(axis=1).mean()) for v in set(values.tolist())}


def _picture(face: str, number: int, image: np.ndarray) -> np.ndarray:
    """A teaching picture as BGR with the tray's markers painted over; refuses one that is no picture
    or under :data:`LEAST_PICTURE_PX` across."""
    from vision.read import as_bgr, without_tray_markers

    if isinstance(image, np.ndarray) and image.ndim in (2, 3) and min(image.shape[:2]) < LEAST_PICTURE_PX:
        raise PictureRefused(face, number, f"{image.shape[1]}x{image.shape[0]} pixels, too small to show a die "
                             f"(at least {LEAST_PICTURE_PX} across)", "give the photo itself, not a thumbnail")
    try:
        return without_tray_markers(as_bgr(image))
    except InvalidInput as err:
        raise PictureRefused(face, number, str(err), "give a photo of one die of the set") from None


def _learnt(kind: DieKind, face: str, number: int, image: np.ndarray, body: np.ndarray) -> np.ndarray:
    """The embeddings of the dice of a BGR picture of ``face`` (:func:`die_embeddings`), refused when it
    would spoil the set: a picture with no die, or in which the pip reader sees a pip die
    (:func:`vision.read.pip_dice`, a sure reading, at the median side of the dice found): every die
    in it would be taught as ``face``."""
    from vision.read import pip_dice

    scale, hits = _dice_in(image)
    if not hits:
        raise PictureRefused(face, number, "no die found", f"give a photo of one die of the set showing {face}")
    side = float(np.median([hit.side for hit in hits])) / scale
    if any(d.sure for d in pip_dice(image, side)):
        raise PictureRefused(face, number, f"a pip die, not a {kind.value} die",
                             f"take it out of the pictures of face {face}")
    return _embeddings(image, scale, hits, body)


def die_embeddings(image: np.ndarray, body: np.ndarray | None = None) -> np.ndarray:
    """The embeddings (unit rows) of every die found in a BGR picture, each in every :data:`TEACH_TURNS`
    from its top face's axes (placed by its ``body`` colour, when given: see :meth:`TaughtSet.placed`);
    when none is surely a die, of the likeliest one (a teaching picture shows a die: a set of a new
    look may not look like any die the network knows)."""
    from vision import read

    frame = read.as_bgr(image)
    return _embeddings(frame, *_dice_in(frame), body)


def _dice_in(frame: np.ndarray) -> tuple[float, list[Hit]]:
    """The dice :func:`die_embeddings` learns in a BGR picture, where the finder puts them, and the
    scale of the view they are in."""
    from vision import faces

    view, hits = faces.best_view(frame, faces.TAUGHT_SIZES)
    hits = faces.second_look(frame, view.scale, hits)
    if not hits:
        view = working_views(frame)[0]
        hits = faces.find(view, LIKELIEST)[:1]
    return view.scale, hits


def _embeddings(frame: np.ndarray, scale: float, hits: list[Hit], body: np.ndarray | None) -> np.ndarray:
    """The face network's embeddings of ``hits`` in every :data:`TEACH_TURNS`, each placed on its top
    face by the ``body`` colour when given (none: no rows)."""
    from vision import faces

    if not hits:
        return np.zeros((0, 1), np.float32)
    if body is not None:
        hits = placed(frame, scale, hits, body)
    return faces.face_net().run(faces.hit_crops(frame, scale, hits, TEACH_TURNS))[1]
