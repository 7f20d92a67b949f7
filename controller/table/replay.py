"""A recorded game replayed from its record: its inputs in effect, its history text, its results.

The record keeps what happened, corrections included; the game is what those records give when
replayed (:class:`~controller.table.ledger.Ledger`). The history text is the ``dicetable-history``
format of :mod:`controller.games.history`, with the inputs in effect after every correction, so
``dicetable replay`` reads an exported or printed game.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from controller.games import history
from controller.games.rolls import Roll
from controller.table.ledger import Ledger
from controller.table.records import GameSummary, RollSeen

def replay_game(store: Any, game_no: int) -> Ledger:
    """The ledger of recorded game ``game_no``, replayed from its records."""
    return _replayed(store.game(game_no), store.records(game_no))


def effective_lines(store: Any, game_no: int) -> list[str]:
    """The history lines of the inputs in effect in game ``game_no``."""
    return [str(played.input) for played in replay_game(store, game_no).played]


def history_text(store: Any, game_no: int) -> str:
    """Game ``game_no`` as a history file's text (its names as a comment)."""
    ledger = replay_game(store, game_no)
    names = store.game(game_no).names
    return f"# seats: {', '.join(names)}\n" + history.dumps(ledger.game)


def summaries(store: Any, limit: int = 10) -> list[GameSummary]:
    """The newest ``limit`` games, each with its results (replayed when still in play), its
    seats' colours and the rolls the room saw."""
    rows = store.games(limit)
    return [_summary(store, row, newest=index == 0) for index, row in enumerate(rows)]


def _summary(store: Any, row: GameSummary, *, newest: bool) -> GameSummary:
    """``newest``: the record's last game, over when its replay says so, as the table that opens
    the record judges it, whatever the record says: the record of an older table can hold it
    won while a correction took its end back (``schema.reopen_taken_back``, run only when a
    table opens the file), or in play while its last input ended it (a table killed between
    the two: ``Table._finish_cut_short``). An older game was ended by the next one's start."""
    records = store.records(row.game_no)
    ledger = _replayed(row, records)
    over = ledger.game.pending().over if newest else row.over
    final = row.final if over and row.final else dict(ledger.game.final())
    return replace(row, over=over, final=final, rolls=_rolls(row, ledger, records, row.colours))


def _replayed(row: GameSummary, records: Sequence[Any]) -> Ledger:
    ledger = Ledger(row.game, row.seats, row.options)
    for record in records:
        ledger.take(record.seq, record.kind, record.line, record.origin, record.who)
    return ledger


def _rolls(row: GameSummary, ledger: Ledger, records: Sequence[Any],
           colours: Sequence[str]) -> tuple[RollSeen, ...]:
    """The rolls in effect whose faces the room saw (open rolls and reveals, never a sealed or
    still-hidden roll), each with its hand, colour, evidence picture and reader."""
    by_seq = {record.seq: record for record in records}
    corrected = {int(record.line.split()[0]) for record in records if record.kind == "replace"}
    seen: list[RollSeen] = []
    for played in ledger.played:
        roll = played.input
        if not isinstance(roll, Roll) or (played.hidden and not played.reveal) \
                or "?" in roll.faces:
            continue
        record = by_seq[played.seq]
        colour = colours[roll.seat] if roll.seat is not None and roll.seat < len(colours) else ""
        reader = "dealer" if played.seq in corrected or record.kind == "answer" \
            or record.origin == "console" else record.origin
        seen.append(RollSeen(played.seq, row.game_no, played.hand, roll.seat, roll.kind, colour,
                             roll.faces, _picture(records, record), reader))
    return tuple(seen)


def _picture(records: Sequence[Any], record: Any) -> int | None:
    """The kept evidence picture of a roll: its own frame, or for the dealer's answer the frame
    of the question it answered."""
    if record.picture is not None:
        return int(record.picture) if record.picture_kept else None
    if record.kind != "answer":
        return None
    asked = [r for r in records if r.kind == "question" and r.seq < record.seq]
    last = asked[-1] if asked else None
    return int(last.picture) if last is not None and last.picture is not None \
        and last.picture_kept else None
