"""The d6 face classifier: a small CNN (trained by :mod:`vision.train`) run through ``cv2.dnn``."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from controller.games.errors import ConfigError
from vision.crops import normalise

MODEL_PATH = Path(__file__).resolve().parent / "models" / "d6_faces.onnx"
NOT_A_DIE = 0
"""Class 0 of the classifier's output: no die centred in the crop; classes 1..6 are the face values."""

UNREADABLE = 7
"""Class 7: a die that cannot be read (cocked: its top face leans away from the camera; or cut off)."""


class FaceClassifier:
    """Class probabilities (not a die, 1..6) for die-centred crops."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        if not path.is_file():
            raise ConfigError(f"face model {str(path)!r} is missing: run `python -m vision.train`")
        self._net = cv2.dnn.readNetFromONNX(str(path))
        self.probabilities(np.zeros((1, 32, 32, 3), np.uint8))  # the first forward sets the network up

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """(N, 8) probabilities for N BGR crops (N, 32, 32, 3): not a die, 1..6, unreadable."""
        if len(patches) == 0:
            return np.zeros((0, UNREADABLE + 1), np.float32)
        self._net.setInput(normalise(patches))
        return np.asarray(self._net.forward(), dtype=np.float32).reshape(len(patches), -1)


def classifier(path: Path | None = None) -> FaceClassifier:
    """The shared classifier for the model at ``path`` (default: :data:`MODEL_PATH` as set now), loaded once."""
    return _loaded(path or MODEL_PATH)


@lru_cache(maxsize=4)
def _loaded(path: Path) -> FaceClassifier:
    return FaceClassifier(path)
