"""The simulated table: every simulated device from one place, sharing one SimClock, faults on demand.

:class:`SimTable` builds the simulated camera, seat panel (or simulated seat nodes running the
firmware's code) and RFID readers (the real MFRC522 driver over emulated RC522 chips) for a
:class:`~hardware.config.HardwareConfig`, and is the handle tests and the demo use to act on the
table: put dice in the tray, press buttons, put stones on spots, and break things
(``inject("camera:stopped")``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence

from controller.games.errors import ConfigError, InvalidInput
from hardware.camera_sim import CameraFault, SimCamera
from hardware.clock import SimClock
from hardware.config import HardwareConfig, load_config
from hardware.devices import Device, SeatPanel, TagReader
from hardware.mfrc522 import MFRC522
from hardware.panels import SimPanel
from hardware.rfid import Mfrc522Reader, normalise_tag
from hardware.sim_rc522 import ChipFault, EmulatedRC522, EmulatedTag

FAULTS: dict[str, tuple[str, ...]] = {
    "camera": ("drops", "stopped"),
    "panel": ("disconnected",),
    "rfid": ("timeout", "dead", "unknown-tag"),
    "seatnode": ("disconnected", "garbage"),
}
UNKNOWN_TAG = "0BADC0DE"
SPI_TRANSFER_S = 100e-6   # one register access through spidev on a Pi, kernel overhead included


@dataclass(frozen=True)
class Fault:
    """A fault to inject: ``device:kind``, e.g. ``camera:stopped``."""

    device: str
    kind: str

    @classmethod
    def parse(cls, text: str) -> Fault:
        """Parse ``device:kind``.

        :raises InvalidInput: not one of :data:`FAULTS`; the message lists them.
        """
        device, _, kind = text.strip().partition(":")
        if kind not in FAULTS.get(device, ()):
            known = ", ".join(f"{d}:{k}" for d, kinds in FAULTS.items() for k in kinds)
            raise InvalidInput(f"unknown simulated fault {text!r} (faults: {known})")
        return cls(device, kind)

    def __str__(self) -> str:
        return f"{self.device}:{self.kind}"


class SimTable:
    """The simulated devices of one table, on one :class:`SimClock`.

    ``seed`` makes the camera's renderings reproducible.
    """

    def __init__(self, config: HardwareConfig | None = None, clock: SimClock | None = None,
                 seed: int = 0) -> None:
        self.config = config or load_config()
        self.clock = clock or SimClock()
        self.camera = SimCamera(random.Random(seed), (self.config.camera.width,
                                                      self.config.camera.height))
        self.nodes: dict[int, Any] = {}
        self.links: dict[int, Any] = {}
        self.chips: dict[str, EmulatedRC522] = {}
        self.panel: SeatPanel = self._panel()
        self.rfid: TagReader = self._rfid()
        for fault in self.config.faults:
            self.inject(fault)

    def _panel(self) -> SeatPanel:
        panel = self.config.panel
        if panel.source == "seatnode":
            from hardware.seatnode import SeatNodePanel
            return SeatNodePanel({seat: self._link(seat) for seat in self._node_seats()},
                                 self.clock)
        layout = {s.seat: tuple(s.buttons) for s in panel.seats}
        return SimPanel(layout, self.clock, panel.bounce_time, panel.hold_time)

    def _rfid(self) -> TagReader:
        if self.config.rfid.source == "seatnode":
            from hardware.seatnode import SeatNodeReader
            spots = {n.spot: (self._link(n.seat), 0) for n in self.config.seatnodes
                     if n.spot}
            return SeatNodeReader(spots, self.clock)
        rfid = self.config.rfid
        self.chips = {r.spot: EmulatedRC522(clock=self.clock, transfer_s=SPI_TRANSFER_S)
                      for r in rfid.readers}
        chips = {spot: MFRC522(chip, self.clock, rx_gain_db=rfid.rx_gain_db)
                 for spot, chip in self.chips.items()}
        wiring = {r.spot: f"GPIO {r.chip_select}" for r in rfid.readers}
        return Mfrc522Reader(chips, self.clock, wiring=wiring, leave_after=rfid.leave_after)

    def _node_seats(self) -> list[int]:
        if not self.config.seatnodes:
            raise ConfigError("panel.source = 'seatnode' needs [[seatnodes]] entries")
        return [n.seat for n in self.config.seatnodes]

    def _link(self, seat: int) -> Any:
        """The Pi-side link to seat ``seat``'s simulated node (one node and link per seat)."""
        if seat not in self.nodes:
            from hardware.seatnode_sim import SimSeatNode
            self.nodes[seat] = SimSeatNode(self.clock)
            url = next(n.url for n in self.config.seatnodes if n.seat == seat)
            self.links[seat] = self.nodes[seat].link(url)
        return self.links[seat]

    def devices(self) -> list[Device]:
        """Every simulated device, in the order ``doctor`` lists them."""
        devices: list[Device] = [self.camera, self.panel, self.rfid]
        return devices

    def show_dice(self, values: Sequence[int], **spec: Any) -> None:
        """Put dice showing ``values`` in the tray (see :meth:`SimCamera.show`)."""
        self.camera.show(values, **spec)

    def press(self, seat: int, button: str) -> None:
        """Close ``button``'s contact at ``seat`` (settles after the panel's bounce time)."""
        self._contact(seat, button, True)

    def release(self, seat: int, button: str) -> None:
        """Open ``button``'s contact at ``seat``."""
        self._contact(seat, button, False)

    def _contact(self, seat: int, button: str, closed: bool) -> None:
        if isinstance(self.panel, SimPanel):
            self.panel.contact(seat, button, closed)
            return
        index = self.panel.buttons(seat).index(button)
        node = self.nodes[seat]
        (node.press if closed else node.release)(index)

    def place(self, spot: str, tag: str) -> None:
        """Put the tag ``tag`` (hex UID) on ``spot``'s antenna."""
        uid = bytes.fromhex(normalise_tag(tag))
        if spot in self.chips:
            self.chips[spot].place(EmulatedTag(uid))
        else:
            self.nodes[self._seat_of(spot)].place_tag(uid)

    def remove(self, spot: str, tag: str) -> None:
        """Take the tag ``tag`` off ``spot``."""
        uid = bytes.fromhex(normalise_tag(tag))
        if spot in self.chips:
            self.chips[spot].remove(uid)
        else:
            self.nodes[self._seat_of(spot)].remove_tag(uid)

    def _seat_of(self, spot: str) -> int:
        for node in self.config.seatnodes:
            if node.spot == spot:
                return node.seat
        raise KeyError(f"no simulated spot {spot!r}; spots: {self.rfid.spots}")

    def inject(self, text: str) -> Fault:
        """Break a device: ``camera:drops``, ``rfid:timeout``, ``seatnode:disconnected``, ...

        :raises InvalidInput: unknown fault, or one that this table has no device for.
        """
        fault = Fault.parse(text)
        getattr(self, f"_inject_{fault.device}")(fault.kind)
        return fault

    def _inject_camera(self, kind: str) -> None:
        self.camera.fault = CameraFault(kind)

    def _inject_panel(self, kind: str) -> None:
        if not isinstance(self.panel, SimPanel):
            raise InvalidInput("fault panel:... needs the GPIO panel; use seatnode:... here")
        self.panel.fault = kind

    def _inject_rfid(self, kind: str) -> None:
        if not self.chips:
            raise InvalidInput("fault rfid:... needs RC522 readers (rfid.source = 'mfrc522')")
        if kind == "unknown-tag":
            self.place(next(iter(self.chips)), UNKNOWN_TAG)
            return
        for chip in self.chips.values():
            chip.fault = ChipFault.STUCK if kind == "timeout" else ChipFault.DEAD

    def _inject_seatnode(self, kind: str) -> None:
        if not self.nodes:
            raise InvalidInput("fault seatnode:... needs [[seatnodes]] in the configuration")
        for node in self.nodes.values():
            node.unplug() if kind == "disconnected" else node.send_garbage()

    def close(self) -> None:
        """Close every device."""
        for device in self.devices():
            device.close()
