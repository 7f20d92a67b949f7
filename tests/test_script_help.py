"""Every bench script and trainer answers ``--help`` with its usage and runs nothing: one of them
ran its whole benchmark on ``--help`` (``bench/hands.py``), one took it for a number
(``bench/seatnode_link.py``), and one failed with a traceback (a "%" in ``train_faces``'s help of
``--fonts``)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SCRIPTS = sorted(f"bench.{path.stem}" for path in (ROOT / "bench").glob("*.py") if path.stem != "__init__")
SCRIPTS += ["vision.train", "vision.train_faces"]


def test_every_bench_script_is_asked() -> None:
    assert {"bench.hands", "bench.seatnode_link", "bench.faces_reader"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_script_answers_help_with_its_usage(name: str, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    main = importlib.import_module(name).main
    monkeypatch.setattr(sys, "argv", [f"{name.split('.')[-1]}.py", "--help"])
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: ") and "--help" in out
