"""The spectator delay: the public view and stream run some seconds behind the table."""

from __future__ import annotations

import time
from typing import Any

import pytest

from controller.table.records import AFTER_ALL_TOLD
from web.delay import DelayedSubscription, SpectatorDelay
from tests.web.conftest import app_for, new_table, read_events


def wait_for(condition: Any, seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def test_changes_are_released_once_they_are_old_enough(table: Any) -> None:
    now = [100.0]
    delay = SpectatorDelay(10, clock=lambda: now[0])
    start = table.state().seq
    delay.follow(table)
    for _ in range(3):
        table.step()
    subscription = DelayedSubscription(delay, (start, AFTER_ALL_TOLD))  # after record start
    wait_for(lambda: len(delay._timeline) == 3)
    assert delay.state().seq == start and subscription.next(0.01) is None
    now[0] += 9.9
    assert delay.state().seq == start
    now[0] += 0.2
    assert delay.state().seq == start + 3
    told = [subscription.next(0.01) for _ in range(3)]
    assert [update.seq for update in told if update is not None] == [start + 1, start + 2, start + 3]


def test_the_delayed_scoreboard_shows_the_state_of_a_while_ago(table: Any) -> None:
    start = table.state().seq
    client = app_for(table, delay_seconds=60).test_client()
    for _ in range(5):
        table.step()
    assert client.get("/api/state").get_json()["seq"] == start
    events = read_events(client, 3)
    assert events[1]["id"] == str(start) and "keep-alive" in events[2]["comment"]
    undelayed = app_for(table).test_client()
    assert undelayed.get("/api/state").get_json()["seq"] == start + 5


def _drain(reader: Any) -> list[dict[str, Any]]:
    """The events the stream has released by now (read until its next keep-alive)."""
    found: list[dict[str, Any]] = []
    while True:
        event = reader.next_event()
        if "comment" in event:
            return found
        if "data" in event:
            found.append(event)


def _dice(document: dict[str, Any]) -> list[Any]:
    view = document["state"]["view"]
    return [*view["community"], *(die for seat in view["seats"] for die in seat["dice"])]


def _late_check(table: Any, game: str, one_hand: bool) -> int:
    """Play three hands of ``game`` with the scoreboard one hand late (or not) and check every
    public document against the hand in play; returns how many documents showed a state from
    after the hand in play began (0 when no die of the hand in play got out)."""
    from tests.web.conftest import StreamReader
    live = table.subscribe(after=table.state().seq)
    client = app_for(table, delay_one_hand=one_hand, keepalive=0.02).test_client()
    reader = StreamReader(client)
    start = table.state()
    first_of_hand = {(start.game_no, start.view.number): start.seq}
    early = 0
    while table.game.hands_played < 3:
        table.step()
        while (update := live.next(0)) is not None:
            first_of_hand.setdefault((update.state.game_no, update.state.view.number), update.seq)
        now = table.state()
        boundary = first_of_hand.get((now.game_no, now.view.number), 0)
        documents = [event["data"] for event in _drain(reader)]
        documents.append(client.get("/api/state").get_json())
        for document in documents:
            if one_hand and document["seq"] == start.seq:
                assert not _dice(document)  # the table before any hand it may show
            early += document["seq"] > boundary
        for summary in client.get("/api/history").get_json()["games"]:
            assert "rolls" not in summary
            assert summary["over"] or not one_hand
    reader.close()
    live.close()
    return early


@pytest.mark.parametrize("game", ["tauren", "tao", "diceholdem"])
def test_one_hand_late_no_die_of_the_hand_in_play_gets_out(game: str) -> None:
    assert _late_check(new_table(game, 3, 11), game, one_hand=True) == 0


def test_without_the_delay_the_same_check_sees_the_hand_in_play() -> None:
    assert _late_check(new_table("tauren", 3, 11), "tauren", one_hand=False) > 0


def test_one_hand_late_shows_the_previous_hands_end(table: Any) -> None:
    client = app_for(table, delay_one_hand=True).test_client()
    state = client.get("/api/state").get_json()["state"]
    assert not state["log"] and "one hand late" in state["view"]["awaited"]["text"]
    while table.game.hands_played < 1:
        table.step()
    table.step()  # the next hand has begun
    wait_for(lambda: client.get("/api/state").get_json()["state"]["view"]["result"])
    shown = client.get("/api/state").get_json()["state"]
    assert shown["view"]["result"]["number"] == 1 and shown["view"]["number"] == 2
    assert shown["seq"] < table.state().seq
