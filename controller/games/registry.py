"""The games the table knows, found by name (like python-chess's ``find_variant``).

Entries are import paths, so this module stays import-light and a new game or variant is one
new module plus one line here.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Mapping, cast

from controller.games.base import Game, GameSpec
from controller.games.errors import UnknownGame

GAMES: dict[str, GameSpec] = {
    "tao": GameSpec("tao", "controller.games.tao:create",
                    {"random": "controller.bots.random_bot:RandomBot",
                     "heuristic": "controller.bots.tao:TaoHeuristicBot"}, 2, 6),
    "tauren": GameSpec("tauren", "controller.games.tauren:create",
                       {"random": "controller.bots.random_bot:RandomBot",
                        "heuristic": "controller.bots.holdem:HoldemHeuristicBot"}, 2, 10),
    "diceholdem": GameSpec("diceholdem", "controller.games.diceholdem:create",
                           {"random": "controller.bots.random_bot:RandomBot",
                            "heuristic": "controller.bots.holdem:HoldemHeuristicBot"}, 2, 10),
}


def find_game(name: str) -> GameSpec:
    """Return the registered game called ``name``.

    :raises UnknownGame: with the names that exist.
    """
    try:
        return GAMES[name.lower()]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None


def load(target: str) -> Any:
    """Import ``"module:attribute"`` and return the attribute."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def create_game(name: str, seats: int, options: Mapping[str, str] | None = None) -> Game:
    """Build a fresh game of ``name`` for ``seats`` players with text ``options``."""
    spec = find_game(name)
    factory = cast(Callable[[int, dict[str, str]], Game], load(spec.target))
    return factory(seats, dict(options or {}))
