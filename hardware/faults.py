"""Simulated faults as text: ``device[part]:kind[=value][@mode[=rate]]``, and whether a table has
the device and the part a fault names.

Light on purpose (no device code): the configuration checks its ``[hardware] faults`` and
``DICETABLE_SIM_FAULTS`` here as it is read, before a command opens a file, and the simulated
table (:mod:`hardware.sim`) checks every fault injected while it runs with the same functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence

from controller.games.errors import InvalidInput

if TYPE_CHECKING:
    from hardware.config import HardwareConfig

FAULTS: dict[str, tuple[str, ...]] = {
    "camera": ("drops", "stopped", "slow"),
    "panel": ("disconnected",),
    "rfid": ("timeout", "dead", "floating", "overheated", "missed", "garbled", "noise",
             "wrong-tag", "slow", "unknown-tag"),
    "seatnode": ("disconnected", "garbage", "reader-failed", "reader-overheated", "reader-noise"),
}
PARTS = {"rfid": "SPOT", "seatnode": "SEAT"}  # the devices one part of which a fault may strike
MODES = ("always", "once", "intermittent")
STANDING = {("rfid", "unknown-tag")}   # a tag lying on a spot: it is there until cleared
SLOW_DEFAULTS = {"camera": 0.5, "rfid": 0.002}   # seconds per frame / per SPI transfer


@dataclass(frozen=True)
class Fault:
    """A fault to inject: ``device[part]:kind[=value][@mode[=rate]]``.

    ``mode`` is ``always`` (until cleared), ``once`` (the next use only) or ``intermittent``
    (each use with probability ``rate``, 0.3 unless given); ``value`` is the delay of ``slow``.
    ``part`` names the one RC522 (its spot) or seat node (its seat) struck, as a real table
    loses one reader or one cable: the code that must cope with it is the code that carries on
    with the others. Without it (``part`` empty) every reader or node is struck at once.

    >>> str(Fault.parse("rfid:timeout@intermittent=0.25"))
    'rfid:timeout@intermittent=0.25'
    >>> Fault.parse("camera:slow=2").value
    2.0
    >>> fault = Fault.parse("seatnode[2]:disconnected@once")
    >>> fault.part, str(fault)
    ('2', 'seatnode[2]:disconnected@once')
    >>> str(Fault.parse("rfid[pot]:timeout"))
    'rfid[pot]:timeout'
    """

    device: str
    kind: str
    mode: str = "always"
    rate: float = 1.0
    value: float = 0.0
    part: str = ""

    @classmethod
    def parse(cls, text: str) -> Fault:
        """Parse a fault's text.

        :raises InvalidInput: not one of :data:`FAULTS`, a part of a device without parts
            (:data:`PARTS`), or a bad mode; the message lists them. Whether the table has
            that part is for :func:`require` to say.
        """
        whole, part = split_part(text.strip())
        spec, _, mode_text = whole.partition("@")
        device, _, kind_text = spec.partition(":")
        kind, _, value_text = kind_text.partition("=")
        if kind not in FAULTS.get(device, ()):
            known = ", ".join(f"{d}:{k}" for d, kinds in FAULTS.items() for k in kinds)
            raise InvalidInput(f"unknown simulated fault {text!r} (faults: {known}; "
                               "add @once or @intermittent=0.3 for faults that come and go, "
                               "rfid[SPOT]:... or seatnode[SEAT]:... for one reader or node)")
        mode, _, rate_text = (mode_text or "always").partition("=")
        if mode not in MODES or (rate_text and mode != "intermittent") or (
                mode != "always" and (device, kind) in STANDING):
            raise InvalidInput(f"simulated fault {text!r}: the mode is one of @once, "
                               "@intermittent=RATE (0 < RATE <= 1), or none for always")
        rate = _number(text, rate_text, 0.3) if mode == "intermittent" else 1.0
        value = _number(text, value_text, SLOW_DEFAULTS.get(device, 0.0)) if kind == "slow" \
            else 0.0
        if (value_text and kind != "slow") or not 0 < rate <= 1 or value < 0:
            raise InvalidInput(f"simulated fault {text!r}: only slow takes =SECONDS, and a rate "
                               "lies in (0, 1]")
        return cls(device, kind, mode, rate, value, part)

    def __str__(self) -> str:
        device = f"{self.device}[{self.part}]" if self.part else self.device
        text = f"{device}:{self.kind}" + (f"={self.value:g}" if self.kind == "slow" else "")
        if self.mode == "intermittent":
            return f"{text}@intermittent={self.rate:g}"
        return text if self.mode == "always" else f"{text}@{self.mode}"


def split_part(text: str) -> tuple[str, str]:
    """``text`` without the part it names, and the part: ``rfid[pot]:timeout`` is
    ``rfid:timeout`` striking the reader under 'pot' (``""``: every reader).

    :raises InvalidInput: a part of a device not in :data:`PARTS`, or an empty or unclosed one.
    """
    device, bracket, rest = text.partition("[")
    if not bracket:
        return text, ""
    part, closed, tail = rest.partition("]")
    if device not in PARTS or not closed or not part:
        raise InvalidInput(f"simulated fault {text!r}: only a reader or a seat node can be "
                           "named, as rfid[SPOT]:... or seatnode[SEAT]:... (e.g. "
                           "rfid[seat1]:timeout, seatnode[2]:disconnected)")
    return device + tail, part


def _number(text: str, value: str, default: float) -> float:
    try:
        return float(value) if value else default
    except ValueError:
        raise InvalidInput(f"simulated fault {text!r}: {value!r} is not a number") from None


NEEDS = {
    "panel": "fault panel:... needs the GPIO panel (panel.source = 'gpio'; a seat node's breaks "
             "with seatnode:...)",
    "rfid": "fault rfid:... needs RC522 readers (rfid.source = 'mfrc522')",
    "seatnode": "fault seatnode:... needs [[seatnodes]] in the configuration",
}
"""Why a table without the device refuses its faults, by device."""


def table_parts(config: HardwareConfig) -> dict[str, tuple[str, ...]]:
    """The devices the simulated table of ``config`` has, each with the parts a fault may name
    (:data:`PARTS`): the RC522s' spots, the seat nodes' seats. A device it lacks is left out.
    Read from the configuration alone, so a fault is checked before any device is built.

    >>> from hardware.config import load_config
    >>> table_parts(load_config(None, {}))
    {'camera': (), 'panel': (), 'rfid': ('seat0', 'seat1', 'seat2', 'seat3')}
    """
    panel, rfid = config.panel.source, config.rfid.source
    parts: dict[str, tuple[str, ...]] = {"camera": ()}
    if panel == "gpio":
        parts["panel"] = ()
    if rfid == "mfrc522" and config.rfid.readers:
        parts["rfid"] = tuple(r.spot for r in config.rfid.readers)
    nodes = [n.seat for n in config.seatnodes if panel == "seatnode" or
             (rfid == "seatnode" and n.spot)]
    if nodes:
        parts["seatnode"] = tuple(str(seat) for seat in dict.fromkeys(nodes))
    return parts


def require(fault: Fault, parts: Mapping[str, Sequence[str]], text: str) -> None:
    """Refuse ``fault`` (given as ``text``) when the table whose devices and parts ``parts``
    lists (:func:`table_parts`) has no device or part for it: a typo would break nothing.

    :raises InvalidInput: the message lists the parts the table has.
    """
    if fault.device not in parts:
        raise InvalidInput(NEEDS[fault.device])
    named = parts[fault.device]
    if fault.part and fault.part not in named:
        raise InvalidInput(f"simulated fault {text!r}: this table has no "
                           f"{fault.device}[{fault.part}] ({PARTS[fault.device].lower()}s: "
                           f"{', '.join(named)})")
