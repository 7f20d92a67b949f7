"""``dicetable history``: the games a table recorded, with their results.

Reads the table's record (the SQLite file of ``dicetable demo --db`` or ``dicetable run``)
read-only, so it can be used while the table runs.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from controller.commands.common import given_path, shown
from controller.games.errors import InvalidInput
from controller.table.records import GameSummary


def register(subparsers: Any) -> None:
    """Add the ``history`` subcommand."""
    parser = subparsers.add_parser(
        "history", help="the games a table recorded and their results",
        description="Lists the games recorded in a table's record (the --db file of `dicetable "
                    "demo`, or the state file of `dicetable run`), newest first, with their "
                    "results; --game N prints that game's history text, which `dicetable "
                    "replay` reads.")
    parser.add_argument("--db", required=True, type=given_path, help="the table's record (SQLite)")
    parser.add_argument("--game", type=int, metavar="N", help="one game: its history text")
    parser.add_argument("--limit", type=int, default=10, help="games to list (default 10)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the recorded games, or one game's history."""
    from controller.store import Store
    from controller.table.replay import history_text, summaries
    if args.limit < 1:
        raise InvalidInput(f"--limit must be at least 1, not {args.limit}")
    if args.game is not None and args.game < 1:
        raise InvalidInput(f"--game must be a game number (1 or more), not {args.game}")
    if not args.db.exists():
        raise InvalidInput(f"{shown(args.db)}: no such record (give the --db file of a demo or table)")
    reader = Store.open_readonly(args.db)
    try:
        if args.game is not None:
            text = history_text(reader, args.game)
            print(json.dumps({"game": args.game, "history": text}) if args.json else text, end=""
                  if not args.json else "\n")
            return 0
        games = summaries(reader, args.limit)
    finally:
        reader.close()
    for game in games:
        print(json.dumps(_json(game)) if args.json else _line(game))
    if not games and not args.json:
        print(f"{shown(args.db)}: no game recorded yet")
    return 0


def _json(game: GameSummary) -> dict[str, Any]:
    return {"game_no": game.game_no, "game": game.game, "seats": game.seats,
            "names": list(game.names), "options": game.options, "over": game.over,
            "inputs": game.inputs, "started": game.started, "final": game.final}


def _line(game: GameSummary) -> str:
    final = game.final
    winner = final.get("winner")
    who = game.names[winner] if isinstance(winner, int) and winner < len(game.names) else None
    state = f"won by {who}" if who else ("over" if game.over else "in play")
    hands = final.get("hands_played", final.get("rounds", 0))
    return (f"game {game.game_no}: {game.game}, {', '.join(game.names)}; {hands} hands; "
            f"{game.inputs} inputs; {state}")
