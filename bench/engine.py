"""Hands per second of our hold'em engines against PokerKit's no-limit Texas hold'em.

The same scripted hand on both sides: blinds 1/2, stacks 20, every player calls or checks to
the showdown (Standard DiceHoldem players also pass on every Reroll/Protect bet); cards (PokerKit) or dice (ours, from a seeded ``random.Random``) are dealt as the
engine asks. PokerKit builds a fresh ``State`` per hand, so ours builds a fresh table per hand too.

Then, in the same run, the hand evaluation figures of ``bench/hands.py`` (rank look-ups per
second, exact heads-up equity on the flop and before it), unless ``--no-hands``.

    .venv/bin/python bench/engine.py [--seconds 2] [--players 2 6 9] [--json] [--no-hands]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Callable

from controller.games.holdem import HoldemGame, Phase
from controller.games.holdem_inputs import Call, Check, Pass
from controller.games.registry import create_game
from controller.games.rolls import Roll


def our_hand(game_name: str, players: int, rng: random.Random) -> None:
    """One check-down hand of ours, dice rolled as the engine asks for them."""
    game = create_game(game_name, players, {})
    assert isinstance(game, HoldemGame)
    while not game.hands_played:
        pending = game.pending()
        if pending.dice:
            needed = pending.dice[0]
            faces = needed.kind.faces
            game.apply(Roll(needed.seat, needed.kind,
                            tuple(rng.choice(faces) for _ in range(needed.count))))
            continue
        seat = pending.prompt
        assert seat is not None and game.hand is not None
        if game.phase is Phase.SIDE_BET:
            game.apply(Pass(seat))  # Standard DiceHoldem: no Reroll/Protect bet
        else:
            game.apply(Call(seat) if game.hand.to_call(seat) else Check(seat))


def pokerkit_hand(players: int) -> None:
    """One check-down hand of PokerKit's no-limit Texas hold'em, everything else automated."""
    from pokerkit import Automation, NoLimitTexasHoldem

    state = NoLimitTexasHoldem.create_state(
        (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
         Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
         Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
         Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING),
        True, 0, (1, 2), 2, 20, players)
    while state.status:
        state.check_or_call()


def rate(hand: Callable[[], None], seconds: float) -> float:
    """Hands per second of ``hand`` over about ``seconds``."""
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(5):
            hand()
        count += 5
    return count / elapsed


def best_rates(hands: dict[str, Callable[[], None]], seconds: float, rounds: int) -> dict[str, float]:
    """The best rate of each hand over ``rounds`` interleaved slices (the machine is shared, so
    the best slice is the least disturbed one, and interleaving exposes all sides to the same
    load)."""
    for hand in hands.values():
        hand()  # warm up: imports, hand tables
    best = dict.fromkeys(hands, 0.0)
    for _ in range(rounds):
        for name, hand in hands.items():
            best[name] = max(best[name], rate(hand, seconds / rounds))
    return best


def main() -> None:
    """Measure and print one line per player count (or one JSON object with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="time per engine and player count (default 3)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="interleaved slices per measurement; the best counts (default 5)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 6, 9])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-hands", action="store_true",
                        help="skip the hand look-up and equity figures of bench/hands.py")
    args = parser.parse_args()
    rng = random.Random(1)
    rows = []
    for players in args.players:
        best = best_rates({"pokerkit": lambda: pokerkit_hand(players),
                           "tauren": lambda: our_hand("tauren", players, rng),
                           "diceholdem": lambda: our_hand("diceholdem", players, rng)},
                          args.seconds, args.rounds)
        row: dict[str, float] = {"players": players, **{k: round(v, 1) for k, v in best.items()}}
        for name in ("tauren", "diceholdem"):
            row[f"{name}_ratio"] = round(best[name] / best["pokerkit"], 1)
        rows.append(row)
        if not args.json:
            print(f"{players} players: pokerkit {row['pokerkit']:8.1f} hands/s | tauren "
                  f"{row['tauren']:8.1f} ({row['tauren_ratio']}x) | diceholdem "
                  f"{row['diceholdem']:8.1f} ({row['diceholdem_ratio']}x)", flush=True)
    if args.json:
        print(json.dumps({"check_down_hands_per_second": rows}))
    elif not args.no_hands:
        print_hand_figures()


def print_hand_figures() -> None:
    """Rank look-ups per second and exact equity times, as ``bench/hands.py`` prints them."""
    from hands import GAMES, bench_equity, bench_lookups  # bench/hands.py, beside this script

    for name, rules in GAMES.items():
        bench_lookups(name, rules)
        bench_equity(name, rules)


if __name__ == "__main__":
    main()
