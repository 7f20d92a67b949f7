"""What every game engine offers the table, the bots and the command line.

A game is a value built from rule options and seat count; inputs (player actions and dice
observations) go in one at a time through :meth:`Game.apply`. Each input kind also has
``verify_*`` / ``can_*`` / act methods on the concrete game (pokerkit's triple); ``apply`` is the
generic entry that dispatches to them, so replay and the table need not know the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence, runtime_checkable

from controller.games.dice import DieKind

if TYPE_CHECKING:  # view.py imports DiceNeeded from here
    from controller.games.view import TableView

REVEAL = "reveal"  # the reason of a DiceNeeded asking sealed hidden dice for their faces


@dataclass(frozen=True)
class DiceNeeded:
    """Dice the engine waits for: ``count`` dice of ``kind`` rolled by ``seat``.

    ``seat`` is None for community dice. ``hidden`` dice (a Tao player's 2d6 in the tube, a hold'em
    player's private dice) are entered by their owner or the simulation and never shown publicly;
    they may be entered sealed (``Roll.sealed_roll``: rolled, faces unknown). ``reason``
    ``reveal`` asks a seat whose hidden dice are sealed for their faces at a showdown; the answer
    is a plain ``Roll(seat, kind, faces)``.
    """

    seat: int | None
    kind: DieKind
    count: int
    hidden: bool
    reason: str


@dataclass(frozen=True)
class Pending:
    """What the game waits for now.

    ``actors`` may act now (Tao Dice lets several respond in any order); ``prompt`` is the seat the
    table prompts first (its light is lit). ``dice`` lists the rolls needed before anything else.
    ``over`` is True when the game has ended and accepts no input.
    """

    actors: tuple[int, ...] = ()
    prompt: int | None = None
    dice: tuple[DiceNeeded, ...] = ()
    over: bool = False
    note: str = ""


@runtime_checkable
class Input(Protocol):
    """An action or observation record: frozen, with ``str()`` giving its history line.

    ``seat`` is the seat it comes from (None: the table's own dice, the community roll).
    """

    @property
    def seat(self) -> int | None: ...

    def __str__(self) -> str: ...


@runtime_checkable
class Game(Protocol):
    """The surface every rules engine offers (see ``controller.games.tao`` for the first)."""

    name: str

    @property
    def seats(self) -> int: ...

    @property
    def inputs(self) -> Sequence[Input]:
        """Every accepted input, in order: the game is ``replay(options, inputs)``."""
        ...

    @property
    def hands_played(self) -> int:
        """Rounds (Tao) or hands (hold'em) completed so far."""
        ...

    def options_text(self) -> Mapping[str, str]:
        """The rule options as ``key -> text`` for a history header (round-trips via ``create``)."""
        ...

    def pending(self) -> Pending: ...

    def verify(self, inp: Input) -> None:
        """Raise :class:`IllegalAction` with a player-readable reason if ``inp`` is illegal now."""
        ...

    def can(self, inp: Input) -> bool: ...

    def apply(self, inp: Input) -> Input:
        """Verify and act; returns the record appended to :attr:`inputs`. Illegal: no change."""
        ...

    def legal_inputs(self, seat: int) -> list[Input]:
        """A finite list of legal inputs for ``seat`` now (bets at representative sizes)."""
        ...

    def parse_input(self, line: str) -> Input:
        """Parse one history line (``str()`` of an input) back into an equal record."""
        ...

    def view(self, names: Sequence[str] | None = None) -> TableView:
        """What the room may see, as one typed record for every game: never an unrevealed or
        folded hidden die. ``names`` name the seats (default ``Seat N``)."""
        ...

    def public_view(self) -> dict[str, Any]:
        """What the room may see: JSON-ready, never an unrevealed hidden die."""
        ...

    def seat_view(self, seat: int) -> dict[str, Any]:
        """What ``seat``'s player may see: the public view plus their own hidden dice."""
        ...

    def chips_total(self) -> int:
        """Stones/chips in stacks and pots now (plus rebuys counted in); must stay conserved."""
        ...

    def chips_expected(self) -> int:
        """What :meth:`chips_total` must equal: all that was dealt or bought in."""
        ...

    def final(self) -> dict[str, Any]:
        """The summary printed by ``simulate``/``replay --json`` as ``final`` (JSON-ready)."""
        ...


@dataclass(frozen=True)
class GameSpec:
    """A registered game: how to build it from the command line's or a header's options."""

    name: str
    target: str  # "module:callable" building the game: callable(seats: int, options: dict[str, str])
    bots: Mapping[str, str] = field(default_factory=dict)  # bot name -> "module:Class"
    min_seats: int = 2
    max_seats: int = 10
