"""Tao Dice (RULES.md section 1): a pure engine fed one action or dice observation at a time.

The engine never rolls. It says what it waits for (:meth:`TaoDice.pending`) and accepts antes,
passes, raises, calls, folds and :class:`~controller.games.rolls.Roll` observations. Every input
has ``verify_*`` (raises :class:`IllegalAction`), ``can_*`` and the act itself, which returns the
frozen record appended to :attr:`TaoDice.inputs`. Decisions where RULES.md is silent are written
down in ``docs/rules-decisions.md``.

Hidden 2d6 (and their white-stone reroll) may be entered sealed (``roll 2 d6 ? ?``); the engine
then asks each active seat whose dice are sealed to reveal them before the showdown. What the
room sees is :meth:`TaoDice.view`, built by :func:`_table_view` alone.

>>> game = create(2, {})
>>> game.pending().actors
(0, 1)
>>> str(game.ante(0, black=1, white=0))
'ante 0 black=1 white=0'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Mapping, Sequence

from controller.games.base import REVEAL, DiceNeeded, Input, Pending
from controller.games.dice import DieKind
from controller.games.engine import Engine, Handler, and_list, seat_words
from controller.games.errors import IllegalAction, InvalidInput
from controller.games.records import SeatInput, parse_record
from controller.games.rolls import Roll
from controller.games.view import (Awaited, DieView, Fact, Holding, PotView, Result, SeatStatus,
                                   SeatView, Shown, TableView)

MIN_SEATS, MAX_SEATS = 2, 6


# --- records -------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Ante(SeatInput):
    """``seat`` antes ``black`` + ``white`` stones (colour does not matter for an ante)."""

    verb = "ante"
    black: int
    white: int

    def says(self, you: bool = False) -> str:
        """``antes with 1 black`` (colour does not matter for an ante)."""
        return f"{'ante' if you else 'antes'} with {stones_text(self.black, self.white)}"


@dataclass(frozen=True, slots=True)
class Pass(SeatInput):
    """``seat`` passes in the open phase of a betting part."""

    verb = "pass"
    said = ("pass", "passes")


@dataclass(frozen=True, slots=True)
class Raise(SeatInput):
    """``seat`` raises with ``black`` + ``white`` stones (the part's one raise)."""

    verb = "raise"
    black: int
    white: int

    def says(self, you: bool = False) -> str:
        """``raises with 1 white (white: must reroll)``."""
        return f"{'raise' if you else 'raises'} with {stones_text(self.black, self.white, bet=True)}"


@dataclass(frozen=True, slots=True)
class Call(SeatInput):
    """``seat`` calls the part's raise with ``black`` + ``white`` stones."""

    verb = "call"
    black: int
    white: int

    def says(self, you: bool = False) -> str:
        """``calls with 1 white (white: must reroll)``."""
        return f"{'call' if you else 'calls'} with {stones_text(self.black, self.white, bet=True)}"


@dataclass(frozen=True, slots=True)
class Fold(SeatInput):
    """``seat`` folds in answer to a raise and leaves the round without revealing."""

    verb = "fold"


TaoInput = Ante | Pass | Raise | Call | Fold | Roll


def stones_text(black: int, white: int, bet: bool = False) -> str:
    """``1 black + 2 white``, noting the reroll that white stones in a ``bet`` force.

    >>> stones_text(0, 1, bet=True)
    '1 white (white: must reroll)'
    """
    parts = [f"{n} {colour}" for n, colour in ((black, "black"), (white, "white")) if n]
    text = " + ".join(parts) or "no stones"
    return f"{text} (white: must reroll)" if white and bet else text


# --- options -------------------------------------------------------------------------------------

class Length(Enum):
    """How long a game lasts (RULES.md: game length option)."""

    TOKEN = "token"
    SINGLE = "single"
    FIRST_TO = "first-to"


@dataclass(frozen=True)
class TaoOptions:
    """The rule options of one Tao Dice game; ``text()`` and :func:`parse_options` round-trip."""

    black: int = 4
    white: int = 2
    start_seat: int = 0
    length: Length = Length.TOKEN
    first_to: int = 2
    bid_multiplier: bool = True

    def text(self) -> dict[str, str]:
        """The options as a history header writes them."""
        length = f"first-to-{self.first_to}" if self.length is Length.FIRST_TO else self.length.value
        return {"black": str(self.black), "white": str(self.white),
                "start_seat": str(self.start_seat), "length": length,
                "bid_multiplier": "on" if self.bid_multiplier else "off"}


def parse_options(seats: int, options: Mapping[str, str]) -> TaoOptions:
    """Read text options (``black``, ``white``, ``start_seat``, ``length``, ``bid_multiplier``).

    :raises InvalidInput: naming an unknown option or a bad value.
    """
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidInput(f"Tao Dice is for {MIN_SEATS} to {MAX_SEATS} players, not {seats}")
    unknown = sorted(set(options) - set(TaoOptions().text()))
    if unknown:
        raise InvalidInput(f"unknown Tao Dice option {unknown[0]!r} "
                           f"(known: {', '.join(TaoOptions().text())})")
    black = _count_option(options, "black", 4)
    white = _count_option(options, "white", 2)
    if black + white < 1:
        raise InvalidInput("black and white stones per player cannot both be 0")
    start = _count_option(options, "start_seat", 0)
    if start >= seats:
        raise InvalidInput(f"start_seat={start} is not a seat (seats 0-{seats - 1})")
    length, first_to = _length_option(options.get("length", "token"))
    return TaoOptions(black, white, start, length, first_to,
                      _switch_option(options.get("bid_multiplier", "on")))


MOST_STONES = 1000
"""Most stones of a colour a player may start with, and most matches a game may be played to: far
more than any table holds, and few enough for the record (SQLite keeps 64-bit numbers)."""


def _count_option(options: Mapping[str, str], key: str, default: int) -> int:
    text = options.get(key, str(default)).strip()
    if not text.isdigit() or int(text) > MOST_STONES:
        raise InvalidInput(f"option {key}={text!r} must be a whole number from 0 to {MOST_STONES}")
    return int(text)


def _length_option(text: str) -> tuple[Length, int]:
    word = text.strip().lower()
    if word in ("token", "single"):
        return Length(word), 2
    prefix, _, count = word.rpartition("-")
    if prefix == "first-to" and count.isdigit() and 1 <= int(count) <= MOST_STONES:
        return Length.FIRST_TO, int(count)
    raise InvalidInput(f"option length={text!r} must be token, single or first-to-N "
                       f"(N from 1 to {MOST_STONES})")


def _switch_option(text: str) -> bool:
    word = text.strip().lower()
    if word not in ("on", "off"):
        raise InvalidInput(f"option bid_multiplier={text!r} must be on or off")
    return word == "on"


# --- the engine ----------------------------------------------------------------------------------

class Phase(Enum):
    """Where a round is; the dice phases wait for rolls, the others for players."""

    ANTE = "ante"
    ROLL_D6 = "roll-d6"
    BET_ONE = "part-one"
    REROLL_D6 = "reroll-d6"
    ROLL_D12 = "roll-d12"
    BET_TWO = "part-two"
    REROLL_D12 = "reroll-d12"
    REVEAL = "reveal"  # sealed 2d6 asked for their faces before the showdown
    OVER = "over"


_NEXT_PHASE = {Phase.ROLL_D6: Phase.BET_ONE, Phase.BET_ONE: Phase.REROLL_D6,
               Phase.REROLL_D6: Phase.ROLL_D12, Phase.ROLL_D12: Phase.BET_TWO,
               Phase.BET_TWO: Phase.REROLL_D12}
_DICE_PHASES = {Phase.ROLL_D6: DieKind.D6, Phase.REROLL_D6: DieKind.D6,
                Phase.ROLL_D12: DieKind.D12, Phase.REROLL_D12: DieKind.D12,
                Phase.REVEAL: DieKind.D6}
_DICE_COUNT = {DieKind.D6: 2, DieKind.D12: 1}
_REASONS = {Phase.ROLL_D6: "hidden roll", Phase.REROLL_D6: "white stone reroll",
            Phase.ROLL_D12: "d12 into the centre", Phase.REROLL_D12: "white stone reroll",
            Phase.REVEAL: REVEAL}


class TaoDice(Engine):
    """One Tao Dice game (several matches) for ``seats`` players; see the module docstring."""

    name = "tao"
    title = "Tao Dice"
    HANDLERS = {Ante: ("_verify_ante", "_act_ante"), Pass: ("_verify_pass", "_act_pass"),
                Raise: ("_verify_raise", "_act_raise"), Call: ("_verify_call", "_act_call"),
                Fold: ("_verify_fold", "_act_fold"), Roll: ("_verify_roll", "_act_roll")}

    def __init__(self, seats: int, options: TaoOptions | None = None) -> None:
        super().__init__(seats)
        self.options = options or TaoOptions()
        self.black = [self.options.black] * seats
        self.white = [self.options.white] * seats
        self.pot_black = 0
        self.pot_white = 0
        self.status = [SeatStatus.ACTIVE] * seats
        self.d6: list[tuple[int, int] | None] = [None] * seats  # None: not rolled, or sealed
        self.sealed = [False] * seats  # the 2d6 were rolled out of sight; the reveal reads them
        self.revealed = [False] * seats  # the 2d6 are shown to the room (reveal before a showdown)
        self.d12: list[int | None] = [None] * seats
        self.phase = Phase.ANTE
        self.matches_won = [0] * seats
        self.match = 1
        self.round = 1
        self.rounds_played = 0
        self.token_holder: int | None = None
        self.token_gold = False
        self.winner: int | None = None
        self.multiplier = 1
        self.tiebreak = False
        self.last_round: dict[str, Any] | None = None
        self._orders = [[(start + i) % seats for i in range(seats)] for start in range(seats)]
        self._waiting: list[int] = []  # seats that must ante / roll / pass / respond, in order
        self._raiser: int | None = None
        self._responded: set[int] = set()
        self._rerolls = [False] * seats
        self._pending: Pending | None = None
        self._start_round(None)

    # --- the Game protocol ---------------------------------------------------------------------

    @property
    def hands_played(self) -> int:
        """Rounds completed, tiebreak rounds included."""
        return self.rounds_played

    def options_text(self) -> dict[str, str]:
        """The rule options for a history header."""
        return self.options.text()

    def pending(self) -> Pending:
        """What the game waits for: antes, dice, a pass from ``prompt`` or responses to a raise."""
        if self._pending is None:
            self._pending = self._compute_pending()
        return self._pending

    def apply(self, inp: Input) -> Input:
        """Verify ``inp``, act on it and return the record appended to :attr:`inputs`."""
        super().apply(inp)
        self._pending = None
        return inp

    def legal_inputs(self, seat: int) -> list[Input]:
        """The actions ``seat`` may take now, every colour mix included (dice: see ``pending``)."""
        if not 0 <= seat < self._seats or seat not in self._actors():
            return []
        if self.phase is Phase.ANTE:
            return [Ante(seat, b, w) for b, w in self._mixes(seat)]
        if self._raiser is not None:
            calls: list[Input] = [Call(seat, b, w) for b, w in self._mixes(seat)]
            return calls + [Fold(seat)]
        raises: list[Input] = [Raise(seat, b, w) for b, w in self._mixes(seat)]
        return ([Pass(seat)] + raises) if self._waiting[0] == seat else raises

    def parse_input(self, line: str) -> Input:
        """Parse one history line into a record (see :func:`parse_input`)."""
        return parse_input(line)

    def public_view(self) -> dict[str, Any]:
        """What the room may see; hidden 2d6 appear only in ``last_round`` after a showdown."""
        return _public_view(self)

    def view(self, names: Sequence[str] | None = None) -> TableView:
        """What the room sees, typed (see :func:`_table_view`)."""
        return _table_view(self, self.seat_names(names))

    def _fresh(self) -> TaoDice:
        return TaoDice(self._seats, self.options)

    def _own_view(self, seat: int) -> dict[str, Any]:
        """``seat``'s own hidden 2d6 (``my_d6``), for :meth:`seat_view`."""
        dice = self.d6[seat]
        return {"me": seat, "my_d6": list(dice) if dice is not None else None}

    def chips_total(self) -> int:
        """Stones in stacks and the pot."""
        return sum(self.black) + sum(self.white) + self.pot_black + self.pot_white

    def chips_expected(self) -> int:
        """Stones dealt: each seat's black and white stones."""
        return self._seats * (self.options.black + self.options.white)

    def final(self) -> dict[str, Any]:
        """Stacks, matches won, the token and the winner: what simulate and replay print."""
        return {"game": self.name, "seats": self._seats, "rounds": self.rounds_played,
                "match": self.match, "matches_won": list(self.matches_won),
                "stacks": [b + w for b, w in zip(self.black, self.white)],
                "black": list(self.black), "white": list(self.white),
                "pot": self.pot_black + self.pot_white, "token": self._token_view(),
                "winner": self.winner, "over": self.phase is Phase.OVER}

    # --- per-kind verify / can / act -------------------------------------------------------------

    def verify_ante(self, seat: int, black: int, white: int) -> None:
        """Raise unless ``seat`` may ante ``black`` + ``white`` stones now."""
        self.verify(Ante(seat, black, white))

    def can_ante(self, seat: int, black: int, white: int) -> bool:
        """Whether ``seat`` may ante these stones now."""
        return self.can(Ante(seat, black, white))

    def ante(self, seat: int, black: int, white: int) -> Ante:
        """``seat`` antes ``black`` + ``white`` stones."""
        return self._do(Ante(seat, black, white))

    def verify_pass(self, seat: int) -> None:
        """Raise unless it is ``seat``'s turn to pass."""
        self.verify(Pass(seat))

    def can_pass(self, seat: int) -> bool:
        """Whether ``seat`` may pass now."""
        return self.can(Pass(seat))

    def pass_(self, seat: int) -> Pass:
        """``seat`` passes."""
        return self._do(Pass(seat))

    def verify_raise(self, seat: int, black: int, white: int) -> None:
        """Raise unless ``seat`` may raise with these stones now."""
        self.verify(Raise(seat, black, white))

    def can_raise(self, seat: int, black: int, white: int) -> bool:
        """Whether ``seat`` may raise with these stones now."""
        return self.can(Raise(seat, black, white))

    def raise_(self, seat: int, black: int, white: int) -> Raise:
        """``seat`` raises with ``black`` + ``white`` stones."""
        return self._do(Raise(seat, black, white))

    def verify_call(self, seat: int, black: int, white: int) -> None:
        """Raise unless ``seat`` may call with these stones now."""
        self.verify(Call(seat, black, white))

    def can_call(self, seat: int, black: int, white: int) -> bool:
        """Whether ``seat`` may call with these stones now."""
        return self.can(Call(seat, black, white))

    def call(self, seat: int, black: int, white: int) -> Call:
        """``seat`` calls the raise with ``black`` + ``white`` stones."""
        return self._do(Call(seat, black, white))

    def verify_fold(self, seat: int) -> None:
        """Raise unless ``seat`` may fold now (only in answer to a raise)."""
        self.verify(Fold(seat))

    def can_fold(self, seat: int) -> bool:
        """Whether ``seat`` may fold now."""
        return self.can(Fold(seat))

    def fold(self, seat: int) -> Fold:
        """``seat`` folds."""
        return self._do(Fold(seat))

    # --- verification ----------------------------------------------------------------------------

    def _handler(self, inp: Input) -> tuple[Handler, Handler]:
        pair = super()._handler(inp)
        if self.phase is Phase.OVER:
            raise IllegalAction(f"the game is over: seat {self.winner} won it")
        return pair

    def _check_seat(self, seat: int | None, verb: str) -> int:
        seat = self._seat_at_table(seat, verb)
        status = self.status[seat]
        if status is not SeatStatus.ACTIVE:
            raise IllegalAction(f"Seat {seat} cannot {verb}: {_STATUS_WORDS[status]}")
        return seat

    def _verify_ante(self, inp: Ante) -> None:
        seat = self._check_seat(inp.seat, "ante")
        if self.phase is not Phase.ANTE:
            raise IllegalAction(f"Seat {seat} cannot ante now: {self._waiting_for()}")
        if seat not in self._waiting:
            raise IllegalAction(f"Seat {seat} cannot ante: they already anted this round")
        self._verify_stones(seat, inp.black, inp.white, "ante")

    def _verify_pass(self, inp: Pass) -> None:
        seat = self._check_bettor(inp.seat, "pass")
        if seat not in self._waiting:
            raise IllegalAction(f"Seat {seat} cannot pass: they already passed in this part")
        if self._waiting[0] != seat:
            raise IllegalAction(f"Seat {seat} cannot pass yet: it is seat {self._waiting[0]}'s "
                                f"turn to pass (passing goes clockwise; raising may come any time)")

    def _verify_raise(self, inp: Raise) -> None:
        seat = self._check_bettor(inp.seat, "raise")
        if seat not in self._waiting:
            if self.black[seat] + self.white[seat] == 0:
                raise IllegalAction(f"Seat {seat} cannot raise: they hold no stones (Gratis rule)")
            raise IllegalAction(f"Seat {seat} cannot raise: they already passed in this part")
        self._verify_stones(seat, inp.black, inp.white, "raise")

    def _check_bettor(self, seat: int, verb: str) -> int:
        self._check_seat(seat, verb)
        if self.phase not in (Phase.BET_ONE, Phase.BET_TWO):
            raise IllegalAction(f"Seat {seat} cannot {verb} now: {self._waiting_for()}")
        if self._raiser is not None:
            raise IllegalAction(f"Seat {seat} cannot {verb}: seat {self._raiser} already raised "
                                f"in this part (only one raise per part); call or fold")
        return seat

    def _verify_response(self, seat: int, verb: str) -> None:
        self._check_seat(seat, verb)
        if self.phase not in (Phase.BET_ONE, Phase.BET_TWO):
            raise IllegalAction(f"Seat {seat} cannot {verb} now: {self._waiting_for()}")
        if self._raiser is None:
            raise IllegalAction(f"Seat {seat} cannot {verb}: nobody has raised in this part")
        if seat == self._raiser:
            raise IllegalAction(f"Seat {seat} cannot {verb}: they made this part's raise")
        if seat not in self._waiting:
            if self.black[seat] + self.white[seat] == 0 and seat not in self._responded:
                raise IllegalAction(f"Seat {seat} cannot {verb}: they hold no stones and stay in "
                                    f"without calling (Gratis rule)")
            raise IllegalAction(f"Seat {seat} cannot {verb}: they already answered this raise")

    def _verify_call(self, inp: Call) -> None:
        self._verify_response(inp.seat, "call")
        self._verify_stones(inp.seat, inp.black, inp.white, "call")

    def _verify_fold(self, inp: Fold) -> None:
        self._verify_response(inp.seat, "fold")

    def _verify_stones(self, seat: int, black: int, white: int, verb: str) -> None:
        held = self.black[seat] + self.white[seat]
        due = min(self.multiplier, held)
        if black < 0 or white < 0 or black + white != due:
            why = (f"they hold only {held}, so all {due} (Gratis rule)" if held < self.multiplier
                   else f"the bid is {self.multiplier}")
            raise IllegalAction(f"Seat {seat} cannot {verb} with {black} black and {white} white: "
                                f"it takes exactly {due} stone{'s' * (due != 1)} ({why})")
        if black > self.black[seat] or white > self.white[seat]:
            raise IllegalAction(f"Seat {seat} cannot {verb} with {black} black and {white} white: "
                                f"they hold {self.black[seat]} black and {self.white[seat]} white")

    def _verify_roll(self, inp: Roll) -> None:
        kind = _DICE_PHASES.get(self.phase)
        if kind is None or inp.seat not in self._waiting:
            raise IllegalAction(f"the table does not need seat {inp.seat}'s dice now: "
                                f"{self._why_not_revealing(inp.seat)}{self._waiting_for()}")
        if inp.kind is not kind or len(inp.faces) != _DICE_COUNT[kind]:
            verb = "reveal" if self.phase is Phase.REVEAL else "roll"
            raise IllegalAction(f"seat {inp.seat} must {verb} {_DICE_COUNT[kind]}{kind.value}, "
                                f"not {len(inp.faces)}{inp.kind.value}")
        reveal = self.phase is Phase.REVEAL
        what = "the reveal" if reveal else _REASONS[self.phase]
        self._verify_faces(inp, kind, sealable=kind is DieKind.D6 and not reveal,
                           why=lambda: f"seat {inp.seat}'s {kind.value} ({what})")

    def _why_not_revealing(self, seat: int | None) -> str:
        """Why ``seat`` is not asked to reveal, when the table waits for reveals."""
        if self.phase is not Phase.REVEAL or seat is None or not 0 <= seat < self._seats:
            return ""
        if self.status[seat] is not SeatStatus.ACTIVE:
            return f"{_STATUS_WORDS[self.status[seat]]} and never reveal; "
        if self.revealed[seat]:
            return "their dice are shown already; "
        return ""

    def _waiting_for(self, names: Sequence[str] | None = None) -> str:
        """What the table waits for, naming the seats by ``names`` (by number without)."""
        who = seat_words(self._waiting, names)
        if self.phase is Phase.OVER:
            return "the game is over" if self.winner is None else f"{seat_words([self.winner], names)} won the game"
        if self.phase is Phase.ANTE:
            return f"the table waits for antes from {who}"
        if self.phase in _DICE_PHASES:
            return f"the table waits for dice ({_REASONS[self.phase]}) from {who}"
        if self._raiser is None:
            return f"the table waits for {seat_words(self._waiting[:1], names)} to pass or anyone to raise"
        return f"the table waits for {who} to call or fold"

    # --- acts ------------------------------------------------------------------------------------

    def _act_ante(self, inp: Ante) -> None:
        self._pay(inp.seat, inp.black, inp.white)
        self._waiting.remove(inp.seat)
        if not self._waiting:
            self._enter(Phase.ROLL_D6)

    def _act_pass(self, inp: Pass) -> None:
        del self._waiting[0]
        if not self._waiting:
            self._end_part()

    def _act_raise(self, inp: Raise) -> None:
        seat = inp.seat
        self._pay(seat, inp.black, inp.white)
        self._rerolls[seat] = inp.white > 0
        self._raiser = seat
        self._responded = set()
        self._waiting = [s for s in self._orders[(seat + 1) % self._seats]
                         if s != seat and self.status[s] is SeatStatus.ACTIVE
                         and self.black[s] + self.white[s] > 0]
        if not self._waiting:
            self._end_part()

    def _act_call(self, inp: Call) -> None:
        self._pay(inp.seat, inp.black, inp.white)
        self._rerolls[inp.seat] = inp.white > 0
        self._answered(inp.seat)

    def _act_fold(self, inp: Fold) -> None:
        self.status[inp.seat] = SeatStatus.FOLDED
        active = [s for s in range(self._seats) if self.status[s] is SeatStatus.ACTIVE]
        if len(active) == 1:
            self._finish_round(active, folded_out=True)
        else:
            self._answered(inp.seat)

    def _answered(self, seat: int) -> None:
        self._waiting.remove(seat)
        self._responded.add(seat)
        if not self._waiting:
            self._end_part()

    def _act_roll(self, inp: Roll) -> None:
        seat = inp.seat
        assert seat is not None  # _verify_roll found it among the seats waited for
        if inp.kind is DieKind.D12:
            self.d12[seat] = int(inp.faces[0])
        elif inp.sealed:  # a sealed reroll replaces the dice: the reveal gives the final ones
            self.d6[seat], self.sealed[seat] = None, True
        else:
            self.d6[seat], self.sealed[seat] = (int(inp.faces[0]), int(inp.faces[1])), False
            self.revealed[seat] = self.phase is Phase.REVEAL
        self._rerolls[seat] = False
        self._waiting.remove(seat)
        if not self._waiting:
            self._after_dice()

    def _pay(self, seat: int, black: int, white: int) -> None:
        self.black[seat] -= black
        self.white[seat] -= white
        self.pot_black += black
        self.pot_white += white

    # --- the flow of a round ---------------------------------------------------------------------

    def _enter(self, phase: Phase) -> None:
        """Start ``phase``; phases with nobody to wait for are skipped."""
        self.phase = phase
        active = [s for s in self._orders[self._start_seat()]
                  if self.status[s] is SeatStatus.ACTIVE]
        if phase in (Phase.ROLL_D6, Phase.ROLL_D12):
            self._waiting = active
        elif phase in (Phase.REROLL_D6, Phase.REROLL_D12):
            self._waiting = [s for s in active if self._rerolls[s]]
        else:  # a betting part: the open phase, passing clockwise from the token holder
            self._raiser = None
            self._rerolls = [False] * self._seats
            self._waiting = [s for s in active if self.black[s] + self.white[s] > 0]
        if self._waiting:
            return
        if phase in (Phase.BET_ONE, Phase.BET_TWO):
            self._end_part()
        else:
            self._after_dice()

    def _after_dice(self) -> None:
        if self.phase is Phase.REROLL_D12:
            self._reveal()
        elif self.phase is Phase.REVEAL:
            self._showdown()
        else:
            self._enter(_NEXT_PHASE[self.phase])

    def _reveal(self) -> None:
        """Before the showdown: every active seat's 2d6 are shown; sealed ones are asked for,
        clockwise from the seat that starts the passing."""
        active = [s for s in self._orders[self._start_seat()]
                  if self.status[s] is SeatStatus.ACTIVE]
        self._waiting = [s for s in active if self.sealed[s]]
        if not self._waiting:
            self._showdown()
            return
        self.phase = Phase.REVEAL
        for seat in active:
            self.revealed[seat] = not self.sealed[seat]

    def _end_part(self) -> None:
        self._raiser = None
        self._enter(_NEXT_PHASE[self.phase])

    def _start_seat(self) -> int:
        return self.options.start_seat if self.token_holder is None else self.token_holder

    def _showdown(self) -> None:
        active = [s for s in range(self._seats) if self.status[s] is SeatStatus.ACTIVE]
        scores = {s: sum(self._d6(s)) + self._d12(s) for s in active}
        best = max(scores.values())
        self._finish_round([s for s in active if scores[s] == best], folded_out=False,
                           reveal=[{"seat": s, "d6": list(self._d6(s)), "d12": self._d12(s),
                                    "score": scores[s]} for s in active])

    def _d6(self, seat: int) -> tuple[int, int]:
        dice = self.d6[seat]
        assert dice is not None  # every active seat rolled before the showdown
        return dice

    def _d12(self, seat: int) -> int:
        die = self.d12[seat]
        assert die is not None
        return die

    def _finish_round(self, best: list[int], folded_out: bool,
                      reveal: list[dict[str, Any]] | None = None) -> None:
        pot = self.pot_black + self.pot_white
        self.last_round = {"match": self.match, "round": self.round, "tiebreak": self.tiebreak,
                           "pot": pot, "winners": best, "folded_out": folded_out,
                           "reveal": reveal or [], "number": self.rounds_played + 1,
                           "pot_black": self.pot_black, "pot_white": self.pot_white}
        if len(best) == 1:
            self._award(best[0])
        self.last_round["stones"] = [[self.black[s], self.white[s]] for s in range(self._seats)]
        self.rounds_played += 1
        self.round += 1
        tied = best if len(best) > 1 else None
        for seat in range(self._seats):
            if self.black[seat] + self.white[seat] == 0 and (tied is None or seat not in tied):
                self.status[seat] = SeatStatus.OUT
        holders = [s for s in range(self._seats) if self.black[s] + self.white[s] > 0]
        if tied is None and len(holders) == 1:
            self._end_match(holders[0])
        else:
            self._start_round(tied)

    def _award(self, seat: int) -> None:
        self.black[seat] += self.pot_black
        self.white[seat] += self.pot_white
        self.pot_black = self.pot_white = 0

    def _start_round(self, tied: list[int] | None) -> None:
        """A new round: everyone with stones antes, or only the tied play on the carried pot."""
        out = sum(status is SeatStatus.OUT for status in self.status)
        if self.options.bid_multiplier and self._seats >= 4:
            self.multiplier = 1 + out // 2
        self.tiebreak = tied is not None
        for seat in range(self._seats):
            if self.status[seat] is not SeatStatus.OUT:
                in_round = tied is None or seat in tied
                self.status[seat] = SeatStatus.ACTIVE if in_round else SeatStatus.SITTING_OUT
            self.d6[seat] = self.d12[seat] = None
            self.sealed[seat] = self.revealed[seat] = False
        self._rerolls = [False] * self._seats
        self._raiser = None
        if tied is None:
            self.phase = Phase.ANTE
            self._waiting = [s for s in self._orders[self._start_seat()]
                             if self.status[s] is SeatStatus.ACTIVE]
        else:
            self._enter(Phase.ROLL_D6)

    def _end_match(self, winner: int) -> None:
        self.matches_won[winner] += 1
        self._move_token(winner)
        if self.winner is None and self.options.length is Length.SINGLE:
            self.winner = winner
        if self.winner is None and self.options.length is Length.FIRST_TO \
                and self.matches_won[winner] >= self.options.first_to:
            self.winner = winner
        if self.winner is not None:
            self.phase = Phase.OVER
            self._waiting = []
            return
        self.match += 1
        self.round = 1
        self.black = [self.options.black] * self._seats
        self.white = [self.options.white] * self._seats
        self.status = [SeatStatus.ACTIVE] * self._seats
        self._start_round(None)

    def _move_token(self, winner: int) -> None:
        """Token rules: 2 players take it then win; 3+ take it silver, turn it gold, then win."""
        if self.token_holder != winner:
            self.token_holder, self.token_gold = winner, False
        elif self._seats >= 3 and not self.token_gold:
            self.token_gold = True
        elif self.options.length is Length.TOKEN:
            self.winner = winner

    # --- what the table may see ------------------------------------------------------------------

    def _compute_pending(self) -> Pending:
        if self.phase is Phase.OVER:
            return Pending(over=True, note=self._waiting_for())
        waiting = tuple(self._waiting)
        if self.phase in _DICE_PHASES:
            kind = _DICE_PHASES[self.phase]
            hidden = kind is DieKind.D6
            dice = tuple(DiceNeeded(s, kind, _DICE_COUNT[kind], hidden, _REASONS[self.phase])
                         for s in waiting)
            return Pending(prompt=waiting[0], dice=dice, note=self._waiting_for())
        return Pending(actors=self._actors(), prompt=waiting[0], note=self._waiting_for())

    def _actors(self) -> tuple[int, ...]:
        if self.phase in _DICE_PHASES or self.phase is Phase.OVER:
            return ()
        return tuple(self._waiting)

    def _mixes(self, seat: int) -> list[tuple[int, int]]:
        """Every (black, white) a seat may put in now: all its stones if fewer than the bid."""
        black, white = self.black[seat], self.white[seat]
        due = min(self.multiplier, black + white)
        return [(b, due - b) for b in range(min(due, black), max(0, due - white) - 1, -1)]

    def _token_view(self) -> dict[str, Any]:
        side = None if self.token_holder is None else ("gold" if self.token_gold else "silver")
        return {"holder": self.token_holder, "side": side}


_STATUS_WORDS = {SeatStatus.FOLDED: "they folded this round",
                 SeatStatus.SITTING_OUT: "they sit out this tiebreak round",
                 SeatStatus.OUT: "they are out of this match (no stones)",
                 SeatStatus.ACTIVE: "they are active"}


def _public_view(game: TaoDice) -> dict[str, Any]:
    """The one function that builds what the room sees.

    Hidden 2d6 enter only through ``last_round["reveal"]``, which the showdown fills with the seats
    that reached it; folded seats' dice (2d6 and d12) are never included.
    """
    players = []
    for seat in range(game.seats):
        active = game.status[seat] is SeatStatus.ACTIVE
        players.append({"seat": seat, "status": game.status[seat].value,
                        "black": game.black[seat], "white": game.white[seat],
                        "rolled": (game.d6[seat] is not None or game.sealed[seat]) and active,
                        "d12": game.d12[seat] if active else None,
                        "reroll_due": game._rerolls[seat] and active})
    betting = game.phase in (Phase.BET_ONE, Phase.BET_TWO)
    return {"game": game.name, "seats": game.seats, "match": game.match, "round": game.round,
            "tiebreak": game.tiebreak, "phase": game.phase.value, "multiplier": game.multiplier,
            "pot": {"black": game.pot_black, "white": game.pot_white},
            "raiser": game._raiser if betting else None, "waiting": list(game._waiting),
            "players": players, "token": game._token_view(),
            "matches_won": list(game.matches_won), "winner": game.winner,
            "last_round": game.last_round, "rounds_played": game.rounds_played}


def _table_view(game: TaoDice, names: list[str]) -> TableView:
    """The one function that turns a Tao Dice game into what the room sees.

    A seat's 2d6 appear only once rolled, as two faceless dice, until they are shown at the
    reveal; a seat that is not active (folded, sitting out, out) shows no dice at all, not even
    its d12. The last round's shown dice come from ``last_round``, which only the showdown fills.
    """
    betting = game.phase in (Phase.BET_ONE, Phase.BET_TWO)
    seats = tuple(SeatView(seat, names[seat], game.status[seat],
                           (Holding("black", game.black[seat]), Holding("white", game.white[seat])),
                           dice=_seat_dice(game, seat), marks=_seat_marks(game, seat, betting))
                  for seat in range(game.seats))
    active = tuple(s for s in range(game.seats) if game.status[s] is SeatStatus.ACTIVE)
    pot = PotView("pot", (Holding("black", game.pot_black), Holding("white", game.pot_white)),
                  active)
    pending = game.pending()
    return TableView(game.name, game.title, game.rounds_played + 1, game.phase.value, seats,
                     pots=(pot,), awaited=Awaited(pending.actors, pending.prompt, pending.dice,
                                                  game._waiting_for(names)),
                     result=_round_result(game.last_round, names), facts=_facts(game, names),
                     over=game.phase is Phase.OVER, winner=game.winner)


def _seat_dice(game: TaoDice, seat: int) -> tuple[DieView, ...]:
    if game.status[seat] is not SeatStatus.ACTIVE:
        return ()
    reroll = game._rerolls[seat]
    dice: list[DieView] = []
    d6 = game.d6[seat]
    if d6 is not None or game.sealed[seat]:
        shown = d6 if d6 is not None and game.revealed[seat] else (None, None)
        state = "reroll-due" if reroll and game.phase in (Phase.BET_ONE, Phase.REROLL_D6) else ""
        dice += [DieView(DieKind.D6, None if face is None else str(face), state) for face in shown]
    d12 = game.d12[seat]
    if d12 is not None:
        dice.append(DieView(DieKind.D12, str(d12), "reroll-due" if reroll else ""))
    return tuple(dice)


def _seat_marks(game: TaoDice, seat: int, betting: bool) -> tuple[str, ...]:
    marks = []
    if game.token_holder == seat:
        marks.append(f"token {'gold' if game.token_gold else 'silver'}")
    if betting and game._raiser == seat:
        marks.append("raised")
    if game._rerolls[seat] and game.status[seat] is SeatStatus.ACTIVE:
        marks.append("reroll due")
    return tuple(marks)


def _round_result(last: dict[str, Any] | None, names: list[str]) -> Result | None:
    """The last round as the room saw it end: the revealed dice with their scores, and the pot."""
    if last is None:
        return None
    winners = tuple(last["winners"])
    won = (Holding("black", last["pot_black"]), Holding("white", last["pot_white"]))
    shown = tuple(Shown(row["seat"], (DieView(DieKind.D6, str(row["d6"][0])),
                                      DieView(DieKind.D6, str(row["d6"][1])),
                                      DieView(DieKind.D12, str(row["d12"]))),
                        f"score {row['score']} ({row['d6'][0]}+{row['d6'][1]}, d12 {row['d12']})",
                        won if winners == (row["seat"],) else ())
                  for row in last["reveal"])
    stones = f"{last['pot']} stone{'s' * (last['pot'] != 1)}"
    if len(winners) > 1:
        text = (f"{and_list([names[s] for s in winners])} tie: they play a tiebreak "
                f"for the {stones}")
    elif last["folded_out"]:
        text = f"{names[winners[0]]} wins {stones}: everyone else folded"
        shown = (Shown(winners[0], (), "everyone else folded", won),)
    else:
        best = next(row for row in last["reveal"] if row["seat"] == winners[0])
        text = f"{names[winners[0]]} wins {stones} with score {best['score']}"
    return Result(last["number"], winners, shown, text, _round_headline(winners, names))


def _round_headline(winners: tuple[int, ...], names: list[str]) -> str:
    """``Ana wins``; tied seats play a tiebreak for the pot, so they ``tie``, never split."""
    said = and_list([names[s] for s in winners])
    return f"{said} tie" if len(winners) > 1 else f"{said} wins"


def _facts(game: TaoDice, names: list[str]) -> tuple[Fact, ...]:
    holder = game.token_holder
    token = "nobody" if holder is None else \
        f"{names[holder]}, {'gold' if game.token_gold else 'silver'}"
    facts = [Fact("Match", str(game.match)), Fact("Round", str(game.round))]
    if game.tiebreak:
        facts.append(Fact("Tiebreak", "yes"))
    facts += [Fact("Bid", f"{game.multiplier} stone{'s' * (game.multiplier != 1)}"),
              Fact("Token", token),
              Fact("Matches won", ", ".join(f"{names[s]} {n}"
                                            for s, n in enumerate(game.matches_won)))]
    return tuple(facts)


RECORDS = (Ante, Pass, Raise, Call, Fold)  # the actions; dice come as Roll


def parse_input(line: str) -> SeatInput | Roll:
    """Read one Tao Dice history line.

    >>> parse_input("raise 3 black=0 white=1")
    Raise(seat=3, black=0, white=1)

    :raises InvalidInput: quoting the line and saying what was expected.
    """
    return parse_record(line, RECORDS, game="Tao Dice")


def create(seats: int, options: dict[str, str]) -> TaoDice:
    """Build a Tao Dice game from the text options of the command line or a history header.

    :raises InvalidInput: naming an unknown option or a bad value.
    """
    return TaoDice(seats, parse_options(seats, options))
