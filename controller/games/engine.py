"""The plumbing every rules engine shares: inputs dispatched to their verify and act methods.

An engine names, in ``HANDLERS``, the verify and act methods of each record type it takes;
:class:`Engine` turns that into ``verify``/``can``/``apply`` (pokerkit's triple, generic over the
record), keeps the log of accepted inputs, checks seat numbers, and builds every seat's view as
the one public view plus what only that seat may see.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Mapping, Sequence, TypeVar

from controller.games.base import Input
from controller.games.dice import DieKind
from controller.games.errors import IllegalAction
from controller.games.records import SeatInput
from controller.games.rolls import Roll

Handler = Callable[[Any], None]
_R = TypeVar("_R", bound=Input)


class Engine(ABC):
    """Base of the rules engines; a subclass sets ``name`` and ``HANDLERS`` and calls
    ``super().__init__(seats)`` before it uses :attr:`inputs`."""

    name: str
    HANDLERS: ClassVar[Mapping[type, tuple[str, str]]]  # record type -> (verify, act) method names

    def __init__(self, seats: int) -> None:
        self._seats = seats
        self._inputs: list[Input] = []
        self._handlers: dict[type, tuple[Handler, Handler]] = {
            kind: (getattr(self, verify), getattr(self, act))
            for kind, (verify, act) in self.HANDLERS.items()}

    @classmethod
    def records(cls) -> dict[str, type[SeatInput]]:
        """The players' input records this engine takes, by verb (dice come as :class:`Roll`)."""
        return {kind.verb: kind for kind in cls.HANDLERS if issubclass(kind, SeatInput)}

    @property
    def seats(self) -> int:
        """Seats at the table (players who started the game)."""
        return self._seats

    @property
    def inputs(self) -> Sequence[Input]:
        """Every accepted input, in order."""
        return self._inputs

    def verify(self, inp: Input) -> None:
        """Raise :class:`IllegalAction` with the reason if ``inp`` is not legal now."""
        self._handler(inp)[0](inp)

    def can(self, inp: Input) -> bool:
        """Whether ``inp`` is legal now."""
        try:
            self.verify(inp)
        except IllegalAction:
            return False
        return True

    def apply(self, inp: Input) -> Input:
        """Verify ``inp``, act on it and return the record appended to :attr:`inputs`.

        An illegal input raises :class:`IllegalAction` and changes nothing.
        """
        verify, act = self._handler(inp)
        verify(inp)
        act(inp)
        self._inputs.append(inp)
        return inp

    @abstractmethod
    def public_view(self) -> dict[str, Any]:
        """What the room may see: JSON-ready, never an unrevealed hidden die."""

    def seat_view(self, seat: int) -> dict[str, Any]:
        """The public view plus what only ``seat``'s player may see (their own hidden dice).

        :raises IllegalAction: for a seat that is not at the table.
        """
        self._seat_at_table(seat)
        return {**self.public_view(), **self._own_view(seat)}

    @abstractmethod
    def _own_view(self, seat: int) -> dict[str, Any]:
        """The keys :meth:`seat_view` adds to the public view for ``seat``."""

    def verify_roll(self, seat: int | None, kind: DieKind, faces: Sequence[str]) -> None:
        """Raise unless these dice are what the engine waits for (seat None: community dice)."""
        self.verify(Roll(seat, kind, tuple(faces)))

    def can_roll(self, seat: int | None, kind: DieKind, faces: Sequence[str]) -> bool:
        """Whether these dice are what the engine waits for."""
        return self.can(Roll(seat, kind, tuple(faces)))

    def roll(self, seat: int | None, kind: DieKind, faces: Sequence[str]) -> Roll:
        """Observe dice: a seat's own roll, or community dice (seat None)."""
        return self._do(Roll(seat, kind, tuple(faces)))

    def _do(self, inp: _R) -> _R:
        """Apply ``inp`` and return it with its own type (for the typed per-kind methods)."""
        self.apply(inp)
        return inp

    def _handler(self, inp: Input) -> tuple[Handler, Handler]:
        pair = self._handlers.get(type(inp))
        if pair is None:
            kind = type(inp)
            raise IllegalAction(f"{self.name} does not take {kind.__module__}.{kind.__qualname__} "
                                f"inputs: {str(inp)!r}")
        return pair

    def _seat_at_table(self, seat: int | None, verb: str = "") -> int:
        """``seat`` if it is a seat of this table.

        :raises IllegalAction: naming the seats there are.
        """
        if seat is None or not 0 <= seat < self._seats:
            to = f" to {verb}" if verb else ""
            raise IllegalAction(f"there is no seat {seat}{to} (seats 0-{self._seats - 1})")
        return seat
