"""The TagReader contract, run against every tag reader backend."""

import pytest

from hardware.devices import TagChange, TagReader

STONE, CHIP = "DEADBEEF", "04A1B2C3D4E5F6"


def test_reader_is_a_tag_reader(any_reader):
    assert isinstance(any_reader.device, TagReader)


def test_reader_checks_ok(any_reader):
    assert any_reader.device.check().ok


def test_reader_has_spots(any_reader):
    assert any_reader.device.spots and all(isinstance(s, str) for s in any_reader.device.spots)


def test_unknown_spot_raises_key_error(any_reader):
    with pytest.raises(KeyError):
        any_reader.device.tags("no such spot")


def test_tag_arrival_is_reported_once(reader_rig):
    spot = reader_rig.device.spots[0]
    reader_rig.place(spot, STONE)
    events = reader_rig.drain()
    assert [(e.spot, e.tag, e.change) for e in events] == [(spot, STONE, TagChange.ARRIVE)]
    assert reader_rig.drain() == []


def test_tags_lists_what_lies_on_the_spot(reader_rig):
    spot = reader_rig.device.spots[0]
    reader_rig.place(spot, STONE)
    reader_rig.drain()
    assert reader_rig.device.tags(spot) == {STONE}


def test_tag_leaving_is_reported(reader_rig):
    spot = reader_rig.device.spots[0]
    reader_rig.place(spot, STONE)
    reader_rig.drain()
    reader_rig.remove(spot, STONE)
    assert [(e.tag, e.change) for e in reader_rig.drain()] == [(STONE, TagChange.LEAVE)]
    assert reader_rig.device.tags(spot) == frozenset()


def test_two_tags_on_one_spot_are_both_seen(reader_rig):
    spot = reader_rig.device.spots[0]
    reader_rig.place(spot, STONE)
    reader_rig.place(spot, CHIP)
    reader_rig.drain()
    assert reader_rig.device.tags(spot) == {STONE, CHIP}


def test_tag_on_second_spot_is_reported_there(reader_rig):
    spot = reader_rig.device.spots[1]
    reader_rig.place(spot, CHIP)
    assert [e.spot for e in reader_rig.drain()] == [spot]


def test_close_twice_is_harmless(any_reader):
    any_reader.device.close()
    any_reader.device.close()
