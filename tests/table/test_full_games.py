"""Acceptance 4 of the table: a whole game of each game, end to end through the table.

Hidden dice are sealed and revealed at the showdown, read in the seat's zone; pip dice (Tao Dice
2d6, DiceHoldem with pip dice standing in for letters) are read from rendered frames by the real
reader; a kind the reader cannot read yet (d12, Tauren d8) goes to the dealer as a question, which
the simulated dealer answers, recorded as a dealer entry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.games.rolls import Roll
from controller.table.build import build_demo
from controller.table.demo import play_out
from controller.table.replay import replay_game

GAMES = {
    "tao": {"length": "single", "black": "2", "white": "1"},
    "diceholdem": {"stack": "6", "min_bet": "2", "rebuy": "off"},
    "tauren": {"stack": "6", "min_bet": "2", "rebuy": "off"},
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_runs_through_the_table(game: str, tmp_path: Path) -> None:
    demo, _ = build_demo(game, 2, 5, tmp_path / "t.db", None, ["heuristic"], GAMES[game])
    try:
        play_out(demo, None)
        table = demo.table
        assert table.ledger is not None
        engine = table.ledger.game
        assert engine.pending().over and engine.final()["winner"] is not None
        assert engine.chips_total() == engine.chips_expected()
        records = table.store.records(table.game_no)
        rolls = [(r, Roll.parse(r.line)) for r in records if r.line.startswith("roll")]
        sealed = [r for r, roll in rolls if roll.sealed]
        assert sealed and all(r.origin == "table" for r in sealed)
        reveals = [p for p in table.ledger.played if p.reveal]
        assert reveals and all(p.origin in ("camera", "console") for p in reveals)
        by_camera = [r for r, roll in rolls if r.origin == "camera"]
        assert bool(by_camera) == (game != "tauren")  # pip dice read by the real reader
        for record, roll in rolls:
            if roll.kind.value in ("d12", "d8-tauren") and not roll.sealed:
                assert record.kind == "answer" and record.who == "dealer (simulated)"
        assert replay_game(table.store, table.game_no).game.final() == engine.final()
    finally:
        demo.close()
