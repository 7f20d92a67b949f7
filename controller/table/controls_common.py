"""What the seat controls of every game share: the stake on a bet spot, the outcome of a press,
a bot's gesture, the per-seat dials of panels without RFID, and picking tags from a seat's purse.

A press never guesses. It gives the engine input the button means now (verified with the engine),
a :class:`Setting` (a dial button changed what the next bet will be), or a :class:`Refusal`
with a sentence for the seat. A bet spot holds what the action puts in now: after the table
accepts a bet, its stones or chips go into the pot and the spot is empty again.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable, ClassVar, Iterable, Mapping, Sequence

from controller.games.base import Game, Input
from controller.games.errors import DiceTableError, IllegalAction
from controller.games.records import SeatInput
from controller.games.rolls import Roll
from hardware.rfid import StoneColour, TagKind, TagLookup, TagRecord


class NoGesture(DiceTableError, ValueError):
    """An input no press of this seat's panel can give (dice, or a size its dial cannot reach)."""


@dataclass(frozen=True)
class Stake:
    """What lies on a seat's bet spot: stones by colour, chips by denomination (largest first),
    the tags that are not enrolled, and the tags enrolled to another owner (``foreign``)."""

    black: int = 0
    white: int = 0
    chips: tuple[tuple[int, int], ...] = ()  # (denomination, count)
    unknown: tuple[str, ...] = ()
    foreign: tuple[TagRecord, ...] = ()

    @classmethod
    def read(cls, tags: Iterable[str], registry: TagLookup, owner: str = "") -> Stake:
        """The stake of a spot holding ``tags``; with ``owner`` (the seat's name in the registry),
        a tag enrolled to someone else is ``foreign`` rather than counted.

        >>> Stake.read([], {}).empty
        True
        """
        records, unknown = [], []
        for tag in sorted(tags):
            record = registry.get(tag)
            if record is None:
                unknown.append(tag)
            else:
                records.append(record)
        foreign = tuple(r for r in records if owner and r.owner and r.owner != owner)
        mine = [r for r in records if r not in foreign]
        chips: dict[int, int] = {}
        for record in mine:
            if record.denomination is not None:
                chips[record.denomination] = chips.get(record.denomination, 0) + 1
        return cls(_stones(mine, StoneColour.BLACK), _stones(mine, StoneColour.WHITE),
                   tuple(sorted(chips.items(), reverse=True)), tuple(unknown), foreign)

    @property
    def stones(self) -> int:
        """Stones of either colour."""
        return self.black + self.white

    @property
    def chip_total(self) -> int:
        """What the chips add up to."""
        return sum(denomination * count for denomination, count in self.chips)

    @property
    def empty(self) -> bool:
        """Nothing at all lies on the spot."""
        return not (self.stones or self.chips or self.unknown or self.foreign)

    def describe(self) -> str:
        """The counted stones and chips in words, e.g. ``1 black + 1 white`` or ``12 in chips``.

        >>> Stake(black=1, chips=((5, 2), (1, 2))).describe()
        '1 black, 12 in chips (2x5 + 2x1)'
        """
        stones = " + ".join(f"{n} {c}" for n, c in ((self.black, "black"), (self.white, "white"))
                            if n)
        chips = " + ".join(f"{count}x{denomination}" for denomination, count in self.chips)
        parts = [stones] if stones else []
        parts += [f"{self.chip_total} in chips ({chips})"] if chips else []
        return ", ".join(parts) or "nothing"


def _stones(records: Sequence[TagRecord], colour: StoneColour) -> int:
    return sum(1 for r in records if r.colour is colour)


@dataclass(frozen=True)
class Refusal:
    """A press that gives no input, and the sentence that tells the seat why."""

    seat: int
    button: str
    text: str


@dataclass(frozen=True)
class Setting:
    """A dial press (no input yet): what the seat's next bet is now, for its scoreboard line."""

    seat: int
    button: str
    text: str


Press = Input | Refusal | Setting


@dataclass(frozen=True)
class Gesture:
    """How a seat expresses an input physically: the tags to have on its bet spot (None: the seat
    has no reader) and the buttons to press, in order."""

    seat: int
    spot: frozenset[str] | None
    presses: tuple[str, ...]


def turn_refusal(game: Game, seat: int) -> str | None:
    """Why ``seat`` may not act now (None when it may)."""
    pending = game.pending()
    if pending.over:
        return "the game is over"
    if seat in pending.actors:
        return None
    if pending.dice:
        return f"the table waits for dice first ({pending.note})"
    others = [s for s in pending.actors if s != seat]
    if len(others) == 1:
        return f"it is seat {others[0]}'s turn"
    return f"it is the turn of seats {', '.join(map(str, others))}"


def spot_refusal(stake: Stake) -> str | None:
    """Why the tags on the spot cannot be counted (None when every one can)."""
    if stake.unknown:
        return ("an unknown tag lies on your spot: take it off or enrol it" if len(stake.unknown) == 1
                else f"{len(stake.unknown)} unknown tags lie on your spot: take them off or "
                     "enrol them")
    if stake.foreign:
        record = stake.foreign[0]
        what = (f"a {record.colour.value} stone" if record.colour is not None
                else f"a {record.denomination} chip")
        return f"{what} of {record.owner}'s lies on your spot: give it back"
    return None


def clear_refusal(stake: Stake | None, instead: str) -> str | None:
    """Why an action that puts nothing in cannot be taken with this spot (None: it is empty);
    ``instead`` names the button that would bet what lies there."""
    if stake is None or stake.empty:
        return None
    return spot_refusal(stake) or f"take the {stake.describe()} off your spot, or press {instead}"


def checked(game: Game, button: str, inp: SeatInput) -> Input | Refusal:
    """``inp`` if the engine takes it now, else a refusal with the engine's reason."""
    try:
        game.verify(inp)
    except IllegalAction as err:
        return Refusal(inp.seat, button, str(err))
    return inp


def kinds(legal: Iterable[Input]) -> set[type]:
    """The record types among ``legal``."""
    return {type(inp) for inp in legal}


def seat_of(inp: Input) -> int:
    """The seat that acts in ``inp``.

    :raises NoGesture: for dice, which are rolled rather than pressed.
    """
    if isinstance(inp, Roll) or not isinstance(inp, SeatInput):
        raise NoGesture(f"{inp} is not pressed on a panel: dice are rolled and read")
    return inp.seat


@dataclass
class Dial:
    """What a seat set with dial buttons this turn: ``value`` steps and a chosen ``die``."""

    value: int = 0
    die: int | None = None


class Dials:
    """The dials of every seat; a dial lasts one turn: it starts afresh after the seat's own
    input, after any dice, in a new hand or round, and in a new game."""

    def __init__(self) -> None:
        self._dials: dict[int, tuple[int, int, int, Dial]] = {}  # seat -> (game id, at, hands, dial)

    def get(self, game: Game, seat: int) -> Dial:
        """``seat``'s dial as it stands now (a fresh one when its turn has moved on)."""
        kept = self._dials.get(seat)
        if kept is None or self._stale(game, seat, *kept[:3]):
            return Dial()
        return kept[3]

    def keep(self, game: Game, seat: int, dial: Dial) -> None:
        """Store ``seat``'s dial as of now."""
        self._dials[seat] = (id(game), len(game.inputs), game.hands_played, dial)

    @staticmethod
    def _stale(game: Game, seat: int, game_id: int, at: int, hands: int) -> bool:
        if game_id != id(game) or hands != game.hands_played or at > len(game.inputs):
            return True
        return any(isinstance(inp, Roll) or getattr(inp, "seat", None) == seat
                   for inp in game.inputs[at:])


def purse_of(registry: Iterable[TagRecord], owner: str) -> tuple[TagRecord, ...]:
    """The enrolled tags of ``owner`` (e.g. ``StoneRegistry.all()``), for a seat's gestures."""
    return tuple(record for record in registry if record.owner == owner)


def pick_stones(purse: Sequence[TagRecord], black: int, white: int) -> frozenset[str]:
    """Tag ids of ``black`` black and ``white`` white stones from ``purse``.

    :raises NoGesture: the purse holds too few.
    """
    picked: list[str] = []
    for colour, count in ((StoneColour.BLACK, black), (StoneColour.WHITE, white)):
        tags = [r.tag_id for r in purse if r.colour is colour][:count]
        if len(tags) < count:
            raise NoGesture(f"the seat's purse has {len(tags)} {colour.value} stones, not {count}")
        picked += tags
    return frozenset(picked)


def pick_chips(purse: Sequence[TagRecord], amount: int) -> frozenset[str]:
    """Tag ids of chips from ``purse`` adding up to exactly ``amount``.

    Largest chips first; when that leaves a remainder the smaller chips cannot make, a search
    over the sums the chips can make finds a set (denominations like 25 and 10 for 30).

    :raises NoGesture: no set of the purse's chips adds up to ``amount``.
    """
    chips = sorted(((r.denomination, r.tag_id) for r in purse
                    if r.kind is TagKind.CHIP and r.denomination is not None), reverse=True)
    greedy, left = [], amount
    for denomination, tag in chips:
        if denomination <= left:
            greedy.append(tag)
            left -= denomination
    if left == 0:
        return frozenset(greedy)
    sums: dict[int, tuple[str, ...]] = {0: ()}
    for denomination, tag in chips:
        for total, tags in list(sums.items()):
            if total + denomination <= amount and total + denomination not in sums:
                sums[total + denomination] = (*tags, tag)
    if amount not in sums:
        raise NoGesture(f"the seat's chips cannot make exactly {amount}")
    return frozenset(sums[amount])


def sim_purse(seat: int, owner: str, stones: tuple[int, int] = (0, 0),
              chips: Sequence[tuple[int, int]] = ()) -> tuple[TagRecord, ...]:
    """Tag records for a simulated seat: ``stones`` (black, white) and ``chips`` as
    (denomination, count); ids are 4-byte hex, unique per seat (to enrol in a registry).

    >>> [r.tag_id for r in sim_purse(1, "ana", stones=(1, 1))]
    ['01BB0000', '01EE0000']
    """
    records = [TagRecord(f"{seat:02X}{code}{n:04X}", TagKind.STONE, colour, owner=owner)
               for code, colour, count in (("BB", StoneColour.BLACK, stones[0]),
                                           ("EE", StoneColour.WHITE, stones[1]))
               for n in range(count)]
    records += [TagRecord(f"{seat:02X}C{index:X}{n:04X}", TagKind.CHIP, denomination=denomination,
                          owner=owner)
                for index, (denomination, count) in enumerate(chips) for n in range(count)]
    return tuple(records)


Handler = Callable[[Game, int, str, "Stake | None"], Press]


class SeatControls(ABC):
    """The part every game's controls share: the button table, the turn check, the purses.

    A subclass names its ``buttons`` (panel order), their ``labels``, the ``dial_buttons`` only a
    panel without RFID needs, and a ``_press_<button>`` method per button (``-`` as ``_``).
    ``purses`` holds the enrolled tags of each seat that has a reader; its gestures put tags on
    the spot, the other seats' gestures set their dials.
    """

    title: ClassVar[str]
    buttons: ClassVar[tuple[str, ...]]
    labels: ClassVar[Mapping[str, str]]
    dial_buttons: ClassVar[tuple[str, ...]] = ()

    def __init__(self, purses: Mapping[int, Sequence[TagRecord]] | None = None) -> None:
        self.purses = {seat: tuple(purse) for seat, purse in (purses or {}).items()}
        self.dials = Dials()

    @abstractmethod
    def sim_purse(self, game: Game, seat: int, owner: str) -> tuple[TagRecord, ...]:
        """Tags enough for any one bet of ``seat``'s in ``game``, for a simulated table (enrol
        them in its registry and pass them as the seat's purse)."""

    def panel(self, rfid: bool) -> tuple[str, ...]:
        """The buttons a seat needs, in panel order: without RFID, the dial buttons too."""
        return tuple(b for b in self.buttons if not rfid or b not in self.dial_buttons)

    def press(self, game: Game, seat: int, button: str, stake: Stake | None) -> Press:
        """What ``button`` pressed at ``seat`` means now; ``stake`` is what lies on the seat's bet
        spot, None for a seat without a reader (its dial buttons set the amounts)."""
        if button not in self.buttons:
            return Refusal(seat, button, f"the {button!r} button does nothing in {self.title} "
                                         f"(its buttons: {', '.join(self.buttons)})")
        why = turn_refusal(game, seat)
        if why is None and stake is not None and button in self.dial_buttons:
            why = "your spot's stones or chips set your bet: put them there instead"
        if why is not None:
            return Refusal(seat, button, why)
        handler: Handler = getattr(self, "_press_" + button.replace("-", "_"))
        return handler(game, seat, button, stake)

    def gesture(self, game: Game, inp: Input) -> Gesture:
        """The tags to have on the spot and the buttons to press so that :meth:`press` gives
        exactly ``inp`` (a legal input of the seat's, e.g. a bot's choice).

        :raises NoGesture: dice, or an input this seat's panel cannot give.
        """
        seat = seat_of(inp)
        return self._gesture(game, inp, seat, self.purses.get(seat))

    @abstractmethod
    def _gesture(self, game: Game, inp: Input, seat: int,
                 purse: tuple[TagRecord, ...] | None) -> Gesture:
        """The gesture of ``inp`` at ``seat`` (``purse`` None: the seat has no reader)."""
