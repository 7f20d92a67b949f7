"""``dicetable replay``: replays a recorded history (one or several games) and prints the final state."""

from __future__ import annotations

import argparse
import json
from typing import Any, Callable

from controller.commands.common import Progress, given_path, read_text, shown
from controller.commands.showdown import HandTally
from controller.commands.simulate import plural, standings
from controller.games import history
from controller.games.base import Game
from controller.games.errors import DiceTableError, HistoryError
from controller.simulation import final_of

HEADER_WORDS = ("game", "seats", "option")


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser = subparsers.add_parser(
        "replay", help="replay a recorded history and print its final state",
        description="Replays every game in a history file (as written by 'simulate --record' "
                    "or the table) input by input, checking each against the rules, and prints "
                    "the standings, the game being played and the hands shown by category "
                    "(--json: the same final object as simulate).")
    parser.add_argument("history", type=given_path, metavar="FILE", help="the history file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay the file and print its final state."""
    text = read_text(args.history, "history file")
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)]
    rows = [(n, line) for n, line in lines if line and not line.startswith("#")]
    tally = HandTally()
    progress = Progress("replay", len(rows), "lines", enabled=not args.json)
    try:
        games = replay_rows(text, rows, tally.add, progress.update)
    except HistoryError as err:
        raise HistoryError(f"{shown(args.history)}: {err}") from None
    finally:
        progress.close()
    final = final_of(games)
    if args.json:
        print(json.dumps(final, sort_keys=True))
        return 0
    inputs = sum(len(game.inputs) for game in games)
    print(f"{shown(args.history)}: {plural(len(games), 'game')}, {plural(final['hands'], 'hand')}, "
          f"{plural(inputs, 'input')} replayed\n")
    print("\n".join(standings(final) + tally.lines()))
    return 0


def replay_rows(text: str, rows: list[tuple[int, str]], after_hand: Callable[[Game], None],
                progress: Callable[[int], None]) -> list[Game]:
    """Every game of a history, replayed row by row (as :func:`replays.loads_all` does, with
    ``after_hand(game)`` after each hand and ``progress(rows done)`` as it goes).

    :raises HistoryError: naming the line (counted in the whole file) that is wrong.
    """
    starts = [i for i, (_, line) in enumerate(rows) if line == history.MAGIC]
    if not starts or starts[0] != 0:
        return [history.loads(text)]  # raises: the file does not start with a header
    games = []
    for start, end in zip(starts, starts[1:] + [len(rows)]):
        body = start + 1
        while body < end and rows[body][1].partition(" ")[0] in HEADER_WORDS:
            body += 1
        # the header alone, read by the history module itself (it checks it)
        game = history.loads("\n".join(line for _, line in rows[start:body]))
        for index in range(body, end):
            _apply(game, *rows[index], after_hand)
            progress(index + 1)
        games.append(game)
    return games


def _apply(game: Game, number: int, line: str, after_hand: Callable[[Game], None]) -> None:
    """Apply one history line to ``game``; ``after_hand`` when it completes a hand."""
    hands = game.hands_played
    try:
        game.apply(game.parse_input(line))
    except DiceTableError as err:
        raise HistoryError(f"line {number}: {line!r}: {err}") from err
    if game.hands_played != hands:
        after_hand(game)
