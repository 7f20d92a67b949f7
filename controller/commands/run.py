"""``dicetable run``: the real table on a Raspberry Pi, as the service unit starts it.

The devices come from the configuration (``[hardware] backend = "pi"``); the table's record, its
evidence pictures and exports, and the dealer console's sessions live in the state directory (``--state``, default
``$STATE_DIRECTORY`` as systemd sets it, else ``/var/lib/dicetable``), and so do the dice sets
the camera reads by (``dicetable vision teach --data STATE``). The scoreboard is served
on the local network. SIGTERM stops the loop and closes the devices; systemd's watchdog is fed.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from controller.commands.common import Announcer, check_port, folders_kept_if_used, given_path, shown
from controller.games.errors import InvalidInput

if TYPE_CHECKING:
    import socket

    from hardware.config import ConsoleConfig
    from hardware.devices import DeviceStatus
    from web.server import Background

DEFAULT_STATE = Path("/var/lib/dicetable")

NO_PIN = ("warning: no dealer PIN ($DICETABLE_DEALER_PIN): the dealer console (/dealer) refuses every "
          "login. Put DICETABLE_DEALER_PIN=<digits> in /etc/dicetable/dealer.env (mode 600, read by "
          "the service) and restart the table")
"""What ``run`` says when it serves the console with no PIN to open it."""

LEAST_PIN = 6
"""Characters of a dealer PIN under which ``run`` warns (:func:`pin_warning`): the console lets
each address on the network try 5 PINs a minute (``web.DEFAULTS``), so a 4-digit PIN falls to
one address in about 33 hours, and to a hundred in 20 minutes; 6 digits hold one for 139 days."""


def pin_warning(pin: str | None) -> str | None:
    """What ``run`` says of the dealer PIN it serves the console with, or None when it is sound.

    >>> pin_warning("8642")[:41], pin_warning("864213")
    ('warning: the dealer PIN has 4 characters:', None)
    """
    if pin is None:
        return NO_PIN
    if len(pin) < LEAST_PIN:
        return (f"warning: the dealer PIN has {len(pin)} characters: anyone on the network can guess a "
                f"PIN that short; give one of {LEAST_PIN} or more in /etc/dicetable/dealer.env")
    return None


def register(subparsers: Any) -> None:
    """Add the ``run`` subcommand."""
    parser = subparsers.add_parser(
        "run", help="run the real table (camera, panels, RFID, scoreboard)",
        description="Runs the table described by the configuration: reads the dice, the buttons "
                    "and the stones, records every input durably, and serves the scoreboard. "
                    "The dealer starts a game from the console (/dealer), or --game starts one "
                    "when none is in play. SIGTERM stops it cleanly.")
    parser.add_argument("--config", required=True, type=given_path, help="the table.toml")
    parser.add_argument("--state", type=given_path, help="where the record lives, and the dice sets taught "
                        "with `dicetable vision teach --data STATE` (default $STATE_DIRECTORY, else "
                        "/var/lib/dicetable)")
    parser.add_argument("--game", type=str.lower, help="start this game if none is in play")
    parser.add_argument("--names", default="", help="seat names for --game, comma-separated")
    parser.add_argument("--colours", default="", help="seat colours for --game, #rrggbb, "
                        "comma-separated, one per seat (the colour of the seat's own dice; "
                        "default: ten distinct colours)")
    parser.add_argument("--host", default="0.0.0.0", help="the scoreboard's address (default "
                                                          "0.0.0.0: the local network)")
    parser.add_argument("--port", type=int, default=5000, help="the scoreboard's port (default 5000; "
                        "0: any free port, the one picked printed)")
    parser.add_argument("--no-web", action="store_true", help="no scoreboard")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Open the devices and the record, then turn the table's loop until SIGTERM."""
    from controller.store.store import DEVICE_RECORDS
    from controller.table.build import build_real, check_registry
    from controller.table.service import Notifier, Stop, close_all, serve_table
    from hardware.config import config_for_command
    from vision.calibrate import load_tray_config
    if (args.names or args.colours) and not args.game:  # they were ignored without a word
        raise InvalidInput("--names and --colours go with --game (the game they start); the dealer "
                           "console names the seats of a game started there")
    state = args.state or Path(os.environ.get("STATE_DIRECTORY", "") or DEFAULT_STATE)
    _not_a_file(state)
    config = config_for_command(str(args.config))  # checked whole before a file is made
    tray = load_tray_config(args.config)
    check_registry(config, state)
    listener = None if args.no_web else _listen(args.host, args.port)  # a port taken: refused before a file is made
    with folders_kept_if_used(state):  # a registry that passed the check and still failed to open
        _writable(state)
        table, parts = build_real(config, tray, state)
    server = None
    try:
        if args.game and (table.ledger is None or table.state().view.over):
            names = [n.strip() for n in args.names.split(",") if n.strip()]
            if not names:
                raise InvalidInput("--game needs --names (one name per seat, comma-separated)")
            colours = [c.strip() for c in args.colours.split(",") if c.strip()]
            table.new_game(args.game, names, {}, colours)
        if listener is not None:
            server = _serve(table, listener, state, config.console)
        print(f"table running; record {shown(state / 'table.db')}", file=sys.stderr, flush=True)
        for line in _standing(table.standing()):
            print(line, file=sys.stderr, flush=True)
        faults = Announcer(table, sys.stderr, only=DEVICE_RECORDS)
        stop = Stop()
        stop.install()
        serve_table(_telling(table.tick, faults), stop, Notifier())
    finally:
        if server is not None:
            server.stop()
        close_all(parts)
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """The scoreboard's port (0: any free one), bound before the table makes a file."""
    from web.server import listen
    check_port(port)
    return listen(host, port)


def _serve(table: Any, listener: socket.socket, state: Path, console: ConsoleConfig) -> Background:
    """Serve the scoreboard and the console on ``listener``, the dealer's sessions kept in the
    ``state`` folder (a restart does not log the dealer out; deleting the file logs every dealer
    out) and ended by the ``console``'s limits (the venue's ``[console]``); say where (the port
    picked, for port 0), what the console lacks, and a damaged sessions file replaced."""
    from web import create_app, environment_pin
    from web.security import SESSIONS_FILE, SessionKeep, SessionLimits
    from web.server import Background
    sessions = SessionKeep.at(state / SESSIONS_FILE)
    limits = SessionLimits(console.idle_minutes * 60, console.shift_hours * 3600)
    app = create_app(table, {"sessions": sessions, "session_limits": limits})
    server = Background(app, listener).start()
    print(f"scoreboard: {server.url}/", flush=True)
    for warning in (sessions.replaced, pin_warning(environment_pin())):
        if warning is not None:
            print(warning, file=sys.stderr, flush=True)
    return server


def _standing(statuses: list[DeviceStatus]) -> list[str]:
    """What ``run`` says as it starts of the faults and warnings its record has standing
    (``Table.standing``), one line each, as the devices page marks them: a restarted table does
    not record again what it knows from its record, so its terminal would say nothing of a camera
    still out, and it said the first fault only (the table's status), not a second device's
    fault nor a seat node's warning. Its first poll records the clear of what is over.

    >>> from hardware.devices import DeviceStatus
    >>> _standing([DeviceStatus.warning("rfid", "reader under 'seat3' timed out", "check it")])
    ["Warning standing when the table stopped: rfid: reader under 'seat3' timed out; check it"]
    """
    from controller.table.table import named
    return [f"{'Warning' if status.warns else 'Fault'} standing when the table stopped: "
            f"{named(status.name, status.problem)}; {status.fix}" for status in statuses]


def _telling(tick: Callable[[], bool], faults: Announcer) -> Callable[[], bool]:
    """The table's beat, then a line at the terminal for each device that began failing or works
    again in it: the scoreboard shows a fault, but whoever started the table (or reads its
    journal) may have no scoreboard open, or none served (``--no-web``)."""
    def beat() -> bool:
        busy = tick()
        faults.tell()
        return busy
    return beat


def _not_a_file(state: Path) -> None:
    if state.exists() and not state.is_dir():
        raise InvalidInput(f"--state {shown(state)} is a file; give a directory for the table's state")


def _writable(state: Path) -> None:
    """Make the state directory (the configuration is sound by now) and check it is writable."""
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise InvalidInput(f"--state {shown(state)}: cannot make the state directory "
                           f"({err.strerror}); give a writable one") from None
    if not os.access(state, os.W_OK):
        raise InvalidInput(f"--state {shown(state)}: not writable by this user; give a writable "
                           "directory (the service unit's StateDirectory=dicetable makes one)")
