"""Games rebuilt from their inputs: the dealer's undo (RULES.md section 4) and multi-game files.

State is ``replay(inputs)``, so undoing the last input is replaying all the others; this works for
every registered game. A history file may hold several games one after the other (each starting
with its own ``dicetable-history 1`` header), as ``dicetable simulate --record`` writes them.
:func:`replay_sealed` turns a history with every hidden die read into the one a camera that never
sees hidden dice would record: the same game, the faces entered only where the engine asks.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterator, Mapping, Sequence

from controller.games import history
from controller.games.base import REVEAL, DiceNeeded, Game, Input
from controller.games.errors import IllegalAction
from controller.games.registry import create_game
from controller.games.rolls import Roll


def replay(name: str, seats: int, options: Mapping[str, str], inputs: Sequence[Input]) -> Game:
    """A fresh game of ``name`` with every input of ``inputs`` applied in order."""
    game = create_game(name, seats, options)
    for inp in inputs:
        game.apply(inp)
    return game


def replay_sealed(name: str, seats: int, options: Mapping[str, str], inputs: Sequence[Input],
                  seal: Callable[[int], bool] = lambda seat: True,
                  pick: Callable[[Sequence[DiceNeeded]], DiceNeeded] = lambda asked: asked[0],
                  ) -> Game:
    """The game of ``inputs`` replayed with the hidden rolls of the seats ``seal`` names sealed
    (see :func:`sealed_steps`); its ``inputs`` are the sealed history of the same game."""
    return deque(sealed_steps(name, seats, options, inputs, seal, pick), maxlen=1)[0]


def sealed_steps(name: str, seats: int, options: Mapping[str, str], inputs: Sequence[Input],
                 seal: Callable[[int], bool] = lambda seat: True,
                 pick: Callable[[Sequence[DiceNeeded]], DiceNeeded] = lambda asked: asked[0],
                 ) -> Iterator[Game]:
    """Replay ``inputs`` with the hidden rolls of the seats ``seal`` names entered sealed.

    The faces of each sealed roll are kept and entered when the engine asks that seat to reveal
    (``pick`` chooses which of the asked seats answers next). Yields the one sealed game before
    any input, then after each input of ``inputs`` and the reveals it called for: the state that
    matches the unsealed game after the same input.

    :raises IllegalAction: if the inputs are not a legal game.
    """
    game = create_game(name, seats, options)
    yield game
    kept: dict[int, Roll] = {}
    for inp in inputs:
        if isinstance(inp, Roll) and inp.seat is not None and seal(inp.seat) \
                and _hidden_roll(game, inp.seat):
            kept[inp.seat] = inp
            inp = Roll.sealed_roll(inp.seat, inp.kind, len(inp.faces))
        game.apply(inp)
        while asked := [d for d in game.pending().dice if d.reason == REVEAL]:
            roll = kept[pick(asked).seat or 0]
            game.apply(Roll(roll.seat, roll.kind, roll.faces))
        yield game


def _hidden_roll(game: Game, seat: int) -> bool:
    """True if the game waits for hidden dice from ``seat`` now (not a reveal)."""
    return any(d.seat == seat and d.hidden and d.reason != REVEAL for d in game.pending().dice)


def undo(game: Game) -> Game:
    """The game as it was before its last input (a new game: ``game`` is left as it is).

    :raises IllegalAction: when there is nothing to undo.
    """
    if not game.inputs:
        raise IllegalAction("nothing to undo: no input has been accepted yet")
    return replay(game.name, game.seats, game.options_text(), game.inputs[:-1])


def dumps_all(games: Sequence[Game]) -> str:
    """Several games' histories, one after the other, in one text."""
    return "\n".join(history.dumps(game) for game in games)


def loads_all(text: str) -> list[Game]:
    """Replay every game of a text written by :func:`dumps_all` (or one plain history).

    :raises HistoryError: naming the line (counted in the whole text) that is wrong.
    """
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == history.MAGIC]
    if not starts or _has_text(lines[:starts[0]]):
        return [history.loads(text)]  # raises: the file does not start with a header
    ends = starts[1:] + [len(lines)]
    # blank lines in front keep each game's line numbers those of the whole file in errors
    return [history.loads("\n" * start + "\n".join(lines[start:end]))
            for start, end in zip(starts, ends)]


def _has_text(lines: Sequence[str]) -> bool:
    return any(line.strip() and not line.strip().startswith("#") for line in lines)
