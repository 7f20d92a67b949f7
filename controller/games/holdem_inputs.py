"""The inputs of the hold'em games: frozen records whose ``str()`` is their history line.

Community and private dice come in as the generic :class:`~controller.games.rolls.Roll`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from controller.games.base import Input
from controller.games.errors import InvalidInput
from controller.games.rolls import Roll

__all__ = ["AllIn", "Bet", "Call", "Check", "Fold", "Leave", "Pass", "Protect", "Raise", "Rebuy",
           "Reroll", "Roll", "parse"]


@dataclass(frozen=True, slots=True)
class Fold:
    """The seat gives up the hand."""

    seat: int

    def __str__(self) -> str:
        return f"fold {self.seat}"


@dataclass(frozen=True, slots=True)
class Check:
    """The seat stays in without putting chips in (nothing to call)."""

    seat: int

    def __str__(self) -> str:
        return f"check {self.seat}"


@dataclass(frozen=True, slots=True)
class Call:
    """The seat matches the current bet (all-in for less if short)."""

    seat: int

    def __str__(self) -> str:
        return f"call {self.seat}"


@dataclass(frozen=True, slots=True)
class Bet:
    """The first bet of a round: ``amount`` chips."""

    seat: int
    amount: int

    def __str__(self) -> str:
        return f"bet {self.seat} {self.amount}"


@dataclass(frozen=True, slots=True)
class Raise:
    """A raise to ``to`` chips in total this round."""

    seat: int
    to: int

    def __str__(self) -> str:
        return f"raise {self.seat} {self.to}"


@dataclass(frozen=True, slots=True)
class AllIn:
    """The seat puts in every chip it has (a call, bet or raise)."""

    seat: int

    def __str__(self) -> str:
        return f"allin {self.seat}"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Standard DiceHoldem: ``amount`` chips to put community die ``die`` (0-4) in reroll state."""

    seat: int
    die: int
    amount: int

    def __str__(self) -> str:
        return f"reroll {self.seat} {self.die} {self.amount}"


@dataclass(frozen=True, slots=True)
class Protect:
    """Standard DiceHoldem: ``amount`` chips to put community die ``die`` in protect state."""

    seat: int
    die: int
    amount: int

    def __str__(self) -> str:
        return f"protect {self.seat} {self.die} {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass:
    """Standard DiceHoldem: no Reroll/Protect bet after this turn's ordinary action."""

    seat: int

    def __str__(self) -> str:
        return f"pass {self.seat}"


@dataclass(frozen=True, slots=True)
class Rebuy:
    """Between hands, a busted seat buys back in for the starting stack."""

    seat: int

    def __str__(self) -> str:
        return f"rebuy {self.seat}"


@dataclass(frozen=True, slots=True)
class Leave:
    """Between hands, a busted seat declines the rebuy and leaves the game."""

    seat: int

    def __str__(self) -> str:
        return f"leave {self.seat}"


_SHAPES: dict[str, tuple[int, Callable[..., Input]]] = {
    "fold": (1, Fold), "check": (1, Check), "call": (1, Call), "allin": (1, AllIn),
    "pass": (1, Pass), "rebuy": (1, Rebuy), "leave": (1, Leave), "bet": (2, Bet),
    "raise": (2, Raise), "reroll": (3, Reroll), "protect": (3, Protect)}


def parse(line: str) -> Input:
    """Read one history line (``str()`` of a record, or a roll) back into its record.

    >>> parse("raise 2 8")
    Raise(seat=2, to=8)

    :raises InvalidInput: quoting the line.
    """
    words = line.split()
    if not words:
        raise InvalidInput("empty input line")
    verb = words[0].lower()
    if verb == "roll":
        return Roll.parse(line)
    if verb not in _SHAPES:
        raise InvalidInput(f"unknown input {verb!r} in {line!r} "
                           f"(known: roll, {', '.join(sorted(_SHAPES))})")
    count, cls = _SHAPES[verb]
    if len(words) != count + 1 or not all(w.isdigit() for w in words[1:]):
        raise InvalidInput(f"{verb!r} takes {count} whole number(s): {line!r}")
    return cls(*(int(w) for w in words[1:]))
