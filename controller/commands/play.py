"""``dicetable play``: a person plays in the terminal against bots, with simulated dice."""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any, TextIO

from controller.commands.demo import round_table
from controller.commands.simulate import add_option_argument, parse_options
from controller.games.base import Game, Input
from controller.games.errors import DiceTableError, IllegalAction, InvalidInput
from controller.games.registry import GAMES
from controller.simulation import DEFAULT_BOT, BotTable, describe

HELP = """Type the number of a choice, or the words:
  pass                    pass (only on your turn to pass)
  raise | call | ante     with black stones when you have them
  raise white, call white with white stones (a white raise or call forces a reroll)
  call black=1 white=1    an exact mix of stones (when the bid is more than 1)
  fold                    leave the round (only in answer to a raise)
  help                    this text
  quit                    leave the table"""


class Quit(DiceTableError, EOFError):
    """The person left the table (typed quit or closed the input)."""


class TerminalPlayer:
    """A person at ``seat``: shows what they may see, lists their choices and reads one."""

    def __init__(self, seat: int, stdin: TextIO, out: TextIO) -> None:
        self.seat = seat
        self.stdin = stdin
        self.out = out

    def choose(self, game: Game) -> Input:
        """Prompt until the person gives a legal input (or quits)."""
        self._say("\n".join(status_lines(game.seat_view(self.seat))))
        self._say(game.pending().note)
        choices = game.legal_inputs(self.seat)
        menu = "  ".join(f"{n}) {describe(c, viewer=self.seat).removeprefix('You ')}"
                         for n, c in enumerate(choices, 1))
        while True:
            self._say(f"Your choices: {menu}")
            self.out.write("> ")
            self.out.flush()
            line = self.stdin.readline()
            if not line or line.strip().lower() in ("quit", "q", "exit"):
                raise Quit("You left the table")
            if line.strip().lower() in ("help", "h", "?", ""):
                self._say(HELP)
                continue
            try:
                return self._read(game, line.strip(), choices)
            except (IllegalAction, InvalidInput) as err:
                self._say(f"Refused: {err}")

    def _read(self, game: Game, text: str, choices: list[Input]) -> Input:
        words = text.lower().split()
        if text.isdigit():
            if not 1 <= int(text) <= len(choices):
                raise InvalidInput(f"there is no choice {text} (1-{len(choices)})")
            return choices[int(text) - 1]
        try:
            record = game.parse_input(" ".join([words[0], str(self.seat)]
                                               + self._mix(words, choices)))
        except InvalidInput:
            raise InvalidInput(f"{text!r} is not a choice (type a number, or help)") from None
        game.verify(record)
        return record

    def _mix(self, words: list[str], choices: list[Input]) -> list[str]:
        """``raise white`` as ``black=0 white=N``; a bare ``raise`` as the mix with fewest whites."""
        if words[0] not in ("raise", "call", "ante") or any("=" in w for w in words[1:]):
            return words[1:]
        mixes = [_counts(c) for c in choices if str(c).startswith(words[0] + " ")]
        due = sum(mixes[0]) if mixes else 1
        if words[1:2] == ["white"]:
            return ["black=0", f"white={due}"]
        if words[1:2] == ["black"] or not mixes:
            return [f"black={due}", "white=0"]
        black, white = min(mixes, key=lambda m: m[1])
        return [f"black={black}", f"white={white}"]

    def _say(self, text: str) -> None:
        if text:
            print(text, file=self.out)


def _counts(record: Input) -> tuple[int, int]:
    fields = dict(word.partition("=")[::2] for word in str(record).split()[2:])
    return int(fields.get("black", "0")), int(fields.get("white", "0"))


def status_lines(view: dict[str, Any]) -> list[str]:
    """What the person at ``view['me']`` sees of a Tao Dice table."""
    if view.get("game") != "tao":
        return [f"{key}: {value}" for key, value in view.items() if key != "players"]
    me = view["players"][view["me"]]
    dice = view["my_d6"]
    mine = f"your 2d6: {dice[0]} {dice[1]} (total {dice[0] + dice[1]})" if dice else "no dice yet"
    d12 = f", your d12: {me['d12']}" if me["d12"] is not None else ""
    pot = view["pot"]["black"] + view["pot"]["white"]
    lines = [f"-- {mine}{d12} | you hold {me['black']} black, {me['white']} white "
             f"| pot {pot} | bid {view['multiplier']}"]
    for player in view["players"]:
        if player["seat"] != view["me"]:
            d12 = f", d12 {player['d12']}" if player["d12"] is not None else ""
            lines.append(f"   seat {player['seat']}: {player['status']}, "
                         f"{player['black'] + player['white']} stones{d12}")
    return lines


def register(subparsers: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play", help="play against bots in the terminal",
        description="You play at one seat against bots; the dice are simulated (you see your own "
                    "hidden dice, nobody else's). Type help at a prompt for the commands.")
    parser.add_argument("--game", default="tao", choices=sorted(GAMES), help="game (default tao)")
    parser.add_argument("--players", type=int, default=3, help="seats, you included (default 3)")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--seed", type=int, help="seed of dice and bots (default: random)")
    parser.add_argument("--bots", default=DEFAULT_BOT, help="bot per seat, comma-separated")
    add_option_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play one game with the person on stdin/stdout."""
    return play(args, sys.stdin, sys.stdout)


def play(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    """The play loop with injectable streams (tests feed ``stdin``)."""
    if not 0 <= args.seat < args.players:
        raise InvalidInput(f"--seat {args.seat} is not a seat (0-{args.players - 1})")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    person = TerminalPlayer(args.seat, stdin, out)
    bots = [name.strip() for name in args.bots.split(",") if name.strip()]
    table = BotTable(args.game, args.players, seed, bots, parse_options(args.option),
                     {args.seat: person})
    print(f"{args.game}: you are seat {args.seat} of {args.players} (seed {seed}); "
          f"type help at a prompt", file=out)
    try:
        while not table.game.pending().over:
            before = table.hands
            event = table.step()
            print(f"  {event.describe(viewer=args.seat)}", file=out)
            view = table.game.public_view()
            if table.hands != before and view.get("last_round"):
                print(round_table(view), file=out)
    except Quit as stop:
        stacks = ", ".join(f"seat {s}: {n}" for s, n in enumerate(table.game.final()["stacks"]))
        print(f"{stop}. Stones: {stacks}", file=out)
        return 0
    winner = table.game.final().get("winner")
    print("You win the game!" if winner == args.seat else f"Seat {winner} wins the game.", file=out)
    return 0
