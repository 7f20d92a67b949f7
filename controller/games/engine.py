"""The plumbing every rules engine shares: inputs dispatched to their verify and act methods.

An engine names, in ``HANDLERS``, the verify and act methods of each record type it takes;
:class:`Engine` turns that into ``verify``/``can``/``apply`` (pokerkit's triple, generic over the
record), keeps the log of accepted inputs, checks seat numbers, and builds every seat's view as
the one public view plus what only that seat may see.

``apply`` is all or nothing: should an act fail half-way (a bug, never an illegal input, which
``verify`` refuses first), the engine is rebuilt from its own accepted inputs, so a caller that
catches the error holds the game exactly as it was.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Mapping, Sequence, TypeVar

from controller.games.base import Input
from controller.games.dice import DieKind
from controller.games.errors import IllegalAction
from controller.games.records import SeatInput
from controller.games.rolls import SEALED, Roll
from controller.games.view import TableView

Handler = Callable[[Any, Any], None]  # an engine method taken from its class: (engine, record)
_R = TypeVar("_R", bound=Input)


class Engine(ABC):
    """Base of the rules engines; a subclass sets ``name`` and ``HANDLERS`` and calls
    ``super().__init__(seats)`` before it uses :attr:`inputs`."""

    name: str
    title: str  # the game's name for people: ``Tao Dice``
    HANDLERS: ClassVar[Mapping[type, tuple[str, str]]]  # record type -> (verify, act) method names
    _handlers: ClassVar[dict[type, tuple[Handler, Handler]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Look the handlers up once per class (a fresh table per hand must stay cheap)."""
        super().__init_subclass__(**kwargs)
        if "HANDLERS" in vars(cls) or cls._handlers:
            cls._handlers = {kind: (getattr(cls, verify), getattr(cls, act))
                             for kind, (verify, act) in cls.HANDLERS.items()}

    def __init__(self, seats: int) -> None:
        self._seats = seats
        self._inputs: list[Input] = []

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
        self._handler(inp)[0](self, inp)

    def can(self, inp: Input) -> bool:
        """Whether ``inp`` is legal now."""
        try:
            self.verify(inp)
        except IllegalAction:
            return False
        return True

    def apply(self, inp: Input) -> Input:
        """Verify ``inp``, act on it and return the record appended to :attr:`inputs`.

        An illegal input raises :class:`IllegalAction` and changes nothing; an act that fails
        after ``verify`` passed (a bug) leaves the engine as it was before, then re-raises.
        """
        verify, act = self._handler(inp)
        verify(self, inp)
        try:
            act(self, inp)
        except BaseException:
            self._restore()
            raise
        self._inputs.append(inp)
        return inp

    def _restore(self) -> None:
        """Become again what the accepted inputs make: a fresh game replays them, and this
        object takes its state (replaying costs nothing until an act fails)."""
        fresh = self._fresh()
        for inp in self._inputs:
            fresh.apply(inp)
        vars(self).clear()
        vars(self).update(vars(fresh))

    @abstractmethod
    def _fresh(self) -> Engine:
        """A new game with the same seats and options, before any input."""

    @abstractmethod
    def view(self, names: Sequence[str] | None = None) -> TableView:
        """What the room may see, typed (seats named ``names``, default ``Seat N``)."""

    def seat_names(self, names: Sequence[str] | None) -> list[str]:
        """``names`` padded with ``Seat N`` for the seats it does not name."""
        given = list(names or ())
        return [given[seat] if seat < len(given) and given[seat] else f"Seat {seat}"
                for seat in range(self._seats)]

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
        pair = type(self)._handlers.get(type(inp))
        if pair is None:
            kind = type(inp)
            raise IllegalAction(f"{self.name} does not take {kind.__module__}.{kind.__qualname__} "
                                f"inputs: {str(inp)!r}")
        return pair

    def _verify_faces(self, inp: Roll, kind: DieKind, sealable: bool,
                      why: Callable[[], str]) -> None:
        """Raise unless the roll's faces are all faces of ``kind``, or all ``?`` where the dice
        may be sealed; ``why()`` says what these dice are, for the refusal (built only then)."""
        faces = kind.faces
        if all(face in faces for face in inp.faces):
            return
        if inp.sealed:
            if not sealable:
                raise IllegalAction(f"{why()} cannot be entered sealed ('?'): the table must see "
                                    f"their faces")
            return
        if SEALED in inp.faces:
            raise IllegalAction(f"{why()}: a roll is either sealed (every face '?') or read "
                                f"(every face), not a mix")
        face = next(face for face in inp.faces if face not in faces)
        raise IllegalAction(f"{face!r} is not a face of a {kind.value} die")

    def _seat_at_table(self, seat: int | None, verb: str = "") -> int:
        """``seat`` if it is a seat of this table.

        :raises IllegalAction: naming the seats there are.
        """
        if seat is None or not 0 <= seat < self._seats:
            to = f" to {verb}" if verb else ""
            raise IllegalAction(f"there is no seat {seat}{to} (seats 0-{self._seats - 1})")
        return seat


def and_list(words: Sequence[str]) -> str:
    """Words as a sentence lists them.

    >>> and_list(["Ana"]), and_list(["Ana", "Ben"]), and_list(["Ana", "Ben", "Cleo"])
    ('Ana', 'Ana and Ben', 'Ana, Ben and Cleo')
    """
    return f"{', '.join(words[:-1])} and {words[-1]}" if len(words) > 1 else "".join(words)


def seat_words(seats: Sequence[int], names: Sequence[str] | None = None) -> str:
    """The seats as a sentence names them: by ``names`` when given, else by number.

    >>> seat_words([2]), seat_words([0, 2]), seat_words([0, 2], ["Ana", "Ben", "Cleo"])
    ('seat 2', 'seats 0, 2', 'Ana, Cleo')
    """
    if names is not None:
        return ", ".join(names[s] for s in seats)
    return f"seat{'' if len(seats) == 1 else 's'} {', '.join(str(s) for s in seats)}"
