"""A device's fault or warning that began in a game the record has since pruned still stands
when the table starts again: the record says so, since it began, and it is not recorded twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.store import TABLE, NoSuchGame, Store
from controller.store.store import DEVICE_RECORDS
from controller.table.controls import find_controls
from controller.table.records import TableStatus
from controller.table.table import HEALTH_EVERY, KEEP_GAMES, Table
from tests.table.test_faults import _polling, empty_seat

__all__ = ["empty_seat"]  # the fixture: seat 3's node unplugged from the start

NAMES = ["Ana", "Ben", "Cleo"]


def _standing(table: Table) -> tuple[Any, ...]:
    """What the table says of its devices: its status, and each device's health."""
    state = table.state()
    return state.status, state.problem, state.fix, tuple(table.devices())


def test_a_fault_and_a_warning_from_a_pruned_game_stand_after_a_restart_and_are_recorded_once(
        empty_seat: tuple[Any, Any, list[Any]], tmp_path: Path) -> None:
    # the prune took game 1 with the faults and warnings recorded in it: the restarted table
    # found none standing, and its first poll recorded them again, as new, their start lost
    table, devices, _ = empty_seat
    table.exports = tmp_path / "exports"
    table.new_game("tao", NAMES, {})
    _polling((table, devices), 2.0)  # seat 3's node warns
    devices.sim.inject("seatnode[1]:disconnected")  # seat 1's is a fault
    _polling((table, devices), 2 * HEALTH_EVERY)
    begun = [row for row in table.store.records(1) if row.kind in DEVICE_RECORDS]
    assert sorted((row.kind, row.origin) for row in begun) == [
        ("fault", "panel"), ("fault", "rfid"), ("warning", "panel"), ("warning", "rfid")]
    for _ in range(KEEP_GAMES + 1):
        table.new_game("tao", NAMES, {})
    with pytest.raises(NoSuchGame):
        table.store.game(1)
    said, last = _standing(table), table.store.last_seq()
    table.store.close()
    again = Table(Store(table.store.path), devices=devices, controls_for=find_controls)
    try:
        assert _standing(again) == said and said[0] is TableStatus.FAULT
        _polling((again, devices), 3 * HEALTH_EVERY)
        assert _standing(again) == said and again.store.last_seq() == last  # nothing recorded again
        kept = again.store.records(TABLE)  # each as game 1 recorded it, at its time, as the table's own
        assert [(r.seq, r.kind, r.origin, r.line, r.at) for r in kept] == [
            (r.seq, r.kind, r.origin, r.line, r.at) for r in begun]
    finally:
        again.store.close()
