"""The simulated people at a simulated table: players who press buttons and place stones, roll
dice into the tray or into their tubes, and a dealer who answers the table's questions.

Everything they do goes through the simulated devices, so the table code is the real one: a bot
chooses its input, the game's controls say which stones to lay on the bet spot and which buttons
to press, and the table reads them back from the simulated panel and RFID readers; thrown dice
are rendered by the simulated camera and read by the real reader. Nothing here writes to the
table except the dealer, through the console's own calls.

Deterministic for a seed, including across restarts: every die thrown and every bot decision is
drawn from a random source keyed by the seed, the game number and the input's position, never
from a stream whose state a crash would lose. So a run killed and resumed on the same record
ends exactly as an uninterrupted one.
"""

from __future__ import annotations

from collections import Counter
import random
from dataclasses import dataclass
from typing import Any, Callable, Collection, Sequence

from controller.bots import bot_factory
from controller.games.base import DiceNeeded, Game, Input
from controller.games.dice import DieKind
from controller.games.errors import DiceTableError
from controller.games.registry import create_game
from controller.games.rolls import Roll
from controller.table.camera import COCKED, DOUBTED, UNSEEN
from controller.table.ledger import Played
from controller.table.records import ReplaceDice, TableStatus
from controller.table.table import SEALED, Table

DEALER = "dealer (simulated)"

MISREAD = "the camera misread a die"
"""Why the simulated dealer replaces the dice of a roll the camera took (the record's ``why``)."""

AGAIN = "/again"
"""What a throw's render key gains when the players throw the dice again (or lay a revealed die
flat) because the table said one lies cocked: the same dice thrown again on the same tray, which
may land cocked again (a revealed die laid flat by hand lies flat: ``controller.table.build.by_hand``)."""

SETTLE_TRIES = 5
"""How often the players settle a cocked die for one roll before the simulated dealer enters the
faces instead: a die the camera keeps seeing cocked, which real players would stop throwing and
call the dealer for. Real players throw a die again however often it lands cocked, so chance
alone must almost never reach it: a throw lands cocked in one of ``build.COCKED_THROWS`` (1/30),
and the camera looks at each throw made again, the last too, so the dealer enters a die only
after six throws in a row land cocked, once in 729 million rolls. At 3 (and the last throw not
looked at) a d12 thrown cocked three times running went to the dealer in one of the 240 games of
``bench/table.py --camera-games 40`` (Tao Dice, 4 players, seed 40), though the camera had read
it cocked each time."""

MOVED = "/moved"
"""What a throw's render key gains when the players move the dice a little, the same faces up,
because the camera doubted one (``controller.table.camera.DOUBTED``) or did not see them all
(``UNSEEN``): the same dice on the same tray, each turned and slid a little
(``SimCamera.roll(moved=True)``), none of them cocked (``controller.table.build.cocked_dice``)."""

MOVE_TRIES = 2
"""How often the players move a die the camera doubts, for one roll, before the simulated dealer
enters the faces instead: a die the camera doubts wherever it lies (say, its colour near the
felt's) is the dealer's, and real players would soon stop moving it and call the dealer."""

TRIES = {COCKED: (AGAIN, SETTLE_TRIES), **{code: (MOVED, MOVE_TRIES) for code in (*DOUBTED, UNSEEN)}}
"""What the players do about a question they can settle (``Question.players``), by its code: the
render key's suffix of what they do, and how often they do it for one roll."""

SETTLE_WAIT = 100
"""How many of its turns to act the simulated dealer waits, after the players settled a cocked die,
for the camera to take the tray or ask anew, before entering the faces (a camera that stopped)."""


@dataclass(frozen=True)
class Throw:
    """Dice a simulated player threw: the faces and where they lie (a tray zone)."""

    faces: tuple[str, ...]
    zone: str


class SimSeats:
    """Bots at every seat of ``table``'s simulated devices ``sim``, with a simulated dealer.

    ``bots`` names the bot of each seat (repeated round the table); ``gesture(game, input)``
    is the controls' way to express an input physically (see :meth:`act`); ``show(throw,
    key)`` puts a throw in the simulated tray, rendered from the random key ``key``, and
    ``last_throw()`` says the key of the last throw put there (kept with the tray: a resumed demo
    knows it), by which dice thrown again land on new faces (:meth:`_again`). Dice of the
    ``centre_kinds`` (each seat's own, told apart by colour: Tao Dice's d12) are thrown into the
    community zone, the others into the thrower's own zone.
    """

    def __init__(self, table: Table, seed: int, bots: Sequence[str],
                 act_out: Callable[[Game, Input], bool],
                 show: Callable[[Throw, str], None], centre_kinds: Collection[DieKind] = (),
                 last_throw: Callable[[], str | None] = lambda: None) -> None:
        self.table = table
        self._last_throw = last_throw
        self.centre_kinds = frozenset(centre_kinds)
        self.seed = seed
        self.bots = list(bots) or ["heuristic"]
        self._act_out = act_out
        self._show = show
        self._shadow: Game | None = None
        self._shadowed: list[int] = []  # record seqs the shadow game has taken, in order
        self._shown: tuple[int, DiceNeeded] | None = None  # the need last thrown for
        self._settling: int | None = None  # the question the players last settled
        self._settled: Counter[str] = Counter()  # how often the players did what (TRIES) for the need last thrown for
        self._waited = 0  # turns to act since they last did

    # -- what the people do ------------------------------------------------------------------
    def act(self) -> bool:
        """Do the next thing a person at the table would do now; True when something was done."""
        table = self.table
        ledger = table.ledger
        if ledger is None or ledger.game.pending().over:
            return False
        if table.status is TableStatus.QUESTION:
            return self._answer()
        if table.status is TableStatus.PAUSED:
            table.resume(DEALER)  # paused from the console, or stopped so: the dealer looks, goes on
            return True
        if table.status is not TableStatus.RUNNING:
            return False
        if self._fix_misread():
            return True
        pending = ledger.game.pending()
        if pending.dice:
            return self._throw(pending.dice[0])
        seat = pending.prompt if pending.prompt is not None else pending.actors[0]
        return self._act_out(ledger.game, self._choose(seat))

    def _choose(self, seat: int) -> Input:
        shadow = self.shadow()
        name = self.bots[seat % len(self.bots)]
        key = f"{self.seed}/{self.table.game_no}/{len(self._shadowed)}/bot/{seat}"
        bot = bot_factory(shadow.name, name)(seat, random.Random(key))
        return bot.choose(shadow)

    def _throw(self, need: DiceNeeded) -> bool:
        throw = self.throw_for(need)
        here = (len(self._ledger().played), need)
        if throw is None or here == self._shown:
            return False  # hidden dice: the table seals them; or already lying there
        self._show(throw, self._render_key())
        self._shown, self._settled = here, Counter()
        return True

    def _render_key(self, index: int | None = None) -> str:
        """The key the throw of the roll at ``index`` of the record (default: the next roll) is
        rendered from (``show``): its place in the game."""
        index = len(self._ledger().played) if index is None else index
        return f"{self.seed}/{self.table.game_no}/{index}/render"

    def _answer(self) -> bool:
        """Do what the open question asks: the players settle it (:data:`TRIES`), else the
        dealer enters the dice (:meth:`_lay_again` first, in a demo resumed while it asked)."""
        question = self.table.question
        need = self._need()
        if question is None or need is None:
            return False
        if self._shown != (len(self._ledger().played), need):
            return self._lay_again(question.id, need)
        suffix, tries = TRIES.get(question.code, ("", 0)) if question.players else ("", 0)
        settling = self._settled[suffix] < tries and question.id != self._settling
        thrown_again = int(settling and suffix == AGAIN)  # thrown again: new faces (not at a reveal)
        throw = self.throw_for(need, thrown_again)
        if throw is None:
            return False
        if question.id == self._settling:  # the players did as it said, the last time too
            self._waited += 1
            if self._waited < SETTLE_WAIT:
                return False  # the camera has not taken the tray yet, or asked anew
        elif settling:
            return self._settle(question.id, throw, suffix)
        self.table.answer(question.id, throw.faces, DEALER)
        return True

    def _lay_again(self, question: int, need: DiceNeeded) -> bool:
        """The dice of a demo resumed while the table asked (it asks again), laid as they lay:
        the last throw drawn again (the simulated camera comes back with an empty tray), which
        the camera reads before anyone acts, as after the players settled it. They may have
        done as asked before the stop: settling it again, the dice landed anew, and the demo
        ended otherwise than an uninterrupted one."""
        self._settling, self._waited = question, 0
        return self._throw(need)

    def _settle(self, question: int, throw: Throw, suffix: str) -> bool:
        """What the table asks of the players: for a die lying cocked the same dice thrown again
        (or laid flat), rendered from the throw's key made :data:`AGAIN`; for a die the camera
        doubts the same dice moved, made :data:`MOVED`. Once per question (the camera asks anew
        if they land cocked again, or it still doubts one)."""
        self._settling, self._waited = question, 0
        self._settled[suffix] += 1
        self._show(throw, self._render_key() + suffix)
        return True

    def _fix_misread(self) -> bool:
        """The dealer checks the last camera-read roll against the dice really thrown."""
        ledger = self._ledger()
        if not ledger.played:
            return False
        last = ledger.played[-1]
        if last.origin != "camera" or not isinstance(last.input, Roll):
            return False
        truth = self._truth(last)
        if truth is None or sorted(truth) == sorted(last.input.faces):
            return False  # the camera reads left to right: the same dice in another order
        try:
            self.table.correct(ReplaceDice(last.seq, truth, DEALER, MISREAD))
        except DiceTableError:
            return False
        return True

    # -- the dice the simulated players hold -------------------------------------------------
    def throw_for(self, need: DiceNeeded, thrown_again: int = 0) -> Throw | None:
        """The dice a need is answered with: thrown now (or lying there, thrown again as often as
        the last throw's key says, and ``thrown_again`` times more), or the seat's tube at a
        reveal."""
        centre = need.seat is None or (need.kind in self.centre_kinds and need.reason != "reveal")
        zone = "community" if centre else f"seat{need.seat}"
        if need.reason == "reveal":
            tube = self._tube(need.seat)
            return Throw(tube, zone) if tube else None
        if need.hidden:
            return None
        index = len(self._ledger().played)
        return Throw(self._faces(need, index, self._again(index) + thrown_again), zone)

    def _faces(self, need: DiceNeeded, index: int, again: int = 0) -> tuple[str, ...]:
        """The faces of the roll at ``index`` of the record, thrown ``again`` times more after a
        die landed cocked: each throw lands anew (the first as ever, so games without a throw
        made again play as before)."""
        kind = need.kind
        again_key = f"/again{again}" if again else ""
        rng = random.Random(f"{self.seed}/{self.table.game_no}/{index}/dice/{need.seat}{again_key}")
        return tuple(rng.choice(kind.faces) for _ in range(need.count))

    def _again(self, index: int) -> int:
        """How often the dice of the roll at ``index`` were thrown again after a die landed cocked
        (:data:`AGAIN` in :meth:`_chain`; 0 while the last throw is not that roll's)."""
        return (self._chain(index) or "").count(AGAIN)

    def _chain(self, index: int) -> str | None:
        """What the players did after the roll at ``index`` was first thrown, as the key of the
        last throw says it ("": nothing; "/again/moved": thrown again, then moved), or None when
        the last throw is not that roll's (another roll was thrown since, or none is known)."""
        roll = self._render_key(index)
        last = self._last_throw()
        if last is None or not (last == roll or last.startswith(roll + "/")):
            return None
        return last.removeprefix(roll)

    def _tube(self, seat: int | None) -> tuple[str, ...]:
        """The faces in ``seat``'s tube: its last sealed roll, drawn from its position."""
        for index in range(len(self._ledger().played) - 1, -1, -1):
            played = self._ledger().played[index]
            inp = played.input
            if isinstance(inp, Roll) and inp.seat == seat and SEALED in inp.faces:
                need = DiceNeeded(seat, inp.kind, len(inp.faces), True, "hidden")
                return self._faces(need, index)
        return ()

    def _truth(self, played: Played) -> tuple[str, ...] | None:
        index = self._ledger().played.index(played)
        inp = played.input
        assert isinstance(inp, Roll)
        if played.reveal:
            before = self._ledger().played[:index]
            seals = [i for i, p in enumerate(before) if isinstance(p.input, Roll)
                     and p.input.seat == inp.seat and SEALED in p.input.faces]
            if not seals:
                return None
            need = DiceNeeded(inp.seat, inp.kind, len(inp.faces), True, "hidden")
            return self._faces(need, seals[-1])
        chain = self._chain(index)
        if chain is None:
            return None  # its dice were taken up for a later roll: not the dice lying now
        need = DiceNeeded(inp.seat, inp.kind, len(inp.faces), False, "")
        return self._faces(need, index, chain.count(AGAIN))

    # -- the game as the players know it (their own hidden dice included) --------------------
    def shadow(self) -> Game:
        """The game with every sealed roll unsealed from the tubes and no reveals: what the bots
        see through ``seat_view`` (each bot looks only at its own seat)."""
        ledger = self._ledger()
        seqs = [p.seq for p in ledger.played]
        if self._shadow is None or seqs[:len(self._shadowed)] != self._shadowed:
            self._shadow = create_game(ledger.name, ledger.seats, ledger.options)
            self._shadowed = []
        for index in range(len(self._shadowed), len(ledger.played)):
            played = ledger.played[index]
            if not played.reveal:
                self._shadow.apply(self._unsealed(played, index))
            self._shadowed.append(played.seq)
        return self._shadow

    def _unsealed(self, played: Played, index: int) -> Input:
        inp = played.input
        if isinstance(inp, Roll) and SEALED in inp.faces:
            need = DiceNeeded(inp.seat, inp.kind, len(inp.faces), True, "hidden")
            return Roll(inp.seat, inp.kind, self._faces(need, index))
        return inp

    def _ledger(self) -> Any:
        ledger = self.table.ledger
        assert ledger is not None
        return ledger

    def _need(self) -> DiceNeeded | None:
        dice = self._ledger().game.pending().dice
        return dice[0] if dice else None

