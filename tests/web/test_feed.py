"""The feeds a stream reads: every change the table tells reaches every open stream once, in
order, those that make no record too (a notice, a new game keep the last record's number)."""

from __future__ import annotations

import json
import time
from typing import Any, Callable

from controller.table.records import AFTER_ALL_TOLD, Update
from web.context import direct, web_table
from web.delay import DelayedSubscription, SpectatorDelay
from web.feed import Fanout, FanoutFeed
from web.stream import events
from tests.web.conftest import app_for


def changes_told(table: Any) -> None:
    """Two new games (no record each: the last record's number twice) and a pause (a record)."""
    table.new_game("tauren", ["Ann", "Bo", "Cy"], {})
    table.new_game("tauren", ["Ann", "Bo", "Dee"], {})
    table.pause("dealer", "a drink was spilled")


def gathered(wait: Callable[[], list[Update]], count: int) -> list[Update]:
    found: list[Update] = []
    end = time.monotonic() + 5
    while len(found) < count and time.monotonic() < end:
        found += wait()
    return found


def told(updates: list[Update]) -> list[tuple[str, int, int]]:
    return [(update.kind, *update.place) for update in updates]


def test_an_open_stream_of_the_fanout_gets_the_changes_that_make_no_record(table: Any) -> None:
    # the fan-out kept a stream's place as a record number, so a new game (or a notice) that kept
    # the last record's number was never sent to a scoreboard already open
    ctx = web_table(app_for(table))
    start = table.state().place
    fanout = Fanout(ctx.public_subscribe, start, ctx.event)
    try:
        feed = FanoutFeed(fanout, start, ctx.public_subscribe, direct)
        changes_told(table)
        updates = gathered(lambda: feed.wait(0.5), 3)
        seq, since = start
        assert told(updates) == [("game", seq, since + 1), ("game", seq, since + 2), ("status", seq + 1, 0)]
        assert feed.wait(0.1) == []  # each once
        # each sent as its own event (the encoded events were cached by record number and kind)
        sent = [json.loads(ctx.event(u).decode().split("data: ", 1)[1]) for u in updates]
        assert [event["text"] for event in sent] == [u.text for u in updates]
        assert sent[1]["state"]["view"]["seats"][2]["name"] == "Dee"
    finally:
        fanout.close()


def test_a_stream_resumed_after_a_record_goes_on_after_the_changes_told_of_it(table: Any) -> None:
    # Last-Event-ID names a record: what was told after it without a record is not sent again
    ctx = web_table(app_for(table))
    start = table.state().place
    fanout = Fanout(ctx.public_subscribe, start, ctx.event)
    try:
        changes_told(table)
        opened = FanoutFeed(fanout, start, ctx.public_subscribe, direct)
        assert len(gathered(lambda: opened.wait(0.5), 3)) == 3
        resumed = FanoutFeed(fanout, (start[0], AFTER_ALL_TOLD), ctx.public_subscribe, direct)
        assert told(resumed.wait(0.5)) == [("status", start[0] + 1, 0)]
    finally:
        fanout.close()


def test_the_delayed_stream_releases_the_changes_that_make_no_record(table: Any) -> None:
    now = [100.0]
    delay = SpectatorDelay(10, clock=lambda: now[0])
    delay.follow(table)
    start = table.state().place
    changes_told(table)
    subscription = DelayedSubscription(delay, start)
    end = time.monotonic() + 5
    while len(delay._timeline) < 3 and time.monotonic() < end:
        time.sleep(0.01)
    now[0] += 11
    updates = gathered(lambda: [u for u in [subscription.next(0.1)] if u is not None], 3)
    seq, since = start
    assert told(updates) == [("game", seq, since + 1), ("game", seq, since + 2), ("status", seq + 1, 0)]
    assert subscription.next(0.05) is None


def test_a_stream_resumed_at_the_last_record_gets_what_is_told_after_it(table: Any) -> None:
    # it went on after (seq, AFTER_ALL_TOLD): a scoreboard that reconnected at the table's last
    # record (the table restarted, told counting from 0 again; a phone's network came back) got
    # nothing told without a record until the next record: a new game, a fault before the first
    # game and its end
    ctx = web_table(app_for(table))
    ctx.fanout = Fanout(ctx.public_subscribe, table.state().place, ctx.event)
    stream = events(ctx, table.state().seq)
    try:
        assert next(stream).startswith(b"retry:") and next(stream) == b": keep-alive\n\n"
        table.new_game("tauren", ["Ann", "Bo", "Dee"], {})
        sent = [next(stream) for _ in range(10)]
        assert any(b"New game" in block for block in sent)
    finally:
        stream.close()  # runs events()'s finally: the feed let go
        ctx.fanout.close()
