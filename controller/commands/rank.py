"""``dicetable rank``: the hand some dice make in Tauren Hold'em or DiceHoldem."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterable

from controller.games.errors import InvalidInput
from controller.games.hand_rules import SHAMAN_OPTIONS, HandRank, HandRules, parse_dice
from controller.games.hands import evaluator

GAME_NAMES = {"tauren": "Tauren Hold'em", "diceholdem": "DiceHoldem"}
FACES_HELP = ("Tauren faces: 2 3 4 5 6 W C S (Warrior, Chieftain, Shaman).\n"
              "DiceHoldem faces: H O L D E M, or pips 6-1 for them.\n"
              "Any case; dice may be run together (WWW55C2).")


def register(subparsers: Any) -> None:
    """Add the ``rank`` command."""
    parser = subparsers.add_parser(
        "rank", help="the hand 5 to 7 dice make (Tauren Hold'em, DiceHoldem)",
        description="Print the best hand 5 to 7 dice make, the dice it uses and its sort key\n"
                    "(comparing keys as lists orders hands; equal keys split the pot).\n"
                    + FACES_HELP,
        epilog="examples: dicetable rank --game tauren W W W 5 5 C 2\n"
               "          printf 'HOLDEMM\\n6654321\\n' | "
               "dicetable rank --game diceholdem - --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dice", nargs="+", metavar="DIE",
                        help="the dice of one hand, or '-' to read one hand per line from stdin")
    add_rules_options(parser)
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per hand: dice, category, best, played_as, key")
    parser.set_defaults(run=run)


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--game``, ``--shaman`` and ``--no-wrap`` (shared by rank, odds and equity)."""
    parser.add_argument("--game", required=True, choices=sorted(GAME_NAMES),
                        help="the game whose ranking applies")
    parser.add_argument("--shaman", choices=SHAMAN_OPTIONS, default=None,
                        help="Tauren only: the Shaman ranks above the Chieftain and also plays low "
                             "in straights (ace, the default), only high, only low, or is wild")
    parser.add_argument("--no-wrap", action="store_true",
                        help="Tauren only: no straights around the horn (C-S-2-3-4 and the like)")


def rules_from_args(args: argparse.Namespace) -> HandRules:
    """The hand rules the options ask for.

    :raises InvalidInput: for Tauren options given with DiceHoldem.
    """
    if args.game != "tauren" and (args.shaman is not None or args.no_wrap):
        raise InvalidInput("--shaman and --no-wrap are Tauren Hold'em options")
    return HandRules(args.game, args.shaman or "ace", not args.no_wrap)


def split_dice(texts: Iterable[str]) -> list[str]:
    """One text per die from words that may hold several dice (``WWW55C2``, ``S,?``)."""
    return [die for text in texts for word in text.replace(",", " ").split() for die in word]


def run(args: argparse.Namespace) -> int:
    """Rank the hand on the command line, or each line of standard input after ``-``."""
    rules = rules_from_args(args)
    if args.dice != ["-"]:
        print_rank(rules, split_dice(args.dice), args.json)
        return 0
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            print_rank(rules, split_dice([line]), args.json)
        except InvalidInput as err:
            raise InvalidInput(f"standard input, line {number}: {err}") from None
    return 0


def print_rank(rules: HandRules, hand: list[str], as_json: bool) -> None:
    """Print the hand ``hand`` makes, as a line or a JSON object."""
    dice = parse_dice(rules, hand)
    rank = evaluator(rules).rank(dice)
    print(json.dumps(rank_json(dice, rank)) if as_json else rank_line(dice, rank))


def rank_json(dice: tuple[str, ...], rank: HandRank) -> dict[str, Any]:
    """The JSON object of one ranked hand."""
    return {"dice": list(dice), "category": rank.category.value, "best": list(rank.best),
            "played_as": list(rank.played_as), "key": list(rank.key)}


def rank_line(dice: tuple[str, ...], rank: HandRank) -> str:
    """``W W W 5 5 C 2 -> full house: W W W 5 5`` (and what wild dice stand for)."""
    line = f"{' '.join(dice)} -> {rank.category.label}: {' '.join(rank.best)}"
    if rank.played_as != rank.best:
        line += f" (as {' '.join(rank.played_as)})"
    return line
