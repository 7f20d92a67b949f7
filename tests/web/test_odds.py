"""The hand chart and live win odds the scoreboard gets: exact, and only when nothing is hidden."""

from __future__ import annotations

from typing import Any

from controller.games.dice import DieKind
from controller.games.equity import equity
from controller.games.hand_rules import HandRules
from controller.games.view import DieView, SeatStatus, SeatView, TableView
from web.odds import chart, live_odds, rules_for
from tests.web.conftest import app_for, new_table

D8 = DieKind.D8_TAUREN


def seat(number: int, faces: tuple[str | None, ...], status: SeatStatus = SeatStatus.ALL_IN
         ) -> SeatView:
    return SeatView(number, f"S{number}", status, (), (), tuple(DieView(D8, f) for f in faces))


def view(board: tuple[str, ...], *seats: SeatView) -> TableView:
    return TableView("tauren", "Tauren Hold'em", 1, "flop", seats,
                     community=tuple(DieView(D8, face) for face in board))


def test_a_game_without_hands_gets_no_chart() -> None:
    assert rules_for("tao", {}) is None
    assert rules_for("tauren", {"shaman": "wild", "wrap": "off"}) == \
        HandRules("tauren", shaman="wild", wrap=False)


def test_the_chart_gives_every_hand_an_exact_probability_summing_to_one() -> None:
    rows = chart(HandRules("diceholdem"))
    assert rows[0]["hand"] == "holdem"
    assert sum(row["rolls"] for row in rows) == rows[0]["outcomes"] == 6 ** 7
    assert abs(sum(row["probability"] for row in rows) - 1) < 1e-12


def test_live_odds_once_every_hand_is_revealed_before_the_last_die() -> None:
    odds = live_odds(view(("2", "3", "4"), seat(0, ("5", "6")), seat(1, ("2", "2"))),
                     HandRules("tauren"))
    assert [o["seat"] for o in odds] == [0, 1]
    assert abs(sum(o["equity"] for o in odds) - 1) < 1e-12
    exact = equity(HandRules("tauren"), ["2", "3", "4"], [["5", "6"], ["2", "2"]])
    assert [o["win"] for o in odds] == [float(hand.win) for hand in exact.hands]


def test_no_odds_while_a_hand_is_sealed_or_the_board_is_complete() -> None:
    rules = HandRules("tauren")
    assert live_odds(view(("2", "3", "4"), seat(0, ("5", "6")), seat(1, (None, None))), rules) == []
    assert live_odds(view(("2", "3", "4", "5", "6"), seat(0, ("5", "6")), seat(1, ("2", "2"))),
                     rules) == []
    folded = seat(1, (), SeatStatus.FOLDED)
    assert live_odds(view(("2",), seat(0, ("5", "6")), folded), rules) == []


def test_the_document_carries_the_chart_for_a_hold_em_table_only() -> None:
    for game, expected in (("tauren", True), ("tao", False)):
        table: Any = new_table(game)
        document = app_for(table).test_client().get("/api/state").get_json()
        assert bool(document["chart"]) is expected, game
