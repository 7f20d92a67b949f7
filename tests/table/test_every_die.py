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


def test_the_bench_names_each_cocked_die_the_camera_took_with_a_value() -> None:
    # bench/table.py counted "throws with a cocked die ... taken by the camera with a value for it: 1"
    # in Tauren seeds 121-160 without saying which: each is named, to be replayed
    from controller.games.base import DiceNeeded
    from controller.table.ledger import Played
    from controller.table.records import DieSeen
    from tests.vision.conftest import bench_script
    from vision.render import DieTruth

    bench = bench_script("table.py", "bench_table")
    need = DiceNeeded(1, DieKind.D8_TAUREN, 2, False, "")
    ledger = type("Ledger", (), {"played": [Played(0, Roll(1, DieKind.D8_TAUREN, ("W", "2")), "camera", hand=1),
                                            Played(1, Roll(1, DieKind.D8_TAUREN, ("3", "W")), "camera", hand=2)]})
    flat = DieTruth("d8-tauren", 6, (300.0, 200.0), (280.0, 180.0, 320.0, 220.0), face="W")
    cocked = DieTruth("d8-tauren", None, (100.0, 50.0), (80.0, 30.0, 120.0, 70.0), cocked=True,
                      tray_mm=(61.2, 40.0), visible=0.9)
    seen = (DieSeen(DieKind.D8_TAUREN, "W", 0.99, (301.0, 199.0), flat.box, "seat1"),
            DieSeen(DieKind.D8_TAUREN, "3", 0.91, (102.0, 51.0), cocked.box, "seat1"))
    line = bench._cocked_taken(ledger, "121/1/1/render", need, ((flat, cocked), seen))
    assert line == ("a cocked die taken with a value: hand 2, need 2 d8-tauren in seat1, taken as "
                    "roll 1 d8-tauren 3 W, render key 121/1/1/render; die at (100, 50) px, tray (61, 40) mm, "
                    "90% of its top in view: read 3 at 0.91 in seat1")
    assert bench._cocked_taken(ledger, "121/1/0/render", need, None).endswith("the camera's sighting was not seen")


def test_the_bench_counts_a_throw_asked_cocked_that_lay_flat_apart() -> None:
    # a d12 thrown alone into Tao Dice's empty centre has nothing to lean on and lies flat
    # (vision.render._leaning_in): the bench counted seven such throws in seeds 1-40 as cocked dice
    # "taken by the camera with a value", though none lay cocked
    from tests.vision.conftest import bench_script
    from vision.render import DieTruth

    bench = bench_script("table.py", "bench_table")
    flat = DieTruth("d12", 8, (300.0, 200.0), (280.0, 180.0, 320.0, 220.0), face="8")
    cocked = DieTruth("d12", None, (100.0, 50.0), (80.0, 30.0, 120.0, 70.0), cocked=True)
    lying = {"11/1/39/render": (flat,), "11/1/40/render": (flat, cocked)}
    assert not bench._landed_cocked("11/1/39/render", lying)
    assert bench._landed_cocked("11/1/40/render", lying)
    assert bench._landed_cocked("11/1/41/render", lying)  # never looked at: counted as asked
