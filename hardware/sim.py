"""The simulated table: every simulated device from one place, sharing one SimClock, faults on demand.

:class:`SimTable` builds the simulated camera, seat panel (or simulated seat nodes running the
firmware's code) and RFID readers (the real MFRC522 driver over emulated RC522 chips) for a
:class:`~hardware.config.HardwareConfig`, and is the handle tests and the demo use to act on the
table: put dice in the tray, press buttons, put stones on spots, and break things
(``inject("camera:stopped")``).
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from controller.games.errors import InvalidInput
from hardware.camera_sim import CameraFault, SimCamera
from hardware.clock import SimClock
from hardware.config import HardwareConfig, load_config
from hardware.devices import Device, DeviceStatus, SeatPanel, TagEvent, TagReader
from hardware.faults import Fault, require, split_part, table_parts
from hardware.mfrc522 import MFRC522
from hardware.panels import SimPanel
from hardware.rfid import Mfrc522Reader, normalise_tag
from hardware.sim_rc522 import ChipFault, EmulatedRC522, EmulatedTag

UNKNOWN_TAG = "0BADC0DE"
SPI_TRANSFER_S = 100e-6   # one register access through spidev on a Pi, kernel overhead included
SEATNODE_FAULT_EVERY = 0.1  # how often a loose cable or line noise strikes a seat node


@dataclass
class Injected:
    """A fault in force: :meth:`strikes` says whether it hits the device's next use."""

    fault: Fault
    rng: random.Random
    spent: bool = False

    def strikes(self) -> bool:
        """True when this use of the device suffers the fault (a ``once`` fault only once)."""
        if self.fault.mode == "once":
            hit, self.spent = not self.spent, True
            return hit
        return self.fault.mode == "always" or self.rng.random() < self.fault.rate


class SimRfidReader(Mfrc522Reader):
    """The real MFRC522 reader over emulated chips, with the table's faults applied per use."""

    def __init__(self, table: SimTable, chips: Mapping[str, MFRC522], **options: Any) -> None:
        super().__init__(chips, table.clock, **options)
        self._table = table

    def poll(self) -> list[TagEvent]:
        """As :meth:`Mfrc522Reader.poll`, suffering the faults that strike this poll."""
        with self._table.rfid_faults():
            return super().poll()

    def check(self) -> DeviceStatus:
        """As :meth:`Mfrc522Reader.check`, suffering the faults that strike now."""
        with self._table.rfid_faults():
            return super().check()

    def scan(self, spot: str) -> frozenset[str]:
        """As :meth:`Mfrc522Reader.scan`, suffering the faults that strike this scan."""
        with self._table.rfid_faults():
            return super().scan(spot)


CHIP_FAULTS = {"timeout": ChipFault.STUCK, "dead": ChipFault.DEAD, "floating": ChipFault.FLOATING,
               "overheated": ChipFault.OVERHEATED, "missed": ChipFault.MISSED,
               "garbled": ChipFault.GARBLED, "noise": ChipFault.NOISE}


class SimTable:
    """The simulated devices of one table, on one :class:`SimClock`.

    ``seed`` makes the camera's renderings reproducible.
    """

    def __init__(self, config: HardwareConfig | None = None, clock: SimClock | None = None,
                 seed: int = 0) -> None:
        self.config = config or load_config()
        self.clock = clock or SimClock()
        self.camera = SimCamera(random.Random(seed), (self.config.camera.width,
                                                      self.config.camera.height),
                                clock=self.clock)
        self.camera.before_frame = self._camera_faults
        self.nodes: dict[int, Any] = {}
        self.links: dict[int, Any] = {}
        self.chips: dict[str, EmulatedRC522] = {}
        self.faults: list[Injected] = []
        self._fault_rng = random.Random(seed)
        self.panel: SeatPanel | None = self._panel()
        self.rfid: TagReader | None = self._rfid()
        for fault in self.config.faults:
            self.inject(fault)

    def _panel(self) -> SeatPanel | None:
        """The panel the configuration says, as the Pi's backend builds it (None: ``none``)."""
        panel = self.config.panel
        if panel.source == "none":
            return None
        if panel.source == "seatnode":
            from hardware.seatnode import SeatNodePanel
            links = {n.seat: self._link(n.seat) for n in self.config.seatnodes}
            names = panel.button_names()
            return SeatNodePanel(links, self.clock, names) if names else \
                SeatNodePanel(links, self.clock)
        layout = {s.seat: tuple(s.buttons) for s in panel.seats}
        sim_panel = SimPanel(layout, self.clock, panel.bounce_time, panel.hold_time)
        sim_panel.before_use = self._panel_faults
        return sim_panel

    def _rfid(self) -> TagReader | None:
        """The readers the configuration says, as the Pi's backend builds them (None: ``none``,
        or RC522s with no reader listed)."""
        if not self.config.rfid.present:
            return None
        if self.config.rfid.source == "seatnode":
            from hardware.seatnode import SeatNodeReader
            spots = {n.spot: (self._link(n.seat), 0) for n in self.config.seatnodes
                     if n.spot}
            return SeatNodeReader(spots, self.clock, seats=self.links)
        rfid = self.config.rfid
        self.chips = {r.spot: EmulatedRC522(clock=self.clock, transfer_s=SPI_TRANSFER_S)
                      for r in rfid.readers}
        chips = {spot: MFRC522(chip, self.clock, rx_gain_db=rfid.rx_gain_db)
                 for spot, chip in self.chips.items()}
        wiring = {r.spot: f"GPIO {r.chip_select}" for r in rfid.readers}
        return SimRfidReader(self, chips, wiring=wiring, leave_after=rfid.leave_after,
                             seats=rfid.seats())

    def _link(self, seat: int) -> Any:
        """The Pi-side link to seat ``seat``'s simulated node (one node and link per seat)."""
        if seat not in self.nodes:
            from hardware.seatnode_sim import SimSeatNode
            self.nodes[seat] = SimSeatNode(self.clock)
            url = next(n.url for n in self.config.seatnodes if n.seat == seat)
            self.links[seat] = self.nodes[seat].link(url)
            if len(self.nodes) == 1:
                self.clock.call_later(SEATNODE_FAULT_EVERY, self._seatnode_tick)
        return self.links[seat]

    def devices(self) -> list[Device]:
        """Every simulated device, in the order ``doctor`` lists them."""
        return [d for d in (self.camera, self.panel, self.rfid) if d is not None]

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
        if self.panel is None:
            raise InvalidInput(f"no button to press at seat {seat}: the table has no panel "
                               "(panel.source = 'none')")
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
        spots = self.rfid.spots if self.rfid is not None else ()
        raise KeyError(f"no simulated spot {spot!r}; spots: {spots}")

    def inject(self, text: str) -> Fault:
        """Break a device, now or at any later time: ``camera:stopped``, ``rfid:timeout@once``,
        ``rfid:missed@intermittent=0.3``, ``camera:slow=2``, ``seatnode:disconnected``, ...;
        one reader or seat node only: ``rfid[seat1]:timeout``, ``seatnode[2]:disconnected``.

        :raises InvalidInput: unknown fault, or one that this table has no device or part for.
        """
        fault = Fault.parse(text)
        self._require(fault, text)
        self.faults.append(Injected(fault, self._fault_rng))
        if (fault.device, fault.kind) == ("rfid", "unknown-tag"):
            self.place(self._stray_spot(fault), UNKNOWN_TAG)
        if fault.device == "seatnode":
            self._seatnode_strike()  # a pulled cable is out now, not at the next tick
        return fault

    def clear(self, what: str | None = None) -> list[Fault]:
        """Repair: every fault (None), a device's (``camera``), a part's (``rfid[seat1]``: the
        faults injected at that part, not those of every part) or one fault (``rfid:timeout``,
        of any part and mode; ``rfid[seat1]:timeout``); returns the faults cleared. The devices
        work again from their next use.

        :raises InvalidInput: a part this table does not have, as :meth:`inject`.
        """
        if what is not None:
            self._require_part(what)
        gone = [i for i in self.faults if _matches(i.fault, what)]
        self.faults = [i for i in self.faults if i not in gone]
        for injected in gone:
            self._repair(injected.fault)
        return [injected.fault for injected in gone]

    def _require(self, fault: Fault, text: str) -> None:
        """Refuse a fault this table has no device or part for, as its configuration does."""
        require(fault, table_parts(self.config), text)

    def _require_part(self, what: str) -> None:
        """Refuse ``clear(what)`` naming a part this table lacks: a typo would clear nothing."""
        whole, part = split_part(what)
        if part:
            self._require(Fault(whole.partition(":")[0], "", part=part), what)

    def _stray_spot(self, fault: Fault) -> str:
        """Where ``rfid:unknown-tag`` lays its tag: the spot it names, else the first."""
        return fault.part or next(iter(self.chips))

    def _repair(self, fault: Fault) -> None:
        if (fault.device, fault.kind) == ("rfid", "unknown-tag"):
            self.remove(self._stray_spot(fault), UNKNOWN_TAG)
        elif fault.device == "seatnode":
            for seat, node in self.nodes.items():
                if _strikes(fault, str(seat)):
                    node.plug()
                    node.reader_fault = _reader_fault(set())

    def _striking(self, device: str) -> list[Fault]:
        """The faults of ``device`` that strike its use now; spent ``once`` faults go."""
        hits = [i.fault for i in self.faults if i.fault.device == device and i.strikes()]
        self.faults = [i for i in self.faults if not i.spent]
        return hits

    def _camera_faults(self) -> None:
        self.camera.fault = CameraFault.NONE
        for fault in self._striking("camera"):
            if fault.kind == "drops" and fault.mode == "always":
                self.camera.fault = CameraFault.DROPS
            elif fault.kind == "slow":
                self.camera.fault, self.camera.slow_s = CameraFault.SLOW, fault.value
            else:
                self.camera.fault = CameraFault(fault.kind if fault.kind == "stopped"
                                                else "dropped")

    def _panel_faults(self) -> None:
        assert isinstance(self.panel, SimPanel)
        self.panel.fault = next((f.kind for f in self._striking("panel")), "")

    @contextlib.contextmanager
    def rfid_faults(self) -> Iterator[None]:
        """The RC522s suffer the rfid faults that strike this use, each chip those of its spot
        and of every spot, and are sound again after."""
        hits = self._striking("rfid")
        lying = {spot: _suffer(chip, [f for f in hits if _strikes(f, spot)])
                 for spot, chip in self.chips.items()}
        try:
            yield
        finally:
            for spot, tags in lying.items():
                self.chips[spot].tags = tags

    def _seatnode_tick(self) -> None:
        self._seatnode_strike()
        self.clock.call_later(SEATNODE_FAULT_EVERY, self._seatnode_tick)

    def _seatnode_strike(self) -> None:
        """A loose cable, line noise, a failed reader: the seat nodes suffer what strikes now."""
        hits = self._striking("seatnode")
        for seat, node in self.nodes.items():
            kinds = {fault.kind for fault in hits if _strikes(fault, str(seat))}
            if "disconnected" in kinds:
                node.unplug()
            else:
                node.plug()
            if "garbage" in kinds:
                node.send_garbage()
            node.reader_fault = _reader_fault(kinds)

    def close(self) -> None:
        """Close every device."""
        for device in self.devices():
            device.close()


def _matches(fault: Fault, what: str | None) -> bool:
    """Whether ``clear(what)`` clears ``fault``: everything, its device, or its kind, each
    either of any part or of the part ``what`` names."""
    if what is None:
        return True
    whole, part = split_part(what)
    device, _, kind = whole.partition(":")
    kind = kind.partition("@")[0].partition("=")[0]
    return (fault.device == device and (not kind or fault.kind == kind)
            and (not part or fault.part == part))


def _reader_fault(kinds: set[str]) -> Any:
    """The ``seatnode:reader-...`` fault among ``kinds``, the first by name when several strike
    (``ReaderFault.NONE`` when none does): how the node's RC522 misbehaves now."""
    from hardware.seatnode_sim import ReaderFault  # lazily, as the seat nodes are built
    return next((ReaderFault(kind) for kind in sorted(kinds) if kind.startswith("reader-")),
                ReaderFault.NONE)


def _suffer(chip: EmulatedRC522, faults: list[Fault]) -> list[EmulatedTag]:
    """Give ``chip`` the ``faults`` that strike it now; the tags lying on it, which a
    ``wrong-tag`` fault swaps for misread ones until the use ends."""
    chip.fault = next((CHIP_FAULTS[f.kind] for f in faults if f.kind in CHIP_FAULTS),
                      ChipFault.NONE)
    chip.transfer_s = max([SPI_TRANSFER_S] + [f.value for f in faults if f.kind == "slow"])
    lying = chip.tags
    if any(f.kind == "wrong-tag" for f in faults):
        chip.tags = [EmulatedTag(misread(tag.uid)) for tag in lying]
    return lying


def _strikes(fault: Fault, part: str) -> bool:
    """Whether ``fault`` strikes ``part`` (a spot's RC522, a seat's node): its own, or every."""
    return fault.part in ("", part)


def misread(uid: bytes) -> bytes:
    """The UID a reader gets wrong: its last byte damaged, as a bit error that the tag's BCC
    still covers (a real misread passes every check: that is why it is dangerous)."""
    return uid[:-1] + bytes([uid[-1] ^ 0x01])
