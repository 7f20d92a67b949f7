"""A seat node's warning that stands while another seat's node fails: the record says the fault
ended once, and truly, and does not record the standing warning a second time."""

from __future__ import annotations

from typing import Any

from controller.store import Store
from controller.table.controls import find_controls
from controller.table.table import HEALTH_EVERY, Table
from tests.table.test_faults import _polling, empty_seat

__all__ = ["empty_seat"]  # the fixture: seat 3's node unplugged from the start


def _device_records(table: Table) -> list[tuple[str, str, str]]:
    return [(row.kind, row.origin, row.line) for row in table.store.records(table.game_no)
            if row.origin in ("panel", "rfid")]


def _seat_1_away_and_back(table: Table, devices: Any) -> None:
    """Three players: seat 3's node (unplugged) warns; seat 1's is unplugged a while, then back."""
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    _polling((table, devices), 2.0)
    devices.sim.inject("seatnode[1]:disconnected")
    _polling((table, devices), 2 * HEALTH_EVERY)
    devices.sim.clear("seatnode[1]")
    _polling((table, devices), 3 * HEALTH_EVERY)


def test_seat_1s_node_back_while_seat_3s_warns_is_one_clear_that_says_the_warning_stands(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    # clearing seat 1 recorded "the rfid works again", then seat 3's warning a second time,
    # though seat 3's node had been unplugged all along
    table, devices, _ = empty_seat
    _seat_1_away_and_back(table, devices)
    records = _device_records(table)
    assert [(kind, origin) for kind, origin, _ in records] == [
        ("warning", "rfid"), ("warning", "panel"), ("fault", "rfid"), ("fault", "panel"),
        ("clear", "rfid"), ("clear", "panel")]
    cleared = [line.text for line in table.state().log if line.text.startswith("Fixed")]
    assert cleared[0].startswith("Fixed: the rfid works again, but its warning stands (the node of "
                                 "spot 'seat3' has never answered")
    assert cleared[1].startswith("Fixed: the panel works again, but its warning stands (seat 3's node")
    assert [status.name for status in table.devices() if status.warns] == ["panel", "rfid"]


def test_the_warning_that_stood_through_a_fault_is_not_recorded_again_after_a_restart(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    # the record's last word on the rfid is the clear that left the warning standing
    table, devices, _ = empty_seat
    _seat_1_away_and_back(table, devices)
    before = _device_records(table)
    table.store.close()
    again = Table(Store(table.store.path), devices=devices, controls_for=find_controls)
    try:
        _polling((again, devices), 2.0)
        assert _device_records(again) == before
        devices.sim.clear("seatnode[3]")
        _polling((again, devices), 3 * HEALTH_EVERY)
        assert sorted(_device_records(again)[len(before):]) == [
            ("clear", "panel", "the panel works again"), ("clear", "rfid", "the rfid works again")]
    finally:
        again.store.close()


def test_a_warning_that_ended_while_the_node_failed_is_a_plain_clear(
        empty_seat: tuple[Any, Any, list[Any]]) -> None:
    table, devices, _ = empty_seat
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    _polling((table, devices), 2.0)
    devices.sim.inject("seatnode[1]:disconnected")
    _polling((table, devices), 2 * HEALTH_EVERY)
    devices.sim.clear("seatnode[3]")
    devices.sim.clear("seatnode[1]")
    _polling((table, devices), 3 * HEALTH_EVERY)
    assert [(kind, line) for kind, _, line in _device_records(table)][4:] == [
        ("clear", "the rfid works again"), ("clear", "the panel works again")]
    assert not [status for status in table.devices() if status.warns]
