"""One base for every game's player inputs: ``str()`` writes the history line, one parser reads it.

A record is a frozen dataclass whose first field is ``seat``; its line is the verb, the seat, then
every other field as ``name=N`` in the order the class declares them. A line therefore names each
number, reads the same in every game, and cannot be mistaken for a record with other fields:

>>> @dataclass(frozen=True, slots=True)
... class Reroll(SeatInput):
...     verb = "reroll"
...     die: int
...     amount: int
>>> str(Reroll(1, die=0, amount=4))
'reroll 1 die=0 amount=4'
>>> parse_record("reroll 1 amount=4 die=0", [Reroll])
Reroll(seat=1, die=0, amount=4)

Dice observations are the one input with another shape (:class:`~controller.games.rolls.Roll`);
every game accepts them, so :func:`parse_record` hands ``roll`` lines to :meth:`Roll.parse`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar, Iterable, TypeVar

from controller.games.errors import InvalidInput
from controller.games.rolls import Roll

__all__ = ["SeatInput", "field_names", "parse_record", "shape"]


@dataclass(frozen=True, slots=True)
class SeatInput:
    """An action of the player at ``seat``; subclasses set ``verb`` and add whole-number fields."""

    verb: ClassVar[str]
    said: ClassVar[tuple[str, str]] = ("", "")  # ("raise to {to}", "raises to {to}"); "": verb
    seat: int

    def __str__(self) -> str:
        values = (f"{name}={getattr(self, name)}" for name in field_names(type(self)))
        return " ".join([self.verb, str(self.seat), *values])

    def says(self, you: bool = False) -> str:
        """What the player did in the table's words, for the player (``you``) or the room.

        >>> @dataclass(frozen=True, slots=True)
        ... class Raise(SeatInput):
        ...     verb = "raise"
        ...     said = ("raise to {to}", "raises to {to}")
        ...     to: int
        >>> Raise(2, 8).says(), Raise(2, 8).says(you=True)
        ('raises to 8', 'raise to 8')
        """
        mine, theirs = self.said
        template = (mine or self.verb) if you else (theirs or f"{self.verb}s")
        return template.format(**{name: getattr(self, name) for name in field_names(type(self))})


_R = TypeVar("_R", bound=SeatInput)


def shape(cls: type[SeatInput]) -> str:
    """How a line of ``cls`` is written, for messages.

    >>> @dataclass(frozen=True, slots=True)
    ... class Raise(SeatInput):
    ...     verb = "raise"
    ...     to: int
    >>> shape(Raise)
    'raise SEAT to=N'
    """
    return " ".join([cls.verb, "SEAT", *(f"{name}=N" for name in field_names(cls))])


def parse_record(line: str, classes: Iterable[type[_R]], game: str = "") -> _R | Roll:
    """Read one history line into the record of ``classes`` its verb names, or a :class:`Roll`.

    Fields may come in any order; ``game`` names the game in the unknown-verb message.

    :raises InvalidInput: quoting the line and saying what was expected: the known verbs, or the
        field that is missing, repeated, unknown or not a whole number.
    """
    words = line.split()
    if not words:
        raise InvalidInput("empty input line")
    verb = words[0].lower()
    if verb == "roll":
        return Roll.parse(line)
    by_verb = {cls.verb: cls for cls in classes}
    cls = by_verb.get(verb)
    if cls is None:
        known = ", ".join(sorted([*by_verb, "roll"]))
        raise InvalidInput(f"unknown {game + ' ' if game else ''}input {verb!r} in {line!r} "
                           f"(known: {known})")
    return cls(_seat(words, line, cls), **_values(words[2:], line, cls))


def _seat(words: list[str], line: str, cls: type[SeatInput]) -> int:
    seat = _whole(words[1]) if len(words) > 1 else None
    if seat is None:
        found = f"not {words[1]!r}" if len(words) > 1 else "it is missing"
        raise InvalidInput(f"cannot read {line!r}: the seat must be a whole number, {found} "
                           f"(expected {shape(cls)!r})")
    return seat


def _values(words: list[str], line: str, cls: type[SeatInput]) -> dict[str, int]:
    names = field_names(cls)
    values: dict[str, int] = {}
    for word in words:
        name, eq, text = word.partition("=")
        name = name.lower()
        if not eq or name not in names:
            raise InvalidInput(f"cannot read {line!r}: {word!r} is not a field of {cls.verb} "
                               f"(expected {shape(cls)!r})")
        if name in values:
            raise InvalidInput(f"cannot read {line!r}: {name}= is given twice")
        number = _whole(text)
        if number is None:
            raise InvalidInput(f"cannot read {line!r}: {name} must be a whole number, "
                               f"not {text!r}")
        values[name] = number
    missing = [name for name in names if name not in values]
    if missing:
        raise InvalidInput(f"cannot read {line!r}: {', '.join(f'{n}=' for n in missing)} "
                           f"missing (expected {shape(cls)!r})")
    return values


def _whole(text: str) -> int | None:
    """``text`` as a whole number >= 0 (ASCII digits only), else None."""
    return int(text) if text.isascii() and text.isdigit() else None


_NAMES: dict[type[SeatInput], tuple[str, ...]] = {}


def field_names(cls: type[SeatInput]) -> tuple[str, ...]:
    """The fields of ``cls`` after ``seat``, in the order its line writes them."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls) if f.name != "seat")
    return names
