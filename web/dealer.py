"""The dealer console: behind a PIN, it fixes what the machines got wrong and runs the table.

Every route but the login needs a dealer session; every POST carries the session's CSRF token.
Inputs go through the table's own path (``TableHandle``), so the table refuses them while it is
paused (409, with its reason) exactly as it refuses a button.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl

from flask import (Blueprint, Response, abort, jsonify, make_response, redirect, render_template,
                   request, url_for)
from markupsafe import Markup, escape
from werkzeug.wrappers import Response as BaseResponse

from controller.games.registry import GAMES
from controller.games.rolls import Roll
from controller.table.records import SEAT_COLOURS, Entry, ReplaceDice, Undo, VoidHand
from web.context import web_table
from web.fairness import die_names, face_tests
from web.security import (Standing, check_csrf, csrf_token, farewell, log_in, log_out, logged_in,
                          standing)

dealer = Blueprint("dealer", __name__)
DEALER = "dealer"
OPEN = ("dealer.login",)  # the only endpoints without a session
BY_ITSELF = ("dealer.at", "dealer.evidence")
"""What the console page asks by itself (the table's place, every few seconds) or with a page (its
pictures): never the dealer's use of the session; nor is a page asked with :data:`FOLLOW`."""
FOLLOW = "follow"
"""The query parameter of the console page drawing itself again as the table goes on: not the
dealer's use either, or a tablet left open on the console would never be idle."""
COLOURS = SEAT_COLOURS


@dealer.before_request
def guard() -> BaseResponse | None:
    """Refuse a request without a dealer session; check the CSRF token of every POST. A request
    is the dealer's use of the session unless the console page made it by itself
    (:data:`BY_ITSELF`, :data:`FOLLOW`). A session a limit ended sends even a form to the login
    page, which says why; the form is not applied."""
    if request.method == "POST":
        _check_text()
        check_csrf(request.form.get("csrf"))
    if request.endpoint in OPEN:
        return None
    used = request.endpoint not in BY_ITSELF and FOLLOW not in request.args
    stands = standing(web_table().gate, used)
    if stands is Standing.OPEN:
        return None
    if request.method == "GET" or stands.ended:
        return redirect(url_for("dealer.login"), code=302 if request.method == "GET" else 303)
    abort(401, "log in to the dealer console first")


NOT_TEXT = "the form is not valid text (UTF-8): reload the page and type it again"
"""The refusal of a form whose body, or a %-escape in it, is not UTF-8."""


def _check_text() -> None:
    """Refuse (400, :data:`NOT_TEXT`) a form body that is not UTF-8: werkzeug reads such a body
    as an empty form (refused as a stale security token) and keeps a %-escape of bytes that are
    not UTF-8 as it came (``%FF`` reached the table as a seat named ``%FF``). The console's forms
    are all urlencoded; the body is kept for werkzeug's own reading of the form."""
    if request.mimetype != "application/x-www-form-urlencoded":
        return
    try:
        parse_qsl(request.get_data(cache=True).decode(), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        abort(400, NOT_TEXT)


@dealer.context_processor
def tokens() -> dict[str, Any]:
    """Every console template gets the CSRF token, and whether a dealer is logged in."""
    return {"csrf": csrf_token(), "dealer": logged_in(web_table().gate), "follow": FOLLOW}


CODE_SPAN = re.compile(r"`([^`]+)`")
"""A command quoted as the terminal shows it, in backticks (``table.DEVICE_FIX``)."""


@dealer.app_template_filter("code")
def code_spans(text: str) -> Markup:
    """``text`` for a page, each command quoted in backticks shown as code: the table's problems
    and fixes are written for its terminal too, which has no other way to show one.

    >>> code_spans("check <it>; `dicetable doctor` says more")
    Markup('check &lt;it&gt;; <code>dicetable doctor</code> says more')
    """
    return Markup(CODE_SPAN.sub(r"<code>\1</code>", str(escape(text))))


@dealer.app_template_filter("local_time")
def local_time(iso: str) -> Markup:
    """A recorded time (ISO 8601, UTC, as the record keeps it) in the table's own clock, as a
    dealer reads one ("6 Dec 2026 15:45"), with the exact time kept in the element's ``datetime``;
    a text that is no such time is shown as it is.

    >>> local_time("not a time")
    Markup('not a time')
    """
    try:
        at = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return Markup(escape(iso))
    return Markup(f'<time datetime="{escape(iso)}">{at.day} {at:%b %Y %H:%M}</time>')


NO_PIN = ("This table has no dealer PIN, so the console stays locked: set DICETABLE_DEALER_PIN where "
          "the table starts (on a Pi, in /etc/dicetable/dealer.env: hardware/README.md) and restart it.")
"""What the login form says on a table started without a dealer PIN."""


@dealer.route("/login", methods=["GET", "POST"])
def login() -> BaseResponse | str | tuple[str, int]:
    """The PIN form; a right PIN opens a session, too many wrong ones lock the client out. A table
    with no PIN says so (:data:`NO_PIN`) rather than refusing every PIN as wrong."""
    gate, client = web_table().gate, request.remote_addr or "?"
    if gate.pin_hash is None:
        return render_template("dealer/login.html", error=NO_PIN), 403 if request.method == "POST" else 200
    if request.method == "GET":
        return render_template("dealer/login.html", error="", ended=farewell(gate))
    wait = gate.locked_for(client)
    if wait > 0:
        return render_template("dealer/login.html",
                               error=f"Too many wrong PINs: wait {wait:.0f} s."), 429
    if not gate.check(client, request.form.get("pin", "")):
        return render_template("dealer/login.html", error="Wrong PIN."), 403
    log_in(gate)
    return redirect(url_for("dealer.home"))


@dealer.post("/logout")
def logout() -> BaseResponse:
    """End the dealer session."""
    log_out(web_table().gate)
    return redirect(url_for("dealer.login"))


@dealer.get("/")
def home() -> str:
    """The console: status, the open question with its evidence, corrections and controls."""
    ctx = web_table()
    state = ctx.table.state()
    return render_template("dealer/home.html", state=state, games=sorted(GAMES), run=ctx.run,
                           colours=COLOURS, seat_colours=state.colours, follow_ms=FOLLOW_MS)


FOLLOW_MS = 2000
"""How often (milliseconds) the console page asks whether the table changed (:func:`at`)."""


@dealer.post("/answer")
def answer() -> BaseResponse:
    """The dealer's reading of the dice the table asked about."""
    question = _form_number("question", f"{request.form.get('question', '')!r} is not a question's number: "
                                        "reload the page")
    web_table().table.answer(question, _faces(), DEALER)
    return _back()


@dealer.post("/dice")
def dice() -> BaseResponse:
    """Enter by hand the dice the table waits for (the camera is off or cannot read them): an
    input like any other, refused (409) while the table is paused or at fault."""
    at, game = _drawn_at(), _drawn_in_game()
    awaited = web_table().table.state().view.awaited.dice
    if not awaited:
        abort(400, "the table waits for no dice now")
    need = awaited[0]
    faces = tuple(need.kind.parse_face(face) for face in _faces())
    web_table().table.submit(Entry(Roll(need.seat, need.kind, faces), "console", DEALER), at=at,
                             in_game=game)
    return _back()


@dealer.post("/replace")
def replace() -> BaseResponse:
    """Correct a misread die: the roll recorded under ``seq`` showed other faces."""
    seq = request.form.get("seq", type=int)
    if seq is None:
        abort(400, "choose the roll to correct")
    web_table().table.correct(ReplaceDice(seq, _faces(), DEALER, _why("misread die")))
    return _back()


@dealer.post("/undo")
def undo() -> BaseResponse:
    """Take back the last input (the last the page showed: see :func:`_drawn_at`)."""
    web_table().table.correct(Undo(DEALER, _why("undo")), at=_drawn_at(), in_game=_drawn_in_game())
    return _back()


@dealer.post("/void")
def void() -> BaseResponse:
    """Cancel the hand in play; a reason is required."""
    why = _why()
    if not why:
        abort(400, "say why the hand is void")
    web_table().table.correct(VoidHand(DEALER, why), at=_drawn_at(), in_game=_drawn_in_game())
    return _back()


@dealer.post("/pause")
def pause() -> BaseResponse:
    """Pause the table."""
    web_table().table.pause(DEALER, _why("paused by the dealer"))
    return _back()


@dealer.post("/resume")
def resume() -> BaseResponse:
    """Resume a paused table."""
    web_table().table.resume(DEALER)
    return _back()


@dealer.post("/new-game")
def new_game() -> BaseResponse:
    """Start a game with its options, seat names and seat colours."""
    form = request.form
    names = [name.strip() for name in form.get("names", "").split(",") if name.strip()]
    if form.get("game") not in GAMES or len(names) < 2:
        abort(400, "choose a game and name at least two seats (comma-separated)")
    colours = [_colour(form.get(f"colour{seat}", ""), seat) for seat in range(len(names))]
    web_table().table.new_game(form["game"], names, _options(form.get("options", "")), colours,
                               after_game=_drawn_in_game())
    return _back()


@dealer.get("/at")
def at() -> Response:
    """Where the table stands now: ``at``, the game's last record, and the game's number, which
    the console's forms act on (:func:`_drawn_at`, :func:`_drawn_in_game`); ``seq``, the last
    record, a device's too (its fault, warning or end: in a game or the table's own outside one);
    and ``told``, the changes told since that record without one of their own (a notice:
    ``TableState.told``). The console page asks every few seconds: when ``at`` or the game
    changed, it draws itself again (or says its forms are stale); when only ``seq`` or ``told``
    did, it draws again the parts such a change shows (the status, the log), its forms still
    valid. ``run`` names the table's run (``WebTable.run``): a restarted table counts ``told``
    from 0 again, and the page draws itself again as for a new record."""
    ctx = web_table()
    state = ctx.table.state()
    return jsonify({"at": state.played, "seq": state.seq, "game_no": state.game_no, "told": state.told,
                    "run": ctx.run})


@dealer.get("/devices")
def devices() -> str:
    """Every device's health, as the table's loop last polled it (``Table.devices``)."""
    return render_template("dealer/devices.html", devices=web_table().table.devices())


@dealer.get("/games")
def games() -> str:
    """The last ten recorded games and their results."""
    return render_template("dealer/games.html", games=web_table().table.games(limit=10))


@dealer.get("/evidence/<int:picture>")
def evidence(picture: int) -> Response:
    """An evidence picture (the camera frame of a roll) as JPEG."""
    jpeg = web_table().table.evidence(picture)
    if jpeg is None:
        abort(404, f"no evidence picture {picture} is kept")
    response = make_response(jpeg)
    response.headers["Content-Type"] = "image/jpeg"
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


@dealer.get("/fairness")
def fairness() -> str:
    """Face counts per die (kind and colour) over the recorded rolls, with a chi-square test; each
    die named by its colour in a word, its ``#rrggbb`` in small print."""
    tests = face_tests(web_table().table.rolls())
    return render_template("dealer/fairness.html", tests=tests, names=die_names(tests))


def _drawn_at() -> int:
    """The game's last record when the form's page was drawn (``at``: ``TableState.played``, a
    device's records past): the table refuses the form's change once the game has changed since
    (``Table.correct``, ``Table.submit``: a second click of Undo took back one more input, of
    Enter gave the same dice to the next seat, of Void voided the next hand's first inputs)."""
    return _form_number("at", "the form does not say which state of the table it was drawn in: reload the page")


def _drawn_in_game() -> int:
    """The game the form's page was drawn in (``game_no``): a double click on Start started two
    games, the first left empty in the history (``Table.new_game``'s ``after_game``); and a new
    game makes no record, so Undo, Void and Enter check the game with the record
    (``Table.correct``, ``Table.submit``: Enter drawn in the game before gave its dice to the new
    one)."""
    return _form_number("game_no", "the form does not say which game it was drawn in: reload the page")


def _form_number(field: str, refusal: str) -> int:
    """The form's whole number ``field``, else 400 with ``refusal``."""
    number = request.form.get(field, type=int)
    if number is None:
        abort(400, refusal)
    return number


def _faces() -> tuple[str, ...]:
    faces = tuple(request.form.get("faces", "").replace(",", " ").split())
    if not faces:
        abort(400, "type the faces the dice show, e.g. 3 5")
    return faces


def _colour(text: str, seat: int) -> str:
    """A seat colour from the form's colour picker (``#rrggbb``), else the seat's default."""
    return text.lower() if re.fullmatch(r"#[0-9a-fA-F]{6}", text) else COLOURS[seat % len(COLOURS)]


LONGEST_WHY = 200
"""Characters in a dealer's reason at most (a pause's, an undo's, a void's): the record keeps it,
and the scoreboard shows a pause's."""


def _why(default: str = "") -> str:
    """The form's reason, or ``default`` when it gives none; a reason past :data:`LONGEST_WHY` is
    refused (400)."""
    why = request.form.get("why", "").strip()
    if len(why) > LONGEST_WHY:
        abort(400, f"a reason is at most {LONGEST_WHY} characters, not {len(why)}")
    return why or default


def _options(text: str) -> dict[str, str]:
    """``key=value`` pairs, separated by commas or lines."""
    pairs = [item.split("=", 1) for item in text.replace("\n", ",").split(",") if "=" in item]
    return {key.strip(): value.strip() for key, value in pairs}


def _back() -> BaseResponse:
    return redirect(url_for("dealer.home"), code=303)
