"""``dicetable simulate``: bots play any game with seeded simulated dice and report the figures."""

from __future__ import annotations

import argparse
import json
from typing import Any, Sequence

from controller.bots import bot_names
from controller.commands.common import Output, Progress, check_output, given_path, interrupt_held
from controller.commands.showdown import HandTally
from controller.games import history
from controller.games.base import Game
from controller.games.errors import InvalidInput
from controller.games.registry import GAMES, find_game
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
    parser.add_argument("--record", type=given_path, metavar="FILE",
                        help="write the history of every game played as it is played "
                             "(dicetable replay reads it); an existing FILE needs --force")
    parser.add_argument("--force", action="store_true", help="overwrite an existing --record FILE")
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


def named_bots(text: str) -> list[str]:
    """The bot names of a ``--bots`` text, in seat order ("" where one is left out)."""
    return [name.strip() for name in text.split(",")]


def seated_bots(game: str, players: int, text: str, person: bool = False) -> list[str]:
    """The bots of ``--bots`` at a table of ``game`` with ``players`` seats, one of them the
    person's when ``person`` (``play``): each a bot of the game, and no more of them than seats
    for bots, since a name past those would sit nowhere and nothing would say so (fewer go round
    the table again). The seat count is checked first: it says how many bots can sit.

    :raises InvalidInput: a seat count the game is not for, a missing or unknown bot, or more
        bots than can sit; the message names the option.
    """
    spec = find_game(game)
    if not spec.min_seats <= players <= spec.max_seats:
        raise InvalidInput(f"--players: {spec.name} is for {spec.min_seats} to {spec.max_seats} "
                           f"players, not {players}")
    bots = named_bots(text)
    if "" in bots:  # "random,,heuristic" or "": a seat's bot left out
        raise InvalidInput(f"--bots {text!r}: a bot name is missing (names, comma-separated: "
                           f"{', '.join(bot_names(game))})")
    unknown = [name for name in bots if name not in bot_names(game)]
    if unknown:
        raise InvalidInput(f"--bots: unknown bot {unknown[0]!r} for {game} "
                           f"(known: {', '.join(bot_names(game))})")
    seats = players - int(person)
    if len(bots) > seats:
        where = f"the {players} seats but yours" if person else "one per seat"
        raise InvalidInput(f"--bots names {len(bots)} bots, but only {seats} can sit ({where}): name at most "
                           f"{seats}; fewer go round the table again")
    return bots


class Recorder:
    """Writes the history of every game as it is played: a header when a game starts, then each
    new input, flushed after every hand, so an interrupted run leaves a file that replays."""

    def __init__(self, output: Output) -> None:
        self.output = output
        self._games = 0   # games whose header is written
        self._inputs = 0  # inputs of the last of them written

    def catch_up(self, games: Sequence[Game]) -> None:
        """Write what ``games`` played since the last call (counted as written only once it is:
        an interruption during the write leaves it to the next call)."""
        chunks, written, inputs = [], self._games, self._inputs
        for game in games[max(written - 1, 0):]:
            if written < len(games) and game is games[written]:
                chunks.append(("\n" if written else "") + history.dumps(game))
                written += 1
            else:
                chunks += [f"{inp}\n" for inp in game.inputs[inputs:]]
            inputs = len(game.inputs)
        with interrupt_held():
            if chunks:
                self.output.write("".join(chunks))
            self._games, self._inputs = written, inputs


def run(args: argparse.Namespace) -> int:
    """Play, writing the record as the games go, then print the report."""
    if args.hands < 1:
        raise InvalidInput(f"--hands must be at least 1, not {args.hands}")
    if args.record is not None:
        check_output(args.record, args.force, "history file")
    table = BotTable(args.game, args.players, args.seed, seated_bots(args.game, args.players, args.bots),
                     parse_options(args.option))
    recorder = Recorder(Output(args.record, args.force, "history file")) if args.record else None
    tally = HandTally()
    progress = Progress("simulate", args.hands, "hands", enabled=not args.json)

    def after_hand(done: int) -> None:
        tally.add(table.game)
        progress.update(done)
        if recorder is not None:
            recorder.catch_up(table.games)
    try:
        report = simulate(table, args.hands, after_hand)
    finally:
        progress.close()
        if recorder is not None:
            recorder.catch_up(table.games)  # what an interruption cut short of a hand too
            recorder.output.close()
    if args.json:
        print(json.dumps(report_json(report, tally), sort_keys=True))
    else:
        print(summary(args, report, tally))
    return 0 if report.conserved else 1


def report_json(report: RunReport, tally: HandTally) -> dict[str, Any]:
    """``simulate --json``: the run's figures and final state, plus the hands by category."""
    figures = report.as_json()
    figures["hands_by_category"] = tally.as_json()
    return figures


def plural(count: int, word: str) -> str:
    """``1 hand``, ``2,000 hands``."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def summary(args: argparse.Namespace, report: RunReport, tally: HandTally) -> str:
    """The report a person reads: the run, the standings, the game being played, the hands."""
    figures = report.as_json()
    lines = [f"{args.game}: {plural(report.hands, 'hand')} by {plural(args.players, 'bot')} "
             f"({args.bots}), seed {args.seed}, in {figures['seconds']:.2f} s "
             f"({figures['hands_per_second']:,.0f} hands per second)",
             f"stones/chips conserved after every input: {'yes' if report.conserved else 'NO'}",
             ""]
    return "\n".join(lines + standings(report.final) + tally.lines())


def standings(final: dict[str, Any]) -> list[str]:
    """The standings table (every per-seat figure of the last game, and games won over all of
    them) and a line on the game being played: what ``simulate`` and ``replay`` print."""
    winners = final["game_winners"]
    seats = len(final["stacks"])
    columns = {"games won": [winners.count(seat) for seat in range(seats)]}
    columns.update({key.replace("_", " "): value for key, value in final.items()
                    if isinstance(value, list) and len(value) == seats and key != "game_winners"})
    widths = [max(len(name), 4) for name in columns]
    lines = [f"{plural(final['games'], 'game')} played; standings:",
             "  seat" + "".join(f"  {name:>{width}}" for name, width in zip(columns, widths))]
    for seat in range(seats):
        lines.append(f"  {seat:>4}" + "".join(f"  {values[seat]:>{width}}" for values, width
                                              in zip(columns.values(), widths)))
    return lines + [_last_game(final), ""]


def _last_game(final: dict[str, Any]) -> str:
    """``game 15 (being played): match 1, rounds 6, pot 0, token: nobody``."""
    skip = {"hands", "games", "game_winners", "over", "winner", "seats", "game"}
    facts = [f"{key.replace('_', ' ')} {value}" for key, value in final.items()
             if key not in skip and isinstance(value, (int, str)) and not isinstance(value, bool)]
    facts += [f"{key}: {_words(value)}" for key, value in final.items() if isinstance(value, dict)]
    state = f"won by seat {final['winner']}" if final.get("over") else "being played"
    return f"game {final['games']} ({state}): " + (", ".join(facts) or "no figures")


def _words(value: dict[str, Any]) -> str:
    """``{'holder': 2, 'side': 'silver'}`` as ``holder 2, side silver`` (``nobody`` if empty)."""
    said = [f"{key} {item}" for key, item in value.items() if item is not None]
    return ", ".join(said) or "nobody"
