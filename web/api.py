"""The JSON API: the public state, the live event stream and recent results."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, stream_with_context

from controller.games.view import to_json
from controller.table.records import GameSummary
from web.context import web_table
from web.stream import events, resume_point, whole_number

api = Blueprint("api", __name__)


@api.get("/state")
def state() -> Response:
    """The public view of the table now (``TableState.to_json()`` with the chart and odds)."""
    ctx = web_table()
    return jsonify(ctx.document(ctx.public_state()))


@api.get("/stream")
def stream() -> Response:
    """Server-Sent Events: every change, resuming after ``Last-Event-ID`` (or ``?after=``)."""
    ctx = web_table()
    after = resume_point(request.headers.get("Last-Event-ID"), request.args.get("after"))
    response = Response(stream_with_context(events(ctx, after)), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not hold events back
    return response


@api.get("/history")
def history() -> Response:
    """The last recorded games and their results, newest first: ``?limit=`` of them (1 and
    up, at most 10; 10 when absent)."""
    text = request.args.get("limit", "10")
    limit = whole_number(text)
    if not limit:  # "abc" and 0 were taken as 10, -5 as 1, without a word
        abort(400, f"limit is a number of games, 1 or more, not {text[:20]!r}")
    limit = min(limit, 10)
    ctx = web_table()
    games = ctx.table.games(limit)
    if ctx.delay.active:  # only the games whose end the delayed scoreboard has shown
        shown = ctx.public_state()
        games = [game for game in games if game.game_no < shown.game_no
                 or (game.game_no == shown.game_no and shown.view.over)]
    return jsonify({"games": [public_summary(game) for game in games]})


def public_summary(game: GameSummary) -> dict[str, Any]:
    """A recorded game for the room: its results, without the rolls and their evidence
    pictures (the dealer's, on the console)."""
    data: dict[str, Any] = to_json(game)
    data.pop("rolls", None)
    return data
