"""Acceptance 4 of the table: a whole game of each game, end to end through the table.

Hidden dice are sealed and revealed at the showdown, read in the seat's zone; the dice of every
game (Tao Dice's d12s and 2d6, Tauren d8s, DiceHoldem letters) are read from rendered frames by the
real reader; a die it reads below the threshold goes to the dealer as a question, which the
simulated dealer answers, recorded as a dealer entry.
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
        assert [r for r, roll in rolls if r.origin == "camera"]  # read by the real reader
        answers = [r for r, _ in rolls if r.kind == "answer"]
        assert all(r.who == "dealer (simulated)" for r in answers)
        assert replay_game(table.store, table.game_no).game.final() == engine.final()
    finally:
        demo.close()
