"""The JSON API: the public state, the event stream (resume, keep-alive) and 409 while paused."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.games.errors import TableNotReady
from controller.games.rolls import Roll
from controller.table.records import Entry
from web_conftest import csrf_of, read_events


def test_state_is_the_tables_public_state(client: FlaskClient, table: Any) -> None:
    for _ in range(12):
        table.step()
    document = client.get("/api/state").get_json()
    assert document["seq"] == table.state().seq == 12
    assert document["state"] == table.state().to_json()
    assert [seat["name"] for seat in document["state"]["view"]["seats"]] == ["Ann", "Bo", "Cy"]


def test_a_fresh_stream_starts_with_retry_and_the_state(client: FlaskClient, table: Any) -> None:
    for _ in range(5):
        table.step()
    retry, first = read_events(client, 2)
    assert retry == {"retry": "2000"}
    assert (first["event"], first["id"]) == ("state", "5")
    assert first["data"]["state"] == table.state().to_json()


def test_the_stream_sends_each_update_with_its_sequence_number(client: FlaskClient,
                                                               table: Any) -> None:
    for _ in range(6):
        table.step()
    events = read_events(client, 4, headers={"Last-Event-ID": "3"})[1:]
    assert [(event["event"], event["id"]) for event in events] == \
        [("update", "4"), ("update", "5"), ("update", "6")]
    assert events[-1]["data"]["state"] == table.state().to_json()


def test_a_stream_resumes_after_the_last_event_id_it_saw(client: FlaskClient,
                                                         table: Any) -> None:
    for _ in range(3):
        table.step()
    seen = [int(event["id"]) for event in read_events(client, 4)[1:] if "id" in event]
    assert seen == [3]  # the state, then nothing yet: a keep-alive comes instead
    for _ in range(4):
        table.step()
    resumed = read_events(client, 5, headers={"Last-Event-ID": str(seen[-1])})[1:]
    assert [int(event["id"]) for event in resumed] == [4, 5, 6, 7]
    by_query = read_events(client, 3, query="?after=5")[1:]
    assert [int(event["id"]) for event in by_query] == [6, 7]


def test_an_idle_stream_sends_keep_alive_comments(client: FlaskClient) -> None:
    events = read_events(client, 4)
    assert [event.get("comment") for event in events[2:]] == ["keep-alive"] * 2


def test_history_lists_the_recorded_games(client: FlaskClient, table: Any) -> None:
    while table.game_no == 1:
        table.step()
    games = client.get("/api/history").get_json()["games"]
    assert [game["game_no"] for game in games] == [2, 1]
    assert games[1]["over"] and games[1]["names"] == ["Ann", "Bo", "Cy"]


def test_inputs_while_paused_answer_409_with_the_reason(dealer: FlaskClient, table: Any) -> None:
    for _ in range(4):
        table.step()
    token = csrf_of(dealer, "/dealer/")
    assert dealer.post("/dealer/pause", data={"csrf": token, "why": "drinks break"}).status_code == 303
    before = table.state().seq
    for path, form in (("/dealer/undo", {}), ("/dealer/void", {"why": "spilt beer"}),
                       ("/dealer/replace", {"seq": "1", "faces": "2 3"})):
        refused = dealer.post(path, data={"csrf": token, **form},
                              headers={"Accept": "application/json"})
        assert refused.status_code == 409
        assert "paused" in refused.get_json()["error"] and "drinks break" in refused.get_json()["error"]
    page = dealer.post("/dealer/undo", data={"csrf": token})
    assert page.status_code == 409 and "drinks break" in page.get_data(as_text=True)
    assert table.state().seq == before


def test_the_table_refuses_a_button_while_paused_too(table: Any) -> None:
    table.pause("dealer", "checking a die")
    needed = table.game.pending().dice[0]
    with pytest.raises(TableNotReady, match="checking a die"):
        table.submit(Entry(Roll(needed.seat, needed.kind, ("2",) * needed.count), "panel"))
