"""``dicetable simulate``: bots play any game with seeded simulated dice and report the figures."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

from controller.bots import bot_names
from controller.games.errors import InvalidInput
from controller.games.registry import GAMES
from controller.games.replays import dumps_all
from controller.simulation import DEFAULT_BOT, BotTable, RunReport, simulate


def register(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate", help="bots play a game with simulated dice; prints statistics",
        description="Bots play GAME for H hands (Tao Dice: rounds) across as many matches and "
                    "games as that takes, with dice from random.Random(SEED). The same seed gives "
                    "the same games.")
    parser.add_argument("--game", default="tao", choices=sorted(GAMES), help="game (default tao)")
    parser.add_argument("--players", type=int, default=4, help="seats at the table (default 4)")
    parser.add_argument("--hands", type=int, default=1000, help="hands/rounds to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of dice and bots (default 1)")
    parser.add_argument("--bots", default=DEFAULT_BOT,
                        help="bot per seat, comma-separated, repeated round the table "
                             "(e.g. random,heuristic; default heuristic)")
    add_option_argument(parser)
    parser.add_argument("--record", type=Path, metavar="FILE",
                        help="write the history of every game played (dicetable replay reads it)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """The repeatable ``--option KEY=VALUE`` of the commands that build a game."""
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option, e.g. length=single or black=3 (repeatable)")


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["length=single"]`` as ``{"length": "single"}``.

    :raises InvalidInput: for a pair without ``=``.
    """
    options = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise InvalidInput(f"--option needs KEY=VALUE, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def run(args: argparse.Namespace) -> int:
    """Play, then print the report (and write the record)."""
    if args.hands < 0:
        raise InvalidInput(f"--hands must be >= 0, not {args.hands}")
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in bots if name not in bot_names(args.game)]
    if unknown:
        raise InvalidInput(f"unknown bot {unknown[0]!r} for {args.game} "
                           f"(known: {', '.join(bot_names(args.game))})")
    table = BotTable(args.game, args.players, args.seed, bots, parse_options(args.option))
    report = simulate(table, args.hands, _progress(args.hands))
    if args.record:
        args.record.write_text(dumps_all(table.games), encoding="utf-8")
    if args.json:
        print(json.dumps(report.as_json(), sort_keys=True))
    else:
        print(summary(args, report))
    return 0 if report.conserved else 1


def _progress(total: int) -> Callable[[int], None] | None:
    """A progress line on stderr every 1% of the hands, only when stderr is a terminal."""
    if not sys.stderr.isatty() or total < 1000:
        return None
    step = total // 100

    def show(done: int) -> None:
        if done % step == 0 or done == total:
            end = "\n" if done == total else ""
            print(f"\rsimulate: {done}/{total} hands", end=end, file=sys.stderr, flush=True)
    return show


def summary(args: argparse.Namespace, report: RunReport) -> str:
    """The readable report printed without ``--json``."""
    final = report.final
    figures = report.as_json()
    lines = [f"{args.game}: {report.hands} hands by {args.players} bots ({args.bots}), seed {args.seed}",
             f"time: {figures['seconds']} s, {figures['hands_per_second']} hands per second",
             f"stones/chips conserved after every input: {'yes' if report.conserved else 'NO'}",
             f"games played: {final['games']}, winners: {final['game_winners']}"]
    lines += [f"  {key}: {value}" for key, value in final.items()
              if key not in ("games", "game_winners")]
    return "\n".join(lines)
