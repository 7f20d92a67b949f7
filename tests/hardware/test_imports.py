"""Every hardware module imports on a machine without picamera2, spidev or a Raspberry Pi."""

import pkgutil
import subprocess
import sys

import hardware

BLOCK_PI_MODULES = (
    "import sys\n"
    "for name in ('picamera2', 'spidev', 'RPi', 'RPi.GPIO', 'lgpio', 'pigpio', 'libcamera'):\n"
    "    sys.modules[name] = None  # importing any of them now raises ImportError\n"
)


def run(code, block=True):
    prefix = BLOCK_PI_MODULES if block else "import sys\n"
    return subprocess.run([sys.executable, "-c", prefix + code],
                          capture_output=True, text=True, timeout=120)


def hardware_modules():
    return sorted(f"hardware.{m.name}" for m in pkgutil.iter_modules(hardware.__path__))


def test_packages_import_without_pi_modules():
    result = run("import controller, vision, web, hardware")
    assert result.returncode == 0, result.stderr


def test_every_hardware_module_imports_without_pi_modules():
    modules = hardware_modules()
    code = ("import importlib\n"
            f"for name in {modules!r}:\n"
            "    importlib.import_module(name)\n"
            "print(len(sys.modules))")
    result = run(code)
    assert result.returncode == 0, result.stderr


def test_importing_hardware_loads_no_pi_module_even_where_installed():
    code = ("import importlib\n"
            f"for name in {hardware_modules()!r}:\n"
            "    importlib.import_module(name)\n"
            "loaded = [n for n in ('picamera2', 'spidev') if sys.modules.get(n) is not None]\n"
            "assert not loaded, loaded")
    result = run(code, block=False)
    assert result.returncode == 0, result.stderr


def test_the_module_list_covers_the_backends():
    assert {"hardware.camera_picamera2", "hardware.mfrc522", "hardware.panels"} <= set(
        hardware_modules())
