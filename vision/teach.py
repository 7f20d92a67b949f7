"""Teach mode: learn a set of dice from a few labelled pictures of each face, and read it by them.

Every die in a picture is found as :mod:`vision.faces` finds dice, and its sharp crop is turned
through :data:`TEACH_TURNS`; the face network's embedding of each turn is kept with the face's
label. A die of that set is then read by its nearest taught embeddings (cosine similarity, the
best of each face, turned into shares by a softmax at :data:`TEMPERATURE`): no training, no PyTorch,
only numpy. What was learnt is stored per kind in the table's data folder (``faces/<kind>.npz``),
with the fingerprint of the network that made the embeddings: after a retrained network, the set
must be taught again (reading says so).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from controller.games.dice import DieKind
from controller.games.errors import ConfigError, InvalidInput
from vision.detect import working_views

TEACH_TURNS = tuple(float(a) for a in range(0, 360, 20))
"""The turns (degrees) each taught die is stored in, so that a die read at any turn has a near one."""

TEMPERATURE = 0.025
"""Softmax temperature over the faces' best similarities: a face 0.075 nearer than the next gets 95%.
``bench/teach_reader.py`` (200 frames; taught dice's sharpness in their sharpest channel): read
wrong but accepted 11, 4, 3 and right accepted 19.6%, 9.9%, 2.7% at 0.02, 0.025, 0.03."""

LEAST_SIMILARITY = 0.6
"""Least similarity to any taught crop for a die to be read as the taught set at all; below, the die
is flagged ``other_kind`` (it looks like none of the taught faces)."""

LIKELIEST = 0.05
"""Least die score of the likeliest die of a teaching picture in which none is surely a die."""

LEAST_PICTURES = 1
"""Pictures of every face needed at the least (3 to 5 each read better: see ``dicetable vision teach --help``)."""


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
    """The embeddings of a taught set's crops (unit rows) and the face number (1-based) of each."""

    kind: DieKind
    embeddings: np.ndarray
    values: np.ndarray

    def value(self, embeddings: np.ndarray, die: float) -> tuple[int | None, float, str | None]:
        """Face number, confidence and flag of a die from the embeddings (V, E) of its views and its
        die probability: per face, the best similarity of each view to that face's crops, averaged."""
        similarity = embeddings @ self.embeddings.T
        best = np.array([similarity[:, self.values == v].max(axis=1).mean() if (self.values == v).any() else -1.0
                         for v in range(1, len(self.kind.faces) + 1)])
        if best.max() < LEAST_SIMILARITY:
            return None, float(best.max()), "other_kind"
        shares = np.exp((best - best.max()) / TEMPERATURE)
        shares /= shares.sum()
        face = int(np.argmax(shares))
        return face + 1, float(shares[face]) * min(1.0, die / 0.6), None

    def save(self, path: Path) -> None:
        """Store the set at ``path`` (made with its folders), with the face network's fingerprint."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(out, embeddings=self.embeddings.astype(np.float16), values=self.values,
                                kind=self.kind.value, network=network_fingerprint())


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
    except (OSError, ValueError, KeyError) as err:
        raise ConfigError(f"the taught set {str(path)!r} cannot be read ({err}): teach it again") from None
    if network != network_fingerprint():
        raise ConfigError(f"the taught set {str(path)!r} was taught with another face network: teach it again")
    return TaughtSet(kind, embeddings, values)


def teach(kind: DieKind, pictures: dict[str, list[np.ndarray]]) -> TaughtSet:
    """Learn a set of ``kind`` dice from BGR pictures of each face (face as games write it -> pictures;
    every die in a picture shows that face).

    :raises InvalidInput: for a face the kind lacks, a face without pictures, or a picture with no die.
    """
    faces = {kind.parse_face(face): images for face, images in pictures.items()}
    missing = [face for face in kind.faces if len(faces.get(face, [])) < LEAST_PICTURES]
    if missing:
        raise InvalidInput(f"no pictures of face{'s' if len(missing) > 1 else ''} {' '.join(missing)} "
                           f"of the {kind.value} set")
    embeddings, values = [], []
    for face, images in faces.items():
        for n, image in enumerate(images):
            found = die_embeddings(image)
            if not len(found):
                raise InvalidInput(f"no die found in picture {n + 1} of face {face}")
            embeddings.append(found)
            values += [kind.faces.index(face) + 1] * len(found)
    return TaughtSet(kind, np.concatenate(embeddings), np.array(values, np.int64))


def die_embeddings(image: np.ndarray) -> np.ndarray:
    """The embeddings (unit rows) of every die found in a BGR picture, each in every :data:`TEACH_TURNS`;
    when none is surely a die, of the likeliest one (a teaching picture shows a die: a set of a new
    look may not look like any die the network knows)."""
    from vision import faces, read

    frame = read.as_bgr(image)
    view, hits = faces.best_view(frame, faces.TAUGHT_SIZES)
    hits = faces.second_look(frame, view.scale, hits)
    if not hits:
        view = working_views(frame)[0]
        hits = faces.find(view, LIKELIEST)[:1]
    if not hits:
        return np.zeros((0, 1), np.float32)
    dice = [((h.center[0] / view.scale, h.center[1] / view.scale), h.side / view.scale) for h in hits]
    return faces.face_net().run(faces.sharp_crops(frame, dice, TEACH_TURNS))[1]
