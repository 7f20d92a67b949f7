"""The dice fairness page: face counts, the chi-square p-value, a loaded die flagged."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.games.dice import DieKind
from controller.games.view import DieView, TableView
from controller.table.records import TableState, TableStatus
from web.fairness import chi_square_tail, chi_square_test as face_test, tally


@pytest.mark.parametrize(("statistic", "dof", "tail"), [
    (3.841, 1, 0.05), (6.635, 1, 0.01), (11.070, 5, 0.05), (20.515, 5, 0.001),
    (19.675, 11, 0.05), (1.145, 5, 0.95), (24.322, 7, 0.001), (0.5, 2, 0.7788008)])
def test_the_p_value_matches_the_chi_square_table(statistic: float, dof: int,
                                                  tail: float) -> None:
    assert chi_square_tail(statistic, dof) == pytest.approx(tail, rel=2e-3)


def test_a_fair_die_is_not_flagged_and_a_loaded_one_is() -> None:
    rng = random.Random(5)
    fair = Counter(rng.choice(DieKind.D6.faces) for _ in range(600))
    loaded = Counter(rng.choice("1234566") for _ in range(600))
    assert not face_test(DieKind.D6, fair).loaded
    assert face_test(DieKind.D6, loaded).loaded
    assert face_test(DieKind.D6, loaded).p_value < 1e-6


def test_too_few_rolls_are_not_flagged() -> None:
    result = face_test(DieKind.D12, Counter({"12": 9}))
    assert not result.enough and not result.loaded


def _state(game_no: int, number: int, faces: list[str | None]) -> TableState:
    view = TableView("x", "X", number, "play", (),
                     community=tuple(DieView(DieKind.D6, face) for face in faces))
    return TableState(1, game_no, view, TableStatus.RUNNING)


def test_a_die_counts_when_its_face_appears_or_changes() -> None:
    states = [_state(1, 1, []), _state(1, 1, ["3"]), _state(1, 1, ["3", "5"]),
              _state(1, 1, ["3", "2"]),        # the second die rerolled
              _state(1, 2, ["3"]),             # a new hand: the same face is a new roll
              _state(1, 2, ["3", None])]       # a sealed die is not counted
    assert tally(states)[DieKind.D6] == Counter({"3": 2, "5": 1, "2": 1})


def test_the_fairness_page_counts_the_recorded_rolls(dealer: FlaskClient, table: Any) -> None:
    while table.game.hands_played < 4:
        table.step()
    page = dealer.get("/dealer/fairness").get_data(as_text=True)
    assert 'id="fair-d8-tauren"' in page and "χ²" in page
