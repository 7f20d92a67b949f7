"""A STAND-IN for the real table (``controller.table``), for the web's tests until it lands.

It implements the :class:`~controller.table.records.TableHandle` protocol over
``controller.simulation.BotTable`` and turns the engines' present dict views into the typed
``TableView`` (that adapter is the stand-in's only game-specific code; the real engines will give
``view()`` themselves). The lead replaces it with the real table behind the ``table`` fixture.
It keeps the table's promises the web relies on: a sequence number per record, hidden dice sealed
until the showdown, corrections replayed from the record, TableNotReady while paused, questions
to the dealer with an evidence picture.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from controller.games.base import Game, Input
from controller.games.dice import DieKind
from controller.games.errors import DiceTableError, IllegalAction, TableNotReady
from controller.games.hand_rules import HandRules
from controller.games.hands import evaluator
from controller.games.registry import create_game
from controller.games.rolls import Roll
from controller.games.view import (Awaited, DieView, Fact, Holding, PotView, Result, SeatStatus,
                                   SeatView, Shown, TableView)
from controller.simulation import BotTable, describe
from controller.table.records import (Ack, Correction, DieSeen, Entry, GameSummary, LogLine,
                                      Question, ReplaceDice, TableState, TableStatus, Undo, Update,
                                      VoidHand)
from hardware.devices import DeviceStatus

LOG_LINES = 30


@dataclass(frozen=True)
class Record:
    """One input of the current game and the sequence number it was recorded under."""

    seq: int
    input: Input
    hidden: bool


class StandInTable:
    """A simulated table of bots behind the TableHandle protocol (a stand-in, see the module)."""

    def __init__(self, game: str = "tao", players: int = 3, seed: int = 1,
                 names: Sequence[str] | None = None, options: Mapping[str, str] | None = None,
                 reveal_all_in: bool = True) -> None:
        self._ready = threading.Condition()
        self.seed, self.reveal_all_in = seed, reveal_all_in
        self.updates: list[Update] = []
        self.accepted_at: dict[int, float] = {}  # seq -> time.time() when it became "durable"
        self.seq = 0
        self.status, self.problem, self.fix = TableStatus.RUNNING, "", ""
        self.question: Question | None = None
        self.pictures: dict[int, bytes] = {}
        self.log: list[LogLine] = []
        self.summaries: list[GameSummary] = []
        self.failing: set[str] = set()
        self._begin(game, players, names, options or {})

    # --- the TableHandle protocol -----------------------------------------------------------

    def state(self) -> TableState:
        """The public state now."""
        with self._ready:
            return self._state()

    def subscribe(self, after: int = 0) -> StandInSubscription:
        """Changes above ``after``, recorded ones first."""
        return StandInSubscription(self, after)

    def submit(self, entry: Entry) -> Ack:
        """Apply an input (refused while paused or at a question)."""
        with self._ready:
            self._check_ready()
            return self._apply(entry.input, hidden=_hidden(self.game, entry.input))

    def correct(self, correction: Correction) -> Ack:
        """Undo, replace a roll's faces, or void the hand; replayed from the record."""
        with self._ready:
            self._check_ready()
            records = list(self.records)
            if isinstance(correction, Undo):
                if not records:
                    raise IllegalAction("nothing to undo in this game")
                records.pop()
            elif isinstance(correction, ReplaceDice):
                records = self._replaced(records, correction)
            elif isinstance(correction, VoidHand):
                records = records[:self.hand_start]
            self._replay(records)
            return self._record("correction", f"{correction.who} corrects: "
                                f"{type(correction).__name__} ({correction.why})")

    def answer(self, question: int, faces: Sequence[str], who: str) -> Ack:
        """The dealer's reading of the dice the open question is about."""
        with self._ready:
            if self.status is TableStatus.PAUSED or self.status is TableStatus.FAULT:
                raise TableNotReady(f"the table is {self.status.value}: {self.problem}")
            if self.question is None or self.question.id != question:
                raise IllegalAction(f"question {question} is not open")
            asked = self.question
            roll = Roll(asked.seat, asked.kind, tuple(asked.kind.parse_face(f) for f in faces))
            self.question, self.status = None, TableStatus.RUNNING
            return self._apply(roll, hidden=_hidden(self.game, roll), who=who)

    def pause(self, who: str, why: str) -> Ack:
        """Pause the table."""
        with self._ready:
            self.status, self.problem, self.fix = TableStatus.PAUSED, why, "the dealer resumes it"
            return self._record("status", f"{who} pauses the table: {why}")

    def resume(self, who: str) -> Ack:
        """Resume a paused table."""
        with self._ready:
            self.status, self.problem, self.fix = TableStatus.RUNNING, "", ""
            if self.question is not None:
                self.status = TableStatus.QUESTION
            return self._record("status", f"{who} resumes the table")

    def new_game(self, game: str, names: Sequence[str], options: dict[str, str]) -> Ack:
        """Start ``game`` with these seats."""
        with self._ready:
            self._begin(game, len(names), names, options)
            return self._record("game", f"a new game of {game} starts")

    def games(self, limit: int = 10) -> list[GameSummary]:
        """The games played, newest first."""
        with self._ready:
            return [self._summary()] + self.summaries[::-1][:limit - 1]

    def evidence(self, picture: int) -> bytes | None:
        """An evidence JPEG."""
        return self.pictures.get(picture)

    def devices(self) -> list[Any]:
        """Simulated devices; ``failing`` names the ones reported as failing."""
        names = ("camera", "seat node 0", "seat node 1", "rfid reader")
        return [DeviceStatus.failing(name, "no answer for 5 s", "check its cable")
                if name in self.failing else DeviceStatus.healthy(name) for name in names]

    # --- driving the stand-in (tests, demo, bench) --------------------------------------------

    def step(self) -> Update | None:
        """One bot input (a new game of the same kind when one ends); None when not running."""
        with self._ready:
            if self.status not in (TableStatus.RUNNING, TableStatus.OVER):
                return None
            before = len(self.bots.games)
            event = self.bots.step()
            if len(self.bots.games) != before:
                self._next_game()
            self.records.append(Record(self.seq + 1, event.record, event.hidden))
            self._mark_hand()
            self._record("input", describe(event.record, event.hidden))
            return self.updates[-1]

    def ask(self, reason: str = "low confidence") -> Question:
        """Open a question about the next dice the game waits for (as the camera would); bots
        play on until the game waits for dice."""
        with self._ready:
            while not self.game.pending().dice:
                self.step()
            needed = self.game.pending().dice[0]
            seen = tuple(DieSeen(needed.kind, needed.kind.faces[i % len(needed.kind.faces)],
                                 0.42 if i == 0 else 0.97, (120.0 + 160 * i, 200.0),
                                 (70.0 + 160 * i, 150.0, 100.0, 100.0), "community",
                                 "low confidence" if i == 0 else None)
                         for i in range(needed.count))
            picture = len(self.pictures) + 1
            self.pictures[picture] = _evidence_picture(seen)
            who = "the community" if needed.seat is None else self.names[needed.seat]
            self.question = Question(picture, needed.seat, needed.kind, needed.count, reason,
                                     f"Check {needed.count} {needed.kind.value} for {who}",
                                     seen, picture)
            self.status = TableStatus.QUESTION
            self._record("status", f"the table asks the dealer: {self.question.text}")
            return self.question

    # --- inside ---------------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The engine of the game in play."""
        return self.bots.game

    def _begin(self, game: str, players: int, names: Sequence[str] | None,
               options: Mapping[str, str]) -> None:
        if getattr(self, "bots", None) is not None:
            self.summaries.append(self._summary())
        self.bots = BotTable(game, players, self.seed, options=options)
        self.options = dict(options)
        self.names = list(names or [f"Seat {s}" for s in range(players)])
        self.game_no = len(self.summaries) + 1
        self.records: list[Record] = []
        self.hand_start, self._hands_seen = 0, 0

    def _next_game(self) -> None:
        finished = self.bots.games[-2]
        self.summaries.append(GameSummary(self.game_no, self.bots.name, finished.seats,
                                          tuple(self.names), dict(finished.options_text()), True,
                                          finished.final(), inputs=len(self.records)))
        self.game_no += 1
        self.records, self.hand_start, self._hands_seen = [], 0, 0

    def _mark_hand(self) -> None:
        if self.game.hands_played != self._hands_seen:
            self._hands_seen, self.hand_start = self.game.hands_played, len(self.records)

    def _check_ready(self) -> None:
        if self.status is not TableStatus.RUNNING and self.status is not TableStatus.OVER:
            raise TableNotReady(f"the table is {self.status.value}"
                                f"{': ' + self.problem if self.problem else ''}")

    def _apply(self, record: Input, hidden: bool, who: str = "") -> Ack:
        applied = self.game.apply(record)
        self.records.append(Record(self.seq + 1, applied, hidden))
        self._mark_hand()
        return self._record("input", describe(applied, hidden) + (f" ({who})" if who else ""))

    def _replaced(self, records: list[Record], fix: ReplaceDice) -> list[Record]:
        for index, record in enumerate(records):
            if record.seq == fix.seq and isinstance(record.input, Roll):
                roll = record.input
                faces = tuple(roll.kind.parse_face(face) for face in fix.faces)
                records[index] = Record(record.seq, Roll(roll.seat, roll.kind, faces),
                                        record.hidden)
                return records
        raise IllegalAction(f"record {fix.seq} is not a roll of this game")

    def _replay(self, records: list[Record]) -> None:
        game = create_game(self.bots.name, self.game.seats, self.options)
        for record in records:
            try:
                game.apply(record.input)
            except DiceTableError as error:
                raise IllegalAction(f"the correction makes record {record.seq} "
                                    f"({record.input}) illegal: {error}") from None
        self.bots.games[-1] = game
        self.records = records
        self.hand_start = min(self.hand_start, len(records))

    def _record(self, kind: str, text: str) -> Ack:
        self.seq += 1
        self.log = (self.log + [LogLine(self.seq, time.time(), text)])[-LOG_LINES:]
        if self.game.pending().over and self.status is TableStatus.RUNNING:
            self.status = TableStatus.OVER
        elif not self.game.pending().over and self.status is TableStatus.OVER:
            self.status = TableStatus.RUNNING
        self.updates.append(Update(self.seq, kind, text, self._state()))
        self.accepted_at[self.seq] = time.time()
        self._ready.notify_all()
        return Ack(self.seq, text)

    def _state(self) -> TableState:
        return TableState(self.seq, self.game_no, view_of(self.game, self.names, self.reveal_all_in),
                          self.status, self.problem, self.fix, self.question, tuple(self.log))

    def _summary(self) -> GameSummary:
        game = self.game
        return GameSummary(self.game_no, self.bots.name, game.seats, tuple(self.names),
                           dict(game.options_text()), game.pending().over, game.final(),
                           inputs=len(self.records))

    def wait_after(self, after: int, timeout: float) -> Update | None:
        """The first update above ``after``, waiting up to ``timeout`` seconds."""
        end = time.monotonic() + timeout
        with self._ready:
            while True:
                found = self._first_after(after)
                if found is not None:
                    return found
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self._ready.wait(left)

    def _first_after(self, after: int) -> Update | None:
        # sequence numbers are 1, 2, 3... so update n sits at index n - 1
        return self.updates[after] if 0 <= after < len(self.updates) else None


class StandInSubscription:
    """Updates above a sequence number, oldest first."""

    def __init__(self, table: StandInTable, after: int) -> None:
        self._table, self._after, self.closed = table, after, False

    def next(self, timeout: float) -> Update | None:
        """The next update, or None within ``timeout`` seconds."""
        update = self._table.wait_after(self._after, timeout)
        if update is not None:
            self._after = update.seq
        return update

    def close(self) -> None:
        """Stop."""
        self.closed = True


def _hidden(game: Game, record: Input) -> bool:
    return isinstance(record, Roll) and any(
        needed.hidden and needed.seat == record.seat for needed in game.pending().dice)


def _evidence_picture(seen: Sequence[DieSeen]) -> bytes:
    frame = np.full((400, 640, 3), (60, 110, 40), np.uint8)
    for die in seen:
        x, y, w, h = (int(v) for v in die.box)
        cv2.rectangle(frame, (x, y), (x + w, y + h), (235, 235, 235), -1)
        cv2.putText(frame, die.face or "?", (x + 25, y + 70), cv2.FONT_HERSHEY_SIMPLEX, 2,
                    (20, 20, 20), 4)
    ok, jpeg = cv2.imencode(".jpg", frame)
    assert ok
    return bytes(jpeg.tobytes())


# --- the view adapter (what the engines' own view() will do) ------------------------------------

_TAO_STATUS = {"active": SeatStatus.ACTIVE, "folded": SeatStatus.FOLDED,
               "sitting-out": SeatStatus.SITTING_OUT, "out": SeatStatus.OUT}


def view_of(game: Game, names: Sequence[str], reveal_all_in: bool = True) -> TableView:
    """The typed public view of ``game`` built from its dict view (a stand-in adapter)."""
    data = game.public_view()
    pending = game.pending()
    awaited = _awaited(pending, names)
    if "players" in data:
        return _tao_view(data, names, awaited)
    return _holdem_view(game, data, names, awaited, reveal_all_in)


def _awaited(pending: Any, names: Sequence[str]) -> Awaited:
    if pending.over:
        return Awaited(text="The game is over")
    if pending.dice:
        needed = pending.dice[0]
        who = "The table" if needed.seat is None else names[needed.seat]
        return Awaited(tuple(d.seat for d in pending.dice if d.seat is not None),
                       needed.seat, pending.dice,
                       f"{who} rolls {needed.count} {needed.kind.value} ({needed.reason})")
    prompt = pending.prompt if pending.prompt is not None else \
        (pending.actors[0] if pending.actors else None)
    text = f"{names[prompt]} to act" if prompt is not None else pending.note
    return Awaited(tuple(pending.actors), prompt, (), text)


def _tao_view(data: dict[str, Any], names: Sequence[str], awaited: Awaited) -> TableView:
    seats = []
    token = data["token"]
    for player in data["players"]:
        seat = player["seat"]
        dice: list[DieView] = []
        if player["rolled"]:
            due = "reroll-due" if player["reroll_due"] else ""
            dice += [DieView(DieKind.D6, None, due), DieView(DieKind.D6, None, due)]
        if player["d12"] is not None:
            dice.append(DieView(DieKind.D12, str(player["d12"])))
        marks = (f"token {token['side']}",) if token["holder"] == seat else ()
        seats.append(SeatView(seat, names[seat], _TAO_STATUS[player["status"]],
                              (Holding("black", player["black"]), Holding("white", player["white"])),
                              (), tuple(dice), marks))
    pot = PotView("pot", (Holding("black", data["pot"]["black"]),
                          Holding("white", data["pot"]["white"])),
                  tuple(s.seat for s in seats if s.status is SeatStatus.ACTIVE))
    facts = (Fact("Match", str(data["match"])), Fact("Round", str(data["round"])),
             Fact("Multiplier", f"×{data['multiplier']}"),
             Fact("Matches won", " ".join(str(n) for n in data["matches_won"])))
    if token["holder"] is not None:
        facts += (Fact("Token", f"{names[token['holder']]}, {token['side']}"),)
    # the view counts rounds over the whole game; the engine's "round" restarts every match
    return TableView(data["game"], "Tao Dice", data["rounds_played"] + 1, data["phase"],
                     tuple(seats), (pot,), (), awaited,
                     _tao_result(data["last_round"], data["rounds_played"], names), facts,
                     data["winner"] is not None, data["winner"])


def _tao_result(last: dict[str, Any] | None, played: int,
                names: Sequence[str]) -> Result | None:
    if not last:
        return None
    shown = tuple(Shown(r["seat"], (DieView(DieKind.D6, str(r["d6"][0])),
                                     DieView(DieKind.D6, str(r["d6"][1])),
                                     DieView(DieKind.D12, str(r["d12"]))), f"score {r['score']}")
                  for r in last["reveal"])
    winners = tuple(last["winners"])
    who = " and ".join(names[s] for s in winners)
    text = f"{who} {'tie' if len(winners) > 1 else 'wins'} the round (pot {last['pot']})"
    return Result(played, winners, shown, text)


def _holdem_view(game: Any, data: dict[str, Any], names: Sequence[str], awaited: Awaited,
                 reveal_all_in: bool) -> TableView:
    kind = game.kind
    states = data["die_states"]
    community = tuple(DieView(kind, face, states.get(str(i), {}).get("state", ""))
                      for i, face in enumerate(data["board"]))
    reveal = reveal_all_in and _all_in_showdown(data)
    seats = tuple(_holdem_seat(game, seat, data, names, kind, reveal) for seat in data["seats"])
    pots = tuple(PotView("main pot" if i == 0 else f"side pot {i}", (Holding("chips", p["amount"]),),
                         tuple(p["eligible"])) for i, p in enumerate(data["pots"]))
    facts = (Fact("Hand", str(data["hand"])), Fact("Street", str(data["street"])))
    return TableView(data["game"], "Tauren Hold'em" if data["game"] == "tauren" else "DiceHoldem",
                     data["hand"], data["phase"], seats, pots, community, awaited,
                     _holdem_result(game, data["last_hand"], names, kind), facts, data["over"])


def _all_in_showdown(data: dict[str, Any]) -> bool:
    in_hand = [s for s in data["seats"] if s["in_hand"] and s["dice_rolled"] == 2]
    behind = [s for s in in_hand if not s["all_in"]]
    return len(in_hand) >= 2 and len(behind) <= 1 and any(s["all_in"] for s in in_hand) \
        and len(data["board"]) < 5 and data["current_bet"] == max(s["bet"] for s in in_hand)


def _holdem_seat(game: Any, seat: dict[str, Any], data: dict[str, Any], names: Sequence[str],
                 kind: DieKind, reveal: bool) -> SeatView:
    number = seat["seat"]
    status = SeatStatus.OUT if seat["out"] else SeatStatus.FOLDED if seat["folded"] else \
        SeatStatus.ALL_IN if seat["all_in"] else SeatStatus.ACTIVE
    dice: tuple[DieView, ...] = ()
    if seat["in_hand"]:
        faces = game.private[number] if reveal else (None,) * seat["dice_rolled"]
        dice = tuple(DieView(kind, face) for face in faces)
    marks = tuple(mark for mark, at in (("button", data["button"]), ("small blind", data["small_blind"]),
                                        ("big blind", data["big_blind"])) if at == number)
    bet = (Holding("chips", seat["bet"]),) if seat["bet"] else ()
    return SeatView(number, names[number], status, (Holding("chips", seat["stack"]),), bet, dice,
                    marks)


def _holdem_result(game: Any, last: dict[str, Any], names: Sequence[str],
                   kind: DieKind) -> Result | None:
    if not last:
        return None
    board = last["board"]
    ranks = evaluator(HandRules(game.name if game.name in ("tauren", "diceholdem")
                                else "diceholdem"))
    shown = tuple(Shown(int(seat), tuple(DieView(kind, face) for face in dice),
                        ranks.rank([*board, *dice]).category.label if len(board) == 5 else "",
                        (Holding("chips", last["won"].get(seat, 0)),))
                  for seat, dice in last["shown"].items())
    winners = tuple(int(seat) for seat in last["won"])
    text = " and ".join(f"{names[w]} wins {last['won'][str(w)]}" for w in winners)
    return Result(last["hand"], winners, shown, text)


def drive(table: StandInTable, pause: float, stop: threading.Event) -> None:
    """Step ``table`` every ``pause`` seconds until ``stop`` is set (a thread's target)."""
    while not stop.is_set():
        table.step()
        stop.wait(pause)


__all__ = ["StandInTable", "drive", "view_of"]
