"""The betting core both hold'em games share: one hand's stacks, bets, pots and turn order.

Plain ints and lists on purpose (this is the hot path of every simulation). Seats are indices
into the table's stack list; a seat not dealt in is simply folded from the start. Pots are never
stored: :func:`side_pots` derives them from what each seat put in and who folded, like
pokerkit's ``pots``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Sequence

from controller.games.errors import IllegalAction


class Structure(Enum):
    """How big a bet or raise may be."""

    LIMIT = "limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot (main or side): its chips and the seats that may win it, clockwise order."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BettingRules:
    """The betting options: structure, minimum bet (= big blind or ante), blinds or antes.

    In limit the bet is ``min_bet`` on the first two rounds and twice that later, with at most
    ``cap`` bets (a bet and three raises) in a round.
    """

    structure: Structure = Structure.NO_LIMIT
    min_bet: int = 2
    blinds: bool = True
    cap: int = 4


def side_pots(totals: Sequence[int], folded: Sequence[bool], dead: int = 0) -> list[Pot]:
    """The main pot then the side pots, from each seat's chips in the pot this hand.

    Layers are cut at the totals of the seats still in; a folded seat's chips count in every
    layer they reach but the seat is eligible for none. Consecutive layers with the same eligible
    seats are one pot, and chips above every live seat's total (all their contributors folded)
    merge down into the last pot. ``dead`` chips (Reroll/Protect bets) join the main pot.

    >>> side_pots([5, 20, 20], [False, False, False])
    [Pot(amount=15, eligible=(0, 1, 2)), Pot(amount=30, eligible=(1, 2))]
    """
    live = [seat for seat, out in enumerate(folded) if not out]
    levels = sorted({totals[seat] for seat in live})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        amount = sum(min(t, level) - min(t, below) for t in totals)
        eligible = tuple(seat for seat in live if totals[seat] >= level)
        if pots and pots[-1].eligible == eligible:
            amount += pots.pop().amount
        if amount:
            pots.append(Pot(amount, eligible))
        below = level
    rest = sum(t - below for t in totals if t > below)
    if rest and pots:
        pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
    elif rest:
        pots.append(Pot(rest, tuple(live)))
    if dead:
        if pots:
            pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
        else:
            pots.append(Pot(dead, tuple(live)))
    return pots


def split(amount: int, winners: Sequence[int], button: int, seats: int) -> dict[int, int]:
    """Share ``amount`` among ``winners``; odd chips go one each clockwise from the button.

    >>> split(5, [0, 2], button=1, seats=3)
    {2: 3, 0: 2}
    """
    ordered = sorted(winners, key=lambda seat: (seat - button - 1) % seats)
    share, odd = divmod(amount, len(ordered))
    return {seat: share + (1 if n < odd else 0) for n, seat in enumerate(ordered)}


class Betting:
    """One hand's chips: stacks (shared with the table), bets, folds, all-ins and the turn.

    ``total`` is what each seat put in this hand (blinds, antes, bets); ``street`` the live bets of
    the current round; ``dead`` chips in the pot nobody has to match (Reroll/Protect bets).
    """

    __slots__ = ("rules", "n", "stacks", "total", "street", "dead", "folded", "allin",
                 "acted_at", "current", "increment", "bets", "to_act", "round_no")

    def __init__(self, rules: BettingRules, stacks: list[int], dealt: Sequence[int]) -> None:
        self.rules = rules
        self.n = len(stacks)
        self.stacks = stacks
        self.total = [0] * self.n
        self.street = [0] * self.n
        self.dead = 0
        self.folded = [True] * self.n
        for seat in dealt:
            self.folded[seat] = False
        self.allin = [False] * self.n
        self.acted_at = [-1] * self.n
        self.current = 0
        self.increment = rules.min_bet
        self.bets = 0
        self.to_act = -1
        self.round_no = 0

    # -- posting -----------------------------------------------------------------------------
    def post(self, seat: int, amount: int, *, live: bool) -> int:
        """Post a blind (``live``: it counts as a bet this round) or an ante; returns the chips.

        A seat that cannot cover it posts what it has and is all-in.
        """
        chips = min(amount, self.stacks[seat])
        self._put(seat, chips)
        if not live:
            self.street[seat] -= chips
        return chips

    def _put(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.total[seat] += chips
        self.street[seat] += chips
        if self.stacks[seat] == 0:
            self.allin[seat] = True

    # -- rounds ------------------------------------------------------------------------------
    def bet_size(self) -> int:
        """The limit bet of this round: the minimum bet, doubled from the third round on."""
        return self.rules.min_bet * (2 if self.round_no >= 2 else 1)

    def start_round(self, round_no: int, first: int, opening_bet: int = 0) -> None:
        """Open betting round ``round_no``; action starts at ``first`` or the next seat able.

        ``opening_bet`` is the big blind before the flop (a short big blind still has to be
        called in full by the others).
        """
        self.round_no = round_no
        if round_no:
            self.street = [0] * self.n
        self.current = opening_bet
        self.increment = self.bet_size() if self.rules.structure is Structure.LIMIT \
            else self.rules.min_bet
        self.bets = 1 if opening_bet else 0
        self.acted_at = [-1] * self.n
        self.to_act = self._find(first)

    def can_act(self, seat: int) -> bool:
        """True if ``seat`` is still in the hand with chips behind."""
        return not self.folded[seat] and not self.allin[seat]

    def live(self) -> list[int]:
        """Seats that have not folded."""
        return [seat for seat in range(self.n) if not self.folded[seat]]

    def _find(self, start: int) -> int:
        """The first seat from ``start`` clockwise that must act, or -1 when the round is over."""
        n, folded, allin, street = self.n, self.folded, self.allin, self.street
        live = actors = top = 0
        actor = -1
        for seat in range(n):
            if not folded[seat]:
                live += 1
                top = max(top, street[seat])
                if not allin[seat]:
                    actors += 1
                    actor = seat
        if live <= 1:
            return -1
        if actors <= 1:  # nobody to bet against: act only to answer a bet
            return actor if actors and street[actor] < top else -1
        current, acted = self.current, self.acted_at
        for k in range(n):
            seat = (start + k) % n
            if not folded[seat] and not allin[seat] and (acted[seat] < 0 or street[seat] < current):
                return seat
        return -1

    def _done_acting(self, seat: int) -> None:
        self.acted_at[seat] = self.current
        self.to_act = self._find(seat + 1)

    def end_round(self) -> tuple[int, int] | None:
        """Return uncalled chips to the bettor and collect the bets into the pot.

        Returns ``(seat, chips)`` if chips came back.
        """
        total = self.total
        top = max(range(self.n), key=total.__getitem__)
        second = max((t for s, t in enumerate(total) if s != top), default=0)
        extra = total[top] - second
        self.street = [0] * self.n
        self.to_act = -1
        if extra <= 0:
            return None
        total[top] -= extra
        self.stacks[top] += extra
        if self.stacks[top]:
            self.allin[top] = False
        return top, extra

    def pots(self) -> list[Pot]:
        """The pots as they stand: chips collected from finished rounds (bets of the round in
        play are still in front of the players), dead chips in the main pot."""
        collected = [t - s for t, s in zip(self.total, self.street)]
        return side_pots(collected, self.folded, self.dead)

    # -- questions ---------------------------------------------------------------------------
    def to_call(self, seat: int) -> int:
        """Chips ``seat`` needs to call (capped by the stack)."""
        return min(max(self.current - self.street[seat], 0), self.stacks[seat])

    def reopened(self, seat: int) -> bool:
        """True if ``seat`` may still bet or raise this round (the short all-in rule)."""
        at = self.acted_at[seat]
        return at < 0 or self.current - at >= self.increment

    def pot_total(self) -> int:
        """Every chip in the pot now, bets of this round included."""
        return sum(self.total) + self.dead

    def min_raise_to(self) -> int:
        """The smallest full bet or raise, as a total for the round (the last full increment)."""
        if self.rules.structure is Structure.LIMIT:
            return self.current + self.bet_size()
        if self.current == 0:
            return self.rules.min_bet
        return self.current + self.increment

    def max_raise_to(self, seat: int) -> int:
        """The largest bet or raise ``seat`` may make now, as a round total (limited by chips)."""
        everything = self.street[seat] + self.stacks[seat]
        structure = self.rules.structure
        if structure is Structure.NO_LIMIT:
            return everything
        if structure is Structure.LIMIT:
            return min(self.min_raise_to(), everything)
        call = self.current - self.street[seat]
        return min(self.current + self.pot_total() + call, everything)

    def others_can_act(self, seat: int) -> bool:
        """True if another seat could still answer a bet."""
        return any(not self.folded[s] and not self.allin[s] for s in range(self.n) if s != seat)

    def raise_refusal(self, seat: int, name: str) -> str | None:
        """Why ``seat`` may not bet or raise at all now (None when it may)."""
        if not self.reopened(seat):
            return (f"{name} cannot raise: the betting was not reopened "
                    f"(an all-in for less than a full raise); call or fold")
        if not self.others_can_act(seat):
            return f"{name} cannot raise: nobody left can call a raise"
        if self.rules.structure is Structure.LIMIT and self.bets >= self.rules.cap:
            return f"{name} cannot raise: the betting is capped at {self.rules.cap} bets this round"
        if self.stacks[seat] <= self.to_call(seat):
            return f"{name} cannot raise: not enough chips beyond the call"
        return None

    # -- acts (already verified by the caller) -----------------------------------------------
    def fold(self, seat: int) -> None:
        """Fold: out of the hand, chips stay in the pot."""
        self.folded[seat] = True
        self.to_act = self._find(seat + 1)

    def check_or_call(self, seat: int) -> int:
        """Match the current bet (or what the stack allows); returns the chips put in."""
        chips = self.to_call(seat)
        if chips:
            self._put(seat, chips)
        self._done_acting(seat)
        return chips

    def raise_to(self, seat: int, to: int) -> None:
        """Bet or raise to a round total of ``to`` (full or an all-in for less)."""
        self._put(seat, to - self.street[seat])
        increment = to - self.current
        if increment > 0:
            if to >= self.min_raise_to():
                self.increment = max(self.increment, increment) \
                    if self.rules.structure is not Structure.LIMIT else self.increment
                self.bets += 1
            self.current = to
        self._done_acting(seat)

    def add_dead(self, seat: int, chips: int) -> None:
        """Put ``chips`` in the pot that nobody has to match, and give everyone else a turn."""
        self.stacks[seat] -= chips
        self.dead += chips
        for other in range(self.n):
            if other != seat:
                self.acted_at[other] = -1
        self.to_act = self._find(seat + 1)

    def verify_turn(self, seat: int, name: str) -> None:
        """Raise unless it is ``seat``'s turn to bet."""
        if self.to_act != seat:
            who = f"seat {self.to_act}" if self.to_act >= 0 else "nobody"
            raise IllegalAction(f"{name} cannot act now: it is {who}'s turn")
