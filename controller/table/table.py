"""The table: device events become engine inputs, verified, recorded durably, applied, published.

One :class:`Table` runs one physical table. :meth:`Table.tick` polls the devices once: button
presses become inputs through the game's controls (the stake on the seat's bet spot read by
RFID), the camera's settled readings become the dice the engine waits for (or a question to the
dealer), and hidden rolls are entered sealed. Every input goes the same way, whoever gives it
(buttons, camera, the dealer console, a bot): verify, append to the store (durable), apply,
publish. A failing device is a state (``fault``) with the problem and the fix, never a crash;
the table resumes when the device answers again. The web and the venue use only the
:class:`~controller.table.records.TableHandle` methods.
"""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from collections import Counter, deque
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from controller.games.base import REVEAL, DiceNeeded
from controller.games.errors import DeviceError, DiceTableError, IllegalAction, TableNotReady
from controller.games.rolls import Roll
from controller.games.view import Awaited, TableView
from controller.simulation import describe
from controller.table.ledger import CORRECTION_KINDS, INPUT_KINDS, Ledger, Played, replace_line
from controller.store.errors import DuplicateEvent
from controller.store.store import DEVICE_RECORDS, TABLE
from controller.table.controls import Controls, Refusal, Setting, Stake
from controller.table.replay import effective_lines, summaries
from controller.table.records import (
    COCKED, TURNED, Ack, Correction, DieSeen, Entry, GameSummary, LogLine, Question, ReplaceDice, RollSeen, TableState,
    TableStatus, Undo, Update, VoidHand, faces_stay, seat_colours,
)
from hardware.devices import DeviceFailing, DeviceStatus, LightState
from hardware.rfid import TagLookup, stray_status

KEEP_GAMES = 10
"""Games kept whole in the record, recallable and replayable (casino table rules ask for ten)."""

LOG_LINES = 40
"""How many action-log lines the public state carries."""

DEVICE_FIX = "check the device's cable and power; `dicetable doctor` says more"
"""What to tell the dealer about a failing device that says nothing better itself."""

SEATED = ("panel", "rfid")
"""The devices that serve the seats (:class:`hardware.devices.SeatDevice`): told where players sit,
they do not wait for the others, and warn of what fails there (a seat node under an empty seat)."""

HEALTH_EVERY = 1.0
"""Seconds between two polls of the reader and the camera while no game is in play: each of the
camera's reads a frame, not worth a beat's cost when no dice can be awaited, and a device that
fails then is seen soon enough."""

SEALED = "?"
"""The face of a hidden die whose value the table cannot see (in a tube or cup)."""


class Eyes(Protocol):
    """The camera path the table uses: settled readings matched to what the engine waits for."""

    def look(self, need: DiceNeeded | None) -> Sighting | None:
        """One frame (``need`` None: the table waits for no dice, the motion is still tracked):
        None while the tray moves or nothing new settled, else the outcome for ``need``.

        :raises DeviceError: the camera or the tray's markers fail; a ``problem`` and ``fix``
            attribute, when present, say what to tell the dealer.
        """
        ...


DEALER_FIX = "the dealer confirms or enters the dice on the console"
"""What settles an open question of the camera (the table's ``fix`` while it is open)."""

PLAYERS_FIX = "the players do as it says at the tray, or the dealer confirms or enters the dice on the console"
"""What settles a question the players can settle themselves (:attr:`Question.players`)."""


@dataclass(frozen=True)
class Sighting:
    """What a settled frame gave for a need: the roll, or the reason the dealer must decide (its
    sentence, and a short code saying which kind of doubt it is: see
    :data:`controller.table.camera.Reason`). ``thrown``: the tray moved since the last sighting,
    so a doubt worded as the last one is about dice thrown anew, and asked again. ``sure``: the
    faces read surely in the need's zone (the dice the players must not turn when they move them)."""

    roll: Roll | None
    reason: str = ""
    seen: tuple[Any, ...] = ()
    jpeg: bytes | None = None
    code: str = ""
    thrown: bool = False
    sure: tuple[str, ...] = ()




class _Subscription:
    """Updates after a sequence number, fed by the table (one queue per subscriber)."""

    def __init__(self, table: Table, backlog: Iterable[Update]) -> None:
        self._table = table
        self._queue: queue.Queue[Update] = queue.Queue()
        for update in backlog:
            self._queue.put(update)

    def put(self, update: Update) -> None:
        self._queue.put(update)

    def next(self, timeout: float) -> Update | None:
        """The next update, or None after ``timeout`` seconds (time for a keep-alive)."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        """Stop receiving updates."""
        self._table._unsubscribe(self)


class Table:
    """A running table over a store and (optionally) devices; implements ``TableHandle``.

    ``store`` is a :class:`controller.store.Store`; ``devices`` a
    :class:`hardware.factory.Devices` (None: inputs come only through :meth:`submit`); ``eyes``
    the camera path; ``controls_for(game_name)`` the seat controls of a game; ``spot_of(seat)``
    the RFID spot of a seat's bet spot; ``registry`` says what each tag is (a
    :class:`hardware.rfid.StoneRegistry`; a tag it does not know holds the table until it is taken
    off the spot); ``exports`` the folder where games older than the last :data:`KEEP_GAMES`
    go as history files when a game ends (None: every game stays in the record).
    """

    def __init__(self, store: Any, *, devices: Any = None, eyes: Eyes | None = None,
                 controls_for: Callable[[str], Controls] | None = None,
                 spot_of: Callable[[int], str] = lambda seat: f"seat{seat}",
                 registry: TagLookup | None = None,
                 exports: Path | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        self.store = store
        self.hw = devices
        self.registry = registry
        self.exports = exports
        self.eyes = eyes
        self._controls_for = controls_for
        self._spot_of = spot_of
        self._now = clock or time.time
        self._lock = threading.RLock()
        self._subscribers: list[_Subscription] = []
        self._log: deque[LogLine] = deque(maxlen=LOG_LINES)
        self.game_no = 0
        self.ledger: Ledger | None = None
        self.names: tuple[str, ...] = ()
        self.colours: tuple[str, ...] = ()
        """Each seat's colour (``#rrggbb``): its own dice's colour, its place on the scoreboard."""
        self.controls: Controls | None = None
        self.status = TableStatus.OVER
        self.problem = self.fix = ""
        self.question: Question | None = None
        self._kept: Counter[str] = Counter()  # faces read surely before the players settled dice by hand
        # (the open question's record keeps them: _apply)
        self._paused = False
        self._pause_why = ""
        self._faults: dict[str, tuple[str, str]] = {}
        self._warnings: dict[str, tuple[str, str]] = {}
        self._unlit: tuple[str, str] | None = None  # a light that failed as :meth:`_lights` set them
        self._polled: set[str] = set()  # the devices the loop has polled (:meth:`_poll`)
        self._next_check = float("-inf")  # the devices' clock time of the next check between games
        self._seq = 0
        self._told = 0  # changes told since record _seq without a record of their own
        self._played = 0  # the last record that is not a device's (TableState.played)
        self._resume()

    # -- the TableHandle interface -----------------------------------------------------------
    def state(self) -> TableState:
        """The public state now: the engine's one redacted view, with names, status and log."""
        with self._lock:
            return TableState(self._seq, self.game_no, self._view(), self.status, self.problem,
                              self.fix, self.question, tuple(self._log), self.colours, self._paused,
                              self._told, self._played)

    def subscribe(self, after: int = 0) -> _Subscription:
        """Updates after record ``after``: the recorded ones first (with the state now), then every
        one told from now on, those without a record of their own too (:attr:`Update.place`)."""
        with self._lock:
            backlog = [Update(row.seq, _update_kind(row.kind), self._sentence(row), self.state(), row.kind,
                              row.why)
                       for row in self.store.after(after)] if after < self._seq else []
            subscription = _Subscription(self, backlog)
            self._subscribers.append(subscription)
            return subscription

    def submit(self, entry: Entry, *, at: int | None = None, in_game: int | None = None,
               evidence: bytes | None = None,
               device_event: tuple[str, int, int] | None = None) -> Ack:
        """Verify, record durably, apply and publish ``entry``'s input; with ``at`` and
        ``in_game``, only on the table as it stood at record ``at`` in game ``in_game``
        (:meth:`_as_seen`).

        :raises TableNotReady: paused or at fault, or changed since ``at`` or ``in_game``.
        :raises IllegalAction: with the reason.
        """
        with self._lock:
            self._as_seen(at, in_game)
            self._ready()
            ledger = self._ledger()
            ledger.check(entry.input)
            return self._record("input", str(entry.input), entry.origin, entry.who,
                                evidence=evidence, device_event=device_event)

    def correct(self, correction: Correction, *, at: int | None = None,
                in_game: int | None = None) -> Ack:
        """Undo, replace a misread die, or void the hand in play; recorded with who and why. With
        ``at`` and ``in_game``, only on the table as it stood at record ``at`` in game
        ``in_game`` (:meth:`_as_seen`). One that takes back the game's end (an Undo or a Void of
        the input that ended it) puts the game back in play in the record too, with it."""
        with self._lock:
            self._as_seen(at, in_game)
            ledger = self._ledger()
            kind, line = _correction_line(correction)
            after = ledger.preview(kind, line)  # raises when it cannot be made
            reopen = not self._in_play() and not after.game.pending().over
            return self._record(kind, line, "console", correction.who, why=correction.why,
                                reopen=reopen)

    def answer(self, question: int, faces: Sequence[str], who: str) -> Ack:
        """The dealer's answer to the open question: the faces the dice show."""
        with self._lock:
            open_question = self.question
            if open_question is None or open_question.id != question:
                raise IllegalAction(f"question {question} is not open")
            roll = Roll(open_question.seat, open_question.kind,
                        tuple(open_question.kind.parse_face(face) for face in faces))
            self._ledger().check(roll)
            return self._record("answer", str(roll), "console", who)

    def pause(self, who: str, why: str) -> Ack:
        """Pause the table: inputs are refused until :meth:`resume`.

        :raises TableNotReady: already paused (a second click of Pause records nothing).
        """
        with self._lock:
            if self._paused:
                raise TableNotReady(f"the table is already paused: {self._pause_why or 'by the dealer'}")
            return self._record("pause", "", "console", who, why=why)  # the record pauses it (_apply)

    def resume(self, who: str) -> Ack:
        """Resume a paused table (a device fault still holds it until the device is back).

        :raises TableNotReady: not paused (a second click of Resume records nothing).
        """
        with self._lock:
            if not self._paused:
                raise TableNotReady("the table is not paused: there is nothing to resume")
            return self._record("resume", "", "console", who)

    def new_game(self, game: str, names: Sequence[str], options: dict[str, str],
                 colours: Sequence[str] = (), after_game: int | None = None) -> Ack:
        """Finish the game in play, if any, and start ``game`` for these seat names and colours
        (``#rrggbb`` per seat; :data:`SEAT_COLOURS` when empty). With ``after_game``, only while
        that game is the table's last (a second click of a console's Start started two games, the
        first left empty in the history).

        :raises TableNotReady: another game was started since ``after_game``.
        """
        with self._lock:
            if after_game is not None and after_game != self.game_no:
                raise TableNotReady(f"game {self.game_no} was started since game {after_game}: look at "
                                    "the table again, then start another if you mean to")
            Ledger(game, len(names), options)  # raises for a bad game, seat count or option
            _check_names(names)
            chosen = seat_colours(colours, len(names))
            check = getattr(self.eyes, "check_colours", None)  # eyes that tell dice by colour
            if check is not None:
                check(chosen, names)
            ending = self._ending()
            if ending is not None:
                self._prune()  # as at a game's end: the one in play is the newest kept
            self.game_no = self.store.start_game(game, len(names), options, list(names), chosen,
                                                 ending=ending)
            self._start(game, tuple(names), options, chosen)
            self._paused, self._pause_why = False, ""
            self._question_cleared()
            text = f"New game: {self._view().title} for {', '.join(names)}"
            self._told += 1  # the game is in the record's games, not in its records
            self._publish(Update(self._seq, "game", text, self.state(), told=self._told))
            return Ack(self._seq, text)

    def games(self, limit: int = 10) -> list[GameSummary]:
        """The last ``limit`` recorded games, newest first, with their results so far."""
        with self._lock:
            return summaries(self.store, limit)

    def rolls(self, games: int = KEEP_GAMES) -> list[RollSeen]:
        """The rolls the room saw in the last ``games`` recorded games, oldest first."""
        with self._lock:
            return [roll for summary in reversed(summaries(self.store, games))
                    for roll in summary.rolls]

    def evidence(self, picture: int) -> bytes | None:
        """The JPEG of a camera-read roll's frame, if the store still keeps it."""
        picture_bytes: bytes | None = self.store.evidence(picture)
        return picture_bytes

    def devices(self) -> list[Any]:
        """Every device's health (``DeviceStatus``), camera first, as the table's loop last
        polled it (:meth:`_health`): at every beat in a game, every :data:`HEALTH_EVERY` seconds
        between games. The devices are not asked: a check takes a camera's frame (or its
        timeout), each RC522's reset and scan, and it would hold the loop, which waits for the
        table's lock. A device the loop has not polled is checked now, as ``doctor`` checks it,
        unless the record has it failing or warning (a restarted table, before its first poll)."""
        with self._lock:
            return [self._health(name, device) for name, device in self._named_devices()]

    def standing(self) -> list[DeviceStatus]:
        """The devices the table knows failing or warning, camera first, as the devices page
        marks them (a device's fault, else its warning), asking none: what ``run`` says as it
        starts of those its record has standing (:meth:`_recall_faults`), all of them, where the
        table's status names its first fault only."""
        with self._lock:
            return [status for name, device in self._named_devices()
                    if (status := self._known(name, device)) is not None]

    # -- the device loop ---------------------------------------------------------------------
    def tick(self) -> bool:
        """Poll every device once and act on what it says; True when anything happened."""
        with self._lock:
            if not self._in_play():
                return self._between_games()
            busy = self._poll("rfid", self._tags)
            busy = self._poll("panel", self._buttons) or busy
            busy = self._seal_hidden() or busy
            busy = self._poll("camera", self._look) or busy
            return self._lights() or busy

    def _between_games(self) -> bool:
        """No game in play: a press now is no input, and must not become one of the next game's.
        The panel keeps its events until it is polled, so presses made while the dealer had not
        started the next game were played at its first beat (a fold, a call with the stones on the
        spot). Each is told, and dropped. The devices are watched as in a game (:meth:`_poll`), so
        one that fails now is shown at once, not when the dealer starts the next game: the panel
        at every beat, the reader and the camera every :data:`HEALTH_EVERY` seconds."""
        if self.hw is None:
            return False
        busy = self._poll("panel", self._presses_dropped)
        now = self.hw.clock.now()
        if now < self._next_check:
            return busy
        self._next_check = now + HEALTH_EVERY
        busy = self._poll("rfid", self._tags) or busy
        return self._poll("camera", self._look) or busy  # no dice awaited: the tray is only watched

    def _presses_dropped(self) -> bool:
        panel = self._device("panel")
        if panel is None:
            return False
        presses = [event for event in panel.poll() if event.kind.value == "press"]
        for event in presses:
            self._notice(f"{self._name(event.seat)} pressed {event.button}, but no game is in play", event.seat)
        return bool(presses)

    def _poll(self, device: str, step: Callable[[], bool]) -> bool:
        """Poll one device; True when anything happened: an event, or the device beginning or
        ceasing to fail. A device that goes on failing is nothing new: the service's loop then
        waits its beat (``service.serve_table``) instead of asking a dead reader again at once,
        which kept a core busy for as long as the fault lasted."""
        failing = device in self._faults
        self._polled.add(device)
        try:
            busy = step()
        except DeviceError as err:
            return self._fault(device, getattr(err, "problem", "") or str(err),
                               getattr(err, "fix", "") or DEVICE_FIX)
        self._answered(device)
        return self._warned(device) or busy or failing

    def _answered(self, device: str) -> None:
        """``device`` answered: its fault, if any, ends now. A step that plays what the device
        gave says it first, as the fault refuses every input: a press the panel held while a seat
        node was away came with the node back, and a roll the camera read as it found the tray
        again, both at the poll that ended the fault."""
        if device in self._faults:
            self._fault_cleared(device)

    def _warned(self, device: str) -> bool:
        """Tell ``device``'s warning (:data:`SEATED`) when it begins, changes or ends: the table
        plays on, and the dealer's log, the devices page and ``run``'s terminal say what fails
        and the fix, as for a fault; True when it did."""
        said = self._warning_of(device)
        if self._warnings.get(device) == said:
            return False
        if said is None:
            del self._warnings[device]
            self._note("clear", f"the {device} works again", device, "")
        else:
            self._warnings[device] = said
            self._note("warning", named(device, said[0]), device, said[1])
        return True

    def _warning_of(self, device: str) -> tuple[str, str] | None:
        """What fails in a part of ``device`` the table plays on without, and the fix: the
        device's own warning (:data:`SEATED`), else, for the panel, a light that failed when
        the table last set them (:meth:`_lights`)."""
        found = self._device(device) if device in SEATED else None
        status = found.warning() if found is not None else None
        if status is not None:
            return status.problem.removeprefix(f"{device}: "), status.fix
        return self._unlit if device == "panel" else None

    def _tags(self) -> bool:
        reader = self._device("rfid")
        if reader is None:
            return False
        events = reader.poll()
        stray = stray_status(reader, self.registry) if self.registry is not None else None
        if stray is not None:
            raise DeviceFailing(stray)  # the table waits until it is taken off
        return bool(events)

    def _buttons(self) -> bool:
        panel = self._device("panel")
        if panel is None:
            return False
        busy = False
        events = panel.poll()
        self._answered("panel")
        for event in events:
            if event.kind.value == "press":
                self._press(event.seat, event.button, _event_key(event))
                busy = True
        return busy

    def _press(self, seat: int, button: str, device_event: tuple[str, int, int] | None) -> None:
        if self.controls is None or self.ledger is None:
            return
        if self._not_ready():
            self._notice(f"{self._name(seat)} pressed {button}, but the table is "
                         f"{self.status.value}: {self.problem}", seat)
            return
        meant = self.controls.press(self.ledger.game, seat, button, self._stake(seat))
        if isinstance(meant, (Refusal, Setting)):
            self._notice(f"{self._name(seat)}: {meant.text}", seat)
            return
        try:
            self.submit(Entry(meant, "panel", self._name(seat)), device_event=device_event)
        except DuplicateEvent:
            return  # a seat node sent again what the record already holds: applied once
        except DiceTableError as err:
            self._notice(f"{self._name(seat)}: {err}", seat)

    def _stake(self, seat: int) -> Stake | None:
        """What lies on ``seat``'s bet spot (None: the table has no reader or registry)."""
        reader = self._device("rfid")
        spot = self._spot_of(seat)
        if reader is None or self.registry is None or spot not in reader.spots:
            return None
        return Stake.read(reader.tags(spot), self.registry, owner=self._name(seat))

    def _seal_hidden(self) -> bool:
        """Hidden rolls happen in a tube or cup the camera cannot see: enter them sealed."""
        if self._not_ready():
            return False
        need = self._need()
        if need is None or not need.hidden or need.reason == "reveal":
            return False
        self.submit(Entry(Roll(need.seat, need.kind, (SEALED,) * need.count), "table",
                          self._name(need.seat)))
        return True

    def _look(self) -> bool:
        if self.eyes is None:
            return False
        need = self._need()
        if need is not None and (self._paused or self._faults_except("camera")
                                 or (need.hidden and need.reason != "reveal")):
            need = None  # the tray is still watched, but nothing is taken now
        sight = self.eyes.look(need)
        self._answered("camera")
        if sight is None or need is None:
            return False
        turned = self._turned(need, sight)
        if turned:
            sight = replace(sight, roll=None, reason=turned, code=TURNED)
        if sight.roll is not None:
            try:
                self.submit(Entry(sight.roll, "camera", "camera"), evidence=sight.jpeg)
                return True
            except IllegalAction as err:
                sight = replace(sight, roll=None, reason=str(err))
        self._ask(need, sight)
        return True

    def _ask(self, need: DiceNeeded, sight: Sighting) -> None:
        """Ask about ``sight``. The question's record keeps what a restarted table asks again
        (:meth:`_asked`): the sentence, the evidence picture, and as its ``why`` the doubt's
        code and the faces the question holds the players to (:meth:`_held`), so that a table
        restarted before the players moved the dice asks them still, and tells a die they
        turned. The dice the camera saw are kept in memory only."""
        if self.question is not None and self.question.text == sight.reason and not sight.thrown:
            return  # the same doubt again, of the same tray: the dealer already has it
        self._record("question", f"{self._asking(need)}{sight.reason}", "camera", "camera",
                     why=_question_why(sight.code, self._held(need, sight)), evidence=sight.jpeg,
                     seen=tuple(sight.seen))

    def _asking(self, need: DiceNeeded) -> str:
        """The start of the record's line of a question about ``need``, before the camera's sentence."""
        whose = "the community" if need.seat is None else self._name(need.seat)
        return f"{need.count} {need.kind.noun(need.count)} for {whose} ({need.reason}): "

    def _asked(self, row: Any, seen: tuple[DieSeen, ...]) -> Question | None:
        """The question record ``row`` asks, about the dice the game waits for (nothing but an
        input or a correction changes them, and either ends the question), numbered by the
        record (no question after a restart takes the number of one before it, which a
        console's form drawn then answers), with its evidence picture while the record keeps
        it. ``seen``: the dice the camera saw, when it asks now (a restarted table has none)."""
        need = self._need()
        if need is None:
            return None
        picture = row.picture if row.picture_kept else None
        return Question(row.seq, need.seat, need.kind, need.count, need.reason,
                        row.line.removeprefix(self._asking(need)), seen, picture,
                        _question_code(row.why))

    def _held(self, need: DiceNeeded, sight: Sighting) -> Counter[str]:
        """The faces read surely that the dice must still show once the table asks about
        ``sight``: those held already and the new ones when the players settle it with the faces
        as they lie, none when they throw the dice again (a thrown die lying cocked)."""
        if faces_stay(sight.code, need.reason == REVEAL):
            return self._kept | Counter(sight.sure)
        return Counter() if sight.code == COCKED else self._kept

    def _turned(self, need: DiceNeeded, sight: Sighting) -> str:
        """The sentence of a question about dice the players settled by hand that no longer show
        a face the camera read surely before (:data:`TURNED`), or ""."""
        gone = self._kept - Counter(sight.sure)
        if not gone or sight.roll is None:
            return ""
        whose = "the community" if need.seat is None else self._name(need.seat)
        now = " ".join(sight.roll.faces)
        return (f"the dice for {whose} show {now}, but {' '.join(sorted(gone.elements()))} "
                f"{'was' if gone.total() == 1 else 'were'} read there before the players moved them: was a die turned?")

    def _lights(self) -> bool:
        """Light the seat to act, and only it. Every seat's light is set even when one fails:
        stopping at the first left the others as they were, a seat that had acted still lit as
        the one to act. A light that fails is a warning of the panel (:meth:`_warned`), not a
        fault: the buttons work, the scoreboard says whose turn it is and a press out of turn is
        refused as ever; and the poll that ends a panel's fault would end it every beat. Only
        the lights of seats in play warn: an empty seat's light is dark and stays so, and a seat
        node under one that came back after being away refused its light while the commands it
        missed drained, a warning told and ended a beat after the node's own warning ended.
        True when the warning began, changed or ended."""
        panel = self._device("panel")
        if panel is None or "panel" in self._faults or self.ledger is None:
            self._unlit = None
            return False
        prompt = self.ledger.game.pending().prompt
        failed = [failure for seat in panel.seats
                  if (failure := _light(panel, seat, LightState.ON if seat == prompt
                                        else LightState.OFF)) is not None and seat < len(self.names)]
        self._unlit = failed[0] if failed else None
        return self._warned("panel")

    # -- faults and status -------------------------------------------------------------------
    def _fault(self, device: str, problem: str, fix: str) -> bool:
        """Record ``device`` failing; False when it fails as it did already (recorded once). A
        problem that names the device already (a reader's "rfid: reader under 'seat0' timed
        out") is not given its name twice."""
        problem = problem.removeprefix(f"{device}: ")
        if self._faults.get(device) == (problem, fix):
            return False
        self._faults[device] = (problem, fix)
        self._note("fault", named(device, problem), device, fix)
        return True

    def _fault_cleared(self, device: str) -> None:
        """Record the end of ``device``'s fault. A warning that stood before it (the node of an
        empty seat, kept through the fault: :meth:`_health` shows the fault first) and stands
        still is said in the clear, with its problem as the clear's ``why`` (which
        :meth:`_recall_faults` knows it by), and not recorded again: the record said "the rfid
        works again", untrue, then the warning a second time. A warning that began or changed
        meanwhile is recorded after by :meth:`_warned`; one that ended leaves a plain clear."""
        del self._faults[device]
        standing = self._warning_of(device)
        if standing is None:
            self._warnings.pop(device, None)
            self._note("clear", f"the {device} works again", device, "")
        else:
            self._note("clear", f"the {device} works again, but its warning stands", device, standing[0])

    def _note(self, kind: str, line: str, device: str, why: str) -> None:
        """Record a fault, a warning or its end, durably before it is shown (the log, the status,
        the update that `run` tells its terminal): in the game in play; between two games and
        before the first, as the table's own record (:data:`~controller.store.store.TABLE`), so
        that a finished game's record ends with its result and a fresh table keeps what failed."""
        if self._in_play():
            self._record(kind, line, device, device, why=why)
        else:
            self._shown(self._appended(TABLE, kind, line, device, device, why=why))

    def _health(self, name: str, device: Any) -> DeviceStatus:
        """``device``'s fault or warning as the loop's last poll found it (before a restarted
        table's first beat, as the record has it: :meth:`_recall_faults`), else healthy; checked
        now when the loop has not polled it (before its first beat; a camera the table has no
        eyes for, as the loop looks only through them)."""
        known = self._known(name, device)
        if known is not None:
            return known
        if name not in self._polled or (name == "camera" and self.eyes is None):
            status: DeviceStatus = device.check()
            return status
        return DeviceStatus.healthy(device.name)

    def _known(self, name: str, device: Any) -> DeviceStatus | None:
        """``device``'s fault, else its warning, as the table keeps them; None when it has none."""
        if name in self._faults:
            return DeviceStatus.failing(device.name, *self._faults[name])
        if name in self._warnings:
            return DeviceStatus.warning(device.name, *self._warnings[name])
        return None

    def _faults_except(self, device: str) -> bool:
        return any(name != device for name in self._faults)

    def _not_ready(self) -> bool:
        return self._paused or bool(self._faults)

    def _as_seen(self, at: int | None, in_game: int | None = None) -> None:
        """Refuse a change asked of the table as it stood at record ``at`` in game ``in_game`` (a
        console form drawn then) once it has changed since: a second click of Undo took back an
        input the dealer never saw, of Enter gave the same dice to the next seat, of Void voided
        the next hand. A new game makes no record, so the record's number alone let a form drawn
        in the game before act on the new one (Enter gave its dice to the new game's first roll).
        Checked under the table's lock with the change itself, so two clicks cannot both pass.
        A device failing or working again changes nothing the form acts on: ``at`` is the game's
        last record (:attr:`TableState.played`), else a reader unplugged in the background made
        a dealer's open Undo or Void stale, between games (the table's own records) and in one."""
        if in_game is not None and in_game != self.game_no:
            raise TableNotReady(f"game {self.game_no} was started since game {in_game}, in which "
                                "the form was drawn: look at the table again, then retry")
        if at is not None and at != self._played:
            raise TableNotReady(f"the table has changed since record {at} (now {self._played}): look at "
                                "it again, then retry")

    def _ready(self) -> None:
        if self._paused:
            raise TableNotReady(f"the table is paused: {self._pause_why or 'by the dealer'}; "
                                "the dealer resumes it from the console")
        if self._faults:
            device, (problem, fix) = next(iter(self._faults.items()))
            raise TableNotReady(f"the table waits for the {device}: {problem}; {fix}")

    def _set_status(self) -> None:
        if self._faults:  # between games too: the dealer sees a dead device before starting a game
            device, (problem, fix) = next(iter(self._faults.items()))
            self.status, self.problem, self.fix = TableStatus.FAULT, named(device, problem), fix
        elif self.ledger is None or self.ledger.game.pending().over:
            self.status, self.problem, self.fix = TableStatus.OVER, "", ""
        elif self._paused:
            self.status, self.problem, self.fix = TableStatus.PAUSED, \
                self._pause_why or "paused by the dealer", "resume from the dealer console"
        elif self.question is not None:
            self.status, self.problem, self.fix = TableStatus.QUESTION, self.question.text, \
                (PLAYERS_FIX if self.question.players else DEALER_FIX)
        else:
            self.status, self.problem, self.fix = TableStatus.RUNNING, "", ""

    def _question_cleared(self) -> None:
        self._kept = Counter()
        self.question = None
        self._set_status()

    # -- the record --------------------------------------------------------------------------
    def _record(self, kind: str, line: str, origin: str, who: str, *, why: str = "",
                evidence: bytes | None = None, seen: tuple[DieSeen, ...] = (),
                device_event: tuple[str, int, int] | None = None, reopen: bool = False) -> Ack:
        """Append a record (durable when this returns; with ``reopen``, the game back in play in
        the record with it), then apply and publish it (``seen``: a question's dice, :meth:`_apply`)."""
        if self.game_no == 0:
            raise TableNotReady("no game has been started: start one from the dealer console")
        row = self._appended(self.game_no, kind, line, origin, who, why=why, evidence=evidence,
                             device_event=device_event, reopen=reopen)
        self._apply(row, seen)
        if self.ledger is not None and self.ledger.game.pending().over and kind in INPUT_KINDS:
            self._finish()
        return self._shown(row)

    def _appended(self, game_no: int, kind: str, line: str, origin: str, who: str, *,
                  why: str = "", evidence: bytes | None = None,
                  device_event: tuple[str, int, int] | None = None, reopen: bool = False) -> _Row:
        """Append a record to game ``game_no`` (durable when this returns): the table's last."""
        seq = self.store.append(game_no, kind, line, who=who, why=why, origin=origin,
                                device_event=device_event, evidence=evidence, at=self._now(),
                                reopen=reopen)
        self._seq, self._told = seq, 0
        if kind not in DEVICE_RECORDS:
            self._played = seq
        stored = self.store.record(seq) if evidence is not None else None  # its picture, if kept
        picture = stored.picture if stored is not None and stored.picture_kept else None
        return _Row(seq, kind, line, who, why, origin, self._now(), picture, picture is not None)

    def _shown(self, row: _Row) -> Ack:
        """Show a record (or what one would say): its line in the log, the status after it, the
        update to subscribers."""
        text = self._sentence(row)
        self._log.append(_log_line(self, row, text))
        self._set_status()
        self._publish(Update(row.seq, _update_kind(row.kind), text, self.state(), row.kind, row.why,
                             self._told))
        return Ack(row.seq, text)

    def _finish(self) -> None:
        """Record the game's results; keep the last ten games whole, export older ones."""
        assert self.ledger is not None
        self.store.finish_game(self.game_no, self.ledger.game.final())
        self._prune()

    def _ending(self) -> tuple[int, Mapping[str, Any]] | None:
        """The game in play and its results so far, which a new game ends (in the new game's
        transaction: ``Store.start_game``'s ``ending``); None when no game is in play."""
        if self.ledger is None or self.ledger.game.pending().over:
            return None
        return self.game_no, self.ledger.game.final()

    def _prune(self) -> None:
        """Keep the last :data:`KEEP_GAMES` games whole; export older finished ones, if asked."""
        if self.exports is not None:
            self.exports.mkdir(parents=True, exist_ok=True)
            self.store.prune(self.exports, lambda game: effective_lines(self.store, game),
                             keep=KEEP_GAMES)

    def _apply(self, row: Any, seen: tuple[DieSeen, ...] = ()) -> None:
        """Apply a record, made now or replayed as the table resumes, the same way: a restarted
        table knows what the running one knew. An input or a correction, whoever gave it, ends
        the open question and the faces it held the players to: the dice it asked about are in
        (the game takes no other input while it waits for dice), or the game went back (dice
        entered by hand with the console's Enter dice left them held, against the next roll).
        A question holds the faces its record keeps (:meth:`_ask`): kept in memory only, they
        were lost when the table restarted before the players moved the dice, and a die turned
        meanwhile was taken. A question's record opens the question again (:meth:`_asked`): a
        table restarted while it asked came back paused with no question, and the dealer had to
        press Resume even for a question the players settle. ``seen``: the dice the camera saw
        for a question asked now."""
        ledger = self._ledger()
        if row.kind in INPUT_KINDS or row.kind in CORRECTION_KINDS:
            ledger.take(row.seq, row.kind, row.line, row.origin, row.who)
            self.question, self._kept = None, Counter()
        elif row.kind == "pause":
            self._paused, self._pause_why = True, row.why
        elif row.kind == "resume":
            self._paused, self._pause_why = False, ""
        elif row.kind == "question":
            self.question, self._kept = self._asked(row, seen), _question_held(row.why)

    def _resume(self) -> None:
        """Come back exactly where the record stopped: a table that stopped paused comes back
        paused, one that stopped asking a question asks it again."""
        newest = self.store.games(1)
        current = self.store.current_game() or (newest[0] if newest else None)
        self._seq = self.store.last_seq()
        self._played = self.store.last_seq_except(DEVICE_RECORDS)
        gone = self._recall_faults()
        if current is None:
            for row in self.store.records(TABLE):  # before the first game: what failed since
                self._log.append(_log_line(self, row, self._sentence(row)))
            self._set_status()
        else:
            self._resume_game(current)
        for device in gone:
            self._note("clear", f"the {device} is no longer part of the table", device, "")

    def _resume_game(self, current: GameSummary) -> None:
        """Come back into the record's last game as its records leave it."""
        self.game_no = current.game_no
        self._start(current.game, tuple(current.names), current.options,
                    seat_colours(current.colours, current.seats))
        for row in self._since_start():
            self._apply(row)
            self._log.append(_log_line(self, row, self._sentence(row)))
        if self.question is not None:
            self.question = replace(self.question, asked_again=True)
        self._finish_cut_short(current)
        self._set_status()

    def _recall_faults(self) -> list[str]:
        """Know the faults and warnings that stood when the table stopped: each device's newest
        fault, warning or clear in the record is how the loop last found it, however many games
        ago. A restarted table did not know them: it was not at fault until its first poll found
        the device failing again, which recorded the same fault a second time, and a fault that
        ended while the table was down was never recorded as cleared. Only the devices the table
        has: one gone from its configuration is never polled, and its fault would hold the table
        for good. A warning stands through a fault, and past the clear that ended the fault only
        (:func:`_standing_warning`). Returns those gone devices whose fault or warning stands,
        which :meth:`_resume` records as ended (else the record never says they ended); none for
        a table without devices (inputs only through :meth:`submit`), which has no configuration
        to leave one out of."""
        have = {name for name, _ in self._named_devices()}
        warned = {row.origin: row for row in self.store.newest(("warning",))}
        cleared = {row.origin: row for row in self.store.newest(("clear",))}
        gone = []
        for row in self.store.newest(DEVICE_RECORDS):
            warning = _standing_warning(warned.get(row.origin), cleared.get(row.origin))
            if row.kind != "fault" and warning is None:
                continue
            if row.origin not in have:
                gone.append(row.origin)
                continue
            if row.kind == "fault":
                self._faults[row.origin] = _kept(row)
            if warning is not None:
                self._warnings[row.origin] = _kept(warning)
        return gone if self.hw is not None else []

    def _finish_cut_short(self, recorded: GameSummary) -> None:
        """Record the result of a game whose last input is in the record but not its finish: the
        table was killed between the two (each its own transaction). Left so, the record's
        current game was one already over, which no input can go on and no new game can follow
        (the store refuses to start one while another is unfinished): the table was stuck."""
        if not recorded.over and not self._in_play():
            self._finish()

    def _since_start(self) -> list[Any]:
        """The records of the table's last game, with the table's own since it began (a device
        failing after its result), oldest first: what its log showed before a restart."""
        rows = self.store.records(self.game_no)
        if not rows:
            return []
        own = [row for row in self.store.records(TABLE) if row.seq > rows[0].seq]
        return sorted([*rows, *own], key=lambda row: row.seq)

    def _start(self, game: str, names: tuple[str, ...], options: dict[str, str],
               colours: tuple[str, ...]) -> None:
        self.ledger = Ledger(game, len(names), options)
        self.names = names
        self._seat_players(len(names))
        self.colours = colours
        self.controls = self._controls_for(game) if self._controls_for else None
        self._log.clear()

    def _seat_players(self, players: int) -> None:
        """Tell the devices serving the seats that players sit at seats 0 to ``players`` - 1, and
        so that the others' parts are not waited for (:data:`SEATED`)."""
        for device in filter(None, map(self._device, SEATED)):
            device.set_seats_in_play(frozenset(range(players)))

    # -- helpers -----------------------------------------------------------------------------
    def _ledger(self) -> Ledger:
        if self.ledger is None:
            raise TableNotReady("no game has been started: start one from the dealer console")
        return self.ledger

    def _need(self) -> DiceNeeded | None:
        if self.ledger is None:
            return None
        dice = self.ledger.game.pending().dice
        return dice[0] if dice else None

    def _view(self) -> TableView:
        if self.ledger is None:
            return TableView(game="", title="No game", number=0, phase="no game", seats=(),
                             awaited=Awaited(text="the dealer starts a game"))
        view: TableView = self.ledger.game.view(self.names)
        return view.coloured(self.colours)

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "the table"
        return self.names[seat] if 0 <= seat < len(self.names) else f"Seat {seat}"

    def _sentence(self, row: Any) -> str:
        return sentence(row, self._name, self.ledger)

    def _notice(self, text: str, seat: int | None) -> None:
        """Tell a change that makes no record: it keeps the last record's number and is told
        after the changes told since (:attr:`Update.place`), so a live stream sends it too."""
        self._told += 1
        self._log.append(LogLine(self._seq, self._now(), text, seat))
        self._publish(Update(self._seq, "notice", text, self.state(), told=self._told))

    def _publish(self, update: Update) -> None:
        for subscriber in list(self._subscribers):
            subscriber.put(update)

    def _unsubscribe(self, subscription: _Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    def _in_play(self) -> bool:
        """A game is in play: started, and its result not in."""
        return self.ledger is not None and not self.ledger.game.pending().over

    def _device(self, name: str) -> Any:
        return getattr(self.hw, name, None) if self.hw is not None else None

    def _named_devices(self) -> list[tuple[str, Any]]:
        """Every device and the name the table polls it by (its faults' key), camera first."""
        found = [(name, self._device(name)) for name in ("camera", *SEATED)]
        return [(name, device) for name, device in found if device is not None]


@dataclass(frozen=True)
class _Row:
    """A record as the table made it now, as :meth:`Table._apply` takes it (and a stored one)."""

    seq: int
    kind: str
    line: str
    who: str
    why: str
    origin: str
    at: float
    picture: int | None = None
    picture_kept: bool = False


def sentence(row: Any, name: Callable[[int | None], str], ledger: Ledger | None) -> str:
    """A record line in the room's words (hidden dice stay hidden)."""
    if row.kind in INPUT_KINDS:
        played = ledger.find(row.seq) if ledger is not None else None
        text = _said(played, name) if played is not None else "(an input since corrected)"
        return f"{text} (dealer)" if row.kind == "answer" else text
    words = {"undo": "Dealer undid the last input", "void": "Dealer voided the hand",
             "replace": f"Dealer corrected the dice of record {row.line.split()[0]}"
             if row.line else "Dealer corrected dice",
             "pause": "Table paused", "resume": "Table resumed",
             "fault": f"Fault: {row.line}", "clear": f"Fixed: {row.line}",
             "warning": f"Warning: {row.line}",
             "question": f"Camera asked: {row.line}",
             "note": row.line}
    text = words.get(row.kind, row.line)
    # a fault's or warning's why is its fix, told apart; a question's, the faces it holds (_ask)
    why = f" ({row.why})" if row.why and row.kind not in ("fault", "warning", "question") else ""
    return f"{text}{why}"


def _standing_warning(warning: Any, clear: Any) -> Any:
    """A device's newest warning record, if it still stands: no clear came after it but one
    that ended a fault only (with the warning's problem as its ``why``: ``Table._fault_cleared``)."""
    if warning is None or (clear is not None and clear.seq > warning.seq and not clear.why):
        return None
    return warning


def _question_why(code: str, held: Counter[str]) -> str:
    """A question record's ``why``: the doubt's code, then the faces the question holds the
    players to, which a restarted table asks and holds again (:func:`_question_code`,
    :func:`_question_held`); the room is never told it.

    >>> _question_why("unseen", Counter("OH")), _question_why("cocked", Counter())
    ('unseen: H O', 'cocked:')
    """
    return f"{code}: {' '.join(sorted(held.elements()))}".rstrip()


def _question_code(why: str) -> str:
    """The code of the doubt a question record's ``why`` names; "" for a record older than
    the code in it (its faces only: asked again as the dealer's, :attr:`Question.players` False).

    >>> _question_code("unseen: H O"), _question_code("H O")
    ('unseen', '')
    """
    code, colon, _ = why.partition(":")
    return code if colon else ""


def _question_held(why: str) -> Counter[str]:
    """The faces a question record's ``why`` holds the players to (an older record's: all of it)."""
    _, _, faces = why.rpartition(":")
    return Counter(faces.split())


def _kept(row: Any) -> tuple[str, str]:
    """A fault's or a warning's record as the table keeps it: (problem, fix)."""
    return row.line.removeprefix(f"{row.origin}: "), row.why


def named(device: str, problem: str) -> str:
    """A device's problem as the record and the scoreboard's banner say it: with the device's name
    first ("rfid: reader under 'seat0' timed out"), unless its first clause names it already
    ("camera stopped sending frames: ...", "the camera cannot find the tray: ...")."""
    return problem if device in problem.split(":", 1)[0] else f"{device}: {problem}"


def _said(played: Played, name: Callable[[int | None], str]) -> str:
    inp = played.input
    if isinstance(inp, Roll) and played.reveal:
        return f"{name(inp.seat)} reveals {' '.join(inp.faces)}"
    text = describe(inp, hidden=played.hidden)
    seat = getattr(inp, "seat", None)
    if seat is not None:
        text = text.replace(f"Seat {seat}", name(seat), 1)
    return text


LIGHT_FIX = "the table plays on meanwhile: the scoreboard says whose turn it is"
"""What the dealer is told after a failing light's fix: the game does not wait for it."""


def _light(panel: Any, seat: int, state: LightState) -> tuple[str, str] | None:
    """Switch ``seat``'s turn light; None when it switched, else what failed and the fix."""
    try:
        panel.set_light(seat, state)
    except DeviceError as err:
        problem = getattr(err, "problem", "") or str(err)
        fix = getattr(err, "fix", "") or DEVICE_FIX
        return f"seat {seat}'s turn light failed: {problem}", f"{fix}; {LIGHT_FIX}"
    return None


def _correction_line(correction: Correction) -> tuple[str, str]:
    if isinstance(correction, Undo):
        return "undo", ""
    if isinstance(correction, ReplaceDice):
        if correction.seq < 1:  # its line would not read back: the record's format, not a reason
            raise IllegalAction(f"record {correction.seq} is not an input in effect in this game")
        return "replace", replace_line(correction.seq, correction.faces)
    if isinstance(correction, VoidHand):
        return "void", ""
    raise IllegalAction(f"not a correction: {correction!r}")


def _update_kind(kind: str) -> str:
    if kind in INPUT_KINDS:
        return "input"
    if kind in CORRECTION_KINDS:
        return "correction"
    return "status"


LONGEST_NAME = 32
"""Characters in a seat name at most: the scoreboard, the log and every question show it (a
console form took a 60 KB name and sent it to every scoreboard in every update)."""


def _check_names(names: Sequence[str]) -> None:
    """Seat names are what the scoreboard, the log and the questions tell the seats by: each must
    be given, fit a seat's place on the scoreboard (:data:`LONGEST_NAME`), and differ from the
    others (case aside).

    >>> _check_names(["Ana", "ana"])
    Traceback (most recent call last):
    ...
    controller.games.errors.IllegalAction: seat names must differ: 'ana' is given twice
    """
    seen: set[str] = set()
    for name in names:
        said = name.strip().casefold()
        if not said:
            raise IllegalAction("every seat needs a name")
        if len(name.strip()) > LONGEST_NAME:
            raise IllegalAction(f"a seat name is at most {LONGEST_NAME} characters: "
                                f"{name.strip()[:LONGEST_NAME]!r}... is {len(name.strip())}")
        if said in seen:
            raise IllegalAction(f"seat names must differ: {name!r} is given twice")
        seen.add(said)


def _log_line(table: Table, row: Any, text: str) -> LogLine:
    """The log's line of a record: an input's seat, and whether it is a roll of dice."""
    played = table.ledger.find(row.seq) if row.kind in INPUT_KINDS and table.ledger is not None else None
    if played is None:
        return LogLine(row.seq, row.at, text)
    seat: int | None = getattr(played.input, "seat", None)
    return LogLine(row.seq, row.at, text, seat, isinstance(played.input, Roll))


def _event_key(event: Any) -> tuple[str, int, int] | None:
    origin = getattr(event, "origin", "")
    return (origin, int(getattr(event, "session", 0)), int(getattr(event, "sequence", 0))) \
        if origin else None

