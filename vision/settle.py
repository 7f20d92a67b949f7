"""Settle detection: from a stream of frames, decide when the dice have stopped so the table reads once per roll.

Each frame is shrunk to a small grey image (about 1/8 size: sampling, not a full-frame colour
conversion, so it costs a fraction of a millisecond), compared with the previous one, and the
share of pixels that changed by more than a threshold (after removing any global brightness
shift, as auto-exposure makes) drives a small state machine:

    MOVING --quiet frame--> SETTLING --N quiet frames--> SETTLED --changed frame--> MOVING

``SettleStep.settled_now`` is true on exactly one frame per roll: the one that completes the quiet run.
A tray that is already still when the detector starts counts as settled after the same quiet run,
so the table reads what lies there once.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from enum import Enum
from typing import Sequence

import cv2
import numpy as np

from controller.games.errors import InvalidInput


class Motion(Enum):
    """What the tray is doing."""

    MOVING = "moving"
    SETTLING = "settling"
    SETTLED = "settled"


@dataclass(frozen=True)
class SettleConfig:
    """Tuning: working width in pixels, grey-level change that counts, share of changed pixels
    that means motion, and how many quiet frames in a row mean the dice have settled."""

    width: int = 192
    threshold: int = 14
    min_changed: float = 0.0005
    quiet_frames: int = 6

    def __post_init__(self) -> None:
        if self.width < 16 or self.quiet_frames < 1 or not 0 < self.min_changed < 1:
            raise InvalidInput(f"unusable settle configuration {self!r}")


@dataclass(frozen=True)
class SettleStep:
    """The detector's answer for one frame."""

    state: Motion
    changed: float
    settled_now: bool = False


def shrink(frame: np.ndarray, width: int) -> np.ndarray:
    """A small, lightly smoothed grey copy of a BGR (or grey) frame, ``width`` pixels wide."""
    height = max(1, round(frame.shape[0] * width / frame.shape[1]))
    small = cv2.resize(frame, (width, height), interpolation=cv2.INTER_LINEAR)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    return cv2.GaussianBlur(grey, (3, 3), 0)


def changed_share(before: np.ndarray, after: np.ndarray, threshold: int) -> float:
    """Share of pixels whose grey level changed by more than ``threshold``, ignoring a global shift."""
    delta = cv2.subtract(after, before, dtype=cv2.CV_16S)
    shift = int(round(float(np.median(delta[::4, ::4]))))
    moved = cv2.absdiff(delta, np.full_like(delta, shift)) > threshold
    return cv2.countNonZero(moved.view(np.uint8)) / delta.size


class SettleDetector:
    """Feed it every frame with :meth:`update`; it says when the dice have come to rest."""

    def __init__(self, config: SettleConfig = SettleConfig()) -> None:
        self.config = config
        self.state = Motion.SETTLING
        self._previous: np.ndarray | None = None
        self._quiet = 0

    def reset(self) -> None:
        """Forget the past: the next frames start a fresh quiet run."""
        self.state, self._previous, self._quiet = Motion.SETTLING, None, 0

    def update(self, frame: np.ndarray) -> SettleStep:
        """Take the next frame and return the state after it."""
        small = shrink(frame, self.config.width)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return SettleStep(self.state, 0.0)
        changed = changed_share(previous, small, self.config.threshold)
        if changed >= self.config.min_changed:
            self.state, self._quiet = Motion.MOVING, 0
            return SettleStep(self.state, changed)
        if self.state is Motion.SETTLED:
            return SettleStep(self.state, changed)
        self._quiet += 1
        if self._quiet >= self.config.quiet_frames:
            self.state = Motion.SETTLED
            return SettleStep(self.state, changed, settled_now=True)
        self.state = Motion.SETTLING
        return SettleStep(self.state, changed)


@dataclass(frozen=True)
class SettleTiming:
    """Median milliseconds per frame of the settle check and of one cvtColor + GaussianBlur."""

    settle_ms: float
    baseline_ms: float

    @property
    def ratio(self) -> float:
        """Settle check time over baseline time."""
        return self.settle_ms / self.baseline_ms


def time_settle(frames: Sequence[np.ndarray], rounds: int = 5) -> SettleTiming:
    """Time the settle check per frame over ``frames`` (cycled ``rounds`` times) on the current
    thread, against a grey conversion plus 5x5 gaussian blur of the same frames."""
    detector = SettleDetector()
    settle, baseline = [], []
    for _ in range(rounds):
        for frame in frames:
            start = time.perf_counter()
            detector.update(frame)
            middle = time.perf_counter()
            cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0)
            settle.append(middle - start)
            baseline.append(time.perf_counter() - middle)
    return SettleTiming(statistics.median(settle) * 1000, statistics.median(baseline) * 1000)
