"""Shared by the reader's tests: the bench's scoring (``bench/dice_reader.py``), loaded once."""

from __future__ import annotations

import functools
import importlib.util
import sys
from pathlib import Path
from types import ModuleType


@functools.cache
def dice_bench() -> ModuleType:
    """``bench/dice_reader.py`` as a module (the bench is scripts, not a package)."""
    path = Path(__file__).resolve().parents[2] / "bench" / "dice_reader.py"
    spec = importlib.util.spec_from_file_location("bench_vision", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_vision"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module
