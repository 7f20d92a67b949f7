"""Shared by the reader's tests: the bench scripts (``bench/dice_reader.py``'s scoring and others), loaded once."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Sequence

from vision.read import DieReading


@functools.cache
def dice_bench() -> ModuleType:
    """``bench/dice_reader.py`` as a module (the bench is scripts, not a package)."""
    return bench_script("dice_reader.py", "bench_vision")


@functools.cache
def bench_script(file: str, module_name: str) -> ModuleType:
    """The bench script ``bench/<file>`` as the module ``module_name``, loaded once."""
    path = Path(__file__).resolve().parents[2] / "bench" / file
    spec = importlib.util.spec_from_file_location(module_name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def found(truth_box: tuple[float, float, float, float], dice: Sequence[DieReading]) -> list[DieReading]:
    """The readings whose centre lies in a die's true box."""
    x, y, w, h = truth_box
    return [d for d in dice if x <= d.center[0] <= x + w and y <= d.center[1] <= y + h]
