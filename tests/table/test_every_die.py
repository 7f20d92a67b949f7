"""Issue 18, acceptance 6: a full demo game of each game reads every die by camera, with no dealer
entries for dice the reader could not read.

Each game runs whole through the demo table (the simulated camera draws each kind as itself: Tao
Dice's d12s in their seats' colours in the centre, Tauren d8s and letter dice with their face
art, or pip dice standing in for letters while the reader cannot read letter dice). No question
may say a kind "cannot be read by the camera yet", so no dealer ``answer`` stands for such dice;
every kind the game throws in the open is read by the camera at least once.

This holds what the table did before the face reader was wired to it (every d12, d8-tauren and
letter die went to the dealer as "cannot be read by the camera yet"). Dice read below the
confidence threshold still go to the dealer to confirm: ``bench/table.py --camera-games N``
counts them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.games.dice import DieKind
from controller.games.rolls import Roll
from controller.table.build import build_demo
from controller.table.demo import play_out

GAMES = {
    "tao": ({"length": "single", "black": "2", "white": "1"}, (DieKind.D6, DieKind.D12)),
    "diceholdem": ({"stack": "6", "min_bet": "2", "rebuy": "off"}, (DieKind.LETTERS,)),
    "tauren": ({"stack": "6", "min_bet": "2", "rebuy": "off"}, (DieKind.D8_TAUREN,)),
}
"""Each game's options (short games) and the kinds of dice it throws (the open ones by camera)."""

NOT_YET = "cannot be read by the camera yet"
"""What a question said of a kind the reader did not read."""


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_demo_game_reads_every_die_by_camera(game: str, tmp_path: Path) -> None:
    options, kinds = GAMES[game]
    demo, _ = build_demo(game, 2, 5, tmp_path / "t.db", None, ["heuristic"], options)
    try:
        assert demo.table.eyes is not None
        watcher = demo.table.eyes.watcher
        assert watcher.tray.focal_px == watcher.camera.focal_px  # the lens known: the camera's height too
        play_out(demo, None)
        table = demo.table
        assert table.ledger is not None and table.ledger.game.pending().over
        records = table.store.records(table.game_no)
        asked = ""
        dealt_unreadable = 0
        for record in records:
            if record.kind == "question":
                asked = record.line
            elif record.kind == "answer":
                dealt_unreadable += NOT_YET in asked
        assert dealt_unreadable == 0
        assert not [r.line for r in records if r.kind == "question" and NOT_YET in r.line]
        by_camera = {Roll.parse(r.line).kind for r in records if r.origin == "camera" and r.line.startswith("roll")}
        assert set(kinds) <= by_camera
    finally:
        demo.close()


def test_the_bench_plays_the_camera_games_named_only() -> None:
    # bench/table.py --camera-game G: line 6 measured one game at a time (it was a scratch filter)
    from tests.vision.conftest import bench_script

    chosen = bench_script("table.py", "bench_table").chosen
    assert [game for game, _ in chosen(None)] == sorted(GAMES)
    assert chosen(["tauren"]) == [("tauren", GAMES["tauren"][0])]
    assert [game for game, _ in chosen(["tauren", "tao"])] == ["tao", "tauren"]
