"""The public scoreboard page: one page that draws whatever the table's view says."""

from __future__ import annotations

import json
from functools import lru_cache

from flask import Blueprint, Response, render_template

from controller.games.dice import DieKind

from web.context import web_table

scoreboard = Blueprint("scoreboard", __name__)


@scoreboard.get("/")
def board() -> str:
    """The scoreboard (large screen and phone layouts in one page; live by Server-Sent Events)."""
    settings = web_table().settings
    return render_template("scoreboard.html", showdown_ms=int(settings["showdown_seconds"] * 1000))


@scoreboard.get("/faces.js")
def faces() -> Response:
    """The printable face art (``vision.face_art``) of every kind but the pip d6, as SVG paths
    in a unit box, for ``dice.js``: the board draws each face as the stickers print it."""
    response = Response(_face_art_script(), mimetype="text/javascript")
    response.cache_control.max_age = 3600
    return response


@lru_cache(maxsize=1)
def _face_art_script() -> str:
    from vision.face_art import svg_path  # OpenCV: loaded when the first board asks, not at start
    art = {kind.value: {face: svg_path(kind, face) for face in kind.faces}
           for kind in DieKind if kind is not DieKind.D6}
    return f"window.FACE_ART = {json.dumps(art, separators=(',', ':'))};\n"
