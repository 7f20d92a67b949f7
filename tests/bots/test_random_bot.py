"""The generic random bot: any legal input of any game, chosen by its own seeded source."""

from __future__ import annotations

import random

import pytest

from controller.bots import bot_factory, bot_names
from controller.bots.random_bot import RandomBot
from controller.games.errors import IllegalAction
from controller.games.tao import create


def test_random_bot_picks_one_of_the_legal_inputs() -> None:
    game = create(3, {})
    picks = {str(RandomBot(1, random.Random(n)).choose(game)) for n in range(20)}
    assert picks == {"ante 1 black=1 white=0", "ante 1 black=0 white=1"}


def test_random_bot_with_nothing_to_do_says_so() -> None:
    game = create(3, {})
    for seat in range(3):
        game.ante(seat, 1, 0)
    with pytest.raises(IllegalAction, match="Seat 1 has nothing to do now"):
        RandomBot(1, random.Random(1)).choose(game)


def test_bots_are_found_by_name_in_the_registry() -> None:
    assert bot_names("tao") == ["heuristic", "random"]
    assert bot_factory("tao", "random") is RandomBot
