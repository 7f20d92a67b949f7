"""Benchmark of hand evaluation: table builds, rank look-ups per second, exact equity times.

Run: ``.venv/bin/python bench/hands.py``. Goals (issue 4): an exact heads-up equity under 5 ms on
the flop and under 50 ms before the flop, for each game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Callable

from controller.games.equity import equity
from controller.games.hand_rules import HandRules
from controller.games.hand_table import build_table
from controller.games.hands import evaluator

GAMES = {"tauren": HandRules("tauren"), "tauren wild": HandRules("tauren", "wild"),
         "diceholdem": HandRules("diceholdem")}
HEADS_UP = {"tauren": (["2", "5", "W"], [["S", "S"], ["6", "W"]]),
            "tauren wild": (["2", "5", "W"], [["S", "C"], ["6", "W"]]),
            "diceholdem": (["H", "L", "M"], [["H", "H"], ["O", "D"]])}
LOOKUPS = 200_000


def best_time(action: Callable[[], object], repeat: int = 7) -> float:
    """Median seconds of ``action`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench_build(name: str, rules: HandRules) -> None:
    """Time to build the 7-dice table from face counts."""
    seconds = best_time(lambda: build_table(rules, 7), repeat=3)
    print(f"{name:<12} build 7-dice table     {seconds * 1000:8.1f} ms")


def bench_lookups(name: str, rules: HandRules) -> None:
    """Look-ups per second through ``key`` (faces) and ``strength_of_code`` (codes)."""
    hands = evaluator(rules)
    rng = random.Random(4)
    dice = [[rng.choice(rules.faces) for _ in range(7)] for _ in range(LOOKUPS)]
    codes = [hands.code(hand) for hand in dice]
    hands.key(dice[0])
    seconds = best_time(lambda: [hands.key(hand) for hand in dice], repeat=3)
    print(f"{name:<12} key(7 dice)            {LOOKUPS / seconds:12,.0f} look-ups/s")
    strength = hands.strength_of_code
    seconds = best_time(lambda: [strength(code) for code in codes], repeat=3)
    print(f"{name:<12} strength_of_code       {LOOKUPS / seconds:12,.0f} look-ups/s")


def bench_equity(name: str, rules: HandRules) -> None:
    """Exact heads-up equity on the flop and before it, with known and with hidden hands."""
    flop, hands = HEADS_UP[name]
    evaluator(rules).strengths  # build the tables outside the timing
    cases = [("flop", flop, hands), ("preflop", [], hands),
             ("flop vs ? ?", flop, [hands[0], ["?", "?"]]),
             ("preflop vs ? ?", [], [hands[0], ["?", "?"]])]
    for label, board, seats in cases:
        seconds = best_time(lambda: equity(rules, board, seats))
        result = equity(rules, board, seats)
        shares = " ".join(f"{float(hand.equity):.4f}" for hand in result.hands)
        print(f"{name:<12} equity {label:<15} {seconds * 1000:8.2f} ms  "
              f"({result.outcomes:,} rolls, {result.boards} boards; equity {shares})")


def main(argv: list[str] | None = None) -> None:
    """Print every figure."""
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    for name, rules in GAMES.items():
        bench_build(name, rules)
        bench_lookups(name, rules)
        bench_equity(name, rules)


if __name__ == "__main__":
    main()
