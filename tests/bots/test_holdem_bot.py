"""The hold'em heuristic bot: always legal, bets strong hands, folds weak ones to big bets."""

from __future__ import annotations

import random

import pytest

from controller.bots.holdem import HoldemHeuristicBot
from controller.games.holdem import HoldemGame
from controller.games.holdem_inputs import (Bet, Check, Fold, Leave, Pass, Protect, Raise, Rebuy,
                                            Reroll)
from controller.games.registry import create_game
from controller.simulation import BotTable, simulate


def game_at_flop(name: str, mine: str, board: str, options: dict[str, str] | None = None
                 ) -> HoldemGame:
    """Three seats limp to the flop; seat 1 (first to act after the flop) holds ``mine``."""
    game = create_game(name, 3, options or {})
    assert isinstance(game, HoldemGame)
    kind = game.kind.value
    others = "2 3" if name == "tauren" else "M E"
    for seat in range(3):
        game.apply(game.parse_input(f"roll {seat} {kind} {mine if seat == 1 else others}"))
    for line in ("call 0", "call 1", "check 2", f"roll table {kind} {board}"):
        game.apply(game.parse_input(line))
    return game


@pytest.mark.parametrize("game_name", ["tauren", "diceholdem"])
def test_bot_plays_only_legal_inputs_for_a_whole_simulation(game_name: str) -> None:
    report = simulate(BotTable(game_name, 4, seed=5, bots=("heuristic",)), 150)
    assert report.conserved and report.hands >= 150


def test_bot_bets_four_of_a_kind() -> None:
    game = game_at_flop("tauren", "C C", "C C 4")
    bets = [HoldemHeuristicBot(1, random.Random(seed)).choose(game) for seed in range(20)]
    assert any(isinstance(b, (Bet, Raise)) for b in bets)
    assert not any(isinstance(b, Fold) for b in bets)


def test_bot_checks_a_weak_hand_when_it_can() -> None:
    game = game_at_flop("tauren", "2 4", "W C 6")
    assert all(isinstance(HoldemHeuristicBot(1, random.Random(s)).choose(game), Check)
               for s in range(20))


def test_bot_folds_a_weak_hand_to_a_big_bet_most_of_the_time() -> None:
    game_weak = game_at_flop("tauren", "2 2", "W C 6")
    game_weak.apply(game_weak.parse_input("bet 1 amount=16"))
    choices = [HoldemHeuristicBot(2, random.Random(s)).choose(game_weak) for s in range(40)]
    assert sum(isinstance(c, Fold) for c in choices) > 20


def test_bot_places_reroll_or_protect_bets_in_standard_diceholdem() -> None:
    placed = []
    for seed in range(30):
        game = game_at_flop("diceholdem", "H H", "H O L")
        game.apply(game.parse_input("check 1"))
        placed.append(HoldemHeuristicBot(1, random.Random(seed)).choose(game))
    assert any(isinstance(c, Protect) and c.die == 0 for c in placed)
    assert all(isinstance(c, (Pass, Protect, Reroll)) for c in placed)


def test_busted_bot_rebuys_three_times_then_leaves() -> None:
    game = create_game("tauren", 2, {"stack": "2"})
    assert isinstance(game, HoldemGame)
    bot = HoldemHeuristicBot(1, random.Random(1))
    for line in ("roll 0 d8-tauren S S", "roll 1 d8-tauren 2 3", "allin 0"):
        game.apply(game.parse_input(line))
    while game.pending().dice:
        faces = " ".join(["4", "W", "C"][:game.need_dice])
        game.apply(game.parse_input(f"roll table d8-tauren {faces}"))
    assert isinstance(bot.choose(game), Rebuy)
    game.rebuys[1] = 3
    assert isinstance(bot.choose(game), Leave)
