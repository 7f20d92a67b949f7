"""The demo's simulated throws now and then land a die cocked, as real dice do
(``controller.table.build.COCKED_THROWS``): the table asks the dealer about it, the simulated dealer
answers, and the game goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.table import build
from controller.table.build import build_demo, cocked_throw
from controller.table.demo import play_out
from tests.table.test_every_die import GAMES


def test_one_throw_in_thirty_lands_a_die_cocked_and_the_same_key_throws_the_same() -> None:
    throws = [cocked_throw(f"7/1/{index}/render") for index in range(6000)]
    assert set(throws) == {0, 1}
    assert abs(sum(throws) / len(throws) - build.COCKED_THROWS) < 0.01
    assert throws == [cocked_throw(f"7/1/{index}/render") for index in range(6000)]


def test_a_cocked_die_in_every_throw_is_asked_about_and_the_game_still_ends(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(build, "COCKED_THROWS", 1.0)
    demo, _ = build_demo("tao", 2, 2, tmp_path / "t.db", None, ["heuristic"], GAMES["tao"][0])
    try:
        play_out(demo, None)
        assert demo.table.ledger is not None and demo.table.ledger.game.pending().over
        records = demo.table.store.records(demo.table.game_no)
    finally:
        demo.close()
    questions = [r.line for r in records if r.kind == "question"]
    assert len(questions) >= 4 and all("(cocked)" in line for line in questions)
    assert sum(r.kind == "answer" for r in records) == len(questions)
    assert not [r.line for r in records if r.origin == "camera" and r.kind == "input"]
