"""The bench scripts: run as ``python bench/NAME.py``, their folder comes first on the import path."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_bench_script_is_named_as_a_package_of_the_checkout() -> None:
    # bench/vision.py once hid the vision package, and bench/web.py the web one, from their own
    # imports: each needed the checkout put first on the path
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file()}
    assert {"controller", "vision", "web", "hardware"} <= packages
    scripts = {p.stem for p in (ROOT / "bench").glob("*.py")}
    assert scripts and not scripts & packages
