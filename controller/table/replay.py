"""A recorded game replayed from its record: its inputs in effect, its history text, its results.

The record keeps what happened, corrections included; the game is what those records give when
replayed (:class:`~controller.table.ledger.Ledger`). The history text is the ``dicetable-history``
format of :mod:`controller.games.history`, with the inputs in effect after every correction, so
``dicetable replay`` reads an exported or printed game.
"""

from __future__ import annotations

from typing import Any

from controller.games import history
from controller.table.ledger import Ledger
from controller.table.records import GameSummary


def replay_game(store: Any, game_no: int) -> Ledger:
    """The ledger of recorded game ``game_no``, replayed from its records."""
    row = store.game(game_no)
    ledger = Ledger(row.game, row.seats, row.options)
    for record in store.records(game_no):
        ledger.take(record.seq, record.kind, record.line, record.origin, record.who)
    return ledger


def effective_lines(store: Any, game_no: int) -> list[str]:
    """The history lines of the inputs in effect in game ``game_no``."""
    return [str(played.input) for played in replay_game(store, game_no).played]


def history_text(store: Any, game_no: int) -> str:
    """Game ``game_no`` as a history file's text (its names as a comment)."""
    ledger = replay_game(store, game_no)
    names = store.game(game_no).names
    return f"# seats: {', '.join(names)}\n" + history.dumps(ledger.game)


def summaries(store: Any, limit: int = 10) -> list[GameSummary]:
    """The newest ``limit`` games, each with its results (replayed when still in play)."""
    rows = store.games(limit)
    return [row if row.over and row.final else _with_final(store, row) for row in rows]


def _with_final(store: Any, row: GameSummary) -> GameSummary:
    from dataclasses import replace
    return replace(row, final=dict(replay_game(store, row.game_no).game.final()))
