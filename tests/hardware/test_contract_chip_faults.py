"""The RC522's own faults, injected as any other: an overheated chip (TempErr) and answers drowned in
noise, on the Pi's readers (``rfid:overheated``, ``rfid:noise``) and a seat node's
(``seatnode:reader-overheated``, ``seatnode:reader-noise``), each reader backend the same way."""

import pytest

from controller.games.errors import DeviceError
from hardware.devices import TagChange
from hardware.rfid import GARBLING, GARBLING_FIX, OVERHEATED, OVERHEATED_FIX

STONE, CHIP = "DEADBEEF", "04A1B2C3D4E5F6"


def fault(rig, kind):
    """The fault ``kind`` of the reader under spot seat0: the Pi's RC522 or seat 0's node's."""
    return f"rfid[seat0]:{kind}" if rig.table.chips else f"seatnode[0]:reader-{kind}"


def struck(rig, kind):
    """A stone lies on seat0 and has arrived; then the reader under it gets the fault ``kind``."""
    rig.place("seat0", STONE)
    rig.drain()
    rig.table.inject(fault(rig, kind))


def failures(rig, seconds):
    """The errors the reader's polls raised while ``seconds`` of the table's loop passed (a poll
    every 50 ms), and the events of the others."""
    found, events = [], []
    for _ in range(round(seconds / 0.05)):
        rig.advance(0.05)
        try:
            events += rig.device.poll()
        except DeviceError as err:
            found.append(err)
    return found, events


def arrivals_once_back(rig):
    """The events of the reader's polls once the fault is cleared: a seat node says the reader
    works again at its next scan (every 100 ms) and the link carries it, so a poll or two in the
    first 0.5 s may still raise; none after."""
    _, settling = failures(rig, 0.5)
    raised, events = failures(rig, 0.5)
    assert raised == []
    return [(e.tag, e.change) for e in settling + events]


def test_an_overheated_reader_fails_with_its_fix_keeps_its_stones_and_reads_once_cooled(
        sim_reader_rig):
    rig = sim_reader_rig
    struck(rig, "overheated")
    raised, events = failures(rig, 1.0)
    assert raised and events == [] and rig.device.tags("seat0") == {STONE}
    assert OVERHEATED in raised[-1].problem and "'seat0'" in raised[-1].problem
    assert raised[-1].fix == OVERHEATED_FIX
    status = rig.device.check()
    assert not status.ok and OVERHEATED in status.problem and status.fix == OVERHEATED_FIX
    rig.table.clear()  # cooled: set up again, its antenna on, by itself
    rig.place("seat0", CHIP)
    assert arrivals_once_back(rig) == [(CHIP, TagChange.ARRIVE)]
    assert rig.device.tags("seat0") == {STONE, CHIP} and rig.device.check().ok


def test_a_reader_drowned_in_noise_changes_nothing_then_warns_until_it_reads_clean(
        sim_reader_rig):
    rig = sim_reader_rig
    struck(rig, "noise")
    rig.place("seat0", CHIP)
    raised, events = failures(rig, 2.5)  # past 20 scans on either: a node scans every 100 ms
    assert raised == [] and events == [] and rig.device.tags("seat0") == {STONE}
    warning = rig.device.warning()
    assert warning is not None and warning.ok and "'seat0'" in warning.problem
    assert GARBLING in warning.problem and warning.fix == GARBLING_FIX
    assert rig.device.check() == warning  # what doctor says, of the Pi's readers as of a node's
    rig.table.clear()
    assert arrivals_once_back(rig) == [(CHIP, TagChange.ARRIVE)]
    assert rig.device.warning() is None


@pytest.mark.parametrize("kind", ["overheated", "noise"])
def test_a_chip_fault_of_one_reader_reads_back_as_written(sim_reader_rig, kind):
    rig = sim_reader_rig
    text = fault(rig, kind) + "@once"
    assert str(rig.table.inject(text)) == text


def test_a_stone_garbling_a_few_scans_passes_the_readers_check(sim_reader_rig):
    # doctor's check of the Pi's readers took one garbled scan for a chip that does not finish
    # one, where the poll (and a seat node's check) take it for a scan that says nothing
    rig = sim_reader_rig
    struck(rig, "noise")
    assert failures(rig, 0.5) == ([], [])
    status = rig.device.check()
    # no failure; the Pi's check scans on until a scan is clean or 20 in a row garbled, and here
    # every scan garbles, so it may warn where a node has only told 5 scans yet
    assert status.ok and (not status.warns or GARBLING in status.problem)
