"""``dicetable history`` says of a record's last game what a table opening the record would: in
play when its end was taken back (on a record an older table wrote, which only the table puts
right), over when its last input ended it (the table killed before it recorded the result);
and it reads without writing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.store import Store
from controller.table.records import Undo, VoidHand
from controller.table.table import Table

from tests.table.test_old_records import OLD_SCHEMA, _made_old, _taken_back_the_old_way, _two_games_made_old
from tests.table.test_table import _played_out


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


def _history(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["history", "--db", str(db), *args]) == 0
    return capsys.readouterr().out.splitlines()


def _listed(db: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in _history(db, capsys, "--json")]


def _as_the_table_leaves_it(db: Path) -> None:
    """A table opens the record (migrating it, finishing what it must) and closes."""
    with Store(db) as store:
        Table(store)


def _version(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.close()
    return version


@pytest.mark.parametrize("correction", [Undo("Dana (dealer)", "the camera misread the last die"),
                                        VoidHand("Dana (dealer)", "Ana meant to rebuy")])
def test_a_game_whose_end_an_old_table_took_back_is_in_play_before_a_table_opens_it(
        db: Path, correction: Undo | VoidHand, capsys: pytest.CaptureFixture[str]) -> None:
    # the record held it won: `history` said so until a table had opened the file once
    table = Table(Store(db))
    table.new_game("diceholdem", ["Ana", "Ben"], {})
    _played_out(table)
    _taken_back_the_old_way(table, correction)
    table.store.close()
    _made_old(db)
    before = db.read_bytes()
    listed = _listed(db, capsys)
    assert [(game["game_no"], game["over"]) for game in listed] == [(1, False)]
    assert _history(db, capsys)[0].endswith("; in play")
    assert db.read_bytes() == before and _version(db) == OLD_SCHEMA  # read, not put right
    _as_the_table_leaves_it(db)
    assert _version(db) > OLD_SCHEMA
    assert _listed(db, capsys) == listed


def test_games_an_old_table_ended_stay_ended(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the first was ended by the start of the second, not by its replay: only the last game's
    # end is judged by replaying it, as the table does
    _two_games_made_old(db)
    listed = _listed(db, capsys)
    assert [(game["game_no"], game["over"]) for game in listed] == [(2, True), (1, True)]
    _as_the_table_leaves_it(db)
    assert _listed(db, capsys) == listed


def test_a_game_ended_by_its_last_input_is_over_before_a_table_records_its_result(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a table killed between the input that ended the game and the game's result (each its own
    # transaction): the table that reopens the record finishes the game, `history` said in play
    table = Table(Store(db))
    table.new_game("diceholdem", ["Ana", "Ben"], {})
    _played_out(table)
    table.store.close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET finished = NULL, final = NULL WHERE game_no = 1")
    conn.close()
    listed = _listed(db, capsys)
    assert [(game["game_no"], game["over"]) for game in listed] == [(1, True)]
    assert "in play" not in _history(db, capsys)[0]
    _as_the_table_leaves_it(db)
    assert _listed(db, capsys) == listed
