"""Games rebuilt from their inputs: the dealer's undo (RULES.md section 4) and multi-game files.

State is ``replay(inputs)``, so undoing the last input is replaying all the others; this works for
every registered game. A history file may hold several games one after the other (each starting
with its own ``dicetable-history 1`` header), as ``dicetable simulate --record`` writes them.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from controller.games import history
from controller.games.base import Game, Input
from controller.games.errors import IllegalAction
from controller.games.registry import create_game


def replay(name: str, seats: int, options: Mapping[str, str], inputs: Sequence[Input]) -> Game:
    """A fresh game of ``name`` with every input of ``inputs`` applied in order."""
    game = create_game(name, seats, options)
    for inp in inputs:
        game.apply(inp)
    return game


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
