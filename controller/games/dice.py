"""Die kinds and their faces, as the games and the camera name them."""

from __future__ import annotations

from enum import Enum

from controller.games.errors import InvalidInput


class DieKind(Enum):
    """A kind of die the table uses; the value is the name used in files and on the command line."""

    D6 = "d6"
    D12 = "d12"
    D8_TAUREN = "d8-tauren"
    LETTERS = "letters"

    @property
    def faces(self) -> tuple[str, ...]:
        """The faces as written in histories and on the command line, lowest rank first.

        >>> DieKind.D8_TAUREN.faces
        ('2', '3', '4', '5', '6', 'W', 'C', 'S')
        """
        return _FACES[self]

    def noun(self, count: int = 2) -> str:
        """What the room calls ``count`` dice of this kind, without the number: the value is the
        name a dealer types, ``d8-tauren`` and ``letters``, which a sentence does not read.

        >>> DieKind.D8_TAUREN.noun(3), DieKind.LETTERS.noun(1), DieKind.D12.noun(1)
        ('Tauren dice', 'letter die', 'd12')
        """
        return _NOUNS[self][count != 1]

    def parse_face(self, text: str) -> str:
        """Return the canonical face for ``text`` or raise :class:`InvalidInput`.

        >>> DieKind.LETTERS.parse_face("h")
        'H'
        """
        face = text.strip().upper()
        if face not in self.faces:
            raise InvalidInput(f"{text!r} is not a face of a {self.value} die "
                               f"(faces: {' '.join(self.faces)})")
        return face


_NOUNS: dict[DieKind, tuple[str, str]] = {
    DieKind.D6: ("d6", "d6"),
    DieKind.D12: ("d12", "d12"),
    DieKind.D8_TAUREN: ("Tauren die", "Tauren dice"),
    DieKind.LETTERS: ("letter die", "letter dice"),
}

_FACES: dict[DieKind, tuple[str, ...]] = {
    DieKind.D6: tuple(str(n) for n in range(1, 7)),
    DieKind.D12: tuple(str(n) for n in range(1, 13)),
    DieKind.D8_TAUREN: ("2", "3", "4", "5", "6", "W", "C", "S"),
    DieKind.LETTERS: ("M", "E", "D", "L", "O", "H"),
}
