"""A sensible Tao Dice player: bets on its chance of the best score, rerolls weak dice with whites."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Sequence

from controller.games.base import Game, Input
from controller.games.errors import IllegalAction
from controller.games.tao import Ante, Call, Fold, Pass, Raise

_D6_SUMS = [(a + b) for a in range(1, 7) for b in range(1, 7)]
_D12 = range(1, 13)
BLUFF = 0.04  # how often it raises without the numbers for it, so it cannot be read too easily


@lru_cache(maxsize=None)
def beat_hidden(target: int) -> float:
    """Chance that a hidden 2d6 total is below ``target`` (a tie counts half: tiebreaks are fair)."""
    return sum(1.0 if s < target else 0.5 if s == target else 0.0 for s in _D6_SUMS) / 36


@lru_cache(maxsize=None)
def beat_unseen(target: int) -> float:
    """Chance that an opponent's 2d6 + d12, none of it seen yet, is below ``target``."""
    return sum(beat_hidden(target - d) for d in _D12) / 12


def win_chance(my_d6: int, my_d12: int | None, their_d12: Sequence[int | None]) -> float:
    """Chance to take the pot against opponents whose d12 is known (part two) or not (part one)."""
    return _win_chance(my_d6, my_d12, _key(their_d12))


def _key(their_d12: Sequence[int | None]) -> tuple[int | None, ...]:
    """The opponents' dice in a canonical order, so equal situations share a cache entry."""
    return tuple(sorted(their_d12, key=lambda d: d or 0))


@lru_cache(maxsize=4096)
def _reroll_d6(their_d12: tuple[int | None, ...]) -> float:
    """Win chance in part one after rerolling the 2d6."""
    return sum(_win_chance(s, None, their_d12) for s in _D6_SUMS) / 36


@lru_cache(maxsize=65536)
def _reroll_d12(my_d6: int, their_d12: tuple[int | None, ...]) -> float:
    """Win chance in part two after rerolling the d12."""
    return sum(_win_chance(my_d6, d, their_d12) for d in _D12) / 12


@lru_cache(maxsize=65536)
def _win_chance(my_d6: int, my_d12: int | None, their_d12: tuple[int | None, ...]) -> float:
    if my_d12 is None:
        return sum(_win_chance(my_d6, d, their_d12) for d in _D12) / 12
    mine = my_d6 + my_d12
    chance = 1.0
    for d12 in their_d12:
        chance *= beat_unseen(mine) if d12 is None else beat_hidden(mine - d12)
    return chance


class TaoHeuristicBot:
    """Raises on a good chance of winning, calls when the pot pays for the risk, else folds.

    A white stone is used when the reroll it forces improves the chance (low 2d6 in part one, low
    d12 in part two); otherwise whites are kept and black stones bet.
    """

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, game: Game) -> Input:
        """The bot's input when prompted (or when it may raise out of turn)."""
        choices = game.legal_inputs(self.seat)
        if not choices:
            raise IllegalAction(f"Seat {self.seat} has nothing to do now")
        if isinstance(choices[0], Ante):
            return _keep_whites(choices)
        view = game.seat_view(self.seat)
        chance, reroll_chance = self._chances(view)
        use_white = reroll_chance > chance
        best = max(chance, reroll_chance)
        rivals = max(1, sum(p["status"] == "active" for p in view["players"]) - 1)
        fair = 1 / (rivals + 1)
        bets = [c for c in choices if isinstance(c, (Raise, Call))]
        if any(isinstance(c, Fold) for c in choices):
            pot = view["pot"]["black"] + view["pot"]["white"]
            stake = view["multiplier"]
            calls = best * (pot + stake) >= stake * (1 - best) * 0.8
            return _mix(bets, use_white) if calls and bets else choices[-1]
        if bets and (best > 1.5 * fair or self.rng.random() < BLUFF):
            return _mix(bets, use_white)
        passes = [c for c in choices if isinstance(c, Pass)]
        return passes[0] if passes else choices[0]

    def _chances(self, view: dict[str, Any]) -> tuple[float, float]:
        """Win chance as the dice stand and after the reroll a white stone would force."""
        mine = view["my_d6"]
        d6 = mine[0] + mine[1]
        players = view["players"]
        their = [p["d12"] for p in players if p["status"] == "active" and p["seat"] != self.seat]
        my_d12 = players[self.seat]["d12"]
        key = _key(their)
        chance = _win_chance(d6, my_d12, key)
        reroll = _reroll_d6(key) if my_d12 is None else _reroll_d12(d6, key)
        return chance, reroll


def _keep_whites(choices: list[Input]) -> Input:
    """The ante with the fewest whites: they are worth keeping for a reroll later."""
    return min(choices, key=lambda c: c.white if isinstance(c, Ante) else 0)


def _mix(bets: Sequence[Raise | Call], use_white: bool) -> Input:
    """The bet with exactly one white stone when a reroll is wanted, else the fewest whites."""
    with_white = [b for b in bets if b.white >= 1]
    if use_white and with_white:
        return min(with_white, key=lambda b: b.white)
    return min(bets, key=lambda b: b.white)
