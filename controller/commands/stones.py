"""``dicetable stones``: enrol RFID-tagged stones and chips by placing them on a reader, and list them."""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial
from pathlib import Path
from typing import Any

from controller.commands.common import FileProblem, given, shown
from controller.games.errors import DeviceDisconnected, DeviceTimeout, InvalidInput
from hardware.clock import Clock, SimClock
from hardware.config import HardwareConfig, config_for_command, in_file
from hardware.devices import TagChange, TagReader
from hardware.factory import build_devices
from hardware.rfid import (MOST_DENOMINATION, StoneColour, StoneRegistry, TagEnrolled, TagKind, TagRecord,
                           normalise_tag, registry_problem, unwritable_folder)
from hardware.sim import SimTable

POLL_EVERY = 0.1
SIM_PLACE_EVERY = 0.5
SIM_LIFT_AFTER = 0.3
LONGEST_WAIT = 3600.0  # an hour: a longer --timeout is a typo (ms for s), not a plan


def register(subparsers: Any) -> None:
    """Add the ``stones`` command with its ``enroll`` and ``list`` subcommands."""
    parser = subparsers.add_parser(
        "stones", help="enrol RFID-tagged stones and chips, list the registry",
        description="The registry says what each RFID tag is: a black or white stone, or a chip "
                    "of some denomination, and whose it is.")
    commands = parser.add_subparsers(title="subcommands", metavar="SUBCOMMAND")
    _register_enroll(commands)
    _register_list(commands)
    parser.set_defaults(run=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="the table configuration (default: $DICETABLE_CONFIG, else a "
                             "simulated table)")
    parser.add_argument("--db", type=given, metavar="FILE",
                        help="the registry file (default: [rfid] registry of the configuration)")
    parser.add_argument("--json", action="store_true", help="one JSON object per tag")


def _register_enroll(commands: Any) -> None:
    parser = commands.add_parser(
        "enroll", help="register tags by placing them, one at a time, on a reader",
        description="Waits for tags to arrive on a reader's spot and registers each as the "
                    "stone or chip described by the options. Place them one at a time.",
        epilog="examples: dicetable stones enroll --kind stone --colour white --count 2\n"
               "          DICETABLE_HW=sim dicetable stones enroll --kind chip "
               "--denomination 25 --sim-tags 04A1B2C3D4E5F6,DEADBEEF",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", required=True, choices=[k.value for k in TagKind])
    parser.add_argument("--colour", choices=[c.value for c in StoneColour],
                        help="a stone's colour (stones only)")
    parser.add_argument("--denomination", type=int, help="a chip's value (chips only)")
    parser.add_argument("--owner", default="", help="whose set the tags belong to")
    parser.add_argument("--spot", help="the reader spot to place tags on (default: the first)")
    parser.add_argument("--count", type=int,
                        help="stop after this many tags (default: until --timeout)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help=f"seconds to wait for the tags (default: 60, at most "
                             f"{LONGEST_WAIT:g})")
    parser.add_argument("--replace", action="store_true",
                        help="change a tag already enrolled as something else (without it, "
                             "you are asked at a terminal, and refused otherwise)")
    parser.add_argument("--sim-tags", metavar="TAG[,TAG...]",
                        help="simulated backend: place these tag ids on the spot, one after "
                             "another, as a person would")
    _common(parser)
    parser.set_defaults(run=run_enroll)


def _register_list(commands: Any) -> None:
    parser = commands.add_parser("list", help="list the registered tags",
                                 description="Every registered tag: id, kind, colour or "
                                             "denomination, owner.")
    _common(parser)
    parser.set_defaults(run=run_list)


def _record_for(args: argparse.Namespace, tag: str) -> TagRecord:
    return TagRecord(tag, TagKind(args.kind),
                     StoneColour(args.colour) if args.colour else None,
                     args.denomination, args.owner)


def _check_options(args: argparse.Namespace) -> None:
    """The options must describe a stone (with a colour) or a chip (with a denomination)."""
    if args.kind == TagKind.STONE.value and (not args.colour or args.denomination is not None):
        raise InvalidInput("--kind stone needs --colour black|white and no --denomination")
    if args.kind == TagKind.CHIP.value and (args.denomination is None or args.colour):
        raise InvalidInput("--kind chip needs --denomination N and no --colour")
    if args.denomination is not None and not 0 < args.denomination <= MOST_DENOMINATION:
        raise InvalidInput(f"--denomination {args.denomination}: a chip is worth 1 to {MOST_DENOMINATION:,}")
    if args.count is not None and args.count < 1:
        raise InvalidInput(f"--count {args.count}: give at least 1 tag (or leave --count out to "
                           "enrol until --timeout)")
    if not 0 < args.timeout <= LONGEST_WAIT:  # also refuses nan
        raise InvalidInput(f"--timeout {args.timeout:g}: give seconds, more than 0 and at most "
                           f"{LONGEST_WAIT:g}")


def _registry(args: argparse.Namespace, read_only: bool = False) -> StoneRegistry:
    """The registry of ``--db`` or the configuration; ``read_only`` for one that must exist."""
    config = config_for_command(args.config)  # checked even when --db names the registry
    return StoneRegistry(_registry_path(args, config, read_only), read_only)


def _registry_path(args: argparse.Namespace, config: HardwareConfig, read_only: bool = False) -> Path:
    """The registry file of ``--db`` or ``config``, checked; ``read_only``: it must exist, and is
    only read. One to enrol into is checked as ``run`` checks the table's
    (:func:`hardware.rfid.registry_problem`), and its folder too (:func:`hardware.rfid.unwritable_folder`:
    SQLite refused the first tag placed), before a device is opened."""
    path = Path(args.db) if args.db else config.registry_path()
    if read_only:
        return _listed(path)
    problem = registry_problem(path) or unwritable_folder(path)
    if problem is not None:
        said = problem if args.db else in_file(config.path, f"rfid.registry: {problem}")
        raise FileProblem(f"{said}; give the registry's file with --db")
    return path


def _listed(path: Path) -> Path:
    """``path``, a registry to list: one that is not there is refused here, a file that is not a
    registry by :class:`StoneRegistry` as it opens it."""
    if path.is_dir():
        raise FileProblem(f"the stone registry {shown(path)} is a folder; give its file with --db")
    if not path.exists():
        raise FileProblem(f"no stone registry {shown(path)} (enrol tags with 'dicetable stones "
                          "enroll', or give the file with --db)")
    return path


def run_enroll(args: argparse.Namespace) -> int:
    """Register each tag that arrives on the spot; prints one line per tag."""
    _check_options(args)
    sim_tags = [normalise_tag(t) for t in (args.sim_tags or "").split(",") if t.strip()]
    count = args.count or (len(sim_tags) or None)
    config = config_for_command(args.config)
    path = _registry_path(args, config)
    _has_reader(config)
    devices = build_devices(config)
    try:
        reader = devices.rfid
        assert reader is not None  # as the configuration says (RfidConfig.present)
        spot = _spot(reader, args.spot)
        reader.set_seats_in_play(_seats_reading(config, spot))
        if sim_tags:
            _script_placements(devices.sim, devices.clock, spot, sim_tags)
        enrolled = _enroll_into(path, args, reader, devices.clock, spot, count)
    except DeviceDisconnected as away:  # a seat node's fix says the table goes on by itself
        remedy = getattr(away, "remedy", None)
        if remedy is None:
            raise
        raise DeviceDisconnected(f"{getattr(away, 'problem', away)}; {remedy}, then enrol again "
                                 "(the tags enrolled before it stopped are kept)") from None
    finally:
        devices.close()
    if count and enrolled < count:
        raise DeviceTimeout(f"only {enrolled} of {count} tags enrolled in {args.timeout:g} s")
    if not enrolled:
        raise DeviceTimeout(f"no tag arrived on spot {spot!r} in {args.timeout:g} s: nothing "
                            "enrolled (place one tag at a time, or give a longer --timeout)")
    print(f"{enrolled} tag{'s' * (enrolled != 1)} enrolled", file=sys.stderr)
    return 0


def _has_reader(config: HardwareConfig) -> None:
    """Refuse a configuration with no reader to enrol on, before any device is opened."""
    if not config.rfid.present:
        why = 'source = "none"' if config.rfid.source == "none" else "no [[rfid.readers]] listed"
        raise InvalidInput(f"the configuration has no RFID reader to enrol on ([rfid] {why})")


def _spot(reader: TagReader, spot: str | None) -> str:
    if spot is None:
        return reader.spots[0]
    if spot not in reader.spots:
        raise InvalidInput(f"no spot {spot!r}; spots: {', '.join(reader.spots)}")
    return spot


def _seats_reading(config: HardwareConfig, spot: str) -> frozenset[int]:
    """The seats whose seat node, or whose RC522 on the Pi's SPI bus, reads ``spot``: the
    reader waits for those only, so that a node or a chip under another seat's spot that does
    not answer does not stop the enrolment (a spot of no seat is always waited for)."""
    nodes = {node.seat for node in config.seatnodes if node.spot == spot}
    return frozenset(nodes | {seat for under, seat in config.rfid.seats().items() if under == spot})


def _script_placements(sim: SimTable | None, clock: Clock, spot: str, tags: list[str]) -> None:
    if sim is None or not isinstance(clock, SimClock):
        raise InvalidInput("--sim-tags needs the simulated backend (DICETABLE_HW=sim)")
    for i, tag in enumerate(tags):
        place_at = SIM_PLACE_EVERY * (i + 1)
        clock.call_later(place_at, partial(sim.place, spot, tag))
        clock.call_later(place_at + SIM_LIFT_AFTER, partial(sim.remove, spot, tag))


def _enroll_into(path: Path, args: argparse.Namespace, reader: TagReader, clock: Clock,
                 spot: str, count: int | None) -> int:
    """Enrol into the registry at ``path``; a registry this made and left empty is removed
    again, so a run that enrolled nothing leaves no file behind. One that enrolled tags and
    then stopped on a fault (a seat node unplugged) keeps them."""
    existed = path.exists()
    registry = StoneRegistry(path)
    try:
        print(f"place tags on spot {spot!r} one at a time", file=sys.stderr)
        return _enroll(args, reader, clock, spot, count, registry)
    finally:
        empty = not registry.all()
        registry.close()
        if not existed and empty:
            path.unlink(missing_ok=True)


def _enroll(args: argparse.Namespace, reader: TagReader, clock: Clock, spot: str,
            count: int | None, registry: StoneRegistry) -> int:
    enrolled: list[str] = []
    deadline = clock.now() + args.timeout
    while clock.now() < deadline and (count is None or len(enrolled) < count):
        for event in reader.poll():
            if event.spot == spot and event.change is TagChange.ARRIVE \
                    and event.tag not in enrolled:
                record = _record_for(args, event.tag)
                _enroll_one(registry, record, args.replace)
                enrolled.append(event.tag)
                print(_describe(record, args.json), flush=True)
        clock.sleep(POLL_EVERY)
    return len(enrolled)


def _enroll_one(registry: StoneRegistry, record: TagRecord, replace: bool) -> None:
    """Enrol ``record``; a tag enrolled as something else is changed only when the person says
    so (``--replace``, or yes at a terminal)."""
    try:
        registry.enroll(record, replace)
    except TagEnrolled as refused:
        if not sys.stdin.isatty():
            raise
        known = registry.get(record.tag_id)
        print(f"tag {record.tag_id} is enrolled as {known.describe() if known else '?'}; "
              f"change it to {record.describe()}? [y/N] ", end="", file=sys.stderr, flush=True)
        if sys.stdin.readline().strip().lower() not in ("y", "yes"):
            raise TagEnrolled(f"tag {record.tag_id} left as it was; nothing after it "
                              "enrolled") from refused
        registry.enroll(record, replace=True)


def _describe(record: TagRecord, as_json: bool) -> str:
    if as_json:
        return json.dumps(record.to_json())
    return f"{record.tag_id:<14} {record.describe()}"


def run_list(args: argparse.Namespace) -> int:
    """Print every registered tag."""
    registry = _registry(args, read_only=True)
    try:
        records = registry.all()
    finally:
        registry.close()
    for record in records:
        print(_describe(record, args.json))
    if not records and not args.json:
        print("no tags registered (enrol some with 'dicetable stones enroll')", file=sys.stderr)
    return 0
