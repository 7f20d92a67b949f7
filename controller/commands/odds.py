"""``dicetable odds``: the exact frequency of every hand category, against the game's ranking."""

from __future__ import annotations

import argparse
import json
from typing import Any

from controller.commands.rank import GAME_NAMES, add_rules_options, rules_from_args
from controller.games.equity import CategoryOdds, category_odds
from controller.games.hand_rules import HandRules
from controller.games.hands import HAND_SIZES


def register(subparsers: Any) -> None:
    """Add the ``odds`` command."""
    parser = subparsers.add_parser(
        "odds", help="exact probability of each hand category (Tauren Hold'em, DiceHoldem)",
        description="Enumerate every roll of seven dice (weighted multisets) and print how often "
                    "each category comes up, in the game's ranking order, with its place by "
                    "rarity: these games do not rank their hands in order of rarity.")
    add_rules_options(parser)
    parser.add_argument("--dice", type=int, choices=HAND_SIZES, default=7,
                        help="how many dice a hand is made from (default 7: two private, five "
                             "community)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object with the counts and exact probabilities")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the category frequencies."""
    rules = rules_from_args(args)
    odds = category_odds(rules, args.dice)
    print(json.dumps(odds_json(rules, args.dice, odds)) if args.json
          else "\n".join(odds_table(rules, args.dice, odds)))
    return 0


def odds_json(rules: HandRules, dice: int, odds: tuple[CategoryOdds, ...]) -> dict[str, Any]:
    """The odds as one JSON object."""
    return {"game": rules.game, "shaman": rules.shaman, "wrap": rules.wrap, "dice": dice,
            "outcomes": odds[0].outcomes,
            "categories": [{"category": row.category.value, "rank": place, "rolls": row.rolls,
                            "probability": float(row.probability),
                            "exact": str(row.probability), "rarity": row.rarity}
                           for place, row in enumerate(odds, start=1)]}


def odds_table(rules: HandRules, dice: int, odds: tuple[CategoryOdds, ...]) -> list[str]:
    """The odds as lines a game designer reads."""
    lines = [f"{GAME_NAMES[rules.game]} ({rules.describe()}): every roll of {dice} dice, "
             f"{odds[0].outcomes:,} equally likely",
             f"{'rank':>4}  {'category':<16}{'rolls':>12}{'probability':>13}  "
             f"{'one in':>8}  rarity"]
    for place, row in enumerate(odds, start=1):
        lines.append(f"{place:>4}  {row.category.label:<16}{row.rolls:>12,}"
                     f"{float(row.probability):>13.4%}  {_one_in(row):>8}  {_rarity(row)}")
    return lines + _inversions(odds)


def _one_in(row: CategoryOdds) -> str:
    """``1 in N`` as N, rounded."""
    return f"{row.outcomes / row.rolls:,.1f}" if row.rolls else "-"


def _rarity(row: CategoryOdds) -> str:
    """The place by rarity in words."""
    if row.rarity is None:
        return "never"
    return f"{row.rarity} (rarest)" if row.rarity == 1 else str(row.rarity)


def _inversions(odds: tuple[CategoryOdds, ...]) -> list[str]:
    """The categories that rank above others yet come up more often."""
    lines = []
    for place, row in enumerate(odds):
        commoner_than = [lower.category.label for lower in odds[place + 1:]
                         if lower.rolls and row.rolls > lower.rolls]
        if commoner_than:
            lines.append(f"  {row.category.label} beats yet is more common than "
                         f"{', '.join(commoner_than)}")
    if not lines:
        return ["The ranking is in order of rarity."]
    return ["Not in order of rarity:"] + lines
