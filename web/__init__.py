"""The Flask scoreboard, dealer console and JSON API of one table.

``create_app(table)`` builds the app around a :class:`~controller.table.records.TableHandle`, the
only thing of the table the web uses: the public state, a subscription to changes, and the
dealer's inputs (corrections, answers, pause and resume, a new game). The app's collaborators live
in ``app.extensions["dicetable"]`` (a :class:`web.context.WebTable`). ``serve(app, host, port)``
runs it under gevent's WSGI server, which holds hundreds of long-lived event streams.
"""

from __future__ import annotations

import os
import secrets
import time
from typing import TYPE_CHECKING, Any

from flask import Flask

from controller.table.records import TableHandle
from web.context import WebTable
from web.security import SessionLimits

if TYPE_CHECKING:
    from web.server import Background

__all__ = ["create_app", "environment_pin", "serve", "serve_in_background"]

PIN_VARIABLE = "DICETABLE_DEALER_PIN"
DEFAULTS: dict[str, Any] = {
    "keepalive": 15.0,       # seconds between keep-alive comments on an idle event stream
    "retry_ms": 2000,        # how soon a browser reconnects a dropped stream
    "delay_seconds": 0.0,    # spectator delay: the public view shown this many seconds late
    "delay_one_hand": False,  # and/or one hand late: the previous hand's end until this one ends
    "showdown_seconds": 6.0,  # how long the scoreboard holds a showdown on screen
    "login_attempts": 5,     # wrong PINs allowed per client within login_window seconds (4x that from all)
    "login_window": 60.0,
    "dealer_pin": None,      # the console PIN in clear: hashed at once, never stored
    "dealer_pin_hash": None,  # or its werkzeug hash
    "sessions": None,        # a web.security.SessionKeep: the dealer's sessions outlive a restart
    "wall_clock": time.time,  # what the dealer's sessions' limits are timed by (tests pass their own)
    "session_limits": SessionLimits(),  # how long a dealer's session lasts: table.toml's [console]
}


def environment_pin() -> str | None:
    """The dealer PIN the environment gives (:data:`PIN_VARIABLE`), or None."""
    return os.environ.get(PIN_VARIABLE) or None


def create_app(table: TableHandle, config: dict[str, Any] | None = None) -> Flask:
    """The web app of ``table``; ``config`` overrides :data:`DEFAULTS` and Flask settings.

    The dealer PIN is ``dealer_pin`` or, when the config does not name one, the environment's
    ``DICETABLE_DEALER_PIN``; the console stays locked (every login refused) without a PIN or a
    ``dealer_pin_hash``. With ``sessions`` (a :class:`web.security.SessionKeep`) the session
    cookies are signed with its key, and the dealer's sessions outlive the app: a table that
    restarts does not log its dealer out; without, they last as long as the app. Either way a
    session ends by its ``session_limits`` (a :class:`web.security.SessionLimits`, which ``run``
    takes from the table's ``[console]``): so long without use, or so long after its login.
    """
    settings = {**DEFAULTS, **(config or {})}
    # the PIN of `dicetable demo` and `run`: from the environment, never from a file in clear
    clear_pin = settings.pop("dealer_pin", None) if "dealer_pin" in (config or {}) \
        else environment_pin()
    app = Flask(__name__)
    keep = settings["sessions"]
    app.config.update(SECRET_KEY=keep.key if keep else secrets.token_hex(32), SESSION_COOKIE_HTTPONLY=True,
                      SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_NAME="dicetable_session",
                      MAX_CONTENT_LENGTH=64 * 1024)
    app.config.update({key: value for key, value in settings.items() if key.isupper()})
    app.extensions["dicetable"] = WebTable.build(table, settings, clear_pin)
    _register(app)
    return app


def _register(app: Flask) -> None:
    from web.api import api
    from web.dealer import dealer
    from web.errors import register
    from web.scoreboard import scoreboard
    register(app)
    app.register_blueprint(scoreboard)
    app.register_blueprint(dealer, url_prefix="/dealer")
    app.register_blueprint(api, url_prefix="/api")


def serve(app: Flask, host: str = "127.0.0.1", port: int = 5000) -> None:
    """Serve ``app`` with gevent's WSGI server until interrupted; prints the address first
    (port 0: any free port, the one picked printed). Raises ``web.server.CannotServe`` when the
    address cannot be listened on."""
    from web.server import serve as run
    run(app, host, port)


def serve_in_background(app: Flask, host: str = "127.0.0.1", port: int = 5000) -> Background:
    """Serve ``app`` with gevent's WSGI server in a thread; returns the server: its ``url`` and
    ``port`` say where (port 0: any free port), ``stop()`` ends it. Raises
    ``web.server.CannotServe`` when the address cannot be listened on."""
    from web.server import serve_in_background as start
    return start(app, host, port)
