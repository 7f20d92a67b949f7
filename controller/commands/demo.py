"""``dicetable demo``: bots play Tao Dice at a readable pace, each round told as a spectator sees it.

The later full demo (camera and scoreboard) reuses the same core: :class:`BotTable` plays,
:meth:`Event.describe` says what happened and :func:`round_header` / :func:`round_table` show
where the game stands, all from the engine's public view.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any, Callable, TextIO

from controller.commands.simulate import add_option_argument, parse_options
from controller.games.errors import InvalidInput
from controller.simulation import DEFAULT_BOT, BotTable


def register(subparsers: Any) -> None:
    """Add the ``demo`` subcommand."""
    parser = subparsers.add_parser(
        "demo", help="watch bots play Tao Dice, round by round (Ctrl-C ends)",
        description="A simulated Tao Dice table: bots play with simulated dice and every input is "
                    "told as a spectator sees it (hidden dice stay hidden until a showdown), with "
                    "a table after each round. Ctrl-C ends cleanly.")
    parser.add_argument("--players", type=int, default=4, help="bots at the table (default 4)")
    parser.add_argument("--seed", type=int, help="seed of dice and bots (default: a random one, "
                                                 "printed so the game can be watched again)")
    parser.add_argument("--rounds", type=int, help="stop after this many rounds (default: never)")
    parser.add_argument("--fast", action="store_true", help="no pauses")
    parser.add_argument("--delay", type=float, default=0.6,
                        help="seconds between inputs when not --fast (default 0.6)")
    parser.add_argument("--bots", default=DEFAULT_BOT, help="bot per seat, comma-separated")
    add_option_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play and narrate until ``--rounds`` rounds are done, the game ends, or Ctrl-C."""
    if args.rounds is not None and args.rounds < 1:
        raise InvalidInput(f"--rounds must be >= 1, not {args.rounds}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    table = BotTable("tao", args.players, seed, bots, parse_options(args.option))
    pause: Callable[[], None] = (lambda: None) if args.fast else (lambda: time.sleep(args.delay))
    print(f"Tao Dice demo: {args.players} bots ({args.bots}), seed {seed}")
    try:
        watch(table, args.rounds, sys.stdout, pause)
    except KeyboardInterrupt:
        print(f"\ndemo stopped after {table.hands} rounds")
    return 0


def watch(table: BotTable, rounds: int | None, out: TextIO, pause: Callable[[], None]) -> None:
    """Play at ``table`` and tell ``out`` every input and every round's result."""
    new_round = True
    while rounds is None or table.hands < rounds:
        if table.game.pending().over:
            print(f"Game {len(table.games)} is over: seat {table.game.final()['winner']} "
                  f"wins the game.", file=out)
            if rounds is None:
                return
        if new_round:
            print(round_header(table.game.public_view()), file=out)
        before = table.hands
        event = table.step()
        print(f"  {event.describe()}", file=out)
        new_round = table.hands != before
        if new_round:
            print(round_table(table.game.public_view()), file=out)
        pause()


def round_header(view: dict[str, Any]) -> str:
    """``== Match 2, round 5 (tiebreak) | bid 2 | token: seat 1 silver | pot 0 ==``."""
    token = view["token"]
    holder = "nobody" if token["holder"] is None else f"seat {token['holder']} {token['side']}"
    pot = view["pot"]["black"] + view["pot"]["white"]
    tiebreak = " (tiebreak)" if view["tiebreak"] else ""
    return (f"== Match {view['match']}, round {view['round']}{tiebreak} | bid {view['multiplier']}"
            f" | token: {holder} | pot {pot} ==")


def round_table(view: dict[str, Any]) -> str:
    """The last round's result: revealed dice and scores, then every seat's stones."""
    last = view["last_round"]
    revealed = {row["seat"]: row for row in last["reveal"]}
    winners = last["winners"]
    lines = ["   seat  stones (b+w)  2d6    d12  score  result"]
    for player in view["players"]:
        seat = player["seat"]
        row = revealed.get(seat)
        d6, d12, score = (f"{row['d6'][0]} {row['d6'][1]}", row["d12"], row["score"]) if row \
            else ("-", "-", "-")
        dice = f"{d6:<5}  {d12:>3}  {score:>5}"
        result = _result(seat, winners, last, player["status"])
        stones = f"{player['black'] + player['white']} ({player['black']}+{player['white']})"
        lines.append(f"   {seat:>4}  {stones:<12}  {dice}  {result}")
    return "\n".join(lines)


def _result(seat: int, winners: list[int], last: dict[str, Any], status: str) -> str:
    if seat in winners and len(winners) == 1:
        how = "everyone else folded" if last["folded_out"] else "best score"
        return f"takes the pot of {last['pot']} ({how})"
    if seat in winners:
        return "tied: plays the tiebreak"
    return {"out": "out of the match", "folded": "folded"}.get(status, "")
