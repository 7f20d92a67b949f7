"""The bring-up check's antennas: what a scan garbled in one branch of the UID tree counts."""

from hardware.bringup import SCANS, antenna_reports
from hardware.mfrc522 import MFRC522
from hardware.rfid import Mfrc522Reader
from hardware.sim_rc522 import EmulatedRC522, EmulatedTag, from_bits

TEST_TAG, EDGE = bytes.fromhex("DEADBEEF"), bytes.fromhex("DEADBEE0")


def report_of(chip):
    """The bring-up report of the one spot, seat0, whose antenna is ``chip``'s."""
    reader = Mfrc522Reader({"seat0": MFRC522(chip, chip.clock)}, chip.clock)
    (report,) = antenna_reports(reader, chip.clock)
    return report


def test_a_scan_garbled_in_one_branch_is_a_hit_for_the_stones_it_read_and_says_it_garbled():
    # each scan raised TagProtocolError for EDGE's garbled SAK: 20 errors and "check the reader's
    # wiring", where the test tag was read at every scan and the aim of the tags was the trouble
    chip = EmulatedRC522()
    chip.place(EmulatedTag(TEST_TAG))
    chip.place(EmulatedTag(EDGE))
    chip.garbles = lambda bits: len(bits) == 72 and from_bits(bits)[2:6] == EDGE  # its SELECT's SAK
    report = report_of(chip)
    assert (report.hits, report.misses, report.errors, report.garbled) == (SCANS, 0, 0, SCANS)
    assert report.tags == ("DEADBEEF",) and report.to_json()["garbled"] == SCANS
    assert report.advice.startswith(f"{SCANS} scans came garbled: move the tag to the middle")


def test_an_antenna_reading_its_tag_clean_has_no_garbled_scan():
    chip = EmulatedRC522()
    chip.place(EmulatedTag(TEST_TAG))
    report = report_of(chip)
    assert (report.hits, report.garbled, report.advice) == (SCANS, 0, "ok")
