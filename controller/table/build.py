"""Building a table from its parts: the record, the devices, the camera path and the controls.

:func:`build_demo` builds the simulated table of ``dicetable demo``: a simulated tray with
calibration markers and a zone per seat, simulated seat panels with the game's buttons, an
emulated RC522 under every bet spot, a stone and chip registry with a purse of tags per seat,
the real dice reader behind the camera, and :class:`~controller.table.sim_seats.SimSeats` at
the seats. The seed and the bots are kept in the record, so the same ``--db`` resumes the same
demo.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from controller.games.base import REVEAL, DiceNeeded
from controller.games.dice import DieKind
from controller.games.errors import ConfigError, InvalidInput
from controller.table.records import seat_colours
from controller.table.sim_seats import AGAIN, MOVED, SimSeats, Throw
from controller.table.table import Table

if TYPE_CHECKING:
    from controller.table.camera import Lying
    from hardware.config import HardwareConfig
    from vision.calibrate import TrayConfig

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun")
"""Seat names of the simulated players."""

PRESS_S = 0.08
"""How long a simulated finger holds a button (and then leaves it), past any bounce time."""

COCKED_THROWS = 1 / 30
"""Share of the simulated throws in which one thrown die lands cocked, leaning on another die or on
the tray's wall, as real dice do now and then (a guess: no real tray was counted). The table must
never take the face nearest the camera: it asks the players to throw such a die again (or lay a
revealed one flat), and they do (``sim_seats.SETTLE_TRIES``)."""

CORNER_MM = 45.0
"""Room left free at each end of a seat strip for the tray's corner markers."""


def seat_zones(seats: int, width: float, height: float) -> dict[str, list[list[float]]]:
    """Tray zones for ``seats`` seats, as a configuration's ``[zones]`` writes them: the
    community area in the middle, seats along the long sides (seat 0 bottom left, clockwise),
    clear of the corner markers.

    >>> sorted(seat_zones(3, 400, 250))
    ['community', 'seat0', 'seat1', 'seat2']
    """
    strip = height / 4
    zones = {"community": [[CORNER_MM, strip], [width - CORNER_MM, strip],
                           [width - CORNER_MM, height - strip], [CORNER_MM, height - strip]]}
    bottom = (seats + 1) // 2
    for seat in range(seats):
        on_bottom = seat < bottom
        count, place = (bottom, seat) if on_bottom else (seats - bottom, seat - bottom)
        cell = (width - 2 * CORNER_MM) / count
        x0 = CORNER_MM + cell * place if on_bottom else width - CORNER_MM - cell * (place + 1)
        y0 = height - strip if on_bottom else 0.0
        zones[f"seat{seat}"] = [[x0, y0], [x0 + cell, y0], [x0 + cell, y0 + strip],
                                [x0, y0 + strip]]
    return zones


def throw_values(throw: Throw, kind: DieKind) -> list[int]:
    """The faces the simulated camera draws for a throw, numbered in the kind's face order from 1
    as the renderer takes them: a d12's numeral, a Tauren die's face, a letter; and so also the
    n pips of a pip die standing in for a six-faced kind's n-th face.

    >>> throw_values(Throw(("H", "M", "O"), "community"), DieKind.LETTERS)
    [6, 1, 5]
    """
    return [kind.faces.index(face) + 1 for face in throw.faces]


def demo_colours(players: int) -> tuple[str, ...]:
    """The simulated seats' colours: the table's defaults, which the camera tells apart."""
    return seat_colours((), players)


@dataclass
class DemoParts:
    """What :func:`build_demo` made, for closing."""

    store: Any
    devices: Any
    registry: Any
    controls: Any = None  # the seat controls the simulated players act through

    def close(self) -> None:
        """Close devices, registry and record."""
        self.devices.close()
        self.registry.close()
        self.store.close()


def build_demo(game: str, players: int, seed: int | None, db: Path, speed: float | None,
               bots: Sequence[str], options: Mapping[str, str] | None = None,
               seat_nodes: bool = False) -> tuple[Any, bool]:
    """The simulated table for ``game`` (rule ``options``) on the record ``db``: a new demo, or
    the one recorded there resumed (its game, options, players, seed and bots are the recorded
    ones). ``seat_nodes`` puts a simulated Pico seat node (the firmware's own code) at each seat
    instead of the GPIO panel."""
    from controller.bots import bot_factory
    from controller.store import Store
    from controller.table.camera import OWN_KINDS, TableEyes
    from controller.table.demo import Demo
    for name in bots:
        bot_factory(game, name)  # an unknown bot is refused before anything is written
    if tray_file(db).is_dir():
        raise InvalidInput(f"{tray_file(db)}, where the demo keeps its tray's dice beside its --db, is a folder: "
                           "move it away")
    if stones_file(db).exists():
        _demo_registry(stones_file(db)).close()  # a bad one is refused before the record is made too
    store = Store(db)
    try:
        current = store.current_game()
        setup = _recorded_setup(store, current) if current is not None else None
        if setup is None:
            seed = seed if seed is not None else random.SystemRandom().randrange(10**6)
            setup = DemoSetup(game, players, seed, tuple(bots))
        parts, table = _assemble(store, setup, db, seat_nodes)
        if current is None:
            tray_file(db).unlink(missing_ok=True)  # a tray left by an earlier record of that name
            names, colours = NAMES[:setup.players], demo_colours(setup.players)
            table.new_game(setup.game, names, dict(options or {}), colours)
            table._record("note", setup.line(), "demo", "demo")
        seats = SimSeats(table, setup.seed, setup.bots, _act_out(parts, table),
                         _show(parts, table), centre_kinds=OWN_KINDS, last_throw=parts.devices.camera.last_key)
    except BaseException:
        store.close()
        raise
    return Demo(table, seats, parts.devices.clock, speed, setup.seed, parts), current is not None


@dataclass(frozen=True)
class DemoSetup:
    """What a demo was started with, kept in its record as a ``note`` line."""

    game: str
    players: int
    seed: int
    bots: tuple[str, ...]

    def line(self) -> str:
        """``demo game=tao players=4 seed=7 bots=heuristic``."""
        return (f"demo game={self.game} players={self.players} seed={self.seed} "
                f"bots={','.join(self.bots)}")

    @classmethod
    def parse(cls, line: str) -> DemoSetup:
        """Read :meth:`line` back."""
        fields = dict(word.partition("=")[::2] for word in line.split()[1:])
        return cls(fields["game"], int(fields["players"]), int(fields["seed"]),
                   tuple(fields["bots"].split(",")))


def build_real(config: HardwareConfig, tray: TrayConfig, state: Path) -> tuple[Table, DemoParts]:
    """The table ``config`` and ``tray`` describe, its record in the ``state`` directory; both are
    read (and checked) by the caller before this makes its first file. The stone registry is
    opened before the record, so one that fails to open (:func:`check_registry`) leaves none."""
    from controller.store import Store
    from controller.table.camera import TableEyes, TrayWatcher
    from controller.table.controls import find_controls
    from hardware.factory import build_devices
    registry = _table_registry(config)
    try:
        store = Store(state / "table.db")
    except BaseException:
        registry.close()
        raise
    try:
        devices = build_devices(config)
    except BaseException:
        store.close()
        registry.close()
        raise
    table = Table(store, devices=devices, controls_for=lambda name: find_controls(name),
                  registry=registry, exports=state / "exports")
    if devices.camera is not None:
        table.eyes = TableEyes(TrayWatcher(devices.camera, tray, data=state), lambda: on_table(table),
                               lambda: table.colours, lambda: table.names)
    return table, DemoParts(store, devices, registry)


REGISTRY_FIX = ("name under [rfid] registry a stone registry this user can write, or a new file in a "
                "folder that exists (relative to the configuration's folder)")
"""What ``run`` says to do of a stone registry it cannot open (``stones`` says ``--db``)."""


def check_registry(config: HardwareConfig, state: Path) -> None:
    """Refuse the stone registry ``[rfid] registry`` names that the table could not open, making
    no file: ``run`` checks it before its state folder and record, which it left behind. A new
    registry in the ``state`` folder ``run`` is about to make is left to :func:`build_real`.

    :raises ConfigError: naming the file and the key, and what to do for ``run``.
    """
    from hardware.rfid import registry_problem
    path = config.registry_path()
    if not state.exists() and path.parent.resolve() == state.resolve():
        return
    problem = registry_problem(path)
    if problem is not None:
        raise _registry_refused(config, problem)


def _table_registry(config: HardwareConfig) -> Any:
    """The stone registry of ``config``, opened (made when new), refused as :func:`check_registry`."""
    from hardware.rfid import RegistryRefused, StoneRegistry
    try:
        return StoneRegistry(config.registry_path())
    except RegistryRefused as refused:
        raise _registry_refused(config, refused.problem) from None


def _registry_refused(config: HardwareConfig, problem: str) -> ConfigError:
    from hardware.config import in_file
    return ConfigError(in_file(config.path, f"rfid.registry: {problem}: {REGISTRY_FIX}"))


def _recorded_setup(store: Any, current: Any) -> DemoSetup:
    for record in store.records(current.game_no):
        if record.kind == "note" and record.line.startswith("demo "):
            return DemoSetup.parse(record.line)
    raise InvalidInput(f"{store.path}: game {current.game_no} was not recorded by a demo; "
                       "give another --db (or run the table with `dicetable run`)")


def tray_file(db: Path) -> Path:
    """Where the demo on the record ``db`` keeps its simulated tray's dice between runs."""
    return db.with_name(db.name + ".tray")


def stones_file(db: Path) -> Path:
    """Where the demo on the record ``db`` keeps its enrolled stones (its stone registry)."""
    return db.with_name(db.name + ".stones")


def _assemble(store: Any, setup: DemoSetup, db: Path,
              seat_nodes: bool = False) -> tuple[DemoParts, Table]:
    from controller.table.camera import OWN_KINDS, TableEyes, TrayWatcher
    from controller.table.controls import find_controls
    from hardware.factory import build_devices
    from hardware.rfid import StoneRegistry
    from vision.calibrate import TrayConfig, TrayLayout, ZoneMap
    layout = TrayLayout()
    zones = ZoneMap.from_config(seat_zones(setup.players, layout.width_mm, layout.height_mm))
    registry = _demo_registry(stones_file(db))
    purses = _enrol(registry, setup.game, setup.players)
    controls = find_controls(setup.game, purses)
    devices = build_devices(_sim_config(setup.players, controls.panel(rfid=True), seat_nodes),
                            seed=setup.seed)
    assert devices.sim is not None
    camera = devices.sim.camera
    tray = TrayConfig(layout, zones, camera.focal_px)  # the simulated lens, as an install writes its own
    camera.tray = tray
    camera.kept = tray_file(db)
    parts = DemoParts(store, devices, registry, controls)
    watcher = TrayWatcher(camera, tray, owned=OWN_KINDS)
    table = Table(store, devices=devices, controls_for=lambda name: controls, registry=registry,
                  exports=db.with_name(db.name + ".exports"))
    table.eyes = TableEyes(watcher, lambda: on_table(table), lambda: table.colours, lambda: table.names)
    return parts, table


def check_sim_faults(players: int) -> None:
    """Refuse a simulated fault ``DICETABLE_SIM_FAULTS`` names that a new demo of ``players`` has
    no device or part for, before the demo makes its record: checked against its configuration,
    as a table's configuration checks its own, with no device built.

    :raises InvalidInput: as :func:`hardware.faults.require`.
    """
    from hardware.faults import Fault, require, table_parts
    config = _sim_config(players, (), False)
    parts = table_parts(config)
    for text in config.faults:
        require(Fault.parse(text), parts, text)


def _sim_config(players: int, buttons: Sequence[str], seat_nodes: bool) -> Any:
    """Simulated devices: a GPIO panel (or a seat node per seat) with the game's buttons, and an
    RC522 under every bet spot; with the faults ``DICETABLE_SIM_FAULTS`` injects at start, as for
    any command on simulated devices (``hardware/README.md``)."""
    from hardware.config import (Backend, CameraConfig, HardwareConfig, PanelConfig,
                                 ReaderPins, RfidConfig, SeatNodeConfig, SeatPins, env_faults)
    seats = tuple(SeatPins(seat, {name: 0 for name in buttons}) for seat in range(players))
    readers = tuple(ReaderPins(f"seat{seat}", seat, seat) for seat in range(players))
    nodes = tuple(SeatNodeConfig(seat, f"sim://seat{seat}") for seat in range(players)) \
        if seat_nodes else ()
    return HardwareConfig(backend=Backend.SIM, camera=CameraConfig(source="sim"),
                          panel=PanelConfig(source="seatnode" if seat_nodes else "gpio",
                                            seats=seats),
                          rfid=RfidConfig(source="mfrc522", readers=readers), seatnodes=nodes,
                          faults=env_faults())


def lying(table: Table) -> list[Lying]:
    """The dice that stay on the tray while ``table`` waits for its next dice (:func:`controller.table.camera.lying`)."""
    from controller.table.camera import lying as lying_on
    return lying_on(table.state().view, _awaited(table))


def _awaited(table: Table) -> DiceNeeded | None:
    """The dice ``table`` waits for next, or None."""
    need = table.ledger.game.pending().dice if table.ledger is not None else ()
    return need[0] if need else None


def on_table(table: Table) -> Mapping[str, Sequence[str]]:
    """The faces lying on the tray by zone (``on_table`` of the camera's match)."""
    from controller.table.camera import dice_on_table
    return dice_on_table(table.state().view, _awaited(table))


def _demo_registry(path: Path) -> Any:
    """The demo's stone registry beside its record; one that cannot be opened is named as the
    demo's (the registry's own message advises ``--db``, which is the record's here)."""
    from controller.games.errors import DeviceError
    from hardware.rfid import StoneRegistry
    try:
        return StoneRegistry(path)
    except DeviceError as err:
        why = "a folder" if path.is_dir() else "not the demo's stone registry"
        raise DeviceError(f"{path}, the demo's stone registry beside its --db, is {why}: move it away, "
                          "and the demo enrols its stones anew") from err


def _enrol(registry: Any, game: str, players: int) -> dict[int, tuple[Any, ...]]:
    """Enrol a purse of tagged stones or chips for every simulated seat (once per record)."""
    from controller.games.registry import create_game
    from controller.table.controls import find_controls
    probe = create_game(game, players, {})
    controls = find_controls(game)
    purses = {seat: controls.sim_purse(probe, seat, NAMES[seat]) for seat in range(players)}
    for purse in purses.values():
        for record in purse:
            if registry.get(record.tag_id) is None:
                registry.enroll(record)
    return purses


def _act_out(parts: DemoParts, table: Table) -> Callable[[Any, Any], bool]:
    """A bot's input done as a person does it: its stake laid on the bet spot, its buttons
    pressed one after the other (held past the panel's bounce time), then the stake swept away."""
    sim = parts.devices.sim
    clock = parts.devices.clock
    controls = parts.controls

    def act(game: Any, inp: Any) -> bool:
        gesture = controls.gesture(game, inp)
        spot = f"seat{gesture.seat}"
        for tag in sorted(gesture.spot or ()):
            sim.place(spot, tag)
        table.tick()
        for button in gesture.presses:
            for closed in (True, False):
                (sim.press if closed else sim.release)(gesture.seat, button)
                clock.advance(PRESS_S)
                table.tick()
        for tag in sorted(gesture.spot or ()):
            sim.remove(spot, tag)
        table.tick()
        return True
    return act


def cocked_throw(key: str) -> int:
    """How many dice of the throw rendered from ``key`` land cocked: one in :data:`COCKED_THROWS`
    of the throws, drawn from the key alone (a resumed demo throws the same)."""
    return int(random.Random(f"{key}/cocked").random() < COCKED_THROWS)


def cocked_dice(key: str, need: DiceNeeded) -> int:
    """How many dice lie cocked once the players have done as asked: a revealed die the table said
    lies cocked is laid flat by hand (``key`` ends in :data:`AGAIN`) and lies flat, as do dice
    moved by hand (:data:`MOVED`); a thrown die, thrown again, lands as any throw does
    (:func:`cocked_throw`)."""
    return 0 if by_hand(key, need) else cocked_throw(key)


def by_hand(key: str, need: DiceNeeded) -> bool:
    """Whether the players settle the throw named ``key`` by hand, the same faces up: dice moved
    (``key`` ends in :data:`MOVED`), or a revealed die the table said lies cocked, laid flat
    (:data:`AGAIN` at a reveal: a sealed die is never thrown again)."""
    return (need.reason == REVEAL and key.endswith(AGAIN)) or key.endswith(MOVED)


SETTLED = (AGAIN, MOVED)
"""The suffixes of the render keys of what the players do about a question (``sim_seats.TRIES``)."""


def _chained(last: str | None, key: str) -> str:
    """The render key of a throw named ``key``. The players throw again after a cocked die
    (``key`` ends in :data:`AGAIN`), or move a die the camera doubts (:data:`MOVED`), perhaps
    again and again: each throw chains on the last one the camera drew for that roll (``last``,
    kept with the tray), and a throw made again after a restart is that last one, drawn as it was.

    >>> _chained("7/1/4/render/again", "7/1/4/render/again")
    '7/1/4/render/again/again'
    >>> _chained("7/1/4/render/again", "7/1/4/render/moved")
    '7/1/4/render/again/moved'
    >>> _chained("7/1/4/render/again", "7/1/4/render"), _chained("7/1/3/render", "7/1/4/render")
    ('7/1/4/render/again', '7/1/4/render')
    """
    suffix = next((end for end in SETTLED if key.endswith(end)), "")
    roll = key.removesuffix(suffix)
    if last is not None and (last == roll or any(last.startswith(roll + end) for end in SETTLED)):
        return last + suffix
    return key


def _show(parts: DemoParts, table: Table) -> Callable[[Throw, str], None]:
    """The simulated camera's throw: the dice lying on the tray (:func:`lying`: at a throw of
    every seat's own die, those dice in the centre, each in its seat's colour; else every zone's,
    of every kind: a hand revealed before, the community dice, Tao Dice's d12s while the hands are
    revealed), still where they lay, and the thrown ones, drawn as their kind, now and then one of
    them cocked (:func:`cocked_dice`). The tray is kept beside the record (:func:`tray_file`), so
    a demo killed and resumed draws what an uninterrupted one draws."""
    from controller.table.camera import OWN_KINDS
    from vision.colour import parse_hex
    camera = parts.devices.camera

    def show(throw: Throw, key: str) -> None:
        key = _chained(camera.last_key(), key)
        ledger = table.ledger
        assert ledger is not None
        need = ledger.game.pending().dice[0]
        owned = need.kind in OWN_KINDS
        here = [die for die in lying(table) if not owned or die.kind is need.kind]
        values = [die.kind.faces.index(die.face) + 1 for die in here] + throw_values(throw, need.kind)
        owners = [*(die.owner for die in here), *([need.seat] * len(throw.faces))]
        bodies = [parse_hex(table.colours[seat]) for seat in owners if seat is not None] if owned else None
        zones = [throw.zone if owned else die.zone for die in here] + [throw.zone] * len(throw.faces)
        hand = by_hand(key, need)
        camera.roll(values, zones=zones, bodies=bodies, lying=len(here), lying_kinds=[die.kind.value for die in here],
                    kind=need.kind.value, cocked=cocked_dice(key, need), key=key, moved=hand,
                    again=key.endswith(AGAIN) and not hand)
    return show
