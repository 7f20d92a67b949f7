"""``dicetable doctor``: checks every configured device and says what is wrong and how to fix it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from controller.games.errors import DeviceError, InvalidInput
from hardware.config import Backend, HardwareConfig, config_for_command
from hardware.devices import Device, DeviceStatus, TagReader
from hardware.factory import Devices, build_devices
from hardware.rfid import StoneRegistry, check_tags
from hardware.sim import FAULTS


def register(subparsers: Any) -> None:
    """Add the ``doctor`` command."""
    faults = ", ".join(f"{d}:{k}" for d, kinds in FAULTS.items() for k in kinds)
    parser = subparsers.add_parser(
        "doctor", help="check every configured device: OK, or what is wrong and how to fix it",
        description="Check the camera, the seat panels and the RFID readers the configuration "
                    "names. Prints one line per device: OK, or the problem and the fix. Exits 1 "
                    "when any device is not OK. DICETABLE_HW=sim|pi chooses the backend.",
        epilog=f"simulated faults for --inject: {faults}\n"
               "examples: DICETABLE_HW=sim dicetable doctor --json\n"
               "          dicetable doctor --config /etc/dicetable/table.toml\n"
               "          DICETABLE_HW=sim dicetable doctor --inject camera:stopped",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", metavar="FILE",
                        help="the table configuration (default: $DICETABLE_CONFIG, else a "
                             "simulated 4-seat table); see table.example.toml")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per device: device, ok, problem, fix, backend")
    parser.add_argument("--inject", action="append", default=[], metavar="DEVICE:FAULT",
                        help="simulated backend only: break a device first (repeatable)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Check the devices and print the report; 0 when all are OK, else 1."""
    config = config_for_command(args.config)
    if args.inject and config.backend is not Backend.SIM:
        raise InvalidInput("--inject breaks simulated devices only: use DICETABLE_HW=sim")
    devices = build_devices(config)
    try:
        if devices.sim is not None:
            for fault in args.inject:
                devices.sim.inject(fault)
        statuses = diagnose(devices, config)
    finally:
        devices.close()
    for status in statuses:
        print(_line(status, config, args.json))
    return 0 if all(status.ok for status in statuses) else 1


def diagnose(devices: Devices, config: HardwareConfig) -> list[DeviceStatus]:
    """Every device's status; a working reader is also checked for unregistered tags."""
    statuses = [_check(device) for device in devices.all()]
    if devices.rfid is not None and statuses[-1].ok:
        statuses[-1] = _check_tags(devices.rfid, config.registry_path())
    return statuses


def _check(device: Device) -> DeviceStatus:
    try:
        return device.check()
    except DeviceError as err:  # check() should not raise; a backend that does is still reported
        return DeviceStatus.failing(device.name, str(err), "see hardware/README.md")


def _check_tags(reader: TagReader, registry_path: Path) -> DeviceStatus:
    registry = StoneRegistry(registry_path) if registry_path.exists() else None
    try:
        return check_tags(reader, registry)
    except DeviceError as err:
        return DeviceStatus.failing(reader.name, str(err), "see hardware/README.md")
    finally:
        if registry is not None:
            registry.close()


def _line(status: DeviceStatus, config: HardwareConfig, as_json: bool) -> str:
    if as_json:
        return json.dumps({**status.to_json(), "backend": config.backend.value})
    if status.ok:
        return f"{status.name:<8} OK ({config.backend.value})"
    return f"{status.name:<8} NOT OK: {status.problem}\n{'':<8} fix: {status.fix}"
