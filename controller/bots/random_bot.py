"""A bot for any game that picks uniformly among the inputs ``legal_inputs(seat)`` lists."""

from __future__ import annotations

import random

from controller.games.base import Game, Input
from controller.games.errors import IllegalAction


class RandomBot:
    """Plays a random legal input: the fuzzer of the rules engines and the weakest opponent."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, game: Game) -> Input:
        """A uniformly random legal input for this seat.

        :raises IllegalAction: when the seat has nothing legal to do now.
        """
        choices = game.legal_inputs(self.seat)
        if not choices:
            raise IllegalAction(f"Seat {self.seat} has nothing to do now")
        return choices[self.rng.randrange(len(choices))]
