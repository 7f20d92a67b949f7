"""Soak: 10,000 polls of an RC522 spot with timing, tags coming and going at random, garbled and
timed-out scans between them. Every arrival and departure is reported once, none is invented."""

import random

import pytest

from controller.games.errors import DeviceTimeout
from controller.table.service import BEAT
from hardware.clock import SimClock
from hardware.devices import TagChange
from hardware.mfrc522 import MFRC522
from hardware.rfid import Mfrc522Reader
from hardware.sim_rc522 import ChipFault, EmulatedRC522, EmulatedTag

POLLS = 10_000
LEAVE_AFTER = 3
UIDS = ["DEADBEEF", "04A1B2C3D4E5F6", "01020304", "04A1B2C3D4E5F7"]


class Expected:
    """What a correct reader reports: the truth seen through successful scans, with hysteresis."""

    def __init__(self) -> None:
        self.present: set[str] = set()
        self.misses: dict[str, int] = {}
        self.events: list[tuple[str, TagChange]] = []

    def scan(self, truth: set[str]) -> None:
        for tag in sorted(self.present - truth):
            self.misses[tag] = self.misses.get(tag, 0) + 1
            if self.misses[tag] >= LEAVE_AFTER:
                self.present.discard(tag)
                del self.misses[tag]
                self.events.append((tag, TagChange.LEAVE))
        for tag in sorted(truth - self.present):
            self.present.add(tag)
            self.events.append((tag, TagChange.ARRIVE))
        for tag in truth:
            self.misses.pop(tag, None)


def fault_for(rng: random.Random) -> ChipFault:
    roll = rng.random()
    return ChipFault.GARBLED if roll < 0.04 else ChipFault.STUCK if roll < 0.06 else ChipFault.NONE


@pytest.mark.slow
def test_ten_thousand_polls_report_every_change_once_and_no_phantom_leave():
    rng = random.Random(19)
    clock = SimClock()
    chip = EmulatedRC522(clock=clock, transfer_s=rng.choice([50e-6, 200e-6]))
    reader = Mfrc522Reader({"pot": MFRC522(chip, clock)}, clock, leave_after=LEAVE_AFTER)
    truth: set[str] = set()
    expected, reported = Expected(), []
    for _ in range(POLLS):
        if rng.random() < 0.08:
            # at most two stones at once (they still collide): each present tag costs a
            # SELECT and an HLTA per scan, and the soak must stay short
            tag = rng.choice(sorted(truth) if len(truth) >= 2 else UIDS)
            if tag in truth:
                chip.remove(bytes.fromhex(tag))
                truth.discard(tag)
            else:
                chip.place(EmulatedTag(bytes.fromhex(tag)))
                truth.add(tag)
        chip.fault = fault_for(rng)
        clock.advance(BEAT)  # the table's loop polls the reader once a beat
        try:
            events = reader.poll()
        except DeviceTimeout:
            continue
        if chip.fault is ChipFault.NONE:
            expected.scan(truth)
        for event in events:
            assert event.change is TagChange.ARRIVE or event.tag not in truth, "phantom leave"
            reported.append((event.tag, event.change))
    assert reported == expected.events
    assert sum(change is TagChange.LEAVE for _, change in reported) > 100
