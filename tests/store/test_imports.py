"""What importing the store loads: the record's code, not the game engines that play it."""

import json
import os
import subprocess
import sys
from pathlib import Path

from controller.games.registry import GAMES

ROOT = Path(__file__).resolve().parents[2]


def _loaded_by(statement: str) -> set[str]:
    """The modules a fresh interpreter holds after ``statement``."""
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return set(json.loads(done.stdout))


def test_importing_the_store_loads_neither_the_tables_ledger_nor_a_game_engine() -> None:
    # schema.py imported controller.table.ledger at its top for migration 6 (reopen_taken_back),
    # so `history`, the web and a venue reading the record loaded the table's ledger, which
    # builds and replays games, to read a few rows
    loaded = _loaded_by("import controller.store")
    engines = {spec.target.partition(":")[0] for spec in GAMES.values()}
    assert "controller.table.ledger" not in loaded
    assert not engines & loaded, engines & loaded
