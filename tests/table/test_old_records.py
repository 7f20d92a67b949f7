"""Records written by an older dicetable, opened by this one: each is put right once, as the
store migrates it, so that `run`, `demo --db` and `history` agree on which game is in play."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.store import Store, schema
from controller.table.records import Correction, TableStatus, Undo, VoidHand
from controller.table.table import Table

from tests.table.conftest import play
from tests.table.test_table import _played_out

OLD_SCHEMA = 5
"""The schema of every record written before an end taken back reopened its game (f46b237)."""


def _taken_back_the_old_way(table: Table, correction: Correction) -> None:
    """The dealer's Undo or Void of the input that ended the game, recorded as the table did
    before f46b237: its line only, the game left finished with its result."""
    kind = "undo" if isinstance(correction, Undo) else "void"
    table.store.append(table.game_no, kind, "", who=correction.who, why=correction.why,
                       origin="console")


def _made_old(db: Path) -> None:
    """Mark ``db`` as written at the schema of the table that wrote it so."""
    with sqlite3.connect(db) as conn:
        conn.execute(f"PRAGMA user_version = {OLD_SCHEMA}")
    conn.close()


def _two_games_made_old(db: Path) -> None:
    """An old table's record of two games: one abandoned by the game started after it, the last
    one won (neither taken back)."""
    table = Table(Store(db))
    table.new_game("tao", ["Ana", "Ben"], {})
    play(table, 4)
    table.new_game("diceholdem", ["Ana", "Ben"], {})
    _played_out(table)
    table.store.close()
    _made_old(db)


def _history(db: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    assert main(["history", "--db", str(db), "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize("correction", [Undo("Dana (dealer)", "the camera misread the last die"),
                                        VoidHand("Dana (dealer)", "Ana meant to rebuy")])
def test_a_game_whose_end_an_old_table_took_back_is_in_play_once_its_record_is_opened(
        db: Path, correction: Correction, capsys: pytest.CaptureFixture[str]) -> None:
    # `run` resumed it, but the record held it finished: `history` said it was won while its
    # log played on, and `demo --db` started game 2, abandoning it
    table = Table(Store(db))
    table.new_game("diceholdem", ["Ana", "Ben"], {})  # it ends with a seat that leaves: a hand of its own
    _played_out(table)
    _taken_back_the_old_way(table, correction)
    table.store.close()
    _made_old(db)
    assert [game["over"] for game in _history(db, capsys)] == [False]  # as the table will: read, not put right
    with Store(db) as store:
        current = store.current_game()
        assert current is not None and (current.game_no, current.over, current.final) == (1, False, {})
        again = Table(store)
        assert (again.game_no, again.state().status) == (1, TableStatus.RUNNING)
    listed = _history(db, capsys)
    assert [(game["game_no"], game["over"]) for game in listed] == [(1, False)]
    with sqlite3.connect(db) as conn:
        assert schema.user_version(conn) == len(schema.MIGRATIONS)  # put right once, not at every opening
    conn.close()


def test_a_demo_on_an_old_record_with_its_end_taken_back_plays_that_game_on(
        tmp_path: Path) -> None:
    # the demo found no current game in the record, finished the one the Undo had reopened with
    # its result so far, and started game 2
    from controller.table.build import build_demo
    from controller.table.demo import play_out
    from tests.table.test_full_games import GAMES

    db = tmp_path / "t.db"
    demo, _ = build_demo("diceholdem", 2, 5, db, None, ["heuristic"], GAMES["diceholdem"])
    try:
        play_out(demo, None)
        _taken_back_the_old_way(demo.table, Undo("Dana (dealer)", "the camera misread the last die"))
    finally:
        demo.close()
    _made_old(db)
    demo, resumed = build_demo("diceholdem", 2, 5, db, None, ["heuristic"], GAMES["diceholdem"])
    try:
        assert resumed and demo.table.game_no == 1
        assert demo.table.state().status is TableStatus.RUNNING
    finally:
        demo.close()


def test_games_the_old_table_ended_stay_finished(db: Path) -> None:
    # one abandoned by the game started after it, the last one won: neither is reopened
    _two_games_made_old(db)
    with Store(db) as store:
        assert store.current_game() is None
        assert [game.over for game in store.games()] == [True, True]
