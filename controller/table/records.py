"""The table's records and its narrow interface: what the web, the venue and tests see of a table.

A :class:`TableHandle` is all that ``web/`` (and later the venue over MQTT) may use: the public
state, inputs submitted through the same path as the buttons, corrections, the dealer's answers,
pause and resume, and a subscription to changes that resumes from the last sequence number seen.
Every record here is the same for every game: nothing switches on a game's name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, Sequence

from controller.games.base import Input
from controller.games.dice import DieKind
from controller.games.errors import InvalidInput
from controller.games.view import TableView, to_json
from vision.lab import colour_word as colour_word  # the web names a seat's colour with it

SEAT_COLOURS = ("#d62828", "#1d4ed8", "#f2c500", "#2a9d3f", "#9030a0", "#f77f00", "#00a6a6",
                "#ff70a6", "#f1f1ee", "#222222")
"""The seats' colours when none are chosen, in seat order: the colour of a seat's own dice (a Tao
Dice d12) and of its place on the scoreboard. Red, blue, yellow, green, purple, orange, teal, pink,
white, black: any two the camera tells apart (``vision.colour.TELLABLE_COLOURS``, the same ten)."""


def seat_colours(colours: Sequence[str], seats: int) -> tuple[str, ...]:
    """One ``#rrggbb`` colour per seat: ``colours`` checked, or :data:`SEAT_COLOURS` when empty.

    :raises InvalidInput: for a colour that is not ``#rrggbb``, a wrong count, or a colour twice.
    """
    if not colours:
        return tuple(SEAT_COLOURS[seat % len(SEAT_COLOURS)] for seat in range(seats))
    if len(colours) != seats:
        raise InvalidInput(f"{seats} seats need {seats} colours, not {len(colours)}")
    chosen = tuple(colour.strip().lower() for colour in colours)
    for seat, colour in enumerate(chosen):
        if len(colour) != 7 or colour[0] != "#" or any(c not in "0123456789abcdef" for c in colour[1:]):
            raise InvalidInput(f"seat {seat}'s colour {colours[seat]!r} is not #rrggbb")
        if colour in chosen[:seat]:
            raise InvalidInput(f"seats {chosen.index(colour)} and {seat} have the same colour {colour}")
    return chosen


class TableStatus(Enum):
    """Whether the table takes inputs now."""

    RUNNING = "running"    # waiting for players or dice as the view's ``awaited`` says
    QUESTION = "question"  # the dealer must answer a question (a doubtful reading) first
    PAUSED = "paused"      # paused by the dealer
    FAULT = "fault"        # a device is failing: ``problem`` and ``fix`` say what to do
    OVER = "over"          # the game has ended; a new one may be started


@dataclass(frozen=True)
class DieSeen:
    """A die the camera read: where (frame pixels, tray zone), what, and how sure."""

    kind: DieKind
    face: str | None
    confidence: float
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    zone: str | None
    flag: str | None = None


COCKED = "cocked"
"""The code of a camera's question about a new die lying cocked (leaning on another die or the tray's wall):
no camera can tell which face is up, and the players can settle it themselves, so the sentence
tells them how (a thrown die: throw the dice again; a revealed one: lay it flat on the face most
up) and the table takes the tray once they have; the dealer may still enter the faces by hand."""


DOUBTED = ("confidence", "flagged")
"""The codes of a question about a new die the camera doubts: read below the confidence threshold,
or flagged (cut off by the tray's edge, no face found, uncertain). Its face is up and stays up, so
the players can settle it themselves, as they do a cocked die, without throwing it again (which
would change its face, and a revealed die cannot be): the sentence asks them to move it a little,
the same face up, and the camera reads it where it lies then, in another pose and light. Only a
die the camera still doubts is left to the dealer. Such dice were 6 of the 10 dealer entries of
the demo's games on seeds 41-120 (``bench/table.py --camera-games``): a d8 or d6 read at 0.43 to
0.72, in a pose or light the reader doubts, not a die it cannot read."""

UNSEEN = "unseen"
"""The code of a question about fewer dice in a zone than the roll needs: two dice touching,
which the finder may see as one (a letter die leaning on another), or a die near the felt's
colour. The players move the dice apart, the same faces up
(:data:`controller.table.camera.MOVE_APART`), and the camera looks again; more dice than the roll
needs (code ``count``) are the dealer's to sort out."""

PLAYERS_SETTLE = frozenset((COCKED, UNSEEN, *DOUBTED))
"""The codes of the questions the players can settle themselves (:attr:`Question.players`); the
camera's other codes and its sentences are in :mod:`controller.table.camera`."""

TURNED = "turned"
"""The code of a question about dice the players settled by hand, asked to keep their faces up,
that no longer show a face the camera had read surely before: a die turned, by mistake or to
cheat, which only the dealer settles. A die the camera doubted may show another face after the
move (its reading was doubted), so a die turned in its place is not told."""


def faces_stay(code: str, reveal: bool) -> bool:
    """Whether the players settle a question of ``code`` with the dice's faces as they lie: a
    doubted die or dice not all found, moved a little, and a revealed die lying cocked, laid flat
    (``reveal``: a need of reason REVEAL); a thrown die lying cocked is thrown again, new faces."""
    return code in DOUBTED or code == UNSEEN or (code == COCKED and reveal)


@dataclass(frozen=True)
class Question:
    """What the table asks the dealer before it goes on: the dice it needs (``seat`` None:
    community), why it could not take the camera's reading, what it saw, the evidence frame, and
    the doubt's short code (``code``), and whether the players can settle it themselves, as the
    sentence says (``players``: a die lying cocked, thrown again or laid flat; a die the camera
    doubts, moved a little with the same face up: :data:`controller.table.camera.PLAYERS_SETTLE`);
    the dealer may answer any question. ``id`` is the number of the question's record, which a
    table restarted while it asked asks it again by (with the evidence picture, while the record
    keeps it, and none of the dice ``seen``, which were kept in memory only), and which no other
    question has: an answer to an older question is never taken for a newer one."""

    id: int
    seat: int | None
    kind: DieKind
    count: int
    reason: str
    text: str
    seen: tuple[DieSeen, ...] = ()
    evidence: int | None = None  # the evidence picture's id (see TableHandle.evidence)
    code: str = ""
    asked_again: bool = False
    """Asked again by a table restarted while it asked: the dice the camera saw are not kept."""
    players: bool = field(init=False)  # the code's: one of PLAYERS_SETTLE

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", self.code in PLAYERS_SETTLE)


@dataclass(frozen=True)
class LogLine:
    """One line of the action log: its record sequence number, clock time, the sentence, the seat
    it is about, and whether it is a roll of dice (a reveal too: the rolls the dealer may correct)."""

    seq: int
    at: float
    text: str
    seat: int | None = None
    roll: bool = False


Place = tuple[int, int]
"""A change's place among the table's changes: the last record's number, and how many changes
were told since it without a record of their own (:attr:`Update.place`)."""

AFTER_ALL_TOLD = 2**62
"""``told`` of a place after every change told since a record: ``(seq, AFTER_ALL_TOLD)`` is where
a stream resumed after record ``seq`` (a ``Last-Event-ID``) goes on, since the id names the record
and not the changes told after it (those are not in the record; the next change's state has them
in its log); no further than the table's place when it resumes (``web.stream.resumed_at``)."""


@dataclass(frozen=True)
class TableState:
    """The public state of the table: the game's view (with seat names), the table's status
    and the tail of the action log. ``seq`` is the last durable record's sequence number.
    ``paused``: the dealer paused the table, and only that (the console offers Resume when it is
    true, and :meth:`TableHandle.resume` refuses a table the dealer did not pause). A device's
    fault is no pause: it is the status (``fault``, with ``problem`` and ``fix``) and ends by
    itself when the device is back. A paused table whose device fails shows the fault as its
    status and stays ``paused``, so that the console still offers Resume.
    ``told``: how many changes were told since record ``seq`` that made no record of their own
    (see :class:`Update`); with ``seq``, the state's :attr:`place` among the changes.
    ``played``: the last record of the game's own (an input, a correction, a question, a pause or
    resume), the devices' records past (``DEVICE_RECORDS``: a fault, a warning, its end): what a
    dealer's form drawn now acts on, which a device failing or working again leaves valid."""

    seq: int
    game_no: int
    view: TableView
    status: TableStatus
    problem: str = ""
    fix: str = ""
    question: Question | None = None
    log: tuple[LogLine, ...] = ()
    colours: tuple[str, ...] = ()  # each seat's registered colour ("" unknown), by seat
    paused: bool = False
    told: int = 0
    played: int = 0

    @property
    def place(self) -> Place:
        """Where this state stands among the table's changes: after :attr:`Update.place` of the
        change that made it."""
        return self.seq, self.told

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data for ``GET /api/state`` and the event stream."""
        data: dict[str, Any] = to_json(self)
        return data


@dataclass(frozen=True)
class Update:
    """A change the subscribers are told of: its sequence number, a kind (``input``,
    ``correction``, ``status``, ``game``), the sentence, and the state after it. A record's update
    also says which record it is (``record``: ``fault``, ``clear``, ``pause``, ...) and its ``why``
    (a fault's fix, a pause's reason, a question's code and the faces it holds the players to:
    the dealer's, never sent to the room), so that a terminal can tell a device failing from the rest.

    ``seq`` is the last durable record's number, which a stream resumes after (``Last-Event-ID``)
    and a console form acts on; a change that makes no record (a notice such as "Ann pressed call,
    but no game is in play", a new game) keeps it and counts up
    ``told`` instead (0: the record's own change), so that :attr:`place` orders every change the
    table tells, once each."""

    seq: int
    kind: str
    text: str
    state: TableState
    record: str = ""
    why: str = ""
    told: int = 0

    @property
    def place(self) -> Place:
        """The change's place among the table's changes, in the order they were told: record 4's
        own change ``(4, 0)`` comes before the notices told after it, ``(4, 1)``, ``(4, 2)``, and
        those before record 5's, ``(5, 0)``."""
        return self.seq, self.told


@dataclass(frozen=True)
class Ack:
    """An accepted entry, durable in the record under ``seq``."""

    seq: int
    text: str


@dataclass(frozen=True)
class Entry:
    """An input for the engine and where it came from: ``origin`` (``panel``, ``rfid``,
    ``camera``, ``console``, ``bot``), ``who`` (a seat name, ``dealer``) for the audit."""

    input: Input
    origin: str
    who: str = ""


@dataclass(frozen=True)
class Undo:
    """Take back the last input of the current game."""

    who: str
    why: str


@dataclass(frozen=True)
class ReplaceDice:
    """The roll recorded under ``seq`` showed ``faces`` instead (a misread die)."""

    seq: int
    faces: tuple[str, ...]
    who: str
    why: str


@dataclass(frozen=True)
class VoidHand:
    """Cancel the hand or round in play: every input of it is struck, stakes go back."""

    who: str
    why: str


Correction = Undo | ReplaceDice | VoidHand


@dataclass(frozen=True)
class RollSeen:
    """A roll whose faces the room saw, as the record has it after every correction: the game
    and hand, the seat (None: community), the die kind and colour (the seat's registered colour,
    "" when unknown), the faces, the evidence picture (None: none kept), and who read it
    (``camera``, ``dealer``, or the input's origin such as ``bot``). A sealed roll counts only
    when it is revealed (the reveal carries its faces)."""

    seq: int
    game_no: int
    hand: int
    seat: int | None
    kind: DieKind
    colour: str
    faces: tuple[str, ...]
    picture: int | None = None
    read_by: str = "camera"


@dataclass(frozen=True)
class GameSummary:
    """A recorded game: its number, the game and options, seat names, whether it ended, the
    results so far (``final()`` of the engine) and its history text."""

    game_no: int
    game: str
    seats: int
    names: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    over: bool = False
    final: dict[str, Any] = field(default_factory=dict)
    started: str = ""
    inputs: int = 0
    colours: tuple[str, ...] = ()  # each seat's colour (#rrggbb); () before schema 4
    rolls: tuple[RollSeen, ...] = ()  # the rolls the room saw, with their evidence pictures


class Subscription(Protocol):
    """Changes after a sequence number, oldest first."""

    def next(self, timeout: float) -> Update | None:
        """The next change, or None when none came within ``timeout`` seconds (a keep-alive)."""
        ...

    def close(self) -> None:
        """Stop receiving changes."""
        ...


class TableHandle(Protocol):
    """The narrow interface of a running table for the web and the venue.

    :meth:`submit`, :meth:`correct`, :meth:`answer` raise :class:`TableNotReady` (HTTP 409) while
    the table is paused or at fault, and ``IllegalAction`` with the reason for an illegal input.
    """

    def state(self) -> TableState:
        """The public state now (redacted: no hidden die before its reveal)."""
        ...

    def subscribe(self, after: int = 0) -> Subscription:
        """Changes after record ``after``: those already recorded first, then every change told
        from now on (a notice keeps the last record's number: see :attr:`Update.place`)."""
        ...

    def submit(self, entry: Entry, *, at: int | None = None, in_game: int | None = None) -> Ack:
        """Verify, record durably, then apply an input; returns once it is durable. With ``at``
        (and ``in_game``), only if the table has not changed since record ``at`` (in game
        ``in_game``: a form drawn then), else :class:`TableNotReady`."""
        ...

    def correct(self, correction: Correction, *, at: int | None = None,
                in_game: int | None = None) -> Ack:
        """Undo, replace a misread die, or void the hand; recorded with who and why. ``at`` and
        ``in_game`` as for :meth:`submit`."""
        ...

    def answer(self, question: int, faces: Sequence[str], who: str) -> Ack:
        """The dealer's answer to question ``question``: the faces the dice show."""
        ...

    def pause(self, who: str, why: str) -> Ack:
        """Pause the table (inputs refused until :meth:`resume`)."""
        ...

    def resume(self, who: str) -> Ack:
        """Resume a paused table."""
        ...

    def new_game(self, game: str, names: Sequence[str], options: dict[str, str],
                 colours: Sequence[str] = (), after_game: int | None = None) -> Ack:
        """End the current game (if any) and start ``game`` with these seat names, options and
        seat colours (``#rrggbb``; the defaults when empty); with ``after_game``, only while that
        game is the table's last, else :class:`TableNotReady`."""
        ...

    def games(self, limit: int = 10) -> list[GameSummary]:
        """The last ``limit`` recorded games, newest first."""
        ...

    def rolls(self, games: int = 10) -> list[RollSeen]:
        """The rolls the room saw in the last ``games`` recorded games, oldest first."""
        ...

    def evidence(self, picture: int) -> bytes | None:
        """The JPEG of evidence picture ``picture`` (a camera-read roll's frame), if kept."""
        ...

    def devices(self) -> list[Any]:
        """Every device's :class:`hardware.devices.DeviceStatus` now."""
        ...
