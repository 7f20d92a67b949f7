"""Hold'em seat controls (Tauren Hold'em, DiceHoldem): check-call / bet-raise / fold / all-in.

With a reader, a bet is the chips on the spot: they are what this action adds, so bet-raise
raises to what the seat has bet this round plus the spot, and a call needs exactly the chips
owed. Without one, ``plus`` and ``minus`` move the seat's bet through the sizes from the
minimum in minimum-bet steps (stopping also at the half-pot and pot bets the engine suggests),
and bet-raise bets what they show. Between hands check-call means rebuy and fold means leave.
Standard DiceHoldem adds Reroll/Protect: ``die`` chooses a community die that may take a bet,
``reroll`` or ``protect`` bets on it (the chips on the spot, or the minimum plus the dial's
steps), and check-call passes.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, Sequence, cast

from controller.games.base import Game, Input
from controller.games.holdem_inputs import (AllIn, Bet, Call, Check, Fold, Leave, Pass, Protect,
                                            Raise, Rebuy, Reroll)
from controller.table.controls_common import (Gesture, NoGesture, Press, Refusal, SeatControls,
                                              Setting, Stake, checked, clear_refusal, kinds,
                                              pick_chips, sim_purse, spot_refusal)
from hardware.rfid import TagRecord

SizedBet = Bet | Raise
SideBet = Reroll | Protect
_BUTTON = {Check: "check-call", Call: "check-call", Pass: "check-call", Rebuy: "check-call",
           Fold: "fold", Leave: "fold", AllIn: "all-in", Bet: "bet-raise", Raise: "bet-raise",
           Reroll: "reroll", Protect: "protect"}


class _Betting(Protocol):
    """The part of the hold'em engine's betting state a seat's chips are counted against."""

    street: list[int]
    current: int

    def to_call(self, seat: int) -> int:
        """Chips ``seat`` needs to call."""
        ...


class _HoldemGame(Protocol):
    hand: _Betting | None  # None between hands


def _owed(game: Game, seat: int) -> tuple[int, int, int]:
    """(chips to call, chips bet this round, the current bet) of ``seat``.

    The one place that reads the engine's betting state: the Game protocol lists legal inputs
    but not what a seat owes, and a reader's chips must be counted against it. An engine
    without ``hand`` fails here at once rather than be read as owing nothing.
    """
    hand = cast(_HoldemGame, game).hand
    if hand is None:
        return 0, 0, 0
    return hand.to_call(seat), hand.street[seat], hand.current


def _step(game: Game) -> int:
    """The minimum bet: the dial's step."""
    return max(1, int(game.options_text().get("min_bet", "1")))


def _stops(low: int, step: int, suggested: Sequence[int], count: int) -> list[int]:
    """The first ``count`` sizes of a dial: ``low`` plus whole steps, and the suggested sizes.

    >>> _stops(4, 2, [4, 7, 11], 6)
    [4, 6, 7, 8, 10, 11]
    """
    sizes = {low + step * n for n in range(count)} | {s for s in suggested if s >= low}
    return sorted(sizes)[:count]


class HoldemControls(SeatControls):
    """The panel of a Tauren Hold'em seat; see the module docstring."""

    title = "Tauren Hold'em"
    buttons: ClassVar[tuple[str, ...]] = ("check-call", "bet-raise", "fold", "all-in", "plus",
                                          "minus")
    labels = {"check-call": "check / call · rebuy", "bet-raise": "bet / raise",
              "fold": "fold · leave", "all-in": "all-in", "plus": "bet +", "minus": "bet −"}
    dial_buttons = ("plus", "minus")

    def sim_purse(self, game: Game, seat: int, owner: str) -> tuple[TagRecord, ...]:
        """Chips of 1, 5, 25 and 100 that make any amount up to four times the chips in play
        (rebuys add chips)."""
        hundreds = 4 * game.chips_expected() // 100 + 1
        return sim_purse(seat, owner, chips=((100, hundreds), (25, 3), (5, 4), (1, 4)))

    # -- the ordinary actions --------------------------------------------------------------------
    def _press_check_call(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        legal = kinds(game.legal_inputs(seat))
        if Rebuy in legal:
            return checked(game, button, Rebuy(seat))
        if Pass in legal:
            why = clear_refusal(stake, "reroll or protect to bet them")
            return Refusal(seat, button, why) if why else checked(game, button, Pass(seat))
        if Call not in legal:
            why = clear_refusal(stake, "bet-raise to bet them")
            return Refusal(seat, button, why) if why else checked(game, button, Check(seat))
        owed = _owed(game, seat)[0]
        why = _chips_refusal(stake, owed, "to call")
        return Refusal(seat, button, why) if why else checked(game, button, Call(seat))

    def _press_fold(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        if Leave in kinds(game.legal_inputs(seat)):
            return checked(game, button, Leave(seat))
        return checked(game, button, Fold(seat))  # what lies on the spot goes back to the seat

    def _press_all_in(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        return checked(game, button, AllIn(seat))  # every chip: the spot is not counted

    def _press_bet_raise(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        _, street, current = _owed(game, seat)
        cls: type[SizedBet] = Raise if current else Bet
        if stake is not None:
            why = _chips_refusal(stake, None, "to bet")
            return Refusal(seat, button, why) if why else checked(
                game, button, cls(seat, street + stake.chip_total))
        sizes = self._bet_sizes(game, seat, cls, self.dials.get(game, seat).value + 1)
        # with no legal size, a minimal one draws the engine's reason (e.g. not reopened)
        return checked(game, button, cls(seat, sizes[-1] if sizes else current + _step(game)))

    def _press_plus(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        return self._turn_dial(game, seat, button, +1)

    def _press_minus(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        return self._turn_dial(game, seat, button, -1)

    def _turn_dial(self, game: Game, seat: int, button: str, turn: int) -> Press:
        dial = self.dials.get(game, seat)
        value = max(0, dial.value + turn)
        text = self._dial_text(game, seat, value)
        if text is None:
            far = value and self._dial_text(game, seat, 0) is not None
            return Refusal(seat, button, "that is as far as your bet goes now (all-in bets "
                                         "everything)" if far else "you cannot bet now")
        dial.value = value
        self.dials.keep(game, seat, dial)
        return Setting(seat, button, text)

    def _dial_text(self, game: Game, seat: int, value: int) -> str | None:
        """What the dial at ``value`` bets, None when that is not a legal bet now."""
        legal = game.legal_inputs(seat)
        cls = next((type(i) for i in legal if isinstance(i, SizedBet)), None)
        if cls is not None:
            size = self._bet_sizes(game, seat, cls, value + 1)[-1]
            return f"bet-raise: {cls(seat, size).says(you=True)}" if game.can(cls(seat, size)) \
                else None
        return self._side_dial_text(game, seat, value)

    def _side_dial_text(self, game: Game, seat: int, value: int) -> str | None:
        """Reroll/Protect panels: the dial adds steps to the minimum bet (see subclass)."""
        return None

    @staticmethod
    def _bet_sizes(game: Game, seat: int, cls: type[SizedBet], count: int) -> list[int]:
        """The first ``count`` sizes the dial offers for a bet or raise of ``seat``'s now."""
        legal = [_size(i) for i in game.legal_inputs(seat) if isinstance(i, cls)]
        return _stops(min(legal), _step(game), legal, count) if legal else []

    # -- gestures ----------------------------------------------------------------------------------
    def _gesture(self, game: Game, inp: Input, seat: int,
                 purse: tuple[TagRecord, ...] | None) -> Gesture:
        button = _BUTTON.get(type(inp))
        if button is None:
            raise NoGesture(f"{inp} is not an action of {self.title}")
        owed, street, _ = _owed(game, seat)
        spot: frozenset[str] | None = None if purse is None else frozenset()
        presses: tuple[str, ...] = ()
        if isinstance(inp, SizedBet):
            spot, presses = self._sized(game, inp, purse, street)
        elif isinstance(inp, SideBet):
            spot, presses = self._side(game, inp, purse)
        elif isinstance(inp, Call) and purse is not None:
            spot = pick_chips(purse, owed)
        return Gesture(seat, spot, (*presses, button))

    def _sized(self, game: Game, inp: SizedBet, purse: tuple[TagRecord, ...] | None,
               street: int) -> tuple[frozenset[str] | None, tuple[str, ...]]:
        size = _size(inp)
        if purse is not None:
            return pick_chips(purse, size - street), ()
        # size // step whole steps reach past size; the engine suggests at most three more stops
        sizes = self._bet_sizes(game, inp.seat, type(inp), size // _step(game) + 4)
        if size not in sizes:
            raise NoGesture(f"{inp}: plus and minus do not reach {size}")
        return None, self._dial_to(game, inp.seat, sizes.index(size))

    def _side(self, game: Game, inp: SideBet, purse: tuple[TagRecord, ...] | None
              ) -> tuple[frozenset[str] | None, tuple[str, ...]]:
        raise NoGesture(f"{inp}: {self.title} has no Reroll/Protect bets")

    def _dial_to(self, game: Game, seat: int, value: int) -> tuple[str, ...]:
        """The plus or minus presses that bring ``seat``'s dial to ``value``."""
        now = self.dials.get(game, seat).value
        return ("plus",) * (value - now) if value >= now else ("minus",) * (now - value)


class DiceHoldemControls(HoldemControls):
    """The panel of a DiceHoldem seat: hold'em's, plus Reroll/Protect on a chosen community die
    (Standard DiceHoldem; in Basic the engine refuses them)."""

    title = "DiceHoldem"
    buttons = ("check-call", "bet-raise", "fold", "all-in", "die", "reroll", "protect", "plus",
               "minus")
    labels = {**HoldemControls.labels, "check-call": "check / call · pass · rebuy",
              "die": "choose die", "reroll": "reroll die", "protect": "protect die",
              "plus": "bet +", "minus": "bet −"}

    def _press_die(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        dice = _side_dice(game, seat)
        if not dice:
            return Refusal(seat, button, "no die may take a Reroll/Protect bet now")
        dial = self.dials.get(game, seat)
        dial.die = _next_die(dice, dial.die)
        self.dials.keep(game, seat, dial)
        return Setting(seat, button, self._side_dial_text(game, seat, dial.value) or
                       f"die {dial.die} chosen")

    def _press_reroll(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        return self._side_bet(game, seat, button, stake, Reroll)

    def _press_protect(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        return self._side_bet(game, seat, button, stake, Protect)

    def _side_bet(self, game: Game, seat: int, button: str, stake: Stake | None,
                  cls: type[SideBet]) -> Press:
        dice = _side_dice(game, seat)
        dial = self.dials.get(game, seat)
        if dice and dial.die not in dice:
            return Refusal(seat, button, "choose a die with the die button first (dice "
                                         f"{', '.join(map(str, dice))} may take a bet)")
        die = dial.die if dial.die is not None else 0
        if stake is not None:
            why = _chips_refusal(stake, None, f"to {button}")
            return Refusal(seat, button, why) if why else checked(
                game, button, cls(seat, die, stake.chip_total))
        low = _side_low(game, seat, cls, die)
        return checked(game, button, cls(seat, die, low + dial.value * _step(game)))

    def _side_dial_text(self, game: Game, seat: int, value: int) -> str | None:
        die = self.dials.get(game, seat).die
        dice = _side_dice(game, seat)
        if not dice:
            return None
        extra = value * _step(game)
        bets = [cls(seat, d, _side_low(game, seat, cls, d) + extra)
                for d in ([die] if die in dice else dice) for cls in (Reroll, Protect)
                if _side_low(game, seat, cls, d)]
        legal = [bet for bet in bets if game.can(bet)]
        if not legal:
            return None
        if die not in dice:
            return f"Reroll/Protect bets: the minimum + {extra} (choose a die)"
        return "; ".join(bet.says(you=True) for bet in legal)

    def _side(self, game: Game, inp: SideBet, purse: tuple[TagRecord, ...] | None
              ) -> tuple[frozenset[str] | None, tuple[str, ...]]:
        dice = _side_dice(game, inp.seat)
        if inp.die not in dice:
            raise NoGesture(f"{inp}: die {inp.die} may not take a bet now")
        chosen = self.dials.get(game, inp.seat).die
        turns = dice.index(inp.die) - (dice.index(chosen) if chosen in dice else -1)
        presses = ("die",) * (turns % len(dice) if chosen in dice else turns)
        if purse is not None:
            return pick_chips(purse, inp.amount), presses
        steps, rest = divmod(inp.amount - _side_low(game, inp.seat, type(inp), inp.die),
                             _step(game))
        if rest or steps < 0:
            raise NoGesture(f"{inp}: plus and minus do not reach {inp.amount}")
        return None, presses + self._dial_to(game, inp.seat, steps)


def _size(inp: SizedBet) -> int:
    return inp.amount if isinstance(inp, Bet) else inp.to


def _chips_refusal(stake: Stake | None, due: int | None, what: str) -> str | None:
    """Why the spot does not hold the chips of this action (``due`` None: any amount above 0)."""
    if stake is None:
        return None
    why = spot_refusal(stake)
    if why:
        return why
    if stake.stones:
        return "take the stones off your spot: this game is played with chips"
    if due is None and not stake.chip_total:
        return f"put the chips {what} on your spot first"
    if due is not None and stake.chip_total != due:
        return f"put exactly {due} in chips on your spot {what} ({stake.chip_total} there)"
    return None


def _side_dice(game: Game, seat: int) -> list[int]:
    """The community dice that may take a Reroll/Protect bet of ``seat``'s now."""
    return sorted({i.die for i in game.legal_inputs(seat) if isinstance(i, SideBet)})


def _side_low(game: Game, seat: int, cls: type[SideBet], die: int) -> int:
    """The smallest bet of kind ``cls`` on ``die`` (0 when there is none)."""
    return next((i.amount for i in game.legal_inputs(seat)
                 if type(i) is cls and i.die == die), 0)


def _next_die(dice: list[int], die: int | None) -> int:
    """The die after ``die`` in ``dice`` (the first when none or another is chosen)."""
    return dice[(dice.index(die) + 1) % len(dice)] if die in dice else dice[0]
