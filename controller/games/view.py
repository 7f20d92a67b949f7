"""The one public view every engine gives: typed records the table, the web and the venue share.

Every engine builds a :class:`TableView` in one function (its ``view()``), the only place where a
game's state becomes something the room may see, so a hidden die cannot leak by another path.
Nothing outside ``controller.games`` reads an engine's own fields or switches on a game's name:
the scoreboard draws seats, pots, dice and facts the same way for every game.

>>> view = TableView(game="tao", title="Tao Dice", number=1, phase="ante",
...                  seats=(SeatView(0, "Seat 0", SeatStatus.ACTIVE, (Holding("black", 4),)),))
>>> view.to_json()["seats"][0]["stack"]
[{'unit': 'black', 'count': 4}]
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from enum import Enum
from typing import Any, Sequence

from controller.games.base import DiceNeeded
from controller.games.dice import DieKind

__all__ = ["Awaited", "DieView", "Fact", "Holding", "PotView", "Result", "SeatStatus", "SeatView",
           "Shown", "TableView", "to_json"]


class SeatStatus(Enum):
    """A seat's place in the current hand or round, in words every game shares."""

    ACTIVE = "active"          # dealt in and not folded
    ALL_IN = "all-in"          # hold'em: in the hand with no chips behind
    FOLDED = "folded"          # left this hand/round; their dice are never shown
    SITTING_OUT = "sitting-out"  # not in this round (Tao Dice tiebreak: not among the tied)
    OUT = "out"                # out of the match or game (no stones, busted, left)
    DECIDING = "deciding"      # hold'em: busted, choosing rebuy or leave


@dataclass(frozen=True)
class Holding:
    """``count`` of one unit: ``black`` or ``white`` stones, or ``chips``."""

    unit: str
    count: int


@dataclass(frozen=True)
class DieView:
    """One die as the room sees it: ``face`` None while it is sealed (rolled, not yet revealed).

    ``state`` marks a die for the table: ``reroll``/``protect`` (DiceHoldem bets on a community
    die), ``reroll-due`` (a white stone forces a reroll), or empty.
    """

    kind: DieKind
    face: str | None
    state: str = ""
    colour: str = ""  # the colour of the seat whose die it is, "" when unknown (community dice)


@dataclass(frozen=True)
class SeatView:
    """A seat: its stack and what it has in front of it, its public dice, and table marks.

    ``dice`` holds the seat's dice the room may see: open dice (a Tao Dice d12) and revealed
    hidden dice; a hidden die not yet revealed appears with ``face`` None, a folded seat's hidden
    dice not at all. ``marks`` are short tags such as ``button``, ``big blind``, ``token silver``.
    """

    seat: int
    name: str
    status: SeatStatus
    stack: tuple[Holding, ...]
    bet: tuple[Holding, ...] = ()
    dice: tuple[DieView, ...] = ()
    marks: tuple[str, ...] = ()
    colour: str = ""
    """The seat's colour (``#rrggbb``), given by the table; "" from an engine alone."""


@dataclass(frozen=True)
class PotView:
    """A pot (``pot``, ``main pot``, ``side pot 1``): its stones or chips and who can win it;
    ``winners`` who won it once it is paid (a :class:`Result`'s pots), () while it is in play."""

    name: str
    amount: tuple[Holding, ...]
    eligible: tuple[int, ...]
    winners: tuple[int, ...] = ()


@dataclass(frozen=True)
class Awaited:
    """What the game waits for: ``seats`` that may act, the ``prompt`` seat (its light), the dice
    it needs (``reason`` ``reveal`` for sealed dice asked at a showdown) and a line for the room."""

    seats: tuple[int, ...] = ()
    prompt: int | None = None
    dice: tuple[DiceNeeded, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class Shown:
    """A seat's hand at a showdown: its dice, the hand's name (``full house``, ``score 19``), and
    what it won."""

    seat: int
    dice: tuple[DieView, ...]
    hand: str
    won: tuple[Holding, ...] = ()


@dataclass(frozen=True)
class Result:
    """How the last hand or round ended: winners, shown hands, and a sentence for the room;
    ``headline`` who won what in a few words, said by the engine because only the rules know
    whether two winners split a pot, each won a different pot, or tie and play on (``Ben wins``,
    ``Cleo and Dev split``, ``Ben wins the main pot; Cleo and Dev split side pot 1``, ``Ana and
    Ben tie``); ``community`` the board the hands were made with (hold'em), ``pots`` as they were
    paid, each with its winners."""

    number: int
    winners: tuple[int, ...]
    shown: tuple[Shown, ...]
    text: str
    headline: str
    pots: tuple[PotView, ...] = ()
    community: tuple[DieView, ...] = ()


@dataclass(frozen=True)
class Fact:
    """A game-specific line the scoreboard shows as it is (``Match``: ``2``; ``Token``: ``seat 1,
    silver``; ``Blinds``: ``1/2``), so it never needs to know which game it shows."""

    label: str
    value: str


@dataclass(frozen=True)
class TableView:
    """What the room may see of one game now. ``game`` is the registry name, ``title`` its name
    for people; ``number`` counts hands (hold'em) or rounds (Tao Dice) from 1."""

    game: str
    title: str
    number: int
    phase: str
    seats: tuple[SeatView, ...]
    pots: tuple[PotView, ...] = ()
    community: tuple[DieView, ...] = ()
    awaited: Awaited = field(default_factory=Awaited)
    result: Result | None = None
    facts: tuple[Fact, ...] = ()
    over: bool = False
    winner: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (field names are part of the web API once released)."""
        data: dict[str, Any] = to_json(self)
        return data

    def coloured(self, colours: Sequence[str]) -> TableView:
        """This view with every seat, and its dice (in front of it and at the showdown), in the
        seat's colour ``colours[seat]``; community dice and seats without a colour stay ``""``.

        >>> view = TableView("g", "G", 1, "p", (SeatView(1, "B", SeatStatus.ACTIVE, (),
        ...                  dice=(DieView(DieKind.D6, "3"),)),))
        >>> view.coloured(["red", "blue"]).seats[0].dice[0].colour
        'blue'
        """
        if not any(colours):
            return self

        def paint(seat: int, dice: tuple[DieView, ...]) -> tuple[DieView, ...]:
            colour = colours[seat] if 0 <= seat < len(colours) else ""
            return tuple(replace(die, colour=colour) for die in dice)
        seats = tuple(replace(seat, colour=colours[seat.seat] if seat.seat < len(colours) else "",
                              dice=paint(seat.seat, seat.dice)) for seat in self.seats)
        result = self.result and replace(self.result, shown=tuple(
            replace(shown, dice=paint(shown.seat, shown.dice)) for shown in self.result.shown))
        return replace(self, seats=seats, result=result)


def to_json(value: Any) -> Any:
    """A record, enum, tuple or plain value as JSON-ready data (dataclass fields by name)."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [to_json(item) for item in value]
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items()}
    return value
