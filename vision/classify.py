"""The d6 face classifier: a small CNN (trained by :mod:`vision.train`) run through ``cv2.dnn``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from controller.games.errors import ConfigError
from vision.crops import CROP_PX, READ_PX, normalise

MODEL_PATH = Path(__file__).resolve().parent / "models" / "d6_faces.onnx"
"""The finder: is a die centred in this 32 px crop, and a first guess at its face."""

READER_PATHS = (MODEL_PATH.with_name("d6_read.onnx"), MODEL_PATH.with_name("d6_read_2.onnx"))
"""The readers: a second, sharper look (48 px) at each die the finder found, same classes; two
networks trained alike but for the seed. The second is asked only about the dice the first is
unsure of, and then their probabilities are averaged (:mod:`vision.read`)."""

NOT_A_DIE = 0
"""Class 0 of the classifier's output: no die centred in the crop; classes 1..6 are the face values."""

UNREADABLE = 7
"""Class 7: a die that cannot be read (cocked: its top face leans away from the camera; or cut off)."""


BATCH = 32
"""Crops per forward pass: larger batches run slower per crop on one core (the activations no longer
fit the cache: 512 finder crops took 147-193 ms in one pass, 95-131 ms in passes of 32)."""


class FaceClassifier:
    """Class probabilities (not a die, 1..6, unreadable) for die-centred square crops of ``px`` pixels."""

    def __init__(self, path: Path = MODEL_PATH, px: int = CROP_PX) -> None:
        if not path.is_file():
            raise ConfigError(f"face model {str(path)!r} is missing: run `python -m vision.train`")
        # OpenCV 5's classic engine runs these small nets about twice as fast as its new one
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        self._net = cv2.dnn.readNetFromONNX(str(path)) if engine is None else cv2.dnn.readNetFromONNX(str(path), engine)
        self.probabilities(np.zeros((1, px, px, 3), np.uint8))  # the first forward sets the network up

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """(N, 8) probabilities for N BGR crops (N, px, px, 3): not a die, 1..6, unreadable."""
        if len(patches) == 0:
            return np.zeros((0, UNREADABLE + 1), np.float32)
        return np.concatenate([self._forward(patches[i:i + BATCH]) for i in range(0, len(patches), BATCH)])

    def _forward(self, patches: np.ndarray) -> np.ndarray:
        self._net.setInput(normalise(patches))
        return np.asarray(self._net.forward(), dtype=np.float32).reshape(len(patches), -1)


def classifier(path: Path | None = None) -> FaceClassifier:
    """The shared finder for the model at ``path`` (default: :data:`MODEL_PATH` as set now), loaded once."""
    return _loaded(path or MODEL_PATH, CROP_PX)


def readers(paths: tuple[Path, ...] | None = None) -> tuple[FaceClassifier, ...]:
    """The shared readers for the models at ``paths`` (default: :data:`READER_PATHS` as set now), loaded once."""
    return tuple(_loaded(path, READ_PX) for path in (paths or READER_PATHS))


@lru_cache(maxsize=4)
def _loaded(path: Path, px: int) -> FaceClassifier:
    return FaceClassifier(path, px)


def unreadable_cleared(probs: np.ndarray, unreadable: int = UNREADABLE) -> np.ndarray:
    """``probs`` (class 0 "no die", the faces, then the "unreadable" class at index ``unreadable``:
    the d6 readers' layout, or :mod:`vision.face_classes`') with the "unreadable" share given to
    the faces, in their proportions: for a die a cocked network is sure lies flat."""
    cleared = probs.copy()
    faces = cleared[NOT_A_DIE + 1:unreadable]
    cleared[NOT_A_DIE + 1:unreadable] = faces + cleared[unreadable] * faces / max(float(faces.sum()), 1e-6)
    cleared[unreadable] = 0.0
    return cleared
