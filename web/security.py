"""The dealer console's locks: a hashed PIN, a login rate limit, sessions and CSRF tokens."""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
import secrets
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any, Callable

from flask import abort, session
from werkzeug.security import check_password_hash, generate_password_hash

from controller.files import FileProblem, reason, write_file
from controller.games.errors import ConfigError
from controller.paths import shown

SESSION_KEY = "dealer"
CSRF_KEY = "csrf"
OPEN_SESSIONS = 64  # dealer sessions kept open at once; a login past this closes the oldest
EVERY_CLIENT = 4
"""Wrong PINs from all clients together, as a multiple of one client's ``attempts``, that lock
every client out for the rest of the window: one client's limit alone let many addresses (a
LAN's IPv6 addresses cost nothing) guess a short PIN together."""


IDLE_LIMIT = 3 * 3600.0
"""Seconds without use of the console that end a dealer session: a quiet hour and a break (the
table runs a game by itself) with an hour to spare, yet a tablet left logged in at closing is
locked long before the bar opens again."""
SHIFT_LIMIT = 12 * 3600.0
"""Seconds after the login that end a dealer session, used or not: a bar's evening shift with
room at both ends, so that a copied cookie kept busy still dies by the next day."""
SEEN_STEP = 300.0
"""Seconds a session's last use is kept to: it moves (and the sessions file is written) only when
it is this much older than a use, not at every request; a session may so end this much before
its idle limit. A tenth of a shorter idle limit instead (:attr:`SessionLimits.step`)."""


class Standing(Enum):
    """What a session cookie's dealer ticket stands for now."""

    OPEN = "open"
    IDLE = "idle"  # ended: not used for the idle limit
    SHIFT = "shift"  # ended: opened longer ago than the shift limit
    CLOSED = "closed"  # logged out, pushed out by later logins, or never opened by this table

    @property
    def ended(self) -> bool:
        """Whether a limit ended the session (the login page says which)."""
        return self in (Standing.IDLE, Standing.SHIFT)


@dataclass(frozen=True)
class Stay:
    """When a dealer session was opened and last used (:data:`SEEN_STEP`), by the wall clock
    (seconds since the epoch), so that a restart neither ends a live session nor revives one
    that ended."""

    opened: float
    seen: float


@dataclass(frozen=True)
class SessionLimits:
    """How long a dealer session lasts: ``idle`` seconds without use, ``shift`` seconds at most
    (the venue's, from ``table.toml``'s ``[console]``; these defaults for the demo)."""

    idle: float = IDLE_LIMIT
    shift: float = SHIFT_LIMIT

    @property
    def step(self) -> float:
        """Seconds a session's last use is kept to: :data:`SEEN_STEP`, or a tenth of an idle limit
        under ten steps: a use moved only a whole step after the last could not keep a shorter
        limit open (a dealer using the console every minute of a 2-minute limit was logged out).

        >>> SessionLimits().step, SessionLimits(idle=120).step
        (300.0, 12.0)
        """
        return min(SEEN_STEP, self.idle / 10)

    def standing(self, stay: Stay, now: float) -> Standing:
        """Where a session opened and used as ``stay`` says stands at ``now``."""
        if now - stay.opened >= self.shift:
            return Standing.SHIFT
        return Standing.IDLE if now - stay.seen >= self.idle else Standing.OPEN

    def farewell(self, standing: Standing) -> str:
        """The login page's line for a session that ended as ``standing`` says ("" for one no
        limit ended).

        >>> SessionLimits().farewell(Standing.IDLE)
        'Logged out after 3 hours without use: log in again.'
        """
        if standing is Standing.IDLE:
            return f"Logged out after {_span(self.idle)} without use: log in again."
        if standing is Standing.SHIFT:
            return f"Logged out {_span(self.shift)} after logging in (a shift): log in again."
        return ""


def _span(seconds: float) -> str:
    """``seconds`` in hours, or in minutes under an hour, as a dealer reads them.

    >>> _span(3600), _span(5400), _span(1800), _span(60)
    ('1 hour', '1.5 hours', '30 minutes', '1 minute')
    """
    count, unit = (seconds / 3600, "hour") if seconds >= 3600 else (seconds / 60, "minute")
    return f"{count:g} {unit}{'' if count == 1 else 's'}"


SESSIONS_FILE = "dealer-sessions.json"
"""The :class:`SessionKeep`'s file in the table's data folder (``run``'s state directory)."""
DIGEST = re.compile(r"[0-9a-f]{64}")


def digest(ticket: str) -> str:
    """What the gate keeps of a session's id: its SHA-256, so that neither its memory nor the
    sessions file holds an id that opens the console."""
    return hashlib.sha256(ticket.encode("utf-8")).hexdigest()


@dataclass
class SessionKeep:
    """The key that signs the dealer's session cookies and the digests of the sessions, with
    their :class:`Stay`, kept in the table's data folder: a table that restarts (a power cut, a
    crash, ``systemctl restart``) does not log its dealer out, a session closed by ``Log out``
    stays closed, and one its limits ended stays ended.

    The file is made once with a new key, mode 0600, and rewritten whole (aside, then renamed
    over it) at every login and log out and when a session's last use moves
    (:data:`SEEN_STEP`), the key kept. Deleting it while the table is stopped logs every dealer
    out: the next start makes a new key, which no cookie was signed with. A file of the tables
    before the limits (``open``: digests without times) keeps its key and no session.
    """

    path: Path
    key: str
    stays: dict[str, Stay]
    replaced: str | None = None  # why a damaged file was replaced, for the terminal

    @classmethod
    def at(cls, path: Path) -> SessionKeep:
        """The keep in ``path``, made when there is none; a damaged one (not the JSON this keep
        writes) is replaced, as it holds nothing a login does not make again, and a table kept
        from starting by it would stop the game too.

        :raises ConfigError: a file there that cannot be read (its owner, its mode, a folder)."""
        try:
            text = path.read_bytes().decode("utf-8", "replace")
        except FileNotFoundError:
            return cls.made(path)
        except OSError as err:
            raise ConfigError(f"cannot read the dealer's sessions {shown(path)}: {reason(err)}; give it "
                              "to the table's user, or delete it (every dealer logs in again)") from None
        try:
            return cls(path, *_parsed(text))
        except ValueError as err:
            return cls.made(path, f"warning: the dealer's sessions {shown(path)} were damaged ({err}): "
                                  "replaced by new ones; every dealer logs in again")

    @classmethod
    def made(cls, path: Path, replaced: str | None = None) -> SessionKeep:
        """A new keep in ``path``: a new key, no session open.

        :raises ConfigError: it cannot be written (one line, for the terminal)."""
        keep = cls(path, secrets.token_hex(32), {}, replaced)
        try:
            keep.save({})
        except FileProblem as err:
            raise ConfigError(str(err)) from None
        return keep

    def save(self, stays: dict[str, Stay]) -> None:
        """Write the key and the sessions' digests with their ``stays``, whole, readable by this
        user only.

        :raises FileProblem: the file cannot be written (a full disk, a folder gone)."""
        self.stays = dict(stays)
        sessions = [{"digest": ticket, "opened": stay.opened, "seen": stay.seen}
                    for ticket, stay in self.stays.items()]
        text = json.dumps({"key": self.key, "sessions": sessions})
        write_file(self.path, text.encode("utf-8"), force=True, mode=0o600)


def _parsed(text: str) -> tuple[str, dict[str, Stay]]:
    """The key and the sessions (digest: stay) in a sessions file's ``text``.

    :raises ValueError: saying what is wrong."""
    try:
        kept = json.loads(text)
    except ValueError:
        raise ValueError("not JSON") from None
    if not isinstance(kept, dict) or not _hex(kept.get("key")):
        raise ValueError("no key of 64 hex digits")
    sessions = kept.get("sessions", [])
    if not isinstance(sessions, list) or not all(_session(entry) for entry in sessions):
        raise ValueError("its sessions are not SHA-256 digests with their times")
    return kept["key"], {entry["digest"]: Stay(entry["opened"], entry["seen"])
                         for entry in sessions[-OPEN_SESSIONS:]}


def _session(entry: object) -> bool:
    return isinstance(entry, dict) and _hex(entry.get("digest")) and _time(entry.get("opened")) \
        and _time(entry.get("seen"))


def _hex(value: object) -> bool:
    return isinstance(value, str) and DIGEST.fullmatch(value) is not None


def _time(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


class PinGate:
    """Checks the dealer's PIN against its hash, refusing a client after too many wrong tries.

    Only the hash is kept; ``attempts`` wrong PINs within ``window`` seconds from one client
    lock that client out until the oldest of them is ``window`` seconds old, and
    :data:`EVERY_CLIENT` times as many from all clients together lock every client out so. Only
    clients with a wrong PIN in the window are remembered. The gate also keeps
    the ids (their digests) of the dealer sessions it opened: the session cookie is only signed,
    so a copy of it taken before ``Log out`` would open the console for as long as the signing key
    lives, were the session not closed here too. With a ``keep`` they outlive the app (the key
    too: ``web.create_app``). A session ends by its ``limits`` too, timed by ``wall_clock`` (a
    restart keeps its times); the gate remembers an ended one, so that the login page can say
    why, until later logins push it out.
    """

    def __init__(self, pin_hash: str | None, attempts: int, window: float,
                 clock: Callable[[], float] = time.monotonic, keep: SessionKeep | None = None,
                 limits: SessionLimits = SessionLimits(),
                 wall_clock: Callable[[], float] = time.time) -> None:
        self.pin_hash = pin_hash
        self.attempts, self.window = attempts, window
        self.limits = limits
        self._clock, self._wall_clock = clock, wall_clock
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}  # wrong PINs in the window, by client
        self._every: deque[float] = deque()  # and from all clients together
        self._keep = keep
        self._stays: dict[str, Stay] = dict(keep.stays if keep else {})  # by digest, oldest first

    @classmethod
    def from_settings(cls, settings: dict[str, Any], clear_pin: str | None) -> PinGate:
        """The gate of the app's settings; a clear ``dealer_pin`` is hashed here."""
        pin_hash = generate_password_hash(clear_pin) if clear_pin else settings["dealer_pin_hash"]
        return cls(pin_hash, int(settings["login_attempts"]), float(settings["login_window"]),
                   keep=settings["sessions"], limits=settings["session_limits"],
                   wall_clock=settings["wall_clock"])

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
        """Open a dealer session; returns its id (past :data:`OPEN_SESSIONS`, the oldest ended
        session is forgotten, else the oldest session closes)."""
        ticket = secrets.token_urlsafe(32)
        with self._lock:
            now = self._wall_clock()
            self._stays[digest(ticket)] = Stay(now, now)
            while len(self._stays) > OPEN_SESSIONS:
                del self._stays[self._first_to_go(now)]
            self._kept()
        return ticket

    def _first_to_go(self, now: float) -> str:
        ended = (ticket for ticket, stay in self._stays.items()
                 if self.limits.standing(stay, now) is not Standing.OPEN)
        return next(ended, next(iter(self._stays)))

    def standing(self, ticket: object, used: bool = False) -> Standing:
        """What ``ticket`` stands for now; an open session ``used`` (the dealer's request, not
        the page following the table) is seen now, to its limits' :attr:`~SessionLimits.step`."""
        kept = digest(ticket) if isinstance(ticket, str) else ""
        with self._lock:
            stay = self._stays.get(kept)
            if stay is None:
                return Standing.CLOSED
            now = self._wall_clock()
            standing = self.limits.standing(stay, now)
            if standing is Standing.OPEN and used and abs(now - stay.seen) >= self.limits.step:
                self._stays[kept] = replace(stay, seen=now)  # abs: a clock set back moves it too
                self._kept()
            return standing

    def let_out(self, ticket: object) -> None:
        """Close the session ``ticket`` (nothing if the gate does not know it)."""
        with self._lock:
            if isinstance(ticket, str) and digest(ticket) in self._stays:
                del self._stays[digest(ticket)]
                self._kept()

    def _kept(self) -> None:
        """Write the open sessions to the keep; one that cannot be written leaves them open in
        memory (a dealer is not locked out by a full disk) and says so on the terminal."""
        if self._keep is None:
            return
        try:
            self._keep.save(self._stays)
        except FileProblem as err:
            print(f"warning: {err}: the dealer's sessions will end if the table restarts",
                  file=sys.stderr, flush=True)

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


def standing(gate: PinGate, used: bool = False) -> Standing:
    """What this browser's dealer session stands for now; ``used``: this request is the
    dealer's use of the console (see :meth:`PinGate.standing`)."""
    return gate.standing(session.get(SESSION_KEY), used)


def logged_in(gate: PinGate) -> bool:
    """Whether this session belongs to a dealer who gave the PIN, has not logged out, and whose
    session no limit ended."""
    return standing(gate) is Standing.OPEN


def farewell(gate: PinGate) -> str:
    """Why this browser's dealer session ended, when a limit ended it ("" otherwise)."""
    return gate.limits.farewell(standing(gate))


def log_in(gate: PinGate) -> None:
    """Start a dealer session (a fresh session, so a planted cookie is not carried over)."""
    session.clear()
    session[SESSION_KEY] = gate.let_in()
    session[CSRF_KEY] = secrets.token_urlsafe(32)


def log_out(gate: PinGate) -> None:
    """End this dealer session, for any copy of its cookie too."""
    gate.let_out(session.get(SESSION_KEY))
    session.clear()
