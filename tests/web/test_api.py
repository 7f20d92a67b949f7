"""The JSON API: the public state, the event stream (resume, keep-alive) and 409 while paused."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.games.dice import DieKind
from controller.games.errors import TableNotReady
from controller.games.rolls import Roll
from controller.table.records import Entry
from tests.web.conftest import console_form, csrf_of, read_events


def test_state_is_the_tables_public_state(client: FlaskClient, table: Any) -> None:
    start = table.state().seq
    for _ in range(12):
        table.step()
    document = client.get("/api/state").get_json()
    assert document["seq"] == table.state().seq == start + 12
    assert document["state"] == table.state().to_json()
    assert [seat["name"] for seat in document["state"]["view"]["seats"]] == ["Ann", "Bo", "Cy"]


def test_a_fresh_stream_starts_with_retry_and_the_state(client: FlaskClient, table: Any) -> None:
    for _ in range(5):
        table.step()
    retry, first = read_events(client, 2)
    assert retry == {"retry": "2000"}
    assert (first["event"], first["id"]) == ("state", str(table.state().seq))
    assert first["data"]["state"] == table.state().to_json()


def test_the_stream_sends_each_update_with_its_sequence_number(client: FlaskClient,
                                                               table: Any) -> None:
    start = table.state().seq
    for _ in range(6):
        table.step()
    events = read_events(client, 4, headers={"Last-Event-ID": str(start + 3)})[1:]
    assert [(event["event"], event["id"]) for event in events] == \
        [("update", str(start + n)) for n in (4, 5, 6)]
    assert events[-1]["data"]["state"] == table.state().to_json()


def test_a_stream_resumes_after_the_last_event_id_it_saw(client: FlaskClient,
                                                         table: Any) -> None:
    for _ in range(3):
        table.step()
    at = table.state().seq
    seen = [int(event["id"]) for event in read_events(client, 4)[1:] if "id" in event]
    assert seen == [at]  # the state, then nothing yet: a keep-alive comes instead
    for _ in range(4):
        table.step()
    resumed = read_events(client, 5, headers={"Last-Event-ID": str(seen[-1])})[1:]
    assert [int(event["id"]) for event in resumed] == [at + 1, at + 2, at + 3, at + 4]
    by_query = read_events(client, 3, query=f"?after={at + 2}")[1:]
    assert [int(event["id"]) for event in by_query] == [at + 3, at + 4]


def test_an_idle_stream_sends_keep_alive_comments(client: FlaskClient) -> None:
    events = read_events(client, 4)
    assert [event.get("comment") for event in events[2:]] == ["keep-alive"] * 2


def test_history_lists_the_recorded_games(client: FlaskClient, table: Any) -> None:
    while table.game_no == 1:
        table.step()
    games = client.get("/api/history").get_json()["games"]
    assert [game["game_no"] for game in games] == [2, 1]
    assert games[1]["over"] and games[1]["names"] == ["Ann", "Bo", "Cy"]


def wait_for_open_dice(table: Any) -> Any:
    """Play on until the table waits for dice the room may see (community or open dice)."""
    while not (table.game.pending().dice and not table.game.pending().dice[0].hidden):
        table.step()
    return table.game.pending().dice[0]


def test_inputs_while_paused_answer_409_with_the_reason(dealer: FlaskClient, table: Any) -> None:
    need = wait_for_open_dice(table)
    token = csrf_of(dealer, "/dealer/")
    assert dealer.post("/dealer/pause", data={"csrf": token, "why": "drinks break"}).status_code == 303
    before = table.state().seq
    form = {**console_form(dealer), "faces": " ".join(need.kind.faces[:need.count])}
    refused = dealer.post("/dealer/dice", data=form, headers={"Accept": "application/json"})
    assert refused.status_code == 409
    assert "paused" in refused.get_json()["error"]
    page = dealer.post("/dealer/dice", data=form)
    assert page.status_code == 409 and "paused" in page.get_data(as_text=True)
    assert table.state().seq == before
    dealer.post("/dealer/resume", data={"csrf": token})
    form = {**form, **console_form(dealer)}
    assert dealer.post("/dealer/dice", data=form).status_code == 303
    assert table.records[-1].input.faces == tuple(form["faces"].split())


def test_the_table_refuses_a_button_while_paused_too(table: Any) -> None:
    table.pause("dealer", "checking a die")
    with pytest.raises(TableNotReady, match="paused"):
        table.submit(Entry(Roll(None, DieKind.D6, ("2",)), "panel"))


def test_the_board_gets_the_printable_face_art_of_every_kind_but_the_pip_d6(client: FlaskClient) -> None:
    import json
    from vision.face_art import svg_path
    response = client.get("/faces.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    text = response.get_data(as_text=True)
    art = json.loads(text.removeprefix("window.FACE_ART = ").rstrip().rstrip(";"))
    assert set(art) == {"d12", "d8-tauren", "letters"}
    for kind in (DieKind.D12, DieKind.D8_TAUREN, DieKind.LETTERS):
        assert art[kind.value] == {face: svg_path(kind, face) for face in kind.faces}
    assert art["d8-tauren"]["W"] != art["d8-tauren"]["S"]


def test_a_stream_told_to_resume_after_a_digit_int_refuses_starts_fresh(client: FlaskClient) -> None:
    # "²" is a digit to str.isdigit but not to int(): the stream was a 500 and a traceback
    for events in (read_events(client, 2, query="?after=%C2%B2"),
                   read_events(client, 2, headers={"Last-Event-ID": "²"}),
                   read_events(client, 2, query="?after=" + "9" * 5000)):  # past int()'s digits
        assert events[1]["event"] == "state"


def test_history_refuses_a_limit_that_is_not_a_count_of_games(client: FlaskClient) -> None:
    for limit in ("abc", "0", "-5", "1.5"):
        answer = client.get(f"/api/history?limit={limit}")
        assert answer.status_code == 400, limit  # abc and 0 gave 10 games, -5 one
        assert answer.get_json()["error"] == f"limit is a number of games, 1 or more, not '{limit}'"
    assert client.get("/api/history?limit=99").status_code == 200  # at most 10 are sent
