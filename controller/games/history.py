"""The text history format: a header naming the game, then one input per line.

A person can read and edit it::

    dicetable-history 1
    game tao
    seats 3
    option start_seat=0

    ante 0 black=1 white=0
    ...

Blank lines and lines starting with ``#`` are ignored. The inputs are whatever ``str()`` of each
game's input records gives (``verb SEAT name=N ...``, see :mod:`controller.games.records`, or a
dice ``roll``), and ``Game.parse_input`` reads them back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.games.base import Game
from controller.games.errors import DiceTableError, HistoryError
from controller.games.registry import create_game

MAGIC = "dicetable-history 1"


@dataclass
class Header:
    """The game, seat count and options a history starts with."""

    game: str
    seats: int
    options: dict[str, str] = field(default_factory=dict)


def dumps(game: Game) -> str:
    """Write ``game``'s header and every accepted input as history text."""
    lines = [MAGIC, f"game {game.name}", f"seats {game.seats}"]
    lines += [f"option {key}={value}" for key, value in game.options_text().items()]
    lines.append("")
    lines += [str(inp) for inp in game.inputs]
    return "\n".join(lines) + "\n"


def loads(text: str, *, upto: int | None = None) -> Game:
    """Replay a history and return the game after its inputs (the first ``upto`` of them).

    :raises HistoryError: naming the line that is malformed or illegal.
    """
    rows = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)]
    rows = [(n, line) for n, line in rows if line and not line.startswith("#")]
    if rows and rows[0][1] != MAGIC and rows[0][1].split(" ", 1)[0] == MAGIC.split(" ", 1)[0]:
        raise HistoryError(f"a dicetable history of another version ({rows[0][1]!r}): this dicetable reads "
                           f"{MAGIC!r}; replay it with the dicetable that wrote it")
    if not rows or rows[0][1] != MAGIC:
        raise HistoryError(f"not a dicetable history: the first line must be {MAGIC!r}")
    header, body = _read_header(rows[1:])
    try:
        game = create_game(header.game, header.seats, header.options)
    except DiceTableError as err:
        raise HistoryError(f"bad header: {err}") from err
    for n, line in body[:upto]:
        try:
            game.apply(game.parse_input(line))
        except DiceTableError as err:
            raise HistoryError(f"line {n}: {line!r}: {err}") from err
    return game


def _read_header(rows: list[tuple[int, str]]) -> tuple[Header, list[tuple[int, str]]]:
    fields: dict[str, str] = {}
    options: dict[str, str] = {}
    i = 0
    for i, (n, line) in enumerate(rows):
        word, _, rest = line.partition(" ")
        if word not in ("game", "seats", "option"):
            break
        if word == "option":
            key, eq, value = rest.partition("=")
            if not eq:
                raise HistoryError(f"line {n}: option needs key=value: {line!r}")
            options[key.strip()] = value.strip()
        else:
            fields[word] = rest.strip()
    else:
        i = len(rows)
    if "game" not in fields or not fields.get("seats", "").isdigit():
        raise HistoryError("the header must name the game and the seats ('game tao', 'seats 4')")
    return Header(fields["game"], int(fields["seats"]), options), rows[i:]
