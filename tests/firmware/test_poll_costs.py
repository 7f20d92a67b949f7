"""``firmware/README.md``'s table of what a poll costs gives today's figures, counted as it says:
the SPI transfers, and the time, of a spot's second poll on the emulated chip."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hardware.sim_rc522 import EmulatedRC522, EmulatedTag
from tests.firmware.test_rc522 import STONES_ON_A_SPOT, node_spot, pi_spot

README = Path(__file__).resolve().parents[2] / "firmware" / "README.md"
SPOTS = {"nothing": STONES_ON_A_SPOT[0], "one 4-byte stone": ["DEADBEEF"],
         "one 7-byte stone": STONES_ON_A_SPOT[1], "4 stones": STONES_ON_A_SPOT[4],
         "8 stones": STONES_ON_A_SPOT[8]}


COST = re.compile(r"(\d+) \((\d+\.\d) ms\)")


def readme_costs() -> dict[str, list[tuple[int, float]]]:
    """Each row of the README's table: its seat node's and its Pi's transfers and milliseconds."""
    rows = {}
    for line in README.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] in SPOTS:
            rows[cells[0]] = [_cost(cell) for cell in cells[1:]]
    return rows


def _cost(cell: str) -> tuple[int, float]:
    match = COST.fullmatch(cell)
    assert match, f"not a poll's cost: {cell!r}"
    return int(match[1]), float(match[2])


def second_poll(machine: ModuleType, side: Any, uids: list[str]) -> tuple[int, float]:
    """The transfers and milliseconds of the second poll by ``side`` of a spot under ``uids``."""
    chip = EmulatedRC522()
    poll = side(machine, chip)
    for uid in uids:
        chip.lay(EmulatedTag(bytes.fromhex(uid)))
    poll()  # the Pi's sets its chip up
    started, transfers = chip.clock.now(), chip.transfers
    assert poll() == []
    return chip.transfers - transfers, round((chip.clock.now() - started) * 1000, 1)


@pytest.mark.parametrize("spot", list(SPOTS))
def test_the_readme_gives_what_a_poll_costs_today(machine: ModuleType, spot: str) -> None:
    # its older paragraph said 968 transfers for a poll of 8 stones on the node, a later one 692
    assert readme_costs()[spot] == [second_poll(machine, side, SPOTS[spot])
                                    for side in (node_spot, pi_spot)]
