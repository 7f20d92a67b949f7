"""The dealer console's locks: sessions, CSRF tokens, cookie flags, the hashed PIN, rate limits."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from flask.testing import FlaskClient

from controller.games.errors import ConfigError
from web.context import web_table
from web.security import (EVERY_CLIENT, IDLE_LIMIT, OPEN_SESSIONS, SEEN_STEP, SESSIONS_FILE, SHIFT_LIMIT,
                          PinGate, SessionKeep, SessionLimits, Standing, digest)
from tests.web.conftest import PIN, app_for, csrf_of, log_in


def dealer_ticket(app: Flask, cookie: str) -> str:
    """The dealer's ticket inside a session cookie, read with the app's key (Flask's signed cookie)."""
    interface = app.session_interface
    assert isinstance(interface, SecureCookieSessionInterface)
    serializer = interface.get_signing_serializer(app)
    assert serializer is not None
    return str(serializer.loads(cookie)["dealer"])


def console_routes(app: Flask) -> list[tuple[str, str]]:
    """Every (method, path) of the console but the login form."""
    routes = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("dealer.") and rule.endpoint != "dealer.login":
            path = rule.rule.replace("<int:picture>", "1")
            routes += [(method, path) for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})]
    return routes


def test_the_console_has_the_routes_the_tests_walk(app: Flask) -> None:
    assert len(console_routes(app)) >= 13  # home, pages and every form: none forgotten below


def test_every_console_route_refuses_without_a_session(app: Flask, client: FlaskClient,
                                                       table: Any) -> None:
    token = csrf_of(client)  # a valid token without a dealer session
    before = table.state().seq
    for method, path in console_routes(app):
        if method == "GET":
            answer = client.get(path)
            assert answer.status_code == 302, path
            assert answer.headers["Location"].endswith("/dealer/login"), path
        else:
            answer = client.post(path, data={"csrf": token, "why": "x", "faces": "2 3",
                                             "seq": "1", "question": "1", "game": "tao",
                                             "names": "A, B"})
            assert answer.status_code == 401, path
    assert table.state().seq == before


def test_a_post_without_a_valid_csrf_token_is_refused(app: Flask, dealer: FlaskClient,
                                                      table: Any) -> None:
    before = table.state().seq
    for method, path in console_routes(app):
        if method == "POST" and path != "/dealer/logout":
            assert dealer.post(path, data={"why": "x"}).status_code == 400, path
            assert dealer.post(path, data={"csrf": "forged", "why": "x"}).status_code == 400, path
    assert table.state().seq == before
    assert dealer.get("/dealer/").status_code == 200  # still logged in


def test_the_login_form_needs_its_csrf_token_too(client: FlaskClient) -> None:
    client.get("/dealer/login")
    assert client.post("/dealer/login", data={"pin": PIN}).status_code == 400
    assert client.get("/dealer/").status_code == 302


def test_the_session_cookie_is_httponly_and_samesite(client: FlaskClient) -> None:
    answer = log_in(client)
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_the_pin_is_not_stored_in_clear(app: Flask) -> None:
    from werkzeug.security import check_password_hash

    gate = web_table(app).gate
    assert gate.pin_hash is not None and check_password_hash(gate.pin_hash, PIN)
    method, salt, digest = gate.pin_hash.split("$")  # werkzeug's hash: no field is the PIN
    assert method.split(":")[0] in ("scrypt", "pbkdf2") and PIN not in (method, salt, digest)
    # the PIN's four digits may turn up by chance in random hex: the hash (1 run in about 500 did),
    # the session key (another run), an object's address in a repr; none of them is the PIN kept
    kept = (repr(app.config) + repr(vars(web_table(app))) + repr(web_table(app).settings))
    kept = re.sub(r"0x[0-9a-f]+", "", kept.replace(gate.pin_hash, "").replace(str(app.secret_key), ""))
    assert PIN not in kept


def test_a_wrong_pin_is_refused(client: FlaskClient) -> None:
    answer = log_in(client, "1111")
    assert answer.status_code == 403 and "Wrong PIN" in answer.get_data(as_text=True)
    assert client.get("/dealer/").status_code == 302


def test_wrong_pins_are_rate_limited_even_before_the_right_one(client: FlaskClient) -> None:
    codes = [log_in(client, f"000{n}").status_code for n in range(6)]
    assert codes == [403] * 5 + [429]
    assert log_in(client).status_code == 429  # the right PIN waits too
    assert client.get("/dealer/").status_code == 302


def test_the_lock_lifts_after_the_window() -> None:
    now = [100.0]
    gate = PinGate("pbkdf2:sha256:1$salt$00", attempts=2, window=60, clock=lambda: now[0])
    assert not gate.check("1.2.3.4", "1") and not gate.check("1.2.3.4", "2")
    assert gate.locked_for("1.2.3.4") == pytest.approx(60)
    assert gate.locked_for("5.6.7.8") == 0  # another client is not locked out
    now[0] += 61
    assert gate.locked_for("1.2.3.4") == 0


def test_many_clients_guessing_together_lock_every_client_out() -> None:
    # each address had its own limit only, so many addresses (a LAN's IPv6 ones cost nothing)
    # could guess a short PIN together at any pace
    now = [100.0]
    gate = PinGate("pbkdf2:sha256:1$salt$00", attempts=2, window=60, clock=lambda: now[0])
    first = now[0] + 1
    for n in range(2 * EVERY_CLIENT - 1):
        now[0] += 1
        assert gate.locked_for(f"10.0.0.{n}") == 0 and not gate.check(f"10.0.0.{n}", "1")
    assert gate.locked_for("10.0.1.1") == 0
    assert not gate.check("10.0.0.99", "1")
    assert gate.locked_for("10.0.1.1") == pytest.approx(first + 60 - now[0])  # a newcomer waits too
    now[0] += 60
    assert gate.locked_for("10.0.1.1") == 0


def test_the_gate_forgets_the_clients_whose_wrong_pins_are_old() -> None:
    # every address that ever tried was kept, and every one that only asked was added
    now = [100.0]
    gate = PinGate("pbkdf2:sha256:1$salt$00", attempts=5, window=60, clock=lambda: now[0])
    for n in range(3):
        gate.check(f"10.0.0.{n}", "1")
    gate.locked_for("10.0.0.200")
    assert gate.remembered == 3
    now[0] += 61
    gate.locked_for("10.0.0.200")
    assert gate.remembered == 0


def test_a_console_without_a_pin_lets_nobody_in(table: Any) -> None:
    client = app_for(table, dealer_pin=None).test_client()
    assert log_in(client, "").status_code == 403
    assert log_in(client, PIN).status_code == 403


def test_logging_out_ends_the_session(dealer: FlaskClient) -> None:
    dealer.post("/dealer/logout", data={"csrf": csrf_of(dealer, "/dealer/")})
    assert dealer.get("/dealer/").status_code == 302


def test_evidence_pictures_are_for_the_dealer_only(client: FlaskClient, table: Any) -> None:
    for _ in range(3):
        table.step()
    question = table.ask()
    assert client.get(f"/dealer/evidence/{question.evidence}").status_code == 302
    log_in(client)
    picture = client.get(f"/dealer/evidence/{question.evidence}")
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"
    assert picture.data[:2] == b"\xff\xd8"


def test_a_table_with_no_pin_says_its_console_is_locked_and_why(table: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from web import PIN_VARIABLE, create_app
    from web.dealer import NO_PIN
    monkeypatch.delenv(PIN_VARIABLE, raising=False)
    client = create_app(table, {"TESTING": True}).test_client()
    assert "DICETABLE_DEALER_PIN" in NO_PIN
    shown = client.get("/dealer/login").get_data(as_text=True)
    assert "no dealer PIN" in shown and "dealer.env" in shown
    answer = log_in(client, PIN)
    assert answer.status_code == 403 and "no dealer PIN" in answer.get_data(as_text=True)
    assert "Wrong PIN" not in answer.get_data(as_text=True)


def test_an_evidence_id_no_picture_can_have_is_404(dealer: FlaskClient) -> None:
    for picture in ("0", "9" * 40):  # past SQLite's integers: it was a 500 and a traceback
        answer = dealer.get(f"/dealer/evidence/{picture}")
        assert answer.status_code == 404, picture
        assert f"no evidence picture {picture} is kept" in answer.get_data(as_text=True)


def test_a_copy_of_the_session_cookie_is_dead_after_log_out(app: Flask, dealer: FlaskClient,
                                                            table: Any) -> None:
    token, cookie = csrf_of(dealer, "/dealer/"), dealer.get_cookie("dicetable_session")
    assert cookie is not None
    dealer.post("/dealer/logout", data={"csrf": token})
    copy = app.test_client()  # the cookie as it was before Log out (it still opened the console)
    copy.set_cookie("dicetable_session", cookie.value)
    assert copy.get("/dealer/").status_code == 302
    assert copy.post("/dealer/pause", data={"csrf": token, "why": "x"}).status_code == 401
    assert table.state().status.value == "running"


def restarted(app: Flask, cookie: str) -> FlaskClient:
    """A browser of ``app`` holding ``cookie``, a dealer's session cookie of an app before it."""
    browser = app.test_client()
    browser.set_cookie("dicetable_session", cookie)
    return browser


def logged_in_cookie(app: Flask) -> tuple[str, str]:
    """A dealer's session cookie in ``app`` and its CSRF token."""
    browser = app.test_client()
    assert log_in(browser).status_code == 302
    cookie = browser.get_cookie("dicetable_session")
    assert cookie is not None
    return cookie.value, csrf_of(browser, "/dealer/")


def test_a_restarted_table_keeps_its_dealer_logged_in(table: Any, tmp_path: Path) -> None:
    # the signing key was made anew at each start, and the open sessions kept in memory: a Pi
    # that restarted mid-game (a power cut, a crash, `systemctl restart`) logged its dealer out
    kept = tmp_path / SESSIONS_FILE
    cookie, token = logged_in_cookie(app_for(table, sessions=SessionKeep.at(kept)))
    again = restarted(app_for(table, sessions=SessionKeep.at(kept)), cookie)
    assert again.get("/dealer/").status_code == 200
    assert again.post("/dealer/pause", data={"csrf": token, "why": "x"}).status_code == 303
    assert table.state().status.value == "paused"


def test_a_session_closed_by_log_out_stays_closed_after_a_restart(table: Any, tmp_path: Path) -> None:
    kept = tmp_path / SESSIONS_FILE
    first = app_for(table, sessions=SessionKeep.at(kept))
    cookie, token = logged_in_cookie(first)
    assert restarted(first, cookie).post("/dealer/logout", data={"csrf": token}).status_code == 302
    assert restarted(app_for(table, sessions=SessionKeep.at(kept)), cookie).get("/dealer/").status_code == 302


def test_the_sessions_file_is_the_table_user_s_alone_and_holds_no_session_id(
        table: Any, tmp_path: Path) -> None:
    kept = tmp_path / SESSIONS_FILE
    before = os.umask(0)  # the mode is the file's own, not a lenient umask's
    try:
        app = app_for(table, sessions=SessionKeep.at(kept))
        cookie, _ = logged_in_cookie(app)
    finally:
        os.umask(before)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert [path.name for path in tmp_path.iterdir()] == [SESSIONS_FILE]  # written whole, nothing aside
    ticket = dealer_ticket(app, cookie)
    assert ticket not in kept.read_text() and digest(ticket) in kept.read_text()


def test_deleting_the_sessions_file_logs_every_dealer_out(table: Any, tmp_path: Path) -> None:
    kept = tmp_path / SESSIONS_FILE
    cookie, _ = logged_in_cookie(app_for(table, sessions=SessionKeep.at(kept)))
    kept.unlink()
    assert restarted(app_for(table, sessions=SessionKeep.at(kept)), cookie).get("/dealer/").status_code == 302


KEY = '{"key": "' + "a" * 64 + '", '
STAY = '"opened": 1, "seen": 1'
OTHER = '"sessions": [{"digest": "' + "b" * 64 + '", '


@pytest.mark.parametrize("damage", ["", "{not json", '{"key": "00", "sessions": []}', '[1, 2]',
                                    KEY + '"sessions": ["x"]}', KEY + '"sessions": {}}',
                                    KEY + '"sessions": [{"digest": "x", ' + STAY + '}]}',
                                    KEY + OTHER + '"opened": "1", "seen": 1}]}',
                                    KEY + OTHER + '"opened": 1}]}',
                                    KEY + OTHER + '"opened": true, "seen": 1}]}',
                                    KEY + OTHER + '"opened": 1e999, "seen": 1}]}',
                                    "\udcff"])
def test_a_damaged_sessions_file_is_replaced_with_a_warning(table: Any, tmp_path: Path, damage: str) -> None:
    kept = tmp_path / SESSIONS_FILE
    cookie, _ = logged_in_cookie(app_for(table, sessions=SessionKeep.at(kept)))
    kept.write_bytes(damage.encode("utf-8", "surrogateescape"))
    keep = SessionKeep.at(kept)
    assert keep.replaced is not None and keep.replaced.startswith(f"warning: the dealer's sessions '{kept}'")
    assert "\n" not in keep.replaced and "every dealer logs in again" in keep.replaced
    assert restarted(app_for(table, sessions=keep), cookie).get("/dealer/").status_code == 302
    assert SessionKeep.at(kept).replaced is None and SessionKeep.at(kept).key == keep.key


def test_a_sessions_file_that_cannot_be_read_is_refused_in_one_line(tmp_path: Path) -> None:
    kept = tmp_path / SESSIONS_FILE
    kept.mkdir()  # root reads any file: a folder in its place cannot be read by anyone
    with pytest.raises(ConfigError) as refused:
        SessionKeep.at(kept)
    assert str(refused.value).startswith(f"cannot read the dealer's sessions '{kept}': ")
    assert "delete it" in str(refused.value) and "\n" not in str(refused.value)
    assert kept.is_dir() and not any(kept.iterdir())  # nothing made or changed


class Clock:
    """A wall clock the test moves (tests never sleep)."""

    def __init__(self) -> None:
        self.now = 1_765_000_000.0  # an evening in December 2025

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


HOUR = 3600.0  # for the clock set back by hours; the limits are their own constants
IDLE_LINE = "Logged out after 3 hours without use: log in again."


def timed_app(table: Any, clock: Clock, kept: Path | None = None) -> Flask:
    """An app of ``table`` timed by ``clock``, its sessions in ``kept`` (None: in memory, as the demo's)."""
    return app_for(table, wall_clock=clock, sessions=SessionKeep.at(kept) if kept else None)


def test_a_session_left_alone_for_the_idle_limit_ends_and_the_login_says_why(table: Any) -> None:
    # a session ended only at Log out: a tablet left logged in at the bar opened the console forever
    clock = Clock()
    browser = timed_app(table, clock).test_client()
    assert log_in(browser).status_code == 302
    clock.advance(IDLE_LIMIT - 1)
    assert browser.get("/dealer/").status_code == 200
    clock.advance(IDLE_LIMIT)
    answer = browser.get("/dealer/")
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/dealer/login")
    line = re.search(r'id="ended">([^<]*)<', browser.get("/dealer/login").get_data(as_text=True))
    assert line is not None and line.group(1) == IDLE_LINE
    assert log_in(browser).status_code == 302 and browser.get("/dealer/").status_code == 200
    assert 'id="ended"' not in browser.get("/dealer/login").get_data(as_text=True)


def test_a_form_sent_after_the_idle_limit_goes_to_the_login_and_is_not_applied(table: Any) -> None:
    clock = Clock()
    browser = timed_app(table, clock).test_client()
    log_in(browser)
    token = csrf_of(browser, "/dealer/")
    clock.advance(IDLE_LIMIT)
    answer = browser.post("/dealer/pause", data={"csrf": token, "why": "a spilled drink"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/dealer/login")
    assert table.state().status.value == "running"
    assert IDLE_LINE in browser.get("/dealer/login").get_data(as_text=True)


def test_using_the_console_keeps_its_session_until_the_shift_ends(table: Any) -> None:
    clock = Clock()
    browser = timed_app(table, clock).test_client()
    log_in(browser)
    token, opened = csrf_of(browser, "/dealer/"), clock.now
    while clock.now + IDLE_LIMIT < opened + SHIFT_LIMIT:  # a use a little within every idle limit
        clock.advance(IDLE_LIMIT - SEEN_STEP)
        assert browser.post("/dealer/pause", data={"csrf": token, "why": "x"}).status_code == 303
        assert browser.post("/dealer/resume", data={"csrf": token}).status_code == 303
    clock.now = opened + SHIFT_LIMIT
    assert browser.get("/dealer/").status_code == 302
    assert ("Logged out 12 hours after logging in (a shift): log in again."
            in browser.get("/dealer/login").get_data(as_text=True))


def test_the_console_page_following_the_table_is_not_use(table: Any) -> None:
    # the page asks /dealer/at every 2 s, draws itself again (?follow) and its pictures with it:
    # counted as use, a tablet left open on the console would never be idle
    clock = Clock()
    browser = timed_app(table, clock).test_client()
    log_in(browser)
    for _ in range(3):
        clock.advance(IDLE_LIMIT / 4)
        assert browser.get("/dealer/at").status_code == 200
        assert browser.get("/dealer/?follow=1").status_code == 200
        assert browser.get("/dealer/evidence/1").status_code == 404  # no picture, but asked
    clock.advance(IDLE_LIMIT / 4)
    assert browser.get("/dealer/at").status_code == 302


def test_a_restart_keeps_a_live_session_and_does_not_revive_an_ended_one(table: Any, tmp_path: Path) -> None:
    clock, kept = Clock(), tmp_path / SESSIONS_FILE
    cookie, token = logged_in_cookie(timed_app(table, clock, kept))
    clock.advance(IDLE_LIMIT - 1)
    assert restarted(timed_app(table, clock, kept), cookie).get("/dealer/").status_code == 200  # used
    clock.advance(IDLE_LIMIT - 1)  # past the limit since the login, not since that use
    again = restarted(timed_app(table, clock, kept), cookie)
    assert again.post("/dealer/pause", data={"csrf": token, "why": "x"}).status_code == 303
    assert table.state().status.value == "paused"
    clock.advance(IDLE_LIMIT)
    ended = restarted(timed_app(table, clock, kept), cookie)
    assert ended.get("/dealer/").status_code == 302
    assert IDLE_LINE in ended.get("/dealer/login").get_data(as_text=True)
    clock.now -= IDLE_LIMIT  # the clock of the table before: it ended there too, for good
    assert restarted(timed_app(table, clock, kept), cookie).get("/dealer/").status_code == 200
    clock.now += IDLE_LIMIT
    assert restarted(timed_app(table, clock, kept), cookie).get("/dealer/").status_code == 302


def test_a_use_rewrites_the_sessions_file_only_when_the_last_use_moved_by_the_step(
        table: Any, tmp_path: Path) -> None:
    clock, kept = Clock(), tmp_path / SESSIONS_FILE
    app = timed_app(table, clock, kept)
    browser = restarted(app, logged_in_cookie(app)[0])
    written = kept.read_text()
    for _ in range(10):
        clock.advance(SEEN_STEP / 20)
        assert browser.get("/dealer/").status_code == 200
    assert kept.read_text() == written  # ten uses in half the step: not one write
    clock.advance(SEEN_STEP / 2)
    browser.get("/dealer/")
    assert kept.read_text() != written
    assert SessionKeep.at(kept).stays[next(iter(SessionKeep.at(kept).stays))].seen == clock.now


def test_the_sessions_file_rewritten_for_a_use_stays_the_table_user_s_alone_without_ids(
        table: Any, tmp_path: Path) -> None:
    clock, kept = Clock(), tmp_path / SESSIONS_FILE
    before = os.umask(0)
    try:
        app = timed_app(table, clock, kept)
        cookie, _ = logged_in_cookie(app)
        kept.chmod(0o644)  # the rewrite sets the mode itself, whatever the file had
        clock.advance(SEEN_STEP)
        assert restarted(app, cookie).get("/dealer/").status_code == 200
    finally:
        os.umask(before)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert [path.name for path in tmp_path.iterdir()] == [SESSIONS_FILE]
    ticket = dealer_ticket(app, cookie)
    text = kept.read_text()
    assert ticket not in text and digest(ticket) in text and str(clock.now) in text


def test_the_demo_s_sessions_in_memory_have_the_run_s_limits(table: Any, tmp_path: Path) -> None:
    from controller.commands.demo import demo_app
    assert web_table(demo_app(table, 1.0, PIN)).gate.limits == SessionLimits(IDLE_LIMIT, SHIFT_LIMIT)
    assert web_table(timed_app(table, Clock(), tmp_path / SESSIONS_FILE)).gate.limits == SessionLimits()
    clock = Clock()
    browser = timed_app(table, clock).test_client()  # no keep: as `dicetable demo` serves it
    log_in(browser)
    clock.advance(IDLE_LIMIT)
    assert browser.get("/dealer/").status_code == 302
    assert IDLE_LINE in browser.get("/dealer/login").get_data(as_text=True)


def test_a_sessions_file_of_the_tables_before_the_limits_keeps_its_key_and_no_session(tmp_path: Path) -> None:
    # its sessions have no times: taken as new they would get one more idle limit, and a whole shift
    kept = tmp_path / SESSIONS_FILE
    kept.write_text('{"key": "' + "a" * 64 + '", "open": ["' + "b" * 64 + '"]}')
    keep = SessionKeep.at(kept)
    assert keep.replaced is None and keep.key == "a" * 64 and keep.stays == {}


def test_later_logins_push_out_an_ended_session_before_a_live_one() -> None:
    clock = Clock()
    gate = PinGate(None, attempts=5, window=60, wall_clock=clock)
    live, idle = gate.let_in(), gate.let_in()
    clock.advance(IDLE_LIMIT - SEEN_STEP)
    assert gate.standing(live, used=True) is Standing.OPEN
    clock.advance(SEEN_STEP)
    assert gate.standing(idle) is Standing.IDLE
    for _ in range(OPEN_SESSIONS - 1):
        gate.let_in()
    assert gate.standing(live) is Standing.OPEN and gate.standing(idle) is Standing.CLOSED


def test_a_wall_clock_set_back_moves_the_last_use_back_too() -> None:
    # a Pi has no clock of its own: after a power cut it may start hours behind the time it kept
    clock = Clock()
    gate = PinGate(None, attempts=5, window=60, wall_clock=clock)
    ticket = gate.let_in()
    clock.advance(-5 * HOUR)
    assert gate.standing(ticket, used=True) is Standing.OPEN
    clock.advance(IDLE_LIMIT - 1)
    assert gate.standing(ticket) is Standing.OPEN
    clock.advance(1)
    assert gate.standing(ticket) is Standing.IDLE
