"""The public scoreboard page: one page that draws whatever the table's view says."""

from __future__ import annotations

from flask import Blueprint, render_template

from web.context import web_table

scoreboard = Blueprint("scoreboard", __name__)


@scoreboard.get("/")
def board() -> str:
    """The scoreboard (large screen and phone layouts in one page; live by Server-Sent Events)."""
    settings = web_table().settings
    return render_template("scoreboard.html", showdown_ms=int(settings["showdown_seconds"] * 1000))
