"""The REAL table (``controller.table.Table`` over a SQLite record) with bots at its seats, for the
web's tests, browser tests and bench: what ``dicetable demo`` runs, driven one input at a time.

Bots give the seats' inputs and a seeded ``random.Random`` rolls the dice, through
``Table.submit`` like any input (hidden rolls sealed, their faces entered at the reveal, unless
``sealed`` is False as the simulation may). :meth:`DrivenTable.ask` makes the camera path doubt a
roll so the table puts a question to the dealer, with an evidence picture.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any, Callable, Sequence

import cv2
import numpy as np

from controller.bots import bot_factory
from controller.games.base import Game, Input
from controller.games.rolls import Roll
from controller.simulation import roll_dice
from controller.store import Store
from controller.table.records import Ack, DieSeen, Entry, Question
from controller.table.controls import find_controls
from controller.table.table import Sighting, Table
from hardware.clock import SimClock
from hardware.config import parse_config
from hardware.factory import build_devices


def next_input(game: Game, bots: Sequence[Any], roll: Callable[[Any], Roll], sealed: bool = True) -> Input:
    """The input ``game`` waits for: the dice it needs (``roll``; hidden ones entered sealed
    unless ``sealed`` is False), else the choice of the bot whose turn it is."""
    pending = game.pending()
    if pending.dice:
        need = pending.dice[0]
        if sealed and need.hidden and need.reason != "reveal":
            return Roll(need.seat, need.kind, ("?",) * need.count)
        return roll(need)
    seat = pending.prompt if pending.prompt is not None else pending.actors[0]
    return bots[seat].choose(game)


class DoubtfulEyes:
    """A camera path that sees nothing settle, except one doubtful frame when told to."""

    def __init__(self) -> None:
        self.doubt: Sighting | None = None
        self.failing: Exception | None = None

    def look(self, need: Any) -> Sighting | None:
        """The doubtful sighting once, when one is set and dice are wanted; ``failing`` raised
        while it is set (a camera fault)."""
        if self.failing is not None:
            raise self.failing
        sight, self.doubt = (self.doubt, None) if need is not None else (None, self.doubt)
        return sight


class DrivenTable:
    """A real table and its bots; every ``TableHandle`` method is the table's own."""

    def __init__(self, game: str, players: int, seed: int, names: Sequence[str],
                 options: dict[str, str] | None = None, sealed: bool = True,
                 colours: Sequence[str] = (), loaded: tuple[int, str, str] | None = None) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="dicetable-web-")
        self.store = Store(Path(self._folder.name) / "table.db")
        self.eyes = DoubtfulEyes()
        self.table = Table(self.store, eyes=self.eyes)
        self.rng, self.seed, self.sealed = random.Random(seed), seed, sealed
        self.kind, self.names, self.options = game, list(names), dict(options or {})
        self.colours, self.loaded = list(colours), loaded
        self.table.new_game(game, self.names, self.options, self.colours)
        self._bots()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    def _bots(self) -> None:
        # a heuristic bot reads its own hidden dice, which a sealed roll does not give it
        bot = "random" if self.sealed else "heuristic"
        self.bots = [bot_factory(self.kind, bot)(seat, random.Random(f"{self.seed}/{seat}"))
                     for seat in range(len(self.names))]

    @property
    def game(self) -> Game:
        """The engine of the game in play."""
        assert self.table.ledger is not None
        return self.table.ledger.game

    @property
    def seq(self) -> int:
        """The last record's sequence number."""
        return self.table.state().seq

    @property
    def records(self) -> list[Any]:
        """The inputs in effect in the game in play (``seq``, ``input``, ``hidden``)."""
        assert self.table.ledger is not None
        return list(self.table.ledger.played)

    def step(self) -> Ack | None:
        """One input: the dice the game waits for, or the prompted bot's choice; a new game of
        the same kind once one is over. None while the table does not take inputs."""
        if self.game.pending().over:
            ack = self.table.new_game(self.kind, self.names, self.options, self.colours)
            self._bots()
            return ack
        if self.table.state().status.value not in ("running", "over"):
            return None
        return self.table.submit(Entry(self._next(), "bot", "bot"))

    def _next(self) -> Input:
        return next_input(self.game, self.bots, self._roll, self.sealed)

    def _roll(self, need: Any) -> Roll:
        """Fair dice, but for the ``loaded`` (seat, kind, face): each die of that kind the
        seat rolls shows the face half the time (a test-only die, for the fairness page)."""
        roll = roll_dice(need, self.rng)
        if self.loaded is None or (need.seat, need.kind.value) != self.loaded[:2]:
            return roll
        return Roll(roll.seat, roll.kind, tuple(self.loaded[2] if self.rng.random() < 0.5
                                                else face for face in roll.faces))

    def ask(self, reason: str = "low confidence", cocked: bool = False, sure: float = 0.97,
            code: str | None = None, held: Sequence[str] = (), blind: bool = False) -> Question:
        """Play on to the next open roll, then let the camera doubt it: a question to the dealer
        (``cocked``: its first die is seen cocked, with no face; the others are read surely, at
        ``sure``, with no flag), of ``code`` (by default ``cocked`` or ``confidence``), which the
        players settle as the camera says (:data:`controller.table.records.PLAYERS_SETTLE`).
        ``held``: the faces the camera read surely, which the players settling it must keep up;
        ``blind``: the camera saw no die at all."""
        code = code or ("cocked" if cocked else "confidence")
        while not self._open_roll_wanted():
            self.step()
        need = self.game.pending().dice[0]
        seen = tuple(DieSeen(need.kind, None if cocked and i == 0 else need.kind.faces[i % len(need.kind.faces)],
                             0.42 if i == 0 else sure, (120.0 + 160 * i, 200.0),
                             (70.0 + 160 * i, 150.0, 100.0, 100.0), "community",
                             ("cocked" if cocked else "low confidence") if i == 0 else None)
                     for i in range(0 if blind else need.count))
        self.eyes.doubt = Sighting(None, reason, seen, evidence_picture(seen), code=code, sure=tuple(held))
        self.table.tick()
        question = self.table.state().question
        assert question is not None, "the table did not ask"
        return question

    def _open_roll_wanted(self) -> bool:
        pending = self.game.pending()
        return bool(pending.dice) and not pending.dice[0].hidden

    def close(self) -> None:
        """Close the record and remove its folder."""
        self.store.close()
        self._folder.cleanup()


class FreshTable:
    """The table ``run`` starts on a fresh record: no game yet, the simulated devices (its clock
    advanced by :meth:`beats`), seat panels whose presses mean what they do at a real table, and
    a camera path that fails while ``eyes.failing`` is set. Every ``TableHandle`` method is the
    table's own (``devices()`` too: the simulated devices are ``hardware``)."""

    def __init__(self, folder: Path) -> None:
        self._clock = SimClock()  # the devices' clock, kept to be advanced
        self.hardware = build_devices(parse_config({}, {}), clock=self._clock)
        assert self.hardware.sim is not None
        self._sim = self.hardware.sim
        self.eyes = DoubtfulEyes()
        self.table = Table(Store(folder / "fresh.db"), devices=self.hardware, eyes=self.eyes,
                           controls_for=find_controls)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.table, name)

    def beats(self, seconds: float, beat: float = 0.05) -> None:
        """Let the table watch its devices for ``seconds`` of the devices' clock."""
        for _ in range(round(seconds / beat)):
            self.table.tick()
            self._clock.advance(beat)

    def press(self, seat: int, button: str) -> None:
        """Press ``button`` at ``seat`` and let it go, as a person does."""
        self._sim.press(seat, button)
        self.beats(0.1)
        self._sim.release(seat, button)
        self.beats(0.1)

    def play(self, inputs: int | None = None, seed: int = 1) -> None:
        """Play ``inputs`` inputs of the game in play (None: to its result): random bots at its
        seats, fair dice, each input through ``submit`` as a seat's or the camera's."""
        ledger, rng = self.table.ledger, random.Random(seed)
        assert ledger is not None
        bots = [bot_factory(ledger.name, "random")(seat, random.Random(f"{seed}/{seat}"))
                for seat in range(len(self.table.names))]
        played = 0
        while not ledger.game.pending().over and played != inputs:
            self.table.submit(Entry(next_input(ledger.game, bots, lambda need: roll_dice(need, rng)),
                                    "bot", "bot"))
            played += 1

    def stray_tag(self, spot: str, tag: str) -> None:
        """Lay ``tag`` on ``spot``, a tag the table does not know (a registry with none enrolled),
        and let the table find it: a fault whose fix names `dicetable stones enroll`."""
        self.table.registry = {}
        self._sim.place(spot, tag)
        self.beats(0.5)

    def restart(self) -> None:
        """Stop the table and start it again on its record, its devices as they are (``run``
        restarted; a new app serves it, as ``run`` makes one)."""
        self.table.store.close()
        self.table = Table(Store(self.table.store.path), devices=self.hardware, eyes=self.eyes,
                           controls_for=find_controls)

    def close(self) -> None:
        """Close the devices and the record."""
        self.hardware.close()
        self.table.store.close()


def evidence_picture(seen: Sequence[DieSeen]) -> bytes:
    """A JPEG standing in for the camera's frame: the dice as squares with their faces."""
    frame = np.full((400, 640, 3), (60, 110, 40), np.uint8)
    for die in seen:
        x, y, w, h = (int(v) for v in die.box)
        cv2.rectangle(frame, (x, y), (x + w, y + h), (235, 235, 235), -1)
        cv2.putText(frame, die.face or "?", (x + 25, y + 70), cv2.FONT_HERSHEY_SIMPLEX, 2,
                    (20, 20, 20), 4)
    ok, jpeg = cv2.imencode(".jpg", frame)
    assert ok
    return bytes(jpeg.tobytes())
