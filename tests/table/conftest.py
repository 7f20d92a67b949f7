"""Fixtures for the table's tests: a real SQLite record in a temporary folder, and game drivers."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator

import pytest

from controller.bots import bot_factory
from controller.games.base import Input
from controller.games.rolls import Roll
from controller.simulation import roll_dice
from controller.store import Store
from controller.table.records import Entry
from controller.table.table import Table


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


@pytest.fixture
def store(db: Path) -> Iterator[Store]:
    opened = Store(db)
    yield opened
    opened.close()


def next_input(table: Table, rng: random.Random, sealed: bool = True) -> Input:
    """What a simple player would give next: dice (hidden ones sealed), or a random legal action."""
    ledger = table.ledger
    assert ledger is not None
    pending = ledger.game.pending()
    if pending.dice:
        need = pending.dice[0]
        if sealed and need.hidden and need.reason != "reveal":
            return Roll(need.seat, need.kind, ("?",) * need.count)
        return roll_dice(need, rng)
    seat = pending.prompt if pending.prompt is not None else pending.actors[0]
    return bot_factory(ledger.name, "random")(seat, rng).choose(ledger.game)


def play(table: Table, count: int, seed: int = 1, sealed: bool = True) -> None:
    """Submit ``count`` inputs (fewer if the game ends)."""
    rng = random.Random(seed)
    for _ in range(count):
        ledger = table.ledger
        assert ledger is not None
        if ledger.game.pending().over:
            return
        table.submit(Entry(next_input(table, rng, sealed), "test", "tester"))
