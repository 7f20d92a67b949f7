"""One game's record turned into the inputs in effect and the engine after them.

The record holds what happened (inputs, the dealer's answers and corrections), never states. A
correction is kept as what the dealer did ("undo", "replace the roll of record 17 by 3 5", "void the
hand"), and its effect is derived again on every replay, so the state after a restart is the
state before it. :meth:`Ledger.take` applies one record line; a correction that would make a
later input illegal is refused, naming that input, and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from controller.games.base import DiceNeeded, Game, Input
from controller.games.errors import DiceTableError, IllegalAction, InvalidInput
from controller.games.registry import create_game
from controller.games.rolls import Roll

INPUT_KINDS = ("input", "answer")
"""Record kinds whose line is an engine input (a player's action or dice, a dealer's answer)."""

CORRECTION_KINDS = ("undo", "replace", "void")


@dataclass(frozen=True)
class Played:
    """An input in effect: the record it came from and who gave it."""

    seq: int
    input: Input
    origin: str = ""
    who: str = ""
    hidden: bool = False  # the engine asked for these dice hidden (set when played)
    reveal: bool = False  # they were a reveal at the showdown
    hand: int = 0  # the hand (Tao Dice: round) it was played in, from 1 (set when played)


class Ledger:
    """The inputs in effect for one game and the engine that has taken them, in order."""

    def __init__(self, game: str, seats: int, options: Mapping[str, str]) -> None:
        self.name, self.seats, self.options = game, seats, dict(options)
        self.game: Game = create_game(game, seats, self.options)
        self.played: list[Played] = []
        self._hand_start = 0  # index in ``played`` where the hand in play began

    @property
    def hand_start(self) -> int:
        """Index in :attr:`played` of the first input of the hand or round in play."""
        return self._hand_start

    def check(self, inp: Input) -> None:
        """Raise :class:`IllegalAction` unless ``inp`` is legal now."""
        self.game.verify(inp)

    def take(self, seq: int, kind: str, line: str, origin: str = "", who: str = "") -> None:
        """Apply one record line of ``kind``; other kinds (pause, notes) change nothing.

        :raises DiceTableError: an illegal input or correction (nothing changes).
        """
        if kind in INPUT_KINDS:
            self._play(Played(seq, self.game.parse_input(line), origin, who))
        elif kind == "undo":
            self._redo(self._undone())
        elif kind == "replace":
            target, faces = parse_replace(line)
            self._redo(self._replaced(target, faces))
        elif kind == "void":
            self._redo(self._voided())

    def preview(self, kind: str, line: str) -> Ledger:
        """The ledger the correction would leave (this one for another kind), changing nothing
        here: whether it ends or reopens the game is known before it is recorded.

        :raises DiceTableError: as :meth:`take` would, when the correction cannot be made.
        """
        if kind == "undo":
            return self._rebuilt(self._undone())
        if kind == "replace":
            return self._rebuilt(self._replaced(*parse_replace(line)))
        if kind == "void":
            return self._rebuilt(self._voided())
        return self

    def find(self, seq: int) -> Played | None:
        """The input in effect that record ``seq`` gave, if any."""
        return next((p for p in self.played if p.seq == seq), None)

    # -- corrections --------------------------------------------------------------------------
    def _undone(self) -> list[Played]:
        if not self.played:
            raise IllegalAction("nothing to undo: no input has been accepted in this game")
        return self.played[:-1]

    def _replaced(self, target: int, faces: tuple[str, ...]) -> list[Played]:
        index = next((i for i, p in enumerate(self.played) if p.seq == target), None)
        if index is None:
            raise IllegalAction(f"record {target} is not an input in effect in this game")
        old = self.played[index].input
        if not isinstance(old, Roll):
            raise IllegalAction(f"record {target} is {str(old)!r}, not a roll: only dice can be "
                                "replaced (undo a wrong action instead)")
        if index < self._hand_start:
            raise IllegalAction(f"record {target} belongs to a hand that is over; only the dice "
                                "of the hand in play can be replaced")
        if len(faces) != len(old.faces):
            raise IllegalAction(f"record {target} has {len(old.faces)} dice, not {len(faces)}")
        try:
            new = Roll(old.seat, old.kind, tuple(old.kind.parse_face(f) for f in faces))
        except InvalidInput as err:
            raise IllegalAction(str(err)) from None
        fixed = replace(self.played[index], input=new)
        return [*self.played[:index], fixed, *self.played[index + 1:]]

    def _voided(self) -> list[Played]:
        if self._hand_start >= len(self.played):
            raise IllegalAction("nothing to void: the hand in play has no input yet")
        return self.played[:self._hand_start]

    # -- replay -------------------------------------------------------------------------------
    def _play(self, played: Played) -> None:
        before = self.game.hands_played
        need = _need_of(self.game, played.input)
        played = replace(played, hand=before + 1)
        if need is not None:
            played = replace(played, hidden=need.hidden, reveal=need.reason == "reveal")
        self.game.apply(played.input)
        self.played.append(played)
        if self.game.hands_played != before:
            self._hand_start = len(self.played)

    def _rebuilt(self, played: Sequence[Played]) -> Ledger:
        fresh = Ledger(self.name, self.seats, self.options)
        for item in played:
            try:
                fresh._play(item)
            except DiceTableError as err:
                raise IllegalAction(f"the correction would make record {item.seq} "
                                    f"({str(item.input)!r}) illegal: {err}") from None
        return fresh

    def _redo(self, played: Sequence[Played]) -> None:
        fresh = self._rebuilt(played)
        self.game, self.played, self._hand_start = fresh.game, fresh.played, fresh._hand_start


def _need_of(game: Game, inp: Input) -> DiceNeeded | None:
    """The dice need an input answers (a roll of that seat), if the engine waits for one."""
    if not isinstance(inp, Roll):
        return None
    return next((need for need in game.pending().dice if need.seat == inp.seat), None)


def replace_line(seq: int, faces: Sequence[str]) -> str:
    """The record line of a replaced roll: ``17 3 5`` (record 17 showed 3 5).

    >>> parse_replace(replace_line(17, ["3", "5"]))
    (17, ('3', '5'))
    """
    return " ".join([str(seq), *faces])


def parse_replace(line: str) -> tuple[int, tuple[str, ...]]:
    """Read a replace record's line back.

    :raises InvalidInput: when it is not ``SEQ FACE...``.
    """
    words = line.split()
    if len(words) < 2 or not words[0].isdigit():
        raise InvalidInput(f"a replace record reads 'SEQ FACE...', not {line!r}")
    return int(words[0]), tuple(words[1:])
