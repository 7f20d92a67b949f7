"""A seat node whose messages the table cannot read is said at the table, once, not lost silently."""

from __future__ import annotations

from typing import Any

import pytest

from controller.table.table import HEALTH_EVERY
from hardware.seatnode import ReaderState
from hardware.seatnode_firmware import firmware
from tests.table.test_faults import _polling, on_nodes

__all__ = ["on_nodes"]  # the fixture: a table on two simulated seat nodes


def test_a_node_whose_reader_state_the_table_cannot_read_is_one_warning_line(
        on_nodes: tuple[Any, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    # the table's Pi decodes READER states 0 and 1 only (version 2's): seat 0's node's
    # overheated reader was dropped as malformed, and the table said nothing
    monkeypatch.setattr("hardware.seatnode.READER_STATES",
                        {0: ReaderState.WORKS, 1: ReaderState.NO_ANSWER})
    table, devices = on_nodes
    _polling(on_nodes, HEALTH_EVERY)
    for _ in range(3):  # it overheats, cools and overheats: six messages, three not read
        devices.sim.inject("seatnode[0]:reader-overheated")
        _polling(on_nodes, 2 * HEALTH_EVERY)
        devices.sim.clear("seatnode[0]")
        _polling(on_nodes, 2 * HEALTH_EVERY)
    assert devices.sim.links[0].unread == {firmware().link.T_READER: 3}
    warned = [line.text for line in table.state().log if line.text.startswith("Warning")]
    assert warned == ["Warning: rfid: seat node on sim://node0 sends messages this table cannot "
                      "read (its firmware is not this dicetable's): what they say is lost"]
    assert [(r.kind, r.origin) for r in table.store.records(table.game_no)] == [("warning", "rfid")]
    rfid = [status for status in table.devices() if status.name == "rfid"]
    assert rfid[0].warns and "flash this Pi's firmware/ onto the node" in rfid[0].fix
