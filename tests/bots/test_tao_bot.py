"""The heuristic Tao Dice bot: bets on its chances, rerolls weak dice with white stones."""

from __future__ import annotations

import random

import pytest

from controller.bots.tao import TaoHeuristicBot, beat_hidden, win_chance
from controller.games.dice import DieKind
from controller.games.tao import Ante, Call, Fold, Pass, Raise, TaoDice, create
from controller.simulation import BotTable


def part_one(d6: tuple[int, int], black: int = 4, white: int = 2) -> TaoDice:
    game = create(2, {"black": str(black), "white": str(white)})
    game.ante(0, 1, 0) if black else game.ante(0, 0, 1)
    game.ante(1, 1, 0)
    game.roll(0, DieKind.D6, [str(d) for d in d6])
    game.roll(1, DieKind.D6, ["3", "4"])
    return game


def bot() -> TaoHeuristicBot:
    return TaoHeuristicBot(0, random.Random(5))


def test_win_chance_grows_with_the_dice() -> None:
    assert win_chance(2, None, [None]) < win_chance(7, None, [None]) < win_chance(12, None, [None])
    assert win_chance(12, 12, [1]) == 1.0
    assert beat_hidden(7) == pytest.approx(15 / 36 + 0.5 * 6 / 36)


def test_heuristic_bot_antes_black_and_keeps_its_whites() -> None:
    assert bot().choose(create(2, {})) == Ante(0, 1, 0)


def test_heuristic_bot_raises_with_strong_dice() -> None:
    assert bot().choose(part_one((6, 6))) == Raise(0, 1, 0)


def test_heuristic_bot_passes_weak_dice_in_the_open_phase() -> None:
    assert bot().choose(part_one((1, 2))) == Pass(0)


def test_heuristic_bot_calls_with_a_white_stone_to_reroll_weak_dice() -> None:
    game = part_one((1, 1))
    game.pass_(0)
    game.raise_(1, 1, 0)
    assert bot().choose(game) == Call(0, 0, 1)


def test_heuristic_bot_folds_a_hopeless_part_two() -> None:
    game = part_one((1, 1), white=0)
    game.pass_(0)
    game.pass_(1)
    game.roll(0, DieKind.D12, ["1"])
    game.roll(1, DieKind.D12, ["12"])
    game.pass_(0)
    game.raise_(1, 1, 0)
    assert bot().choose(game) == Fold(0)


def test_heuristic_bots_beat_random_bots_over_many_rounds() -> None:
    table = BotTable("tao", 2, 11, ["heuristic", "random"], {"length": "single"})
    table.play(1500)
    winners = [game.final()["winner"] for game in table.games if game.pending().over]
    assert winners.count(0) > 2 * winners.count(1)
