"""``dicetable equity``: exact win, tie and pot share of hold'em dice hands."""

from __future__ import annotations

import argparse
import json
from typing import Any

from controller.commands.rank import GAME_NAMES, add_rules_options, rules_from_args, split_dice
from controller.games.equity import BOARD_DICE, Equity, equity
from controller.games.hand_rules import HandRules


def register(subparsers: Any) -> None:
    """Add the ``equity`` command."""
    parser = subparsers.add_parser(
        "equity", help="exact win/tie probabilities of hold'em dice hands",
        description="Enumerate every roll of the unknown dice (the board's missing dice and any\n"
                    "hidden '?' die of a hand) and print each hand's chance to win outright, to\n"
                    "split, and its equity (expected share of the pot, splits counted as shares).",
        epilog="examples: dicetable equity --game tauren --board 2 3 4 --hand S S --hand 6 W\n"
               "          dicetable equity --game diceholdem --hand H H --hand x x\n"
               "A die nobody knows is x (or '?' in quotes: unquoted, the shell expands it).",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", nargs="*", default=[], metavar="DIE",
                        help=f"the community dice known so far (0 to {BOARD_DICE}; x for one "
                             "not known)")
    parser.add_argument("--hand", nargs="+", action="append", required=True, metavar="DIE",
                        help="a player's two dice, x for a hidden one; give --hand for each "
                             "player (at least two)")
    add_rules_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object with every figure")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the equity of the hands."""
    rules = rules_from_args(args)
    result = equity(rules, split_dice(args.board), [split_dice(hand) for hand in args.hand])
    print(json.dumps(equity_json(rules, result)) if args.json
          else "\n".join(equity_table(rules, result)))
    return 0


def equity_json(rules: HandRules, result: Equity) -> dict[str, Any]:
    """The equity as one JSON object (floats, plus the exact equity as a fraction)."""
    return {"game": rules.game, "shaman": rules.shaman, "wrap": rules.wrap,
            "board": list(result.board), "outcomes": result.outcomes, "boards": result.boards,
            "hands": [{"hand": list(hand.hand), "win": float(hand.win), "tie": float(hand.tie),
                       "equity": float(hand.equity), "wins": hand.wins, "ties": hand.ties,
                       "equity_exact": str(hand.equity)}
                      for hand in result.hands]}


def equity_table(rules: HandRules, result: Equity) -> list[str]:
    """The equity as lines a player reads."""
    board = " ".join(result.board) or "(none)"
    lines = [f"{GAME_NAMES[rules.game]} ({rules.describe()}), board {board}: "
             f"{result.outcomes:,} equally likely rolls of the unknown dice",
             f"{'hand':<8}{'win':>10}{'tie':>10}{'equity':>10}"]
    for hand in result.hands:
        lines.append(f"{' '.join(hand.hand):<8}{float(hand.win):>10.2%}{float(hand.tie):>10.2%}"
                     f"{float(hand.equity):>10.2%}")
    return lines
