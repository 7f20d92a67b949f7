"""Bots play any registered game; a seeded ``random.Random`` rolls exactly the dice it asks for.

The loop knows games only through the ``Game`` protocol: when ``pending().dice`` is not empty it
rolls the first die set asked for and feeds it as a :class:`~controller.games.rolls.Roll`; otherwise
it asks the bot of the prompted seat. When a game ends and more hands are wanted, a new game of
the same kind starts. Same seed, same bots, same options: the same games, input for input.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from controller.bots import Bot, bot_factory
from controller.games.base import DiceNeeded, Game, Input
from controller.games.dice import DieKind
from controller.games.errors import DiceTableError
from controller.games.records import SeatInput
from controller.games.registry import create_game, find_game
from controller.games.rolls import Roll

DEFAULT_BOT = "heuristic"


def roll_dice(needed: DiceNeeded, rng: random.Random) -> Roll:
    """Roll the dice ``needed`` asks for with ``rng``."""
    faces = needed.kind.faces
    return Roll(needed.seat, needed.kind,
                tuple(faces[rng.randrange(len(faces))] for _ in range(needed.count)))


class EngineStuck(DiceTableError, RuntimeError):
    """A game that waits for nothing yet is not over: a bug in that engine."""


class BotTable:
    """A table of bots playing games of one kind, one input per :meth:`step`.

    ``bots`` names the bot of each seat, repeated round the table when shorter than ``players``;
    ``seated`` puts given players (a person at the terminal) at some seats instead.
    """

    def __init__(self, game: str, players: int, seed: int, bots: Sequence[str] = (DEFAULT_BOT,),
                 options: Mapping[str, str] | None = None,
                 seated: Mapping[int, Bot] | None = None) -> None:
        spec = find_game(game)
        if not spec.min_seats <= players <= spec.max_seats:
            raise DiceTableError(f"{game} is for {spec.min_seats} to {spec.max_seats} players, "
                                 f"not {players}")
        self.name, self.players, self.options = spec.name, players, dict(options or {})
        self.dice = random.Random(seed)
        names = list(bots) or [DEFAULT_BOT]
        self.bots: list[Bot] = [bot_factory(spec.name, names[s % len(names)])(
            s, random.Random(f"{seed}/bot/{s}")) for s in range(players)]
        for seat, player in (seated or {}).items():
            self.bots[seat] = player
        self.games: list[Game] = [create_game(self.name, players, self.options)]
        self.conserved = True
        self._earlier_hands = 0  # hands of the games before the current one

    @property
    def game(self) -> Game:
        """The game being played now."""
        return self.games[-1]

    @property
    def hands(self) -> int:
        """Hands (rounds) completed over every game so far."""
        return self._earlier_hands + self.game.hands_played

    def step(self) -> Event:
        """Play one input (starting a new game if the last one is over) and say what happened."""
        game = self.game
        pending = game.pending()
        if pending.over:
            self._earlier_hands += game.hands_played
            game = create_game(self.name, self.players, self.options)
            self.games.append(game)
            pending = game.pending()
        hidden = False
        if pending.dice:
            hidden = pending.dice[0].hidden
            record = game.apply(roll_dice(pending.dice[0], self.dice))
        elif pending.prompt is not None or pending.actors:
            seat = pending.prompt if pending.prompt is not None else pending.actors[0]
            record = game.apply(self.bots[seat].choose(game))
        else:
            raise EngineStuck(f"{self.name} waits for nothing but is not over: {pending.note}")
        if game.chips_total() != game.chips_expected():
            self.conserved = False
        return Event(len(self.games), record, hidden)

    def play(self, hands: int, progress: Callable[[int], None] | None = None) -> None:
        """Step until ``hands`` hands are complete; ``progress(hands)`` after each new hand."""
        done = self.hands
        while done < hands:
            self.step()
            if progress is not None and self.hands != done:
                progress(self.hands)
            done = self.hands

    def final(self) -> dict[str, Any]:
        """The summary of every game played (see :func:`final_of`)."""
        return final_of(self.games)


@dataclass(frozen=True)
class Event:
    """One accepted input: in which game (counted from 1), the record, and whether it is hidden dice."""

    game: int
    record: Input
    hidden: bool = False

    def describe(self, viewer: int | None = None) -> str:
        """A sentence for the room (``viewer`` None) or for the player at seat ``viewer``."""
        return describe(self.record, self.hidden, viewer)


def describe(record: Input, hidden: bool = False, viewer: int | None = None) -> str:
    """Say what an input was, in a spectator's words; hidden dice only to their owner.

    >>> describe(Roll(2, DieKind.D6, ("3", "5")), hidden=True)
    'Seat 2 rolls their hidden dice'
    >>> describe(Roll(2, DieKind.D6, ("3", "5")), hidden=True, viewer=2)
    'You roll 3 5 (hidden from the others)'
    """
    if isinstance(record, Roll):
        return _describe_roll(record, hidden, viewer)
    if not isinstance(record, SeatInput):
        return str(record)
    you = viewer == record.seat
    return f"{'You' if you else f'Seat {record.seat}'} {record.says(you)}"


def _describe_roll(roll: Roll, hidden: bool, viewer: int | None) -> str:
    faces = " ".join(roll.faces)
    if roll.seat is None:  # the community's dice: one kind a game, drawn on the board
        return f"The table rolls {faces}"
    if roll.seat == viewer:
        return f"You roll {faces} (hidden from the others)" if hidden \
            else f"You roll {roll.kind.value}: {faces}"
    if hidden:
        return f"Seat {roll.seat} rolls their hidden dice"
    return f"Seat {roll.seat} rolls {roll.kind.value}: {faces}"


def final_of(games: Sequence[Game]) -> dict[str, Any]:
    """The last game's ``final()`` plus ``hands`` over all games, ``games`` and ``game_winners``.

    ``simulate`` prints it after playing and ``replay`` after reading the recorded games back, so
    both give the same object for the same games.
    """
    summary = dict(games[-1].final())
    summary["hands"] = sum(game.hands_played for game in games)
    summary["games"] = len(games)
    summary["game_winners"] = [game.final().get("winner") for game in games]
    return summary


@dataclass(frozen=True)
class RunReport:
    """What ``simulate`` prints: the figures and the final state."""

    hands: int
    seconds: float
    conserved: bool
    final: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        """The JSON object of ``simulate --json``."""
        rate = self.hands / self.seconds if self.seconds > 0 else 0.0
        return {"hands": self.hands, "seconds": round(self.seconds, 3),
                "hands_per_second": round(rate, 1), "conserved": self.conserved,
                "final": self.final}


def simulate(table: BotTable, hands: int,
             progress: Callable[[int], None] | None = None) -> RunReport:
    """Play ``hands`` hands at ``table`` and time it."""
    start = time.perf_counter()
    table.play(hands, progress)
    return RunReport(table.hands, time.perf_counter() - start, table.conserved, table.final())
