"""``dicetable replay``: replays a recorded history (one or several games) and prints the final state."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from controller.games.errors import HistoryError
from controller.games.replays import loads_all
from controller.simulation import final_of


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay", help="replay a recorded history and print its final state",
        description="Replays every game in a history file (as written by 'simulate --record' "
                    "or the table) input by input, checking each against the rules, and prints "
                    "the same final object as simulate.")
    parser.add_argument("history", type=Path, metavar="FILE", help="the history file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay the file and print its final state."""
    try:
        text = args.history.read_text(encoding="utf-8")
    except OSError as err:
        raise HistoryError(f"cannot read {args.history}: {err.strerror}") from None
    except UnicodeDecodeError:
        raise HistoryError(f"{args.history} is not a text history file") from None
    games = loads_all(text)
    final = final_of(games)
    if args.json:
        print(json.dumps(final, sort_keys=True))
        return 0
    print(f"{args.history}: {len(games)} game(s), {final['hands']} hands, "
          f"{sum(len(game.inputs) for game in games)} inputs replayed")
    for key, value in final.items():
        print(f"  {key}: {value}")
    return 0
