"""The dealer console's locks: a hashed PIN, a login rate limit, sessions and CSRF tokens."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from typing import Any, Callable

from flask import abort, session
from werkzeug.security import check_password_hash, generate_password_hash

SESSION_KEY = "dealer"
CSRF_KEY = "csrf"
OPEN_SESSIONS = 64  # dealer sessions kept open at once; a login past this closes the oldest
EVERY_CLIENT = 4
"""Wrong PINs from all clients together, as a multiple of one client's ``attempts``, that lock
every client out for the rest of the window: one client's limit alone let many addresses (a
LAN's IPv6 addresses cost nothing) guess a short PIN together."""


class PinGate:
    """Checks the dealer's PIN against its hash, refusing a client after too many wrong tries.

    Only the hash is kept; ``attempts`` wrong PINs within ``window`` seconds from one client
    lock that client out until the oldest of them is ``window`` seconds old, and
    :data:`EVERY_CLIENT` times as many from all clients together lock every client out so. Only
    clients with a wrong PIN in the window are remembered. The gate also keeps
    the ids of the dealer sessions it opened: the session cookie is only signed, so a copy of it
    taken before ``Log out`` would open the console for as long as the app runs, were the
    session not closed here too.
    """

    def __init__(self, pin_hash: str | None, attempts: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pin_hash = pin_hash
        self.attempts, self.window = attempts, window
        self._clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}  # wrong PINs in the window, by client
        self._every: deque[float] = deque()  # and from all clients together
        self._open: dict[str, None] = {}  # the open sessions' ids, oldest first

    @classmethod
    def from_settings(cls, settings: dict[str, Any], clear_pin: str | None) -> PinGate:
        """The gate of the app's settings; a clear ``dealer_pin`` is hashed here."""
        pin_hash = generate_password_hash(clear_pin) if clear_pin else settings["dealer_pin_hash"]
        return cls(pin_hash, int(settings["login_attempts"]), float(settings["login_window"]))

    def locked_for(self, client: str) -> float:
        """Seconds until ``client`` may try again (0: it may now)."""
        with self._lock:
            self._forget_old()
            waits = [failures[-limit] + self.window - self._clock()
                     for failures, limit in ((self._failures.get(client, ()), self.attempts),
                                             (self._every, self.attempts * EVERY_CLIENT)) if len(failures) >= limit]
            return max(waits, default=0.0)

    def check(self, client: str, pin: str) -> bool:
        """Whether ``pin`` is right; a wrong one counts against ``client``, and against all."""
        right = self.pin_hash is not None and check_password_hash(self.pin_hash, pin)
        if not right:
            with self._lock:
                now = self._clock()
                self._failures.setdefault(client, deque()).append(now)
                self._every.append(now)
        return right

    def let_in(self) -> str:
        """Open a dealer session; returns its id (the oldest session closes past
        :data:`OPEN_SESSIONS`)."""
        ticket = secrets.token_urlsafe(32)
        with self._lock:
            self._open[ticket] = None
            while len(self._open) > OPEN_SESSIONS:
                del self._open[next(iter(self._open))]
        return ticket

    def is_in(self, ticket: object) -> bool:
        """Whether ``ticket`` is the id of a session open now."""
        with self._lock:
            return isinstance(ticket, str) and ticket in self._open

    def let_out(self, ticket: object) -> None:
        """Close the session ``ticket`` (nothing if it is not open)."""
        with self._lock:
            if isinstance(ticket, str):
                self._open.pop(ticket, None)

    def _forget_old(self) -> None:
        """Drop the wrong PINs older than the window, and the clients left with none."""
        since = self._clock() - self.window
        for failures in (self._every, *self._failures.values()):
            while failures and failures[0] <= since:
                failures.popleft()
        for client in [client for client, failures in self._failures.items() if not failures]:
            del self._failures[client]

    @property
    def remembered(self) -> int:
        """How many clients the gate remembers wrong PINs of (for tests)."""
        with self._lock:
            return len(self._failures)


def csrf_token() -> str:
    """The session's CSRF token (made on first use), for every form of the console."""
    if CSRF_KEY not in session:
        session[CSRF_KEY] = secrets.token_urlsafe(32)
    token: str = session[CSRF_KEY]
    return token


def check_csrf(sent: str | None) -> None:
    """Refuse (400) a form whose token is missing or is not the session's."""
    expected = session.get(CSRF_KEY)
    if not expected or not sent or not hmac.compare_digest(str(expected), sent):
        abort(400, "the form's security token is missing or stale: reload the page")


def logged_in(gate: PinGate) -> bool:
    """Whether this session belongs to a dealer who gave the PIN and has not logged out."""
    return gate.is_in(session.get(SESSION_KEY))


def log_in(gate: PinGate) -> None:
    """Start a dealer session (a fresh session, so a planted cookie is not carried over)."""
    session.clear()
    session[SESSION_KEY] = gate.let_in()
    session[CSRF_KEY] = secrets.token_urlsafe(32)


def log_out(gate: PinGate) -> None:
    """End this dealer session, for any copy of its cookie too."""
    gate.let_out(session.get(SESSION_KEY))
    session.clear()
