"""The inputs of the hold'em games: :class:`SeatInput` records, ``str()`` giving the history line.

Lines name every number after the seat: ``bet 1 amount=4``, ``raise 2 to=8`` (a round total),
``reroll 1 die=0 amount=2``. Community and private dice come in as the generic
:class:`~controller.games.rolls.Roll`.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.games.records import SeatInput, parse_record
from controller.games.rolls import Roll

__all__ = ["AllIn", "Bet", "Call", "Check", "Fold", "Leave", "Pass", "Protect", "Raise", "Rebuy",
           "Reroll", "Roll", "RECORDS", "parse"]


@dataclass(frozen=True, slots=True)
class Fold(SeatInput):
    """The seat gives up the hand."""

    verb = "fold"


@dataclass(frozen=True, slots=True)
class Check(SeatInput):
    """The seat stays in without putting chips in (nothing to call)."""

    verb = "check"


@dataclass(frozen=True, slots=True)
class Call(SeatInput):
    """The seat matches the current bet (all-in for less if short)."""

    verb = "call"


@dataclass(frozen=True, slots=True)
class Bet(SeatInput):
    """The first bet of a round: ``amount`` chips."""

    verb = "bet"
    said = ("bet {amount}", "bets {amount}")
    amount: int


@dataclass(frozen=True, slots=True)
class Raise(SeatInput):
    """A raise to ``to`` chips in total this round."""

    verb = "raise"
    said = ("raise to {to}", "raises to {to}")
    to: int


@dataclass(frozen=True, slots=True)
class AllIn(SeatInput):
    """The seat puts in every chip it has (a call, bet or raise)."""

    verb = "allin"
    said = ("go all-in", "goes all-in")


@dataclass(frozen=True, slots=True)
class Reroll(SeatInput):
    """Standard DiceHoldem: ``amount`` chips to put community die ``die`` (0-4) in reroll state."""

    verb = "reroll"
    said = ("bet {amount} to reroll die {die}", "bets {amount} to reroll die {die}")
    die: int
    amount: int


@dataclass(frozen=True, slots=True)
class Protect(SeatInput):
    """Standard DiceHoldem: ``amount`` chips to put community die ``die`` in protect state."""

    verb = "protect"
    said = ("bet {amount} to protect die {die}", "bets {amount} to protect die {die}")
    die: int
    amount: int


@dataclass(frozen=True, slots=True)
class Pass(SeatInput):
    """Standard DiceHoldem: no Reroll/Protect bet after this turn's ordinary action."""

    verb = "pass"
    said = ("pass", "passes on reroll/protect")


@dataclass(frozen=True, slots=True)
class Rebuy(SeatInput):
    """Between hands, a busted seat buys back in for the starting stack."""

    verb = "rebuy"


@dataclass(frozen=True, slots=True)
class Leave(SeatInput):
    """Between hands, a busted seat declines the rebuy and leaves the game."""

    verb = "leave"
    said = ("leave the table", "leaves the table")


RECORDS = (Fold, Check, Call, Bet, Raise, AllIn, Reroll, Protect, Pass, Rebuy, Leave)


def parse(line: str) -> SeatInput | Roll:
    """Read one history line (``str()`` of a record, or a roll) back into its record.

    >>> parse("raise 2 to=8")
    Raise(seat=2, to=8)

    :raises InvalidInput: quoting the line and saying what was expected.
    """
    return parse_record(line, RECORDS, game="hold'em")
