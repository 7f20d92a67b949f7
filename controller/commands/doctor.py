"""``dicetable doctor``: checks every configured device and says what is wrong and how to fix it."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from controller.games.errors import DeviceError, InvalidInput
from controller.paths import shown
from hardware.bringup import AntennaReport, CameraReport, antenna_reports, camera_report
from hardware.config import (
    ENV_BACKEND, ENV_CONFIG, MOST_SEATS, TABLE_CONFIG, Backend, HardwareConfig, config_for_command,
)
from hardware.devices import Device, DeviceStatus, TagReader
from hardware.factory import Devices, build_devices
from hardware.rfid import StoneRegistry, check_tags, registry_problem, unwritable_folder
from hardware.faults import FAULTS

TEST_TAG = "04B1E5C0FFEE01"   # the simulated test tag bring-up lays on every spot
SIM_WARNING = ("WARNING: no configuration given (--config or $DICETABLE_CONFIG): these are the "
               "SIMULATED devices, not this machine's hardware. On the table run: dicetable "
               f"doctor --config {TABLE_CONFIG}")


def register(subparsers: Any) -> None:
    """Add the ``doctor`` command."""
    faults = ", ".join(f"{d}:{k}" for d, kinds in FAULTS.items() for k in kinds)
    parser = subparsers.add_parser(
        "doctor", help="check every configured device: OK, or what is wrong and how to fix it",
        description="Check the camera, the seat panels and the RFID readers the configuration "
                    "names, and that the stone registry ([rfid] registry) knows the tags lying "
                    "on the spots and can be enrolled into. Prints a line per device: OK, or "
                    "NOT OK or WARNING (it works, but a part of it does not: the table plays on) "
                    "with the problem, and the fix on the line after. "
                    "Exits 1 when any device is NOT OK, 2 when the configuration or an option is "
                    "refused. DICETABLE_HW=sim|pi chooses the backend; pi needs the table's "
                    f"configuration ({TABLE_CONFIG} on the table).",
        epilog=f"simulated faults for --inject: {faults}\n"
               "one reader or seat node only: rfid[SPOT]:..., seatnode[SEAT]:...\n"
               "examples: DICETABLE_HW=sim dicetable doctor --json\n"
               f"          dicetable doctor --config {TABLE_CONFIG}\n"
               "          DICETABLE_HW=sim dicetable doctor --inject camera:stopped\n"
               "          DICETABLE_HW=sim dicetable doctor --inject 'rfid[seat2]:timeout'",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", metavar="FILE",
                        help="the table configuration (default: $DICETABLE_CONFIG, else a "
                             "simulated 4-seat table; the Pi has no default: give "
                             f"{TABLE_CONFIG}); see table.example.toml")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per device: device, ok, problem, fix, backend, "
                             "simulated_by_default")
    parser.add_argument("--inject", action="append", default=[], metavar="DEVICE:FAULT",
                        help="simulated backend only: break a device first (repeatable)")
    parser.add_argument("--bring-up", action="store_true",
                        help="also read every antenna with a test tag (reads per second, "
                             "misses) and measure the camera on the tray (sharpness, clipped "
                             "share, markers, how far it looks off straight down); says what "
                             "to adjust (exit 1 when anything needs adjusting)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the devices and print the report; 0 when all are OK, else 1."""
    config = config_for_command(args.config)
    if args.inject and config.backend is not Backend.SIM:
        raise InvalidInput("--inject breaks simulated devices only: use DICETABLE_HW=sim")
    simulated_by_default = _simulated_by_default(args.config, config)
    if simulated_by_default:
        print(SIM_WARNING, file=sys.stderr)
        if not args.json:
            print(SIM_WARNING)
    devices = build_devices(config)
    try:
        if devices.sim is not None:
            for fault in args.inject:
                devices.sim.inject(fault)
        statuses = diagnose(devices, config)
        reports = bring_up(devices, _tray(config)) if args.bring_up else []
    finally:
        devices.close()
    for status in statuses:
        print(_line(status, config, args.json, simulated_by_default))
    for report in reports:
        print(_report_line(report, args.json))
    for hint in seatless_readers(config):  # advice, not a failing device: the exit status holds
        print(f"hint: {hint}", file=sys.stderr if args.json else sys.stdout)
    fine = all(s.ok for s in statuses) and all(_advice(r) == ["ok"] for r in reports)
    return 0 if fine else 1


def _simulated_by_default(path: str | None, config: HardwareConfig) -> bool:
    """True when the simulated devices are checked only because nothing was configured."""
    chosen = path or os.environ.get(ENV_CONFIG) or os.environ.get(ENV_BACKEND)
    return config.backend is Backend.SIM and not chosen


def _tray(config: HardwareConfig) -> Any:
    """The configuration's tray (``[tray]``: its layout, and the lens's focal length if set), or
    None (the default tray) when no file was given."""
    if config.path is None:
        return None
    from vision.calibrate import load_tray_config
    return load_tray_config(config.path)


def bring_up(devices: Devices, tray: Any = None) -> list[AntennaReport | CameraReport]:
    """The bring-up reports: each antenna, then the camera (looking at ``tray``, a
    ``vision.calibrate.TrayConfig``; None: the default tray). On the simulated table a test tag
    is laid on every spot and dice with the tray markers are put under the camera first."""
    if devices.sim is not None:
        from vision.calibrate import TrayConfig
        for spot in devices.rfid.spots if devices.rfid is not None else ():
            devices.sim.place(spot, TEST_TAG)
        devices.sim.camera.tray = tray or TrayConfig()  # the simulated camera shows the tray looked for
        devices.sim.show_dice([1, 2, 3, 4, 5], markers=True)
    reports: list[AntennaReport | CameraReport] = []
    if devices.rfid is not None:
        reports += antenna_reports(devices.rfid, devices.clock)
    if devices.camera is not None:
        try:
            reports.append(camera_report(devices.camera, tray))
        except DeviceError as err:
            reports.append(CameraReport(0.0, 0.0, 0.0, (), (f"no frame: {err}",)))
    return reports


def _advice(report: AntennaReport | CameraReport) -> list[str]:
    return [report.advice] if isinstance(report, AntennaReport) else list(report.advice)


def _report_line(report: AntennaReport | CameraReport, as_json: bool) -> str:
    if as_json:
        return json.dumps(report.to_json())
    if isinstance(report, AntennaReport):
        return (f"antenna {report.spot}: {report.reads_per_s:.1f} reads/s, {report.hits}/"
                f"{report.scans} with a tag, {report.misses} misses, {report.errors} errors, "
                f"{report.garbled} garbled, "
                f"chip {report.chip}, tags {', '.join(report.tags) or 'none'}: {report.advice}")
    return (f"camera: sharpness {report.sharpness:.0f}, clipped {report.clipped:.2%}, dark "
            f"{report.dark:.1%}, markers {list(report.markers)}, {report.lens()}, {report.aim()}: "
            f"{'; '.join(report.advice)}")


def diagnose(devices: Devices, config: HardwareConfig) -> list[DeviceStatus]:
    """Every device's status; a working reader's also says its tags and its stone registry."""
    statuses = [_check(device) for device in devices.all()]
    if devices.rfid is not None and statuses[-1].ok:
        statuses[-1] = _reader_status(devices.rfid, statuses[-1], config.registry_path())
    return statuses


def _reader_status(reader: TagReader, status: DeviceStatus, registry_path: Path) -> DeviceStatus:
    """A working reader's status: a tag not registered fails it; else it keeps its own warning,
    else it warns of a registry that cannot be enrolled into (:func:`_registry_folder`)."""
    tags = _check_tags(reader, registry_path)
    return DeviceStatus.first_wrong(reader.name, [tags, status, _registry_folder(reader.name,
                                                                                 registry_path)])


def _registry_folder(name: str, path: Path) -> DeviceStatus:
    """A warning when the stone registry at ``path`` exists in a folder this user cannot write
    (:func:`hardware.rfid.unwritable_folder`): the table only reads it, but ``stones enroll``
    fails."""
    problem = unwritable_folder(path)
    if problem is None:
        return DeviceStatus.healthy(name)
    folder = path.resolve().parent
    return DeviceStatus.warning(
        name, problem,
        f"make {shown(folder)} writable by the user that enrols the stones (the service's: "
        "dicetable), or move the registry to a folder it can write and name it under [rfid] "
        "registry")


def _check(device: Device) -> DeviceStatus:
    try:
        return device.check()
    except DeviceError as err:  # check() should not raise; a backend that does is still reported
        return DeviceStatus.failing(device.name, str(err), "see hardware/README.md")


def _check_tags(reader: TagReader, registry_path: Path) -> DeviceStatus:
    """Whether the tags on the reader's spots are registered; fails when the registry there is
    one ``run`` refuses, in its words and with its fix (``stones``' fix, ``--db``, is an option
    doctor has not). The registry is only read: a check changes no file."""
    there = registry_path.exists()
    problem = registry_problem(registry_path) if there else None
    if problem is not None:
        from controller.table.build import REGISTRY_FIX
        return DeviceStatus.failing(reader.name, problem, REGISTRY_FIX)
    registry = StoneRegistry(registry_path, read_only=True) if there else None
    try:
        return check_tags(reader, registry)
    except DeviceError as err:
        return DeviceStatus.failing(reader.name, str(err), "see hardware/README.md")
    finally:
        if registry is not None:
            registry.close()


def seatless_readers(config: HardwareConfig) -> list[str]:
    """A hint for each RC522 whose spot is a seat's but that names no seat (a ``table.toml``
    older than ``seat = N`` on readers): the table waits for such a reader even under a seat
    where no one sits, so a broken spare antenna there holds the game. None for a spot of no seat
    (the pot's), nor on seat nodes, which name their seat.

    >>> from hardware.config import parse_config
    >>> readers = [{"spot": "pot", "chip_select": 8}, {"spot": "seat3", "chip_select": 7}]
    >>> print(*seatless_readers(parse_config({"rfid": {"readers": readers}}, {})))
    rfid.readers[1] (spot 'seat3') names no seat: add seat = 3 so that the table does not wait for it when no one sits there
    """
    if config.rfid.source != "mfrc522":
        return []
    return [f"rfid.readers[{i}] (spot {reader.spot!r}) names no seat: add seat = {seat} so that "
            "the table does not wait for it when no one sits there"
            for i, reader in enumerate(config.rfid.readers)
            if reader.seat is None and (seat := _seat_of_spot(reader.spot, config)) is not None]


def _seat_of_spot(spot: str, config: HardwareConfig) -> int | None:
    """The seat whose bet spot ``spot`` is: the seat of a seat node that reads it, else N for
    ``seatN``, the spot the table reads seat N's stake on (``Table``'s ``spot_of``)."""
    nodes = [node.seat for node in config.seatnodes if node.spot == spot]
    if nodes:
        return nodes[0]
    numbered = re.fullmatch(r"seat(0|[1-9][0-9]*)", spot)
    return int(numbered.group(1)) if numbered and int(numbered.group(1)) < MOST_SEATS else None


def _line(status: DeviceStatus, config: HardwareConfig, as_json: bool,
          simulated_by_default: bool = False) -> str:
    """A device's status for a person (a warning with its problem and fix, as a failure), or as
    one JSON object (a warning: ``ok`` with a ``problem``)."""
    if as_json:
        return json.dumps({**status.to_json(), "backend": config.backend.value,
                           "simulated_by_default": simulated_by_default})
    if status.ok and not status.warns:
        return f"{status.name:<8} OK ({config.backend.value})"
    verdict = "WARNING" if status.warns else "NOT OK"
    return f"{status.name:<8} {verdict}: {status.problem}\n{'':<8} fix: {status.fix}"
