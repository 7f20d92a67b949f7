"""Computer players: every bot is built as ``Bot(seat, rng)`` and answers ``choose(game)``.

A bot sees the game only through the ``Game`` protocol (``seat_view(seat)``, ``legal_inputs(seat)``)
and returns one of the inputs ``legal_inputs(seat)`` lists; it never rolls dice (the simulation's
dice source does). Bots are found by name in ``controller.games.registry.GAMES[game].bots``.
"""

from __future__ import annotations

import random
from typing import Protocol

from controller.games.base import Game, Input
from controller.games.errors import DiceTableError
from controller.games.registry import find_game, load


class Bot(Protocol):
    """A computer player sitting at ``seat``."""

    seat: int

    def choose(self, game: Game) -> Input:
        """Return a legal input for this bot's seat (called when the seat is prompted)."""
        ...


class BotFactory(Protocol):
    """What a registry entry names: a class built from the seat and a seeded random source."""

    def __call__(self, seat: int, rng: random.Random) -> Bot: ...


def bot_names(game: str) -> list[str]:
    """The bot names registered for ``game`` (e.g. ``['heuristic', 'random']``)."""
    return sorted(find_game(game).bots)


def bot_factory(game: str, name: str) -> BotFactory:
    """The class of the bot called ``name`` for ``game``.

    :raises UnknownBot: naming the bots that exist for that game.
    """
    bots = find_game(game).bots
    if name not in bots:
        raise UnknownBot(f"unknown bot {name!r} for {game} (known: {', '.join(sorted(bots))})")
    factory: BotFactory = load(bots[name])
    return factory


class UnknownBot(DiceTableError, LookupError):
    """A bot name that is not registered for the game."""
