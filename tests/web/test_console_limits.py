"""The dealer's session limits the venue sets in ``table.toml``'s ``[console]``: the session code
times sessions by them, and ``dicetable run`` hands them to the web app."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from hardware.config import ConsoleConfig
from web.context import web_table
from web.security import SessionLimits
from tests.web.conftest import app_for, csrf_of, log_in
from tests.web.test_security import Clock

MINUTE, HOUR = 60.0, 3600.0
LOCKED_TABLET = SessionLimits(idle=30 * MINUTE, shift=14 * HOUR)
"""A club's 14-hour day, its tablet locked after half an hour without use."""


def ended_line(browser: FlaskClient) -> str:
    """What the login page says of the session that ended ("" when it says nothing)."""
    line = re.search(r'id="ended">([^<]*)<', browser.get("/dealer/login").get_data(as_text=True))
    return line.group(1) if line else ""


def limited_app(table: Any, clock: Clock, limits: SessionLimits) -> Flask:
    return app_for(table, wall_clock=clock, session_limits=limits)


def test_a_session_ends_after_the_venue_s_idle_time(table: Any) -> None:
    # the limits were constants: a venue wanting the tablet locked after 30 minutes got 3 hours
    clock = Clock()
    browser = limited_app(table, clock, LOCKED_TABLET).test_client()
    log_in(browser)
    clock.advance(30 * MINUTE - 1)
    assert browser.get("/dealer/at").status_code == 200  # following the table is not use
    clock.advance(1)
    assert browser.get("/dealer/").status_code == 302
    assert ended_line(browser) == "Logged out after 30 minutes without use: log in again."


def test_a_used_session_ends_after_the_venue_s_shift(table: Any) -> None:
    # a club's 14-hour day ended its dealer's session at the 12th hour
    clock = Clock()
    browser = limited_app(table, clock, LOCKED_TABLET).test_client()
    log_in(browser)
    token, opened = csrf_of(browser, "/dealer/"), clock.now
    while clock.now + 25 * MINUTE < opened + 14 * HOUR:
        clock.advance(25 * MINUTE)
        assert browser.post("/dealer/pause", data={"csrf": token, "why": "x"}).status_code == 303
        assert browser.post("/dealer/resume", data={"csrf": token}).status_code == 303
    clock.now = opened + 14 * HOUR - 1
    assert browser.get("/dealer/").status_code == 200
    clock.advance(1)
    assert browser.get("/dealer/").status_code == 302
    assert ended_line(browser) == "Logged out 14 hours after logging in (a shift): log in again."


def test_a_session_used_within_an_idle_limit_shorter_than_the_seen_step_stays_open(table: Any) -> None:
    # a use moved the session's last use only 5 minutes after the one before: with a 2-minute
    # idle limit a dealer using the console every minute was logged out at the second minute
    clock = Clock()
    browser = limited_app(table, clock, SessionLimits(idle=2 * MINUTE)).test_client()
    log_in(browser)
    for _ in range(10):
        clock.advance(MINUTE)
        assert browser.get("/dealer/").status_code == 200
    clock.advance(2 * MINUTE)
    assert browser.get("/dealer/").status_code == 302


def test_the_configuration_s_defaults_are_the_console_s_own_limits() -> None:
    # hardware.config cannot import the web (Flask): its defaults are a copy this test holds equal
    console = ConsoleConfig()
    assert SessionLimits(console.idle_minutes * MINUTE, console.shift_hours * HOUR) == SessionLimits()


def test_run_serves_the_console_with_the_configuration_s_limits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import web
    from controller.cli import main

    served: list[Flask] = []

    def create_app(*args: Any) -> Flask:
        served.append(made(*args))
        return served[-1]

    made = web.create_app
    monkeypatch.setattr(web, "create_app", create_app)
    monkeypatch.setenv("DICETABLE_HW", "sim")
    monkeypatch.setattr("controller.table.service.serve_table", lambda *args: None)  # never a loop
    config = tmp_path / "table.toml"
    config.write_text("[console]\nidle_minutes = 30\nshift_hours = 14\n")
    assert main(["run", "--config", str(config), "--state", str(tmp_path / "state"),
                 "--host", "127.0.0.1", "--port", "0"]) == 0
    assert [web_table(app).gate.limits for app in served] == [LOCKED_TABLET]
