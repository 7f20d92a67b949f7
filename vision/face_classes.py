"""The face network's classes: not a die, every face of every kind, unreadable.

One network reads all kinds, so that a die of another kind than the one asked for is seen as such
(its probability goes to that kind's faces) instead of being forced onto the asked kind's faces.

>>> CLASSES[0], CLASSES[1], CLASSES[-1]
('none', 'd6:1', 'unreadable')
>>> face_slice(DieKind.LETTERS).stop - face_slice(DieKind.LETTERS).start
6
"""

from __future__ import annotations

from controller.games.dice import DieKind

KINDS = (DieKind.D6, DieKind.D12, DieKind.D8_TAUREN, DieKind.LETTERS)
"""Every kind the network knows, in the order of its classes."""

CLASSES = ("none", *(f"{kind.value}:{face}" for kind in KINDS for face in kind.faces), "unreadable")
"""Class names: 0 no die centred here, then each kind's faces in ``kind.faces`` order, last a die
that cannot be read (cocked: its top face leans away)."""

NOT_A_DIE = 0
UNREADABLE = len(CLASSES) - 1


def face_slice(kind: DieKind) -> slice:
    """Where ``kind``'s faces lie among the classes, in ``kind.faces`` order."""
    start = 1 + sum(len(k.faces) for k in KINDS[:KINDS.index(kind)])
    return slice(start, start + len(kind.faces))


def face_class(kind: DieKind, value: int) -> int:
    """The class of face number ``value`` (1-based, ``kind.faces`` order) of a ``kind`` die."""
    return int(face_slice(kind).start) + value - 1


FACE_PX = 48
"""Side of the square crop the face network sees."""

FACE_CROP = 1.35
"""A face crop's side as a multiple of the die's side: the whole die and a little of the tray
(tighter than the d6 reader's: a d12's numerals are small)."""

NUMERAL_CROP = 0.8
"""A d12 numeral crop's side as a multiple of the die's side: its top face, the numeral large."""


TURNED = len(CLASSES)
"""The upright reader's last class: a top face turned away from upright."""

UPRIGHT_CLASSES = (*CLASSES, "turned")
"""The upright reader's classes: the face network's, and "turned"."""

UPRIGHT_CROP = 0.9
"""An upright crop's side as a multiple of the die's side: the top face and its edges."""
