"""The spectator delay: the public view and stream run some seconds behind the table."""

from __future__ import annotations

import time
from typing import Any

from web.delay import DelayedSubscription, SpectatorDelay
from web_conftest import app_for, read_events


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
    subscription = DelayedSubscription(delay, start)
    wait_for(lambda: len(delay._timeline) == 3)
    assert delay.state().seq == start and subscription.next(0.01) is None
    now[0] += 9.9
    assert delay.state().seq == start
    now[0] += 0.2
    assert delay.state().seq == start + 3
    assert [subscription.next(0.01).seq for _ in range(3)] == \
        [start + 1, start + 2, start + 3]  # type: ignore[union-attr]


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
