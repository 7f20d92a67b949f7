"""RFID spots: tracking which tags lie where, the MFRC522 tag reader, and the stone registry.

:class:`SpotTracker` turns successive scans into arrive/leave events (every tag reader backend
uses it); :class:`Mfrc522Reader` is the :class:`~hardware.devices.TagReader` over MFRC522 chips;
:class:`StoneRegistry` keeps, in SQLite, what each tag is: a black or white stone, or a chip of
some denomination, and whose it is.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from controller.games.errors import DeviceError, DeviceTimeout, InvalidInput
from controller.paths import shown
from hardware.clock import Clock
from hardware.devices import EMPTY_SEAT_FIX, DeviceStatus, TagChange, TagEvent, TagReader
from hardware.mfrc522 import MFRC522, ChipOverheated, TagProtocolError
from hardware.rc522_regs import NO_CHIP_VERSIONS

EMPTY_SEAT_RETRY_S = 5.0
"""How long a chip under the spot of a seat where no one plays is left alone after it failed:
resetting and scanning a stuck chip costs the table's loop some 61 ms (its 50 ms oscillator wait,
5.1 ms for the stones to power up in the field, then a few ms past its frame's timer) at every
beat, for a spare antenna the game does not read."""

FAILED_RETRY_S = 0.5
"""How long a chip under a spot the table waits for (the pot, a seat in play) is left alone once
it has failed twice in a row while answering its version register (stuck: its frames never end;
overheated): each try resets it, 50 ms of oscillator wait and 5.1 ms of field for the stones,
then gives up a few ms past its frame's timer, some 61 ms of the table's loop at every beat
(0.03 s), the other readers, the buttons and the camera waiting, for as long as it failed: the
loop was busy two thirds of the time, where a try every half second is a tenth. Its fault stands
meanwhile (each poll raises it again), and a chip set right is read again within half a second,
as a seat node says its reader works again (its scans every 100 ms) and the table's fault tests
expect of every reader. The first failure
is tried again at the next poll, so a chip that failed once (a loose wire pushed back) costs a
beat; one that does not answer at all costs one SPI read (its version) and is tried at every
poll."""

OVERHEATED = "overheated and switched its antenna off (its ErrorReg says TempErr)"
"""What an RC522 whose temperature sensor tripped did, as the Pi's readers and a seat node's say
it (:class:`ReaderOverheated`, :class:`~hardware.seatnode.ReaderFailed`): its stones are not read."""
OVERHEATED_FIX = ("let the RC522 cool: check its supply (3.3 V, never 5 V) and that air reaches it "
                  "(not shut in under the felt beside a warm supply); it is read again by itself "
                  "once it has cooled")

GARBLED_IN_A_ROW = 20
"""Scans in a row that said nothing, garbled, before a reader is said to garble every scan (a
warning: the table plays on, but the stones on it are not read). A stone at the edge of the field
garbles now and then, some 3 scans in 10 (the tests' rate): 20 in a row then come once in
0.3**20 = 3.5e-11 scans, which at the 10 scans a second of a seat node, or the 15 to 30 of the
table's beats in a game, is once in decades of play. A stone garbling every other scan would be
told within a few days of play, fairly: it is read only half the time. A reader that garbles
every scan (a noisy MISO, a detuned antenna, SPI wires too long) is told after 2 s of a seat
node's polls, in under a second of the table's beats (a garbled scan takes 2 ms), or in 20 s
between games, when the reader is polled once a second. The seat-node firmware counts the same
20 (``firmware/rc522.py``'s ``GARBLED_IN_A_ROW``)."""
GARBLING = f"garbles every scan ({GARBLED_IN_A_ROW} in a row): the stones on it are not read"
"""What such a reader does, as the Pi's readers and a seat node's say it."""
GARBLING_FIX = ("move the stones to the middle of the spot; if its scans still garble, the reader "
                "hears noise: shorten its SPI wires and run them with a ground wire, keep other "
                "RC522 antennas 10 cm away and metal away from its antenna (on the Pi's bus, lower "
                "[rfid] speed_hz); the warning ends at its first clean scan")


class ReaderOverheated(DeviceError):
    """The RC522 under ``spot`` overheated (:data:`OVERHEATED`): ``problem`` and ``fix`` for the
    dealer, the fix being the chip's cooling, not its wiring."""

    def __init__(self, name: str, spot: str) -> None:
        self.problem = f"reader under {spot!r} {OVERHEATED}"
        self.fix = OVERHEATED_FIX
        super().__init__(f"{name}: {self.problem}")


class SpotTracker:
    """The tags on each spot as of the last scan, and the events that changed them.

    A tag leaves only after ``leave_after`` scans in a row without it, so a tag at the edge of
    the field that misses one read does not flicker away and back (the seat-node firmware waits
    for 3 misses too).
    """

    def __init__(self, spots: tuple[str, ...], leave_after: int = 1) -> None:
        if leave_after < 1:
            raise ValueError(f"leave_after must be at least 1 scan, not {leave_after}")
        self.leave_after = leave_after
        self._tags: dict[str, frozenset[str]] = {spot: frozenset() for spot in spots}
        self._misses: dict[str, dict[str, int]] = {spot: {} for spot in spots}

    @property
    def spots(self) -> tuple[str, ...]:
        """The spots tracked."""
        return tuple(self._tags)

    def tags(self, spot: str) -> frozenset[str]:
        """The tags on ``spot``.

        :raises KeyError: unknown spot.
        """
        return self._tags[spot]

    def update(self, spot: str, seen: frozenset[str], at: float,
               whole: bool = True) -> list[TagEvent]:
        """Record a scan of ``spot`` that saw ``seen``; returns leaves then arrivals. A scan not
        ``whole`` (a branch of its UID tree garbled) counts no tag missing: it did not read them.

        >>> tracker = SpotTracker(("pot",), leave_after=2)
        >>> [e.change.value for e in tracker.update("pot", frozenset({"A1"}), 1.0)]
        ['arrive']
        >>> [(e.tag, e.change.value) for e in tracker.update("pot", frozenset({"B2"}), 2.0)]
        [('B2', 'arrive')]
        >>> [(e.tag, e.change.value) for e in tracker.update("pot", frozenset({"B2"}), 3.0)]
        [('A1', 'leave')]
        """
        before, misses = self._tags[spot], self._misses[spot]
        gone = []
        for tag in sorted(before - seen if whole else ()):
            misses[tag] = misses.get(tag, 0) + 1
            if misses[tag] >= self.leave_after:
                gone.append(tag)
                del misses[tag]
        for tag in seen:
            misses.pop(tag, None)
        self._tags[spot] = (before - set(gone)) | seen
        leaves = [TagEvent(spot, tag, TagChange.LEAVE, at) for tag in gone]
        return leaves + [TagEvent(spot, tag, TagChange.ARRIVE, at) for tag in sorted(seen - before)]


class Mfrc522Reader:
    """A :class:`~hardware.devices.TagReader` with one MFRC522 chip under each spot.

    ``wiring`` maps a spot to a description of its wiring used in messages (e.g. "chip select
    GPIO 8"); ``on_close`` releases the bus; ``leave_after`` is the scans in a row a tag must be
    missing before it counts as gone. A spot whose chip fails keeps its tags (a failed scan is
    not a miss, nor is a garbled one, as on a seat node: the tags it did not read may lie below
    its garbled branch), and the events of the other spots wait for the next poll instead of being lost.
    ``seats`` names the seat whose spot each is (a spot not in it, the pot, is always waited
    for): the chip under the spot of a seat where no one plays (:meth:`set_seats_in_play`) is
    not waited for, as a seat node's is not (:class:`~hardware.seatnode.SeatNodeReader`), and
    once it fails it is tried again only every :data:`EMPTY_SEAT_RETRY_S` seconds; a chip that
    answers but fails twice in a row under a spot that is waited for only every
    :data:`FAILED_RETRY_S` seconds, its failure raised at each poll meanwhile. A chip under
    any spot whose last :data:`GARBLED_IN_A_ROW` scans all came garbled is a :meth:`warning`
    until its first clean scan.
    """

    def __init__(self, chips: Mapping[str, MFRC522], clock: Clock, name: str = "rfid",
                 wiring: Mapping[str, str] | None = None,
                 on_close: Callable[[], None] | None = None, leave_after: int = 3,
                 seats: Mapping[str, int] | None = None) -> None:
        self._name = name
        self._chips = dict(chips)
        self._clock = clock
        self._wiring = dict(wiring or {})
        self._tracker = SpotTracker(tuple(chips), leave_after)
        self._on_close = on_close
        self._ready: set[str] = set()
        self._held: list[TagEvent] = []
        self._seats = dict(seats or {})
        self._empty: frozenset[str] = frozenset()  # the spots of seats where no one plays
        self._failed: dict[str, DeviceError] = {}  # the chips that failed at the last poll (and
                                                    # no check found working since)
        self._retry_at: dict[str, float] = {}  # when a chip that failed is tried again
        self._garbled: dict[str, int] = {}  # scans in a row that said nothing, garbled

    @property
    def name(self) -> str:
        """The device's name."""
        return self._name

    def set_seats_in_play(self, seats: frozenset[int]) -> None:
        """Players sit at ``seats``: the chips under the other seats' spots are no longer
        waited for; one under a seat taken is tried at the next poll, failed or not."""
        empty = frozenset(spot for spot, seat in self._seats.items() if seat not in seats)
        for spot in self._empty - empty:
            self._retry_at.pop(spot, None)
        self._empty = empty

    def warning(self) -> DeviceStatus | None:
        """The first chip under the spot of a seat where no one plays that failed at the last
        poll, with its fix; else the first chip, under any spot, whose last
        :data:`GARBLED_IN_A_ROW` scans or more were all garbled (:data:`GARBLING`); or None."""
        unread = [(spot, err) for spot, err in self._failed.items() if spot in self._empty]
        if unread:
            return self._warning(*self._said(*unread[0]))
        return next(filter(None, map(self._garbling, self.spots)), None)

    def _garbling(self, spot: str) -> DeviceStatus | None:
        """The warning that the chip under ``spot`` garbles every scan, as of its last
        :data:`GARBLED_IN_A_ROW` scans (a poll's or a check's), or None."""
        if self._garbled.get(spot, 0) < GARBLED_IN_A_ROW:
            return None
        return DeviceStatus.warning(self._name, f"reader under {spot!r} {GARBLING}", GARBLING_FIX)

    def _said(self, spot: str, failure: DeviceError) -> tuple[str, str]:
        """What failed under ``spot`` and the fix: a chip that overheated says its own, any
        other failure names the spot, and the fix is its wiring."""
        if isinstance(failure, ReaderOverheated):
            return failure.problem, failure.fix
        return str(failure).removeprefix(f"{self._name}: "), self._fix(spot)

    @property
    def spots(self) -> tuple[str, ...]:
        """The spots, one per chip."""
        return self._tracker.spots

    def tags(self, spot: str) -> frozenset[str]:
        """The tags on ``spot`` as of the last poll."""
        return self._tracker.tags(spot)

    def chip(self, spot: str) -> MFRC522:
        """The driver of the chip under ``spot`` (the bring-up check reads it directly).

        :raises KeyError: unknown spot.
        """
        return self._chips[spot]

    def scan(self, spot: str) -> frozenset[str]:
        """One inventory of ``spot``'s antenna, outside the arrive/leave tracking (bring-up).

        :raises DeviceError: the chip failed (:class:`TagProtocolError` for a garbled scan).
        """
        return self._chips[spot].inventory()

    def poll(self) -> list[TagEvent]:
        """Scan every spot; the arrivals and departures since the last poll.

        Every spot is scanned even when one fails; the events found are then kept for the next
        poll, and the first failure is raised. A chip under the spot of a seat where no one
        plays that fails raises nothing: :meth:`warning` says it until it works again, and it is
        not asked again for :data:`EMPTY_SEAT_RETRY_S`; one that answers but failed twice in a
        row under any other spot is not asked again for :data:`FAILED_RETRY_S`, its failure
        raised meanwhile (:meth:`_resting`).

        :raises DeviceTimeout: a chip did not answer (the message names its spot).
        :raises ReaderOverheated: a chip overheated and switched its antenna off.
        :raises DeviceError: a chip is not there at all.
        """
        events, self._held = self._held, []
        failures: dict[str, DeviceError] = {}
        for spot in self.spots:
            if self._resting(spot):
                failures[spot] = self._failed[spot]
                continue
            try:
                scanned = self._scan(spot)
            except DeviceError as err:
                failures[spot] = err
                self._retry_at[spot] = self._clock.now() + self._rest(spot, err)
                continue
            seen, whole = scanned
            self._garbled[spot] = 0 if whole else self._garbled.get(spot, 0) + 1
            events += self._tracker.update(spot, seen, self._clock.now(), whole)
        self._failed = failures
        failure = next((err for spot, err in failures.items() if spot not in self._empty), None)
        if failure is not None:
            self._held = events
            raise failure.with_traceback(None)  # raised again while it rests: no traceback grows
        return events

    def _resting(self, spot: str) -> bool:
        """Whether ``spot``'s chip is left alone this poll: it failed at the last poll and its
        rest (:meth:`_rest`) has not run out."""
        return spot in self._failed and self._clock.now() < self._retry_at.get(spot, 0.0)

    def _rest(self, spot: str, failure: DeviceError) -> float:
        """How long ``spot``'s chip, which ``failure`` has just struck, is left alone: under a
        seat where no one plays :data:`EMPTY_SEAT_RETRY_S`; elsewhere, the table waiting for it,
        :data:`FAILED_RETRY_S` when it failed at the last poll too and answers its version (stuck
        or overheated: each try resets it), else nothing (tried at the next poll)."""
        if spot in self._empty:
            return EMPTY_SEAT_RETRY_S
        answers = isinstance(failure, (DeviceTimeout, ReaderOverheated))
        return FAILED_RETRY_S if answers and spot in self._failed else 0.0

    def _scan(self, spot: str) -> tuple[frozenset[str], bool]:
        """The tags read on ``spot``, and whether the scan was whole: a garbled one (its WUPA, or
        a branch of the UID tree) adds the tags it read and is no evidence any other left.

        A scan is garbled when the chip says so, and a chip overheated when its ErrorReg says
        TempErr; a chip gone says both: with nothing driving MISO, a line that floats high reads
        0xFF from every register, ErrorReg's error bits and all (a lone reader, wired without the
        buffer). The version register says which it is (0x00 or 0xFF: no chip). A chip that
        failed is set up again at the next try, which switches an overheated one's antenna on."""
        chip = self._chips[spot]
        try:
            if spot not in self._ready:
                chip.init()
                self._ready.add(spot)
            return chip.inventory(), True
        except (TagProtocolError, ChipOverheated) as err:
            silent = _silence(chip)
            if isinstance(err, TagProtocolError) and not silent:
                return err.found, False
            self._ready.discard(spot)
            if not silent:
                raise ReaderOverheated(self._name, spot) from err
            raise DeviceError(f"{self._name}: reader under {spot!r}: {silent}") from err
        except DeviceTimeout as err:
            self._ready.discard(spot)
            raise DeviceTimeout(f"{self._name}: reader under {spot!r} timed out ({err})") from err
        except DeviceError as err:
            self._ready.discard(spot)
            raise DeviceError(f"{self._name}: reader under {spot!r}: {err}") from err

    def check(self) -> DeviceStatus:
        """Every chip answers and finishes a scan (an unknown version is only logged), a garbled
        one too: a garbled scan says nothing, here as in :meth:`poll`, where only a chip that
        does not answer or overheats has failed (a stone half over an antenna garbles now and
        then, and would fail ``doctor``). A chip under the spot of a seat where no one plays
        that fails is a warning; so is one that garbles every scan, as a seat node's check says
        of its readers (:meth:`warning`'s words)."""
        return DeviceStatus.first_wrong(self._name, map(self._check_spot, self._chips))

    def _check_spot(self, spot: str) -> DeviceStatus:
        found = self._problem(spot, self._chips[spot])
        if found is None:
            return self._garbling(spot) or DeviceStatus.healthy(self._name)
        problem, fix = found
        if spot in self._empty:
            return self._warning(problem, fix)
        return DeviceStatus.failing(self._name, problem, fix)

    def _warning(self, problem: str, fix: str) -> DeviceStatus:
        return DeviceStatus.warning(self._name, problem, f"{fix}; {EMPTY_SEAT_FIX}")

    def _fix(self, spot: str) -> str:
        """How to make the chip under ``spot`` answer: its power and its wiring."""
        where = self._wiring.get(spot, "its chip select")
        return (f"check the reader's 3.3 V power and its wiring: SDA to {where}, SCK to GPIO 11, "
                "MOSI to GPIO 10, MISO to GPIO 9 (through the tri-state buffer when readers share "
                "the bus), RST to the reset pin")

    def _problem(self, spot: str, chip: MFRC522) -> tuple[str, str] | None:
        """What fails in the chip under ``spot`` now and the fix, or None: it is reset and
        scanned (:meth:`_scan_until_clean`). A garbled scan is no failure, its version having
        said that the chip answers. A chip found working ends its rest (:meth:`_rested`)."""
        silent = _silence(chip)
        if silent:
            return f"reader under spot {spot!r}: {silent}", self._fix(spot)
        try:
            chip.init()
            self._scan_until_clean(spot, chip)
        except ChipOverheated:
            return ReaderOverheated(self._name, spot).problem, OVERHEATED_FIX
        except DeviceError as err:
            return f"reader under spot {spot!r}: it does not finish a scan ({err})", self._fix(spot)
        self._rested(spot)
        return None

    def _rested(self, spot: str) -> None:
        """The chip under ``spot``, set up and found working (by a check: ``doctor``, the table
        before its first beat), is read at the next poll: left resting, a chip set right stayed
        unread, its old failure raised again, for up to :data:`FAILED_RETRY_S` (under an empty
        seat :data:`EMPTY_SEAT_RETRY_S`) after the check had said it works; a next failure is
        then its first again, tried at the next poll."""
        self._ready.add(spot)
        self._retry_at.pop(spot, None)
        self._failed.pop(spot, None)

    def _scan_until_clean(self, spot: str, chip: MFRC522) -> None:
        """Scan ``spot`` until a scan is clean or its garbled scans in a row reach
        :data:`GARBLED_IN_A_ROW` (counting the poll's): a check is one moment, where the poll's
        count needs 20 polls, and ``doctor`` checks a reader it has just opened. A stone
        garbling now and then costs a scan or two more; a reader garbling every scan some 40 ms.
        """
        for _ in range(GARBLED_IN_A_ROW):
            try:
                chip.inventory()
            except TagProtocolError:
                self._garbled[spot] = self._garbled.get(spot, 0) + 1
                if self._garbled[spot] >= GARBLED_IN_A_ROW:
                    return
                continue
            self._garbled[spot] = 0
            return

    def close(self) -> None:
        """Release the bus."""
        if self._on_close is not None:
            self._on_close()
            self._on_close = None


def _silence(chip: MFRC522) -> str:
    """That no RC522 answers on ``chip``'s chip select, as its version register says, or ""."""
    version = chip.version()
    return f"no RC522 answers (version register reads 0x{version:02X})" \
        if version in NO_CHIP_VERSIONS else ""


class TagKind(Enum):
    """What a tag is sewn into."""

    STONE = "stone"
    CHIP = "chip"


class StoneColour(Enum):
    """Tao Dice stone colours."""

    BLACK = "black"
    WHITE = "white"


class UnknownTag(DeviceError, LookupError):
    """A tag id that is not in the registry: enrol it with ``dicetable stones enroll``."""


MOST_DENOMINATION = 1_000_000
"""The highest value a chip may be enrolled at (the registry keeps it as an SQLite integer)."""


@dataclass(frozen=True)
class TagRecord:
    """What a tag is: a stone with a ``colour`` or a chip with a ``denomination``; its ``owner``."""

    tag_id: str
    kind: TagKind
    colour: StoneColour | None = None
    denomination: int | None = None
    owner: str = ""

    def __post_init__(self) -> None:
        if self.kind is TagKind.STONE and (self.colour is None or self.denomination is not None):
            raise InvalidInput(f"stone {self.tag_id}: needs a colour and no denomination")
        if self.kind is TagKind.CHIP and (self.denomination is None or self.colour is not None):
            raise InvalidInput(f"chip {self.tag_id}: needs a denomination and no colour")
        if self.denomination is not None and not 0 < self.denomination <= MOST_DENOMINATION:
            raise InvalidInput(f"chip {self.tag_id}: denomination {self.denomination} is not 1 to "
                               f"{MOST_DENOMINATION:,}")

    def describe(self) -> str:
        """``black stone`` or ``25 chip``, with the owner when there is one."""
        what = (f"{self.colour.value} stone" if self.colour is not None
                else f"{self.denomination} chip")
        return f"{what} ({self.owner})" if self.owner else what

    def to_json(self) -> dict[str, object]:
        """The record as a JSON object (``stones list --json``)."""
        return {"tag": self.tag_id, "kind": self.kind.value,
                "colour": self.colour.value if self.colour else None,
                "denomination": self.denomination, "owner": self.owner}


class TagLookup(Protocol):
    """Where a tag's record comes from (a :class:`StoneRegistry`)."""

    def get(self, tag_id: str) -> TagRecord | None:
        """The record of ``tag_id``, None when it is not enrolled."""
        ...


def normalise_tag(text: str) -> str:
    """A tag id as the registry keeps it: 4 or 7 bytes of upper-case hex.

    >>> normalise_tag("04:a1:b2:c3")
    '04A1B2C3'
    """
    tag = text.replace(":", "").replace(" ", "").upper()
    if len(tag) not in (8, 14) or any(c not in "0123456789ABCDEF" for c in tag):
        raise InvalidInput(f"{text!r} is not a tag id (4 or 7 bytes of hex, e.g. 04A1B2C3)")
    return tag


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tags (
    tag_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('stone', 'chip')),
    colour TEXT CHECK (colour IN ('black', 'white')),
    denomination INTEGER CHECK (denomination > 0),
    owner TEXT NOT NULL DEFAULT ''
)
"""


class TagEnrolled(DeviceError, FileExistsError):
    """A tag already registered as something else: changing it must be asked for."""


class RegistryRefused(DeviceError):
    """A file that cannot be opened as the stone registry. ``problem`` says why without the fix,
    which is the command's own: ``stones`` gives the file with ``--db``, ``run`` with its
    configuration's ``[rfid] registry``."""

    def __init__(self, problem: str, fix: str) -> None:
        super().__init__(f"{problem}{fix}")
        self.problem = problem


class StoneRegistry:
    """The tag registry in an SQLite file (``:memory:`` for a throwaway one).

    ``read_only`` opens an existing file without creating or changing anything (listing a
    registry never writes one).
    """

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        self.path = str(path)
        if self.path != ":memory:" and Path(path).is_file() and Path(path).stat().st_size == 0:
            raise RegistryRefused(f"{shown(self.path)} is an empty file, not a stone registry "
                                  "(remove it to start a new registry there)",
                                  ": give the registry's file with --db")
        existed = self.path != ":memory:" and Path(path).exists()
        try:
            if read_only:
                self._db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
                self._refuse_another_programs(existed)
            else:
                self._db = sqlite3.connect(self.path)
                self._refuse_another_programs(existed)
                self._db.execute(_SCHEMA)
                self._db.commit()
        except sqlite3.Error as err:
            raise RegistryRefused(f"stone registry {shown(self.path)}: {err}",
                                  " (give the registry's SQLite file with --db)") from None

    def _refuse_another_programs(self, existed: bool) -> None:
        """Refuse an SQLite file with tables but no ``tags`` (a table's record, another program's
        file): enrolling added a ``tags`` table to it, and listing said no tag was registered.
        Refuse too one with no table at all that was there before this opened it (another
        program's new database): ``run`` and enrolling made it a registry without a word. No
        dicetable command leaves such a file: a registry gets ``tags`` in the commit that makes
        it, and one that enrolled nothing is removed."""
        tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "tags" not in tables:
            self._db.close()
            raise RegistryRefused(f"{shown(self.path)} is not a stone registry (an SQLite file with the "
                                  f"tables {', '.join(sorted(tables)[:4])})",
                                  ": give the registry's file with --db")
        if existed and not tables:
            self._db.close()
            raise RegistryRefused(f"{shown(self.path)} is an SQLite file with no tables, not a stone "
                                  "registry (another program's new database: move it away to start "
                                  "a new registry there)", ": give the registry's file with --db")

    def enroll(self, record: TagRecord, replace: bool = False) -> bool:
        """Register a tag; True when that changed the registry (False: already so registered).

        :raises TagEnrolled: the tag is registered as something else and ``replace`` is False.
        """
        known = self.get(record.tag_id)
        if known == record:
            return False
        if known is not None and not replace:
            raise TagEnrolled(f"tag {record.tag_id} is already enrolled as {known.describe()}, "
                              f"not {record.describe()}: add --replace to change it")
        try:
            with self._db:
                self._db.execute(
                    "INSERT OR REPLACE INTO tags VALUES (?, ?, ?, ?, ?)",
                    (record.tag_id, record.kind.value,
                     record.colour.value if record.colour else None,
                     record.denomination, record.owner))
        except sqlite3.Error as err:
            raise DeviceError(f"stone registry {shown(self.path)}: cannot enrol {record.tag_id}: "
                              f"{err}") from None
        return True

    def get(self, tag_id: str) -> TagRecord | None:
        """The record of ``tag_id``, None when it is not registered."""
        rows = self._select("SELECT * FROM tags WHERE tag_id = ?", (tag_id,))
        return _record(rows[0]) if rows else None

    def lookup(self, tag_id: str) -> TagRecord:
        """The record of ``tag_id``.

        :raises UnknownTag: it is not registered.
        """
        record = self.get(tag_id)
        if record is None:
            raise UnknownTag(f"tag {tag_id} is not registered: enrol it with "
                             "'dicetable stones enroll'")
        return record

    def all(self) -> list[TagRecord]:
        """Every registered tag, stones first, then by colour/denomination and id."""
        rows = self._select("SELECT * FROM tags ORDER BY kind DESC, colour, denomination, tag_id")
        return [_record(row) for row in rows]

    def _select(self, query: str, values: tuple[str, ...] = ()) -> list[Any]:
        """Rows of ``query``, a failing read said as the registry's (a file opened has ``tags``:
        one without is refused as it opens)."""
        try:
            return self._db.execute(query, values).fetchall()
        except sqlite3.OperationalError as err:
            raise DeviceError(f"stone registry {shown(self.path)}: {err}") from None

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def registry_problem(path: Path) -> str | None:
    """Why ``path`` cannot be the stone registry a table reads and ``stones enroll`` writes, found
    without making or changing a file (None: it can be: a registry, or a file its folder lets this
    user make), so that ``run`` refuses it before it makes its record. It tries what opening will
    do: ``os.access`` told root it may write anywhere, ``/sys`` included, and the registry was
    refused only as it opened, after ``run`` had made its state folder.
    An existing registry's folder is not asked about: the table only reads the file (its
    ``CREATE TABLE IF NOT EXISTS`` writes nothing once ``tags`` is there); ``stones enroll``
    writes it and checks the folder, and ``doctor`` warns (:func:`unwritable_folder`)."""
    if path.is_dir():
        return f"{shown(path)} is a folder"
    if not path.exists():
        if not path.parent.is_dir():
            return f"there is no folder {shown(path.parent)} for {shown(path)}"
        return _unmakeable(path)
    try:
        open(path, "r+b").close()  # opened for writing, not truncated: the file is unchanged
    except OSError as err:
        return f"{shown(path)} is not writable by this user ({err.strerror})"
    try:
        StoneRegistry(path, read_only=True).close()
    except RegistryRefused as refused:
        return refused.problem
    return None


def unwritable_folder(path: Path) -> str | None:
    """Why no tag can be enrolled into the stone registry at ``path``, a file that exists, though
    it can be read (None: it can, or it is no file: :func:`registry_problem` tells): its folder
    is not writable by this user, and SQLite writes its journal beside the file (beside the one a
    symbolic link names: SQLite follows it). Asked of ``os.access``, which says so of a read-only
    file system to root too; the permission bits it reads stop every user but root."""
    folder = path.resolve().parent
    if not path.is_file() or os.access(folder, os.W_OK | os.X_OK):
        return None
    return (f"the stone registry's folder {shown(folder)} is not writable by this user: "
            f"`dicetable stones enroll` cannot add a tag to {shown(path)} (SQLite writes its "
            "journal beside it)")


def _unmakeable(path: Path) -> str | None:
    """Why no file can be made at ``path`` (in a folder that exists), found by making an unnamed
    one beside it, which vanishes as it closes (None: one can be made)."""
    try:
        with tempfile.TemporaryFile(dir=path.parent):
            return None
    except OSError as err:
        return f"cannot make {shown(path)}: its folder takes no new file ({err.strerror})"


def _record(row: tuple[str, str, str | None, int | None, str]) -> TagRecord:
    tag_id, kind, colour, denomination, owner = row
    return TagRecord(tag_id, TagKind(kind), StoneColour(colour) if colour else None,
                     denomination, owner)


STRAY_FIX = "take it off the spot, or enrol it with `dicetable stones enroll`"
"""What to do about a tag lying on a spot that is not enrolled: the reader works, so the fix of a
failing device (its cable, its power) would mislead."""


def strays(reader: TagReader, registry: TagLookup | None) -> list[tuple[str, str]]:
    """The tags lying on the reader's spots as of its last poll that ``registry`` does not hold
    (every one, without a registry), as (spot, tag), spot by spot."""
    return [(spot, tag) for spot in reader.spots for tag in sorted(reader.tags(spot))
            if registry is None or registry.get(tag) is None]


def stray_problem(spot: str, tag: str) -> str:
    """A stray tag as the table's fault and ``dicetable doctor`` both name it: the tag and the
    spot only (its fix is :data:`STRAY_FIX`).

    >>> stray_problem("seat0", "04A1B2C3")
    'an unknown tag 04A1B2C3 lies on spot seat0'
    """
    return f"an unknown tag {tag} lies on spot {spot}"


def stray_status(reader: TagReader, registry: TagLookup | None) -> DeviceStatus | None:
    """The reader's failing status for the first stray tag on its spots as of its last poll (see
    :func:`strays`), with :data:`STRAY_FIX` (the reader works: a failing device's fix, its cable
    and power, would mislead, and the problem does not say the fix again); None when there is none.
    The table's fault and ``dicetable doctor`` say it alike."""
    found = strays(reader, registry)
    return DeviceStatus.failing(reader.name, stray_problem(*found[0]), STRAY_FIX) if found else None


def check_tags(reader: TagReader, registry: TagLookup | None) -> DeviceStatus:
    """Whether every tag lying on the reader's spots now is registered (``reader`` must be OK).

    Polls the reader once; a tag that is not in ``registry`` (or any tag, without a registry)
    makes the status fail (:func:`stray_status`).
    """
    reader.poll()
    return stray_status(reader, registry) or DeviceStatus.healthy(reader.name)
