"""What importing the store loads: the record's code, not the game engines that play it."""

from controller.games.registry import GAMES
from tests.imports import loaded_by


def test_importing_the_store_loads_neither_the_tables_ledger_nor_a_game_engine() -> None:
    # schema.py imported controller.table.ledger at its top for migration 6 (reopen_taken_back),
    # so `history`, the web and a venue reading the record loaded the table's ledger, which
    # builds and replays games, to read a few rows
    loaded = loaded_by("import controller.store")
    engines = {spec.target.partition(":")[0] for spec in GAMES.values()}
    assert "controller.table.ledger" not in loaded
    assert not engines & loaded, engines & loaded
