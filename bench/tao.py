"""Tao Dice rounds per second at 2, 4 and 6 players, as ``dicetable simulate`` plays them.

Run: ``.venv/bin/python bench/tao.py [--hands N] [--seed S]``. Each figure is the best of three
runs of N rounds (bots choose, the seeded source rolls, stones are checked after every input).
"""

from __future__ import annotations

import argparse

from controller.simulation import BotTable, simulate


def rate(players: int, bots: str, hands: int, seed: int) -> float:
    """Best rounds per second of three runs."""
    best = 0.0
    for run in range(3):
        report = simulate(BotTable("tao", players, seed + run, bots.split(",")), hands)
        assert report.conserved
        best = max(best, report.hands / report.seconds)
    return best


def main() -> None:
    """Print the table of figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Tao Dice, {args.hands} rounds per run, best of 3 (rounds per second)")
    print(f"{'players':>7}  {'heuristic bots':>14}  {'random bots':>11}")
    for players in (2, 4, 6):
        heuristic = rate(players, "heuristic", args.hands, args.seed)
        random_bots = rate(players, "random", args.hands, args.seed)
        print(f"{players:>7}  {heuristic:>14,.0f}  {random_bots:>11,.0f}")


if __name__ == "__main__":
    main()
