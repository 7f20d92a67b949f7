"""The dice observation record every game accepts: who rolled which kind of die and what it shows.

One record for all games, so the simulation, the camera and the dealer console can feed dice to any
engine without knowing it: the engine says what it needs (``Pending.dice``), the producer answers
with ``Roll(needed.seat, needed.kind, faces)``.

>>> str(Roll(2, DieKind.D6, ("3", "5")))
'roll 2 d6 3 5'
>>> Roll.parse("roll table d8-tauren W 2 S") == Roll(None, DieKind.D8_TAUREN, ("W", "2", "S"))
True

A hidden roll the camera cannot see (inside a tube or cup) is entered sealed, every face ``?``;
its faces come in later, when the engine asks the seat to reveal:

>>> Roll.parse("roll 2 d6 ? ?").sealed
True
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput

TABLE = "table"  # how a history names the seat of community dice
SEALED = "?"  # the face of a die rolled out of sight: the table knows it was rolled, not what


@dataclass(frozen=True, slots=True)
class Roll:
    """Dice observed: ``faces`` of ``kind`` rolled by ``seat`` (None: community dice)."""

    seat: int | None
    kind: DieKind
    faces: tuple[str, ...]

    def __str__(self) -> str:
        who = TABLE if self.seat is None else str(self.seat)
        return f"roll {who} {self.kind.value} {' '.join(self.faces)}"

    @property
    def sealed(self) -> bool:
        """True when the faces are unknown (every face ``?``): a hidden roll out of sight."""
        return bool(self.faces) and all(face == SEALED for face in self.faces)

    @classmethod
    def sealed_roll(cls, seat: int | None, kind: DieKind, count: int) -> Roll:
        """``count`` dice of ``kind`` rolled by ``seat`` out of sight (faces unknown)."""
        return cls(seat, kind, (SEALED,) * count)

    @classmethod
    def parse(cls, line: str) -> Roll:
        """Read ``roll <seat|table> <kind> <face>...`` back into a record.

        :raises InvalidInput: quoting the line when it is not a roll.
        """
        words = line.split()
        if len(words) < 4 or words[0] != "roll":
            raise InvalidInput(f"not a roll: {line!r} (expected 'roll SEAT KIND FACE...')")
        seat = None if words[1] == TABLE else _seat(words[1], line)
        try:
            kind = DieKind(words[2].lower())
        except ValueError:
            known = ", ".join(k.value for k in DieKind)
            raise InvalidInput(f"unknown die kind {words[2]!r} in {line!r} (known: {known})") from None
        faces = words[3:]
        if SEALED in faces:
            if any(face != SEALED for face in faces):
                raise InvalidInput(f"cannot read {line!r}: a roll is either sealed (every face "
                                   f"{SEALED!r}) or open (every face read), not a mix")
            return cls(seat, kind, tuple(faces))
        return cls(seat, kind, tuple(kind.parse_face(face) for face in faces))


def _seat(text: str, line: str) -> int:
    if not text.isdigit():
        raise InvalidInput(f"seat must be a number or {TABLE!r}: {text!r} in {line!r}")
    return int(text)
