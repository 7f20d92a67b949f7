"""The test command (``scripts/test``, and ``scripts/test-pi`` under it): the suite on every core
through pytest-xdist, a test file to a worker, and still a failed run when one test fails."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ON_EVERY_CORE = "-n logical --dist loadfile --no-loadscope-reorder"
"""What the test commands tell pytest: as many workers as cores, each test file run whole by one."""


def command_lines(script: str, command: str) -> list[str]:
    """The lines of ``scripts/<script>`` that run ``command`` (``-m pytest``, ``bin/mypy``),
    continuation lines joined."""
    text = (ROOT / "scripts" / script).read_text().replace("\\\n", " ")
    return [line for line in text.splitlines() if command in line]


@pytest.mark.parametrize("script", ["test", "test-pi"])
def test_the_test_commands_run_the_suite_on_every_core_a_file_to_a_worker(script: str) -> None:
    # the suite ran on one core of CI's two (13 min 47 s, 14 min of CPU)
    lines = command_lines(script, "-m pytest")
    assert lines and all(ON_EVERY_CORE in " ".join(line.split()) for line in lines), lines


@pytest.mark.parametrize("folder", ["controller", "hardware", "web", "vision", "bench"])
def test_the_test_command_type_checks_strictly(folder: str) -> None:
    # the benches were left out, and 15 errors had gathered there unseen (bench/table.py's
    # `_asked` returned Any): the figures of the issues come from them
    strict = [line.split() for line in command_lines("test", "bin/mypy") if "--strict" in line.split()]
    assert any(folder in words for words in strict), strict


def test_a_fresh_machine_installs_the_plugin_that_runs_the_suite_on_every_core() -> None:
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert "pytest-xdist>=3.8" in extra  # 3.8 has --no-loadscope-reorder
    assert '"pytest-xdist>=3.8"' in (ROOT / "scripts" / "test-pi").read_text()


def run_suite(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest on ``folder``'s own tests, given the test command's options (and ``args`` after)."""
    (folder / "pytest.ini").write_text("[pytest]\n")  # not this repository's options
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST_")}
    return subprocess.run([sys.executable, "-m", "pytest", *ON_EVERY_CORE.split(), "-p", "no:cacheprovider",
                           *args, str(folder)], capture_output=True, text=True, cwd=folder, env=env)


def test_one_failing_test_fails_the_run_on_every_core(tmp_path: Path) -> None:
    (tmp_path / "test_wrong.py").write_text("def test_wrong():\n    assert 1 + 1 == 3\n")
    (tmp_path / "test_right.py").write_text("def test_right():\n    assert 1 + 1 == 2\n")
    done = run_suite(tmp_path)
    assert done.returncode == 1 and "1 failed, 1 passed" in done.stdout, done.stdout + done.stderr


def test_x_stops_the_run_in_the_file_of_the_first_failure(tmp_path: Path) -> None:
    # one worker, so the order is certain: the failing test is the first file's first
    body = "def test_wrong():\n    assert False\n\n" + "".join(
        f"def test_right_{n}():\n    pass\n\n" for n in range(5))
    (tmp_path / "test_a.py").write_text(body)
    (tmp_path / "test_b.py").write_text("def test_never_run():\n    pass\n")
    done = run_suite(tmp_path, "-n", "1", "-x", "-v")
    assert done.returncode != 0 and "stopping after 1 failures" in done.stdout, done.stdout + done.stderr
    assert "test_never_run" not in done.stdout
