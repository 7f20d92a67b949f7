"""Fixtures for the firmware's host tests: the firmware modules and a fake ``machine`` module."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from hardware.seatnode_firmware import firmware


def _load_fake_machine() -> ModuleType:
    spec = importlib.util.spec_from_file_location("machine", Path(__file__).with_name("fake_machine.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def machine() -> Iterator[ModuleType]:
    """``tests/firmware/fake_machine.py`` installed as ``sys.modules["machine"]``."""
    module = _load_fake_machine()
    saved = sys.modules.get("machine")
    sys.modules["machine"] = module
    yield module
    if saved is None:
        sys.modules.pop("machine", None)
    else:
        sys.modules["machine"] = saved


@pytest.fixture
def fw() -> SimpleNamespace:
    """The firmware's modules, as the Pi side loads them (``fw.link``, ``fw.main``, ...)."""
    return firmware()


class Ticks:
    """A millisecond tick counter that tests move by hand."""

    def __init__(self, start: int = 0) -> None:
        self.ms = start

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def ticks() -> Ticks:
    """A fresh hand-driven millisecond counter starting at 0."""
    return Ticks()
