"""The Pi install path: scripts/setup --pi (or on a Pi by itself) keeps Debian's picamera2 working."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def setup(tmp_path: Path, *args: str, model: str = "") -> subprocess.CompletedProcess[str]:
    """Run a copy of scripts/setup --dry-run in an empty checkout (no .venv yet)."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "hardware").mkdir()
    shutil.copy(ROOT / "scripts" / "setup", tmp_path / "scripts" / "setup")
    shutil.copy(ROOT / "hardware" / "pi-constraints.txt", tmp_path / "hardware")
    (tmp_path / "model").write_text(model)
    return subprocess.run([str(tmp_path / "scripts" / "setup"), "--dry-run", *args],
                          capture_output=True, text=True, timeout=30,
                          env={"PATH": "/usr/bin:/bin", "DICETABLE_PI_MODEL_FILE":
                               str(tmp_path / "model")})


def test_on_a_pi_the_venv_sees_debians_packages_and_numpy_stays_1(tmp_path):
    result = setup(tmp_path, model="Raspberry Pi 4 Model B Rev 1.5\0")
    assert result.returncode == 0, result.stderr
    assert "python3 -m venv --system-site-packages .venv" in result.stdout
    assert "-c hardware/pi-constraints.txt -e ." in result.stdout
    assert "import numpy, cv2, picamera2, simplejpeg" in result.stdout


def test_elsewhere_the_venv_is_a_plain_one_with_the_opencv_the_figures_were_measured_on(tmp_path):
    result = setup(tmp_path, "test")
    assert result.returncode == 0 and "--system-site-packages" not in result.stdout
    assert "-c scripts/dev-constraints.txt -e .[test]" in result.stdout
    pinned = [line for line in (ROOT / "scripts" / "dev-constraints.txt").read_text().splitlines()
              if line and not line.startswith("#")]
    assert pinned and all(line.startswith("opencv-python-headless==") for line in pinned)


def test_pi_can_be_asked_for(tmp_path):
    assert "--system-site-packages" in setup(tmp_path, "--pi").stdout


def test_unknown_option_is_refused(tmp_path):
    result = setup(tmp_path, "--fast")
    assert result.returncode == 2 and "unknown option --fast" in result.stderr


@pytest.mark.parametrize("line", ["numpy<2", "opencv-python-headless==4.10.0.84"])
def test_constraints_keep_numpy_1_and_an_opencv_built_for_it(line):
    lines = (ROOT / "hardware" / "pi-constraints.txt").read_text().splitlines()
    assert line in lines
