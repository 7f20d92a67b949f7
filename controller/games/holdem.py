"""The dice hold'em hand both hold'em games share: blinds, private roll, flop 3, turn 1, river 1.

:class:`HoldemGame` runs hand after hand on the betting core (:mod:`controller.games.betting`):
the button moves with the dead-button rule, busted players rebuy or leave between hands, and the
game ends when one player holds every chip. The games (:mod:`controller.games.tauren`,
:mod:`controller.games.diceholdem`) are subclasses that name their dice and their hand ranking;
Standard DiceHoldem also switches on the Reroll/Protect bets (``reroll_protect``).

Private dice may be entered sealed (``roll 1 d6 ? ?``); at the showdown, or as soon as all-ins
close the betting (option ``reveal_all_in``), the engine asks every seat still in whose dice are
sealed to reveal them. What the room sees is :meth:`HoldemGame.view`, built by
:func:`_table_view` alone.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Callable, Mapping, Sequence

from controller.games.base import REVEAL, DiceNeeded, Input, Pending
from controller.games.betting import Betting, Pot, Structure, side_pots, split
from controller.games.dice import DieKind
from controller.games.engine import Engine, and_list, seat_words
from controller.games.errors import IllegalAction
from controller.games.hands import HandRules, evaluator, hand_name
from controller.games.holdem_inputs import (AllIn, Bet, Call, Check, Fold, Leave, Pass, Protect,
                                            Raise, Rebuy, Reroll, Roll, parse)
from controller.games.holdem_options import HoldemOptions
from controller.games.rolls import SEALED
from controller.games.view import (Awaited, DieView, Fact, Holding, PotView, Result, SeatStatus,
                                   SeatView, Shown, TableView)

KeyFunction = Callable[[Sequence[str]], tuple[int, ...]]
STREETS = ("preflop", "flop", "turn", "river")
NEW_DICE = (0, 3, 1, 1)  # community dice rolled at the start of each round


class Phase(Enum):
    """What the hand waits for."""

    PRIVATE = "private roll"
    BOARD = "community roll"
    BETTING = "betting"
    SIDE_BET = "reroll/protect"
    REVEAL = "reveal"
    REBUY = "rebuy"
    OVER = "over"


# -- the game -----------------------------------------------------------------------------------
class HoldemGame(Engine):
    """A table of dice hold'em, hand after hand; subclasses name the dice and the ranking."""

    name = "holdem"
    title = "Hold'em"
    HANDLERS = {
        Fold: ("_verify_fold", "_act_fold"), Check: ("_verify_check", "_act_check_or_call"),
        Call: ("_verify_call", "_act_check_or_call"), Bet: ("_verify_bet", "_act_bet"),
        Raise: ("_verify_raise", "_act_raise"), AllIn: ("_verify_all_in", "_act_all_in"),
        Reroll: ("_verify_side_bet", "_act_side_bet"),
        Protect: ("_verify_side_bet", "_act_side_bet"), Pass: ("_verify_pass", "_act_pass"),
        Rebuy: ("_verify_rebuy", "_act_rebuy"), Leave: ("_verify_rebuy", "_act_leave"),
        Roll: ("_verify_roll", "_act_roll")}
    kind = DieKind.D6
    stand_ins: Mapping[DieKind, Mapping[str, str]] = {}  # other dice accepted: face -> our face
    reroll_protect = False

    def __init__(self, seats: int, options: HoldemOptions, ranking: HandRules,
                 key: KeyFunction | None = None, extra_rounds: int = 1) -> None:
        super().__init__(seats)
        self.options = options
        self.rules = options.betting
        self.ranking = ranking  # names the hands shown; ``key`` (a test may fix it) ranks them
        self.key = key or evaluator(ranking).key
        self.extra_rounds = extra_rounds
        self.stacks = list(options.stacks)
        self.out = [False] * seats
        self.rebuys = [0] * seats
        self.decided = [True] * seats
        self._hands = 0
        self.button = options.button
        self.sb_pos = -1
        self.sb_posts = False
        self.bb = -1
        self.hand: Betting | None = None
        self.phase = Phase.OVER
        self.private: list[tuple[str, ...]] = [()] * seats  # (SEALED, SEALED): rolled unseen
        self.revealed = [False] * seats  # private dice shown to the room (showdown or all-in)
        self.board: list[str] = []
        self.round_no = 0
        self.fresh: tuple[int, ...] = ()
        self.die_bets: dict[int, tuple[str, int]] = {}
        self.need_dice = 0
        self.side_seat = -1
        self.last_hand: dict[str, Any] = {}
        self._start_hand(first=True)

    # -- the Game protocol ----------------------------------------------------------------------
    @property
    def hands_played(self) -> int:
        """Hands finished so far."""
        return self._hands

    def options_text(self) -> dict[str, str]:
        """The rule options as history-header text (round-trips through ``create``)."""
        return self.options.text()

    def pending(self) -> Pending:
        """Who acts now, or which dice the engine needs."""
        phase = self.phase
        if phase is Phase.BETTING:
            seat = self.hand.to_act if self.hand else -1
            return Pending((seat,), seat, note=f"{self._street()} betting")
        if phase is Phase.SIDE_BET:
            return Pending((self.side_seat,), self.side_seat,
                           note="reroll or protect a die, or pass")
        if phase is Phase.PRIVATE:
            return Pending(dice=tuple(DiceNeeded(seat, self.kind, 2, True, "private roll")
                                      for seat in self._unrolled()), note="private roll")
        if phase is Phase.REVEAL:
            asked = self._to_reveal()
            return Pending(prompt=asked[0], note="reveal the sealed private dice",
                           dice=tuple(DiceNeeded(seat, self.kind, 2, True, REVEAL)
                                      for seat in asked))
        if phase is Phase.BOARD:
            return Pending(dice=(DiceNeeded(None, self.kind, self.need_dice, False,
                                            self._board_reason()),), note=self._board_reason())
        if phase is Phase.REBUY:
            waiting = tuple(s for s in range(self._seats) if not self.decided[s])
            return Pending(waiting, waiting[0], note="rebuy or leave")
        return Pending(over=True, note="game over")

    def parse_input(self, line: str) -> Input:
        """Read one history line back into its record.

        :raises InvalidInput: quoting the line.
        """
        return parse(line)

    def legal_inputs(self, seat: int) -> list[Input]:
        """Legal inputs for ``seat`` now; bets at minimum, half pot, pot and all-in."""
        if self.phase is Phase.BETTING and self.hand and self.hand.to_act == seat:
            return self._legal_bets(seat, self.hand)
        if self.phase is Phase.SIDE_BET and seat == self.side_seat:
            return [Pass(seat), *self._legal_side_bets(seat)]
        if self.phase is Phase.REBUY and not self.decided[seat]:
            return [Rebuy(seat), Leave(seat)]
        return []

    def public_view(self) -> dict[str, Any]:
        """What the room may see. The ONE place that builds it: no private die ever enters it."""
        hand = self.hand
        seats = []
        for seat in range(self._seats):
            seats.append({
                "seat": seat, "stack": self.stacks[seat], "out": self.out[seat],
                "in_hand": hand is not None and not hand.folded[seat],
                "folded": hand is not None and hand.folded[seat] and not self.out[seat],
                "all_in": hand is not None and hand.allin[seat],
                "bet": hand.street[seat] if hand else 0,
                "in_pot": hand.total[seat] if hand else 0,
                "dice_rolled": len(self.private[seat]), "rebuys": self.rebuys[seat]})
        return {
            "game": self.name, "hand": self._hands + 1, "phase": self.phase.value,
            "street": self._street(),
            "button": self.button, "small_blind": self.sb_pos if self.sb_posts else None,
            "big_blind": self.bb, "board": list(self.board),
            "die_states": {str(d): {"state": k, "bet": a} for d, (k, a) in self.die_bets.items()},
            "to_act": self.pending().prompt, "current_bet": hand.current if hand else 0,
            "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in self.pots()],
            "seats": seats, "last_hand": self.last_hand, "over": self.phase is Phase.OVER}

    def view(self, names: Sequence[str] | None = None) -> TableView:
        """What the room sees, typed (see :func:`_table_view`)."""
        return _table_view(self, self.seat_names(names))

    def _own_view(self, seat: int) -> dict[str, Any]:
        """``seat``'s own private dice (``my_dice``, empty while sealed), for :meth:`seat_view`."""
        return {"seat": seat, "my_dice": [] if self._sealed(seat) else list(self.private[seat])}

    def chips_total(self) -> int:
        """Chips in stacks and in the pot now."""
        return sum(self.stacks) + (self.hand.pot_total() if self.hand else 0)

    def chips_expected(self) -> int:
        """Every chip dealt at the start plus every rebuy."""
        return sum(stack * (1 + n) for stack, n in zip(self.options.stacks, self.rebuys))

    def final(self) -> dict[str, Any]:
        """Stacks, hands played, rebuys and the winner (when one player holds every chip)."""
        alive = [s for s in range(self._seats) if self.stacks[s] > 0]
        return {"stacks": list(self.stacks), "hands_played": self._hands,
                "rebuys": list(self.rebuys), "over": self.phase is Phase.OVER,
                "winner": alive[0] if self.phase is Phase.OVER and len(alive) == 1 else None}

    def pots(self) -> list[Pot]:
        """The main pot and side pots of the hand in play (derived, never stored); the bets of
        the round in play are not in them yet."""
        return self.hand.pots() if self.hand else []

    # -- per-kind triples -----------------------------------------------------------------------
    def verify_fold(self, seat: int) -> None:
        """Raise unless ``seat`` may fold now."""
        self.verify(Fold(seat))

    def can_fold(self, seat: int) -> bool:
        """True if ``seat`` may fold now."""
        return self.can(Fold(seat))

    def fold(self, seat: int) -> Fold:
        """Fold ``seat``'s hand."""
        return self._do(Fold(seat))

    def verify_check(self, seat: int) -> None:
        """Raise unless ``seat`` may check now."""
        self.verify(Check(seat))

    def can_check(self, seat: int) -> bool:
        """True if ``seat`` may check now."""
        return self.can(Check(seat))

    def check(self, seat: int) -> Check:
        """Check."""
        return self._do(Check(seat))

    def verify_call(self, seat: int) -> None:
        """Raise unless ``seat`` may call now."""
        self.verify(Call(seat))

    def can_call(self, seat: int) -> bool:
        """True if ``seat`` may call now."""
        return self.can(Call(seat))

    def call(self, seat: int) -> Call:
        """Call the current bet."""
        return self._do(Call(seat))

    def verify_bet(self, seat: int, amount: int) -> None:
        """Raise unless ``seat`` may bet ``amount`` now."""
        self.verify(Bet(seat, amount))

    def can_bet(self, seat: int, amount: int) -> bool:
        """True if ``seat`` may bet ``amount`` now."""
        return self.can(Bet(seat, amount))

    def bet(self, seat: int, amount: int) -> Bet:
        """Open the betting with ``amount``."""
        return self._do(Bet(seat, amount))

    def verify_raise(self, seat: int, to: int) -> None:
        """Raise unless ``seat`` may raise to ``to`` now."""
        self.verify(Raise(seat, to))

    def can_raise(self, seat: int, to: int) -> bool:
        """True if ``seat`` may raise to ``to`` now."""
        return self.can(Raise(seat, to))

    def raise_(self, seat: int, to: int) -> Raise:
        """Raise to a round total of ``to``."""
        return self._do(Raise(seat, to))

    def verify_all_in(self, seat: int) -> None:
        """Raise unless ``seat`` may go all-in now."""
        self.verify(AllIn(seat))

    def can_all_in(self, seat: int) -> bool:
        """True if ``seat`` may go all-in now."""
        return self.can(AllIn(seat))

    def all_in(self, seat: int) -> AllIn:
        """Put every chip in."""
        return self._do(AllIn(seat))

    def verify_reroll(self, seat: int, die: int, amount: int) -> None:
        """Raise unless ``seat`` may bet ``amount`` to reroll ``die`` now."""
        self.verify(Reroll(seat, die, amount))

    def can_reroll(self, seat: int, die: int, amount: int) -> bool:
        """True if ``seat`` may bet ``amount`` to reroll ``die`` now."""
        return self.can(Reroll(seat, die, amount))

    def reroll(self, seat: int, die: int, amount: int) -> Reroll:
        """Bet ``amount`` to put ``die`` in reroll state."""
        return self._do(Reroll(seat, die, amount))

    def verify_protect(self, seat: int, die: int, amount: int) -> None:
        """Raise unless ``seat`` may bet ``amount`` to protect ``die`` now."""
        self.verify(Protect(seat, die, amount))

    def can_protect(self, seat: int, die: int, amount: int) -> bool:
        """True if ``seat`` may bet ``amount`` to protect ``die`` now."""
        return self.can(Protect(seat, die, amount))

    def protect(self, seat: int, die: int, amount: int) -> Protect:
        """Bet ``amount`` to put ``die`` in protect state."""
        return self._do(Protect(seat, die, amount))

    def verify_pass(self, seat: int) -> None:
        """Raise unless ``seat`` may decline a Reroll/Protect bet now."""
        self.verify(Pass(seat))

    def can_pass(self, seat: int) -> bool:
        """True if ``seat`` may decline a Reroll/Protect bet now."""
        return self.can(Pass(seat))

    def pass_(self, seat: int) -> Pass:
        """No Reroll/Protect bet this turn."""
        return self._do(Pass(seat))

    def verify_rebuy(self, seat: int) -> None:
        """Raise unless ``seat`` may rebuy now."""
        self.verify(Rebuy(seat))

    def can_rebuy(self, seat: int) -> bool:
        """True if ``seat`` may rebuy now."""
        return self.can(Rebuy(seat))

    def rebuy(self, seat: int) -> Rebuy:
        """Buy back in for the starting stack."""
        return self._do(Rebuy(seat))

    def verify_leave(self, seat: int) -> None:
        """Raise unless ``seat`` may leave now."""
        self.verify(Leave(seat))

    def can_leave(self, seat: int) -> bool:
        """True if ``seat`` may leave now."""
        return self.can(Leave(seat))

    def leave(self, seat: int) -> Leave:
        """Decline the rebuy and leave the game."""
        return self._do(Leave(seat))

    # -- verification ---------------------------------------------------------------------------
    def _who(self, seat: int) -> str:
        return f"Seat {seat}"

    def _betting_turn(self, seat: int, verb: str) -> Betting:
        hand = self.hand
        if self.phase is not Phase.BETTING or hand is None:
            raise IllegalAction(f"{self._who(seat)} cannot {verb} now: waiting for "
                                f"{self.pending().note}")
        if hand.to_act != seat:
            raise IllegalAction(f"{self._who(seat)} cannot {verb}: it is seat "
                                f"{hand.to_act}'s turn")
        return hand

    def _verify_fold(self, inp: Fold) -> None:
        hand = self._betting_turn(inp.seat, "fold")
        if hand.to_call(inp.seat) == 0:
            raise IllegalAction(f"{self._who(inp.seat)} cannot fold: there is nothing to call "
                                "(check instead)")

    def _verify_check(self, inp: Check) -> None:
        hand = self._betting_turn(inp.seat, "check")
        owed = hand.to_call(inp.seat)
        if owed:
            raise IllegalAction(f"{self._who(inp.seat)} cannot check: {owed} to call")

    def _verify_call(self, inp: Call) -> None:
        hand = self._betting_turn(inp.seat, "call")
        if hand.to_call(inp.seat) == 0:
            raise IllegalAction(f"{self._who(inp.seat)} cannot call: there is nothing to call "
                                "(check instead)")

    def _verify_bet(self, inp: Bet) -> None:
        hand = self._betting_turn(inp.seat, "bet")
        who = self._who(inp.seat)
        if hand.current:
            raise IllegalAction(f"{who} cannot bet: there is already a bet of {hand.current} "
                                "(raise instead)")
        self._verify_size(hand, inp.seat, inp.amount, f"{who} cannot bet {inp.amount}")

    def _verify_raise(self, inp: Raise) -> None:
        hand = self._betting_turn(inp.seat, "raise")
        who = self._who(inp.seat)
        if not hand.current:
            raise IllegalAction(f"{who} cannot raise: nobody has bet yet (bet instead)")
        if inp.to <= hand.current:
            raise IllegalAction(f"{who} cannot raise to {inp.to}: the bet is already "
                                f"{hand.current}")
        self._verify_size(hand, inp.seat, inp.to, f"{who} cannot raise to {inp.to}")

    def _verify_size(self, hand: Betting, seat: int, to: int, prefix: str) -> None:
        refusal = hand.raise_refusal(seat, self._who(seat))
        if refusal:
            raise IllegalAction(refusal)
        everything = hand.street[seat] + hand.stacks[seat]
        if to > everything:
            raise IllegalAction(f"{prefix}: only {everything} in chips")
        low, high = hand.min_raise_to(), hand.max_raise_to(seat)
        what = "bet" if not hand.current else "raise"
        if to < low and to != everything:
            raise IllegalAction(f"{prefix}: the minimum {what} is to {low}" if hand.current
                                else f"{prefix}: the minimum bet is {low}")
        if to > high:
            raise IllegalAction(f"{prefix}: the {hand.rules.structure.value} maximum is "
                                f"{'to ' if hand.current else ''}{high}")

    def _verify_all_in(self, inp: AllIn) -> None:
        hand = self._betting_turn(inp.seat, "go all-in")
        seat = inp.seat
        if hand.stacks[seat] <= hand.to_call(seat) and hand.current > hand.street[seat]:
            return
        self._verify_size(hand, seat, hand.street[seat] + hand.stacks[seat],
                          f"{self._who(seat)} cannot go all-in")

    def _verify_pass(self, inp: Pass) -> None:
        if self.phase is not Phase.SIDE_BET or inp.seat != self.side_seat:
            raise IllegalAction(f"{self._who(inp.seat)} cannot pass: no Reroll/Protect "
                                "decision is waiting for this seat")

    def _verify_side_bet(self, inp: Reroll | Protect) -> None:
        word = "reroll" if isinstance(inp, Reroll) else "protect"
        prefix = f"{self._who(inp.seat)} cannot {word} die {inp.die} for {inp.amount}"
        if not self.reroll_protect:
            raise IllegalAction(f"{prefix}: this variant has no Reroll/Protect bets")
        if self.phase is not Phase.SIDE_BET or inp.seat != self.side_seat or not self.hand:
            raise IllegalAction(f"{prefix}: only right after your own check, call, bet or "
                                "raise in a round where they are allowed")
        if inp.die not in self.fresh:
            fresh = ", ".join(map(str, self.fresh)) or "none"
            raise IllegalAction(f"{prefix}: only dice rolled this street may take one "
                                f"(dice {fresh})")
        low, high = self._side_bet_range(inp.seat, inp.die, word)
        if low < 0:
            raise IllegalAction(f"{prefix}: the die is already in {word} state")
        if inp.amount < low:
            raise IllegalAction(f"{prefix}: the minimum is {low}")
        if inp.amount > high:
            raise IllegalAction(f"{prefix}: the maximum is {high} (a Reroll/Protect bet "
                                "can never put you all-in)")

    def _side_bet_range(self, seat: int, die: int, word: str) -> tuple[int, int]:
        """The smallest and largest bet to put ``die`` in ``word`` state (-1 if it already is)."""
        hand = self.hand
        assert hand is not None
        last = self.die_bets.get(die)
        if last is None:
            low = self.rules.min_bet
        elif last[0] == word:
            return -1, -1
        else:
            low = last[1] + hand.increment
        high = hand.stacks[seat] - 1
        if self.rules.structure is Structure.LIMIT:
            high = min(high, low)
        elif self.rules.structure is Structure.POT_LIMIT:
            high = min(high, hand.pot_total())
        return low, high

    def _verify_rebuy(self, inp: Rebuy | Leave) -> None:
        if self.phase is not Phase.REBUY or not 0 <= inp.seat < self._seats \
                or self.decided[inp.seat]:
            raise IllegalAction(f"{self._who(inp.seat)} cannot {type(inp).__name__.lower()} "
                                "now: only a busted player, between hands")

    def _verify_roll(self, inp: Roll) -> None:
        if inp.kind is not self.kind and inp.kind not in self.stand_ins:
            raise IllegalAction(f"{self.name} is played with {self.kind.value} dice, "
                                f"not {inp.kind.value}")
        if self.phase is Phase.PRIVATE and inp.seat is not None:
            if inp.seat not in self._unrolled():
                raise IllegalAction(f"{self._who(inp.seat)} cannot roll now: "
                                    "not waiting for that seat's private dice")
            self._verify_private(inp, inp.seat, "rolls", sealable=True)
            return
        if self.phase is Phase.REVEAL and inp.seat is not None:
            self._verify_reveal(inp)
            return
        if self.phase is Phase.BOARD and inp.seat is None:
            if len(inp.faces) != self.need_dice:
                raise IllegalAction(f"the {self._board_reason()} needs {self.need_dice} dice, "
                                    f"not {len(inp.faces)}")
            self._verify_faces(inp, inp.kind, sealable=False, why=lambda: "community dice")
            return
        raise IllegalAction(f"not waiting for these dice now ({self.pending().note})")

    def _verify_private(self, inp: Roll, seat: int, verb: str, sealable: bool) -> None:
        if len(inp.faces) != 2:
            raise IllegalAction(f"{self._who(seat)} {verb} exactly 2 private dice, "
                                f"not {len(inp.faces)}")
        what = "private dice" if sealable else "reveal"
        self._verify_faces(inp, inp.kind, sealable, why=lambda: f"{self._who(seat)}'s {what}")

    def _verify_reveal(self, inp: Roll) -> None:
        seat = self._seat_at_table(inp.seat, "reveal")
        if seat not in self._to_reveal():
            hand = self.hand
            why = ("folded hands are never revealed" if hand is None or hand.folded[seat]
                   else "their dice are shown already")
            raise IllegalAction(f"{self._who(seat)} is not asked to reveal: {why} "
                                f"(waiting for {seat_words(self._to_reveal())})")
        self._verify_private(inp, seat, "reveals", sealable=False)

    # -- acts -----------------------------------------------------------------------------------
    def _act_fold(self, inp: Fold) -> None:
        hand = self.hand
        assert hand is not None
        hand.fold(inp.seat)
        self._after_action()

    def _act_check_or_call(self, inp: Check | Call) -> None:
        assert self.hand is not None
        self.hand.check_or_call(inp.seat)
        self._after_ordinary(inp.seat)

    def _act_bet(self, inp: Bet) -> None:
        assert self.hand is not None
        self.hand.raise_to(inp.seat, inp.amount)
        self._after_ordinary(inp.seat)

    def _act_raise(self, inp: Raise) -> None:
        assert self.hand is not None
        self.hand.raise_to(inp.seat, inp.to)
        self._after_ordinary(inp.seat)

    def _act_all_in(self, inp: AllIn) -> None:
        hand = self.hand
        assert hand is not None
        seat = inp.seat
        if hand.stacks[seat] <= hand.to_call(seat):
            hand.check_or_call(seat)
        else:
            hand.raise_to(seat, hand.street[seat] + hand.stacks[seat])
        self._after_action()

    def _act_side_bet(self, inp: Reroll | Protect) -> None:
        assert self.hand is not None
        self.die_bets[inp.die] = ("reroll" if isinstance(inp, Reroll) else "protect", inp.amount)
        self.hand.add_dead(inp.seat, inp.amount)
        self.phase = Phase.BETTING
        self._after_action()

    def _act_pass(self, inp: Pass) -> None:
        self.phase = Phase.BETTING
        self._after_action()

    def _act_rebuy(self, inp: Rebuy) -> None:
        self.stacks[inp.seat] = self.options.stacks[inp.seat]
        self.rebuys[inp.seat] += 1
        self._decided(inp.seat)

    def _act_leave(self, inp: Leave) -> None:
        self.out[inp.seat] = True
        self._decided(inp.seat)

    def _decided(self, seat: int) -> None:
        self.decided[seat] = True
        if all(self.decided):
            self._start_hand(first=False)

    def _act_roll(self, inp: Roll) -> None:
        faces = inp.faces
        if inp.kind is not self.kind and not inp.sealed:
            faces = tuple(self.stand_ins[inp.kind][face] for face in faces)
        if inp.seat is not None and self.phase is Phase.REVEAL:
            self.private[inp.seat] = faces
            self.revealed[inp.seat] = True
            if not self._to_reveal():
                self._next_street()
            return
        if inp.seat is not None:
            self.private[inp.seat] = faces
            if not self._unrolled():
                self._open_round(0)
            return
        rerolled = sorted(d for d, (k, _) in self.die_bets.items() if k == "reroll")
        for n, die in enumerate(rerolled):
            self.board[die] = faces[n]
        start = len(self.board)
        self.board.extend(faces[len(rerolled):])
        self.fresh = (*rerolled, *range(start, len(self.board)))
        self.die_bets = {}
        self._open_round(self.round_no + 1)

    # -- flow -----------------------------------------------------------------------------------
    def _after_ordinary(self, seat: int) -> None:
        """After a check, call, bet or raise: offer the Reroll/Protect decision if it exists."""
        if self._side_bets_open(seat):
            self.phase = Phase.SIDE_BET
            self.side_seat = seat
            return
        self._after_action()

    def _side_bets_open(self, seat: int) -> bool:
        hand = self.hand
        if not self.reroll_protect or hand is None or not self._side_round():
            return False
        if any(hand.allin[s] and not hand.folded[s] for s in range(self._seats)):
            return False
        return hand.stacks[seat] > self.rules.min_bet and any(
            0 <= low <= high for die in self.fresh for word in ("reroll", "protect")
            for low, high in (self._side_bet_range(seat, die, word),))

    def _side_round(self) -> bool:
        """Reroll/Protect bets are allowed this round (a reroll can still follow it)."""
        return 1 <= self.round_no < 3 + self.extra_rounds

    def _after_action(self) -> None:
        hand = self.hand
        assert hand is not None
        if hand.to_act >= 0:
            return
        self._close_round()

    def _close_round(self) -> None:
        hand = self.hand
        assert hand is not None
        hand.end_round()
        self._next_street()

    def _next_street(self) -> None:
        """After a betting round (or the reveals it called for): the next dice or the showdown."""
        hand = self.hand
        assert hand is not None
        live = hand.live()
        if len(live) == 1:
            self._award([(Pot(hand.pot_total(), (live[0],)), live)], shown={})
            return
        rerolls = sum(1 for k, _ in self.die_bets.values() if k == "reroll")
        more = self.round_no < 3 or (rerolls and self.round_no < 3 + self.extra_rounds)
        closed = sum(1 for s in live if not hand.allin[s]) <= 1  # all-ins closed the betting
        if (not more or (closed and self.options.reveal_all_in)) and self._reveal(live):
            return
        if self.round_no < 3:
            self._need_board(NEW_DICE[self.round_no + 1] + rerolls)
        elif more:
            self._need_board(rerolls)
        else:
            self._showdown(hand, live)

    def _reveal(self, live: list[int]) -> bool:
        """Show the private dice of the seats still in; True if sealed ones must be asked for."""
        for seat in live:
            self.revealed[seat] = not self._sealed(seat)
        if self._to_reveal():
            self.phase = Phase.REVEAL
            return True
        return False

    def _to_reveal(self) -> list[int]:
        """Seats still in whose private dice are sealed, clockwise from left of the button."""
        hand = self.hand
        if hand is None:
            return []
        order = [(self.button + k) % self._seats for k in range(1, self._seats + 1)]
        return [s for s in order if not hand.folded[s] and self._sealed(s)]

    def _sealed(self, seat: int) -> bool:
        return SEALED in self.private[seat]

    def _need_board(self, count: int) -> None:
        self.phase = Phase.BOARD
        self.need_dice = count

    def _open_round(self, round_no: int) -> None:
        hand = self.hand
        assert hand is not None
        self.round_no = round_no
        self.phase = Phase.BETTING
        if round_no == 0:
            opening = self.rules.min_bet if self.rules.blinds else 0
            first = (self.bb if self.rules.blinds else self.button) + 1
            hand.start_round(0, first % self._seats, opening)
        else:
            hand.start_round(round_no, (self.button + 1) % self._seats)
        if hand.to_act < 0:
            self._close_round()

    def _showdown(self, hand: Betting, live: list[int]) -> None:
        keys = {seat: self.key((*self.private[seat], *self.board)) for seat in live}
        paid = []
        for pot in side_pots(hand.total, hand.folded, hand.dead):
            best = max(keys[s] for s in pot.eligible)
            paid.append((pot, [s for s in pot.eligible if keys[s] == best]))
        self._award(paid, shown={seat: list(self.private[seat]) for seat in live})

    def _award(self, paid: list[tuple[Pot, list[int]]], shown: dict[int, list[str]]) -> None:
        """Pay each pot to its winners (odd chips clockwise from the button); end the hand."""
        won: dict[int, int] = {}
        pots = []
        for pot, winners in paid:
            for seat, chips in split(pot.amount, winners, self.button, self._seats).items():
                won[seat] = won.get(seat, 0) + chips
            pots.append({"amount": pot.amount, "eligible": list(pot.eligible),
                         "winners": winners})
        for seat, chips in won.items():
            self.stacks[seat] += chips
        self.last_hand = {"hand": self._hands + 1, "board": list(self.board),
                          "shown": {str(s): d for s, d in shown.items()}, "pots": pots,
                          "won": {str(s): c for s, c in sorted(won.items())},
                          "stacks": list(self.stacks)}
        self._hands += 1
        self.hand = None
        self._clear_table()
        self._between_hands()

    def _between_hands(self) -> None:
        busted = [s for s in range(self._seats) if not self.out[s] and self.stacks[s] == 0]
        if self.options.rebuy and busted:
            for seat in busted:
                self.decided[seat] = False
            self.phase = Phase.REBUY
            return
        for seat in busted:
            self.out[seat] = True
        self._start_hand(first=False)

    def _clear_table(self) -> None:
        """Forget the dice of the hand that ended (``last_hand`` keeps what was shown)."""
        self.private = [()] * self._seats
        self.revealed = [False] * self._seats
        self.board = []
        self.fresh = ()
        self.die_bets = {}
        self.round_no = 0

    def _start_hand(self, first: bool) -> None:
        alive = [s for s in range(self._seats) if not self.out[s]]
        self._clear_table()
        if len(alive) < 2:
            self.phase = Phase.OVER
            return
        self._move_button(alive, first)
        self.hand = Betting(self.rules, self.stacks, alive)
        self._post()
        self.phase = Phase.PRIVATE

    def _next_alive(self, seat: int) -> int:
        for k in range(1, self._seats + 1):
            nxt = (seat + k) % self._seats
            if not self.out[nxt]:
                return nxt
        return seat

    def _move_button(self, alive: list[int], first: bool) -> None:
        """Blinds and button for the new hand, with the dead-button rule.

        The big blind moves to the next player still in; the small blind goes to last hand's big
        blind seat (none if that player left) and the button to last hand's small blind seat,
        even if empty. Heads-up, the button posts the small blind; the player who did not post
        the big blind last hand posts it now.
        """
        if first:
            if self.out[self.button]:
                self.button = self._next_alive(self.button)
            sb = self.button if len(alive) == 2 else self._next_alive(self.button)
            self.sb_pos, self.sb_posts, self.bb = sb, True, self._next_alive(sb)
            return
        bb = self._next_alive(self.bb)
        if len(alive) == 2:
            other = alive[0] if alive[1] == bb else alive[1]
            self.button, self.sb_pos, self.sb_posts = other, other, True
        else:
            self.button, self.sb_pos = self.sb_pos, self.bb
            self.sb_posts = not self.out[self.sb_pos]
        self.bb = bb

    def _post(self) -> None:
        hand = self.hand
        assert hand is not None
        bet = self.rules.min_bet
        if not self.rules.blinds:
            for seat in range(self._seats):
                if not self.out[seat]:
                    hand.post(seat, bet, live=False)
            return
        if self.sb_posts and bet // 2:
            hand.post(self.sb_pos, bet // 2, live=True)
        hand.post(self.bb, bet, live=True)

    # -- helpers --------------------------------------------------------------------------------
    def _street(self) -> str:
        return STREETS[self.round_no] if self.round_no < 4 else f"extra round {self.round_no - 3}"

    def _unrolled(self) -> list[int]:
        hand = self.hand
        if hand is None:
            return []
        return [s for s in range(self._seats) if not self.out[s] and not self.private[s]]

    def _board_reason(self) -> str:
        rerolls = sum(1 for k, _ in self.die_bets.values() if k == "reroll")
        street = STREETS[self.round_no + 1] if self.round_no < 3 else "extra round"
        return f"{street} ({rerolls} rerolled)" if rerolls else street

    def _legal_bets(self, seat: int, hand: Betting) -> list[Input]:
        owed = hand.to_call(seat)
        choices: list[Input] = [Fold(seat), Call(seat)] if owed else [Check(seat)]
        if hand.raise_refusal(seat, "") is None:
            low, high = hand.min_raise_to(), hand.max_raise_to(seat)
            everything = hand.street[seat] + hand.stacks[seat]
            base = hand.pot_total() + hand.current - hand.street[seat]
            sizes = sorted({max(low, min(high, size))
                            for size in (low, hand.current + base // 2, hand.current + base)})
            cls = Raise if hand.current else Bet
            choices += [cls(seat, size) for size in sizes if size < everything]
            if high >= everything:
                choices.append(AllIn(seat))
        return choices

    def _legal_side_bets(self, seat: int) -> list[Input]:
        choices: list[Input] = []
        for die in self.fresh:
            for word, cls in (("reroll", Reroll), ("protect", Protect)):
                low, high = self._side_bet_range(seat, die, word)
                if 0 <= low <= high:
                    choices.append(cls(seat, die, low))
        return choices


def _table_view(game: HoldemGame, names: list[str]) -> TableView:
    """The one function that turns a hold'em game into what the room sees.

    A seat's private dice appear as two faceless dice from its roll until they are revealed (at
    the showdown, or once all-ins close the betting with ``reveal_all_in``); a folded seat shows
    none. The last hand's shown dice come from ``last_hand``, which only a showdown fills.
    """
    hand = game.hand
    seats = tuple(SeatView(seat, names[seat], _status(game, seat),
                           (Holding("chips", game.stacks[seat]),),
                           bet=_chips(hand.street[seat] if hand else 0),
                           dice=_private_dice(game, seat), marks=_marks(game, seat))
                  for seat in range(game.seats))
    pending = game.pending()
    board = tuple(DieView(game.kind, face, game.die_bets.get(die, ("", 0))[0])
                  for die, face in enumerate(game.board))
    return TableView(game.name, game.title, game.hands_played + 1, game.phase.value, seats,
                     pots=_pot_views(game.pots()), community=board,
                     awaited=Awaited(pending.actors, pending.prompt, pending.dice, pending.note),
                     result=_hand_result(game, names), facts=_facts(game),
                     over=game.phase is Phase.OVER, winner=game.final()["winner"])


def _chips(count: int) -> tuple[Holding, ...]:
    return (Holding("chips", count),) if count else ()


def _status(game: HoldemGame, seat: int) -> SeatStatus:
    hand = game.hand
    if game.out[seat]:
        return SeatStatus.OUT
    if not game.decided[seat]:
        return SeatStatus.DECIDING
    if hand is None:
        return SeatStatus.ACTIVE
    if hand.folded[seat]:
        return SeatStatus.FOLDED
    return SeatStatus.ALL_IN if hand.allin[seat] else SeatStatus.ACTIVE


def _private_dice(game: HoldemGame, seat: int) -> tuple[DieView, ...]:
    hand = game.hand
    if hand is None or hand.folded[seat] or not game.private[seat]:
        return ()
    if not game.revealed[seat]:
        return (DieView(game.kind, None), DieView(game.kind, None))
    return tuple(DieView(game.kind, face) for face in game.private[seat])


def _marks(game: HoldemGame, seat: int) -> tuple[str, ...]:
    if game.hand is None:
        return ()
    blinds = game.rules.blinds
    marks = (("button", seat == game.button),
             ("small blind", blinds and game.sb_posts and seat == game.sb_pos),
             ("big blind", blinds and seat == game.bb))
    return tuple(mark for mark, held in marks if held)


def _pot_views(pots: Sequence[Pot]) -> tuple[PotView, ...]:
    return tuple(PotView(_pot_name(n), _chips(pot.amount), tuple(pot.eligible))
                 for n, pot in enumerate(pots))


def _pot_name(n: int) -> str:
    return "main pot" if n == 0 else f"side pot {n}"


def _hand_result(game: HoldemGame, names: list[str]) -> Result | None:
    """The last hand as it ended: each shown hand with its name, what each winner won."""
    last = game.last_hand
    if not last:
        return None
    won = {int(seat): chips for seat, chips in last["won"].items()}
    board = list(last["board"])
    shown = []
    for key, dice in last["shown"].items():
        seat = int(key)
        rank = evaluator(game.ranking).rank([*dice, *board])
        shown.append(Shown(seat, tuple(DieView(game.kind, face) for face in dice),
                           hand_name(rank), _chips(won.get(seat, 0))))
    said = {s.seat: s.hand for s in shown}
    text = "; ".join(f"{names[seat]} wins {chips}" + (f" with {said[seat]}" if seat in said
                                                       else ": everyone else folded")
                     for seat, chips in won.items())
    pots = tuple(PotView(_pot_name(n), _chips(pot["amount"]), tuple(pot["eligible"]),
                         tuple(pot["winners"])) for n, pot in enumerate(last["pots"]))
    if not shown:
        shown = [Shown(seat, (), "everyone else folded", _chips(chips)) for seat, chips in won.items()]
    return Result(last["hand"], tuple(won), tuple(shown), text, _headline(pots, names), pots,
                  tuple(DieView(game.kind, face) for face in board))


def _headline(pots: Sequence[PotView], names: Sequence[str]) -> str:
    """Who won what, for the showdown box: no pot is named when the same seats took every pot
    (one winner, or one split); otherwise each set of winners with the pots it took.

    >>> main, side = PotView("main pot", (), (0, 1, 2), (0,)), PotView("side pot 1", (), (1, 2), (1, 2))
    >>> _headline([main], "ABC"), _headline([side], "ABC"), _headline([main, side], "ABC")
    ('A wins', 'B and C split', 'A wins the main pot; B and C split side pot 1')
    """
    took: dict[tuple[int, ...], list[int]] = {}
    for n, pot in enumerate(pots):
        took.setdefault(pot.winners, []).append(n)
    if len(took) <= 1:
        return _takers(next(iter(took), ()), names)
    return "; ".join(f"{_takers(seats, names)} {_pot_words(won)}" for seats, won in took.items())


def _pot_words(numbers: list[int]) -> str:
    """The pots numbered as :func:`_pot_name` numbers them, in a few words.

    >>> _pot_words([0]), _pot_words([2]), _pot_words([1, 2]), _pot_words([0, 1, 3])
    ('the main pot', 'side pot 2', 'side pots 1 and 2', 'the main pot and side pots 1 and 3')
    """
    sides = [str(n) for n in numbers if n]
    words = ["the main pot"] if 0 in numbers else []
    if sides:
        words.append(f"side pot{'s' * (len(sides) > 1)} {and_list(sides)}")
    return and_list(words)


def _takers(seats: tuple[int, ...], names: Sequence[str]) -> str:
    """``Ben wins``, ``Cleo and Dev split``."""
    if not seats:
        return "Nobody wins"
    return f"{and_list([names[s] for s in seats])} {'split' if len(seats) > 1 else 'wins'}"


def _facts(game: HoldemGame) -> tuple[Fact, ...]:
    rules = game.rules
    stakes = (Fact("Blinds", f"{rules.min_bet // 2}/{rules.min_bet}") if rules.blinds
              else Fact("Antes", str(rules.min_bet)))
    facts = [Fact("Hand", str(game.hands_played + 1)), stakes,
             Fact("Betting", rules.structure.value)]
    if game.hand is not None:
        facts.append(Fact("Street", game._street()))
    if game.hand is not None and game.phase in (Phase.BETTING, Phase.SIDE_BET):
        facts.append(Fact("Current bet", str(game.hand.current)))
    return tuple(facts)
