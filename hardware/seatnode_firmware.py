"""The seat-node firmware's own modules (``firmware/*.py``), loaded for the Pi side and the sim.

The firmware is flat MicroPython modules (``link``, ``buttons``, ...) that import each other by
bare name, as they do on the Pico. They are loaded once, with ``firmware/`` on the path only while
importing, and the bare names are then taken out of ``sys.modules`` again so they cannot shadow or
be shadowed by anything else.
"""

from __future__ import annotations

import functools
import importlib
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

from controller.games.errors import DeviceError

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "firmware"
MODULES = ("link", "buttons", "leds", "rc522", "main")


@functools.cache
def firmware() -> SimpleNamespace:
    """The firmware modules as attributes (``firmware().link.Link``, ``firmware().main.SeatNode``).

    :raises DeviceError: the checkout has no ``firmware/`` folder next to ``hardware/``.
    """
    if not (FIRMWARE_DIR / "link.py").is_file():
        raise DeviceError(f"seat-node firmware not found in {FIRMWARE_DIR}: reinstall dicetable "
                          "(its wheel ships firmware/ next to hardware/)")
    saved = {name: sys.modules.pop(name) for name in MODULES if name in sys.modules}
    sys.path.insert(0, str(FIRMWARE_DIR))
    try:
        loaded: dict[str, ModuleType] = {name: importlib.import_module(name) for name in MODULES}
    finally:
        sys.path.remove(str(FIRMWARE_DIR))
        for name in MODULES:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
    return SimpleNamespace(**loaded)
