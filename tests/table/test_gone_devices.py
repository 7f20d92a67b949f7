"""A device taken out of the table's configuration while its fault or warning stood: the
restarted table records, once, that it ended, so that the record never holds it failing for good."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest

from controller.store import TABLE, Store
from controller.table.build import build_demo
from controller.table.demo import BEAT, Demo, play_out
from controller.table.records import TableStatus
from controller.table.table import HEALTH_EVERY, Table

GONE = "Fixed: the rfid is no longer part of the table"


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Demo]:
    """A demo of Tao Dice, its game in play."""
    from tests.table.test_every_die import GAMES

    made, _ = build_demo("tao", 2, 2, tmp_path / "t.db", None, ["heuristic"], GAMES["tao"][0])
    yield made
    made.close()


def _reader_dead(demo: Demo, seconds: float = HEALTH_EVERY + 2 * BEAT) -> None:
    """The RFID reader dies, and the table's loop finds it so for ``seconds``."""
    assert demo.parts.devices.sim is not None
    demo.parts.devices.sim.inject("rfid:dead")
    for _ in range(round(seconds / BEAT)):
        demo.table.tick()
        demo.clock.advance(BEAT)


def _without_reader(demo: Demo) -> Table:
    """The table stopped, and started again on its record with no RFID reader configured."""
    demo.table.store.close()
    return Table(Store(demo.table.store.path), devices=replace(demo.parts.devices, rfid=None),
                 eyes=demo.table.eyes)


def _device_records(store: Store, game: int) -> list[tuple[str, str, str]]:
    return [(r.kind, r.origin, r.line) for r in store.records(game)
            if r.kind in ("fault", "warning", "clear")]


def test_a_fault_of_a_reader_taken_out_between_games_is_recorded_as_ended_once(demo: Demo) -> None:
    # the restarted table left the gone reader out of its faults, but the record's last word on
    # it stayed its fault: `history`, a venue and every later restart read it failing for good
    play_out(demo, None)
    _reader_dead(demo)
    before = _device_records(demo.table.store, TABLE)
    assert before[-1][:2] == ("fault", "rfid")
    again = _without_reader(demo)
    try:
        assert _device_records(again.store, TABLE) == [
            *before, ("clear", "rfid", "the rfid is no longer part of the table")]
        assert again.state().status is TableStatus.OVER
        assert again.state().log[-1].text == GONE
    finally:
        again.store.close()
    third = Table(Store(again.store.path), devices=replace(demo.parts.devices, rfid=None),
                  eyes=demo.table.eyes)
    try:
        assert len(_device_records(third.store, TABLE)) == len(before) + 1  # once, not at every restart
    finally:
        third.store.close()


def test_a_fault_of_a_reader_taken_out_in_a_game_is_ended_in_that_games_record(demo: Demo) -> None:
    _reader_dead(demo)
    game = demo.table.game_no
    assert demo.table.state().status is TableStatus.FAULT
    again = _without_reader(demo)
    try:
        recorded = _device_records(again.store, game)
        assert {kind for kind, _, _ in recorded[:-1]} == {"fault"}
        assert recorded[-1] == ("clear", "rfid", "the rfid is no longer part of the table")
        assert (again.game_no, again.state().status) == (game, TableStatus.RUNNING)
        assert again.state().log[-1].text == GONE
    finally:
        again.store.close()


def test_a_table_without_devices_ends_no_devices_fault(demo: Demo) -> None:
    # a table fed only through submit (a test's, a replay's) has no configuration to leave a
    # device out of: the record's faults are not its to end
    play_out(demo, None)
    _reader_dead(demo)
    before = _device_records(demo.table.store, TABLE)
    demo.table.store.close()
    with Store(demo.table.store.path) as store:
        Table(store)
        assert _device_records(store, TABLE) == before
