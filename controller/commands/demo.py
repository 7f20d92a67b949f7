"""``dicetable demo``: a whole simulated table through the real table code, with its scoreboard.

The simulated camera renders the dice and the real reader reads them; bots press simulated
buttons and lay simulated stones and chips on RFID spots; the table records every input durably
before it shows it. The scoreboard runs on http://127.0.0.1:5000 unless ``--no-web`` (``--port 0``:
any free port, the one picked printed). With the same ``--db`` a stopped demo resumes where it
stopped.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from controller.commands.common import Announcer, check_port, given_path, shown, stopped_as_by_ctrl_c
from controller.commands.simulate import add_option_argument, named_bots, parse_options, seated_bots
from controller.games.errors import InvalidInput
from controller.games.registry import GAMES, find_game

if TYPE_CHECKING:
    import socket

    from controller.table.records import Update
    from web.server import Background

DEFAULT_PORT = 5000


def register(subparsers: Any) -> None:
    """Add the ``demo`` subcommand."""
    parser = subparsers.add_parser(
        "demo", help="a whole simulated table with bots and the scoreboard (Ctrl-C stops)",
        description="A simulated table run by the real table code: the simulated camera renders "
                    "the dice and the real reader reads them, bots press simulated buttons and "
                    "lay RFID-tagged stones and chips, every input is recorded durably before "
                    "it is shown, and the scoreboard is served on http://127.0.0.1:PORT. Hidden "
                    "dice stay sealed until the showdown. Ctrl-C (or SIGTERM) stops; the same --db resumes.")
    parser.add_argument("--game", type=str.lower,
                        help=f"the game: {', '.join(sorted(GAMES))} (default tao; a resumed --db plays its own)")
    parser.add_argument("--players", type=int, help="bots at the table (default 4)")
    parser.add_argument("--seed", type=int, help="seed of dice and bots (default: a random one, "
                                                 "printed so the game can be watched again)")
    parser.add_argument("--hands", type=int, help="stop after this many hands or rounds of the game, "
                                                  "a resumed --db's counted in: the same command "
                                                  "line ends where an uninterrupted run ends "
                                                  "(default: at the game's end)")
    parser.add_argument("--speed", default="1", metavar="X|max",
                        help="how fast the table's time runs: 1 is a spectator's pace, 4 four "
                             "times faster, max as fast as the machine goes (default 1)")
    parser.add_argument("--db", type=given_path, help="the table's record (SQLite); the same file "
                                                "resumes a stopped demo (default: a new file). Beside it "
                                                "DB.stones keeps the enrolled stones and DB.tray the "
                                                "simulated tray's dice")
    parser.add_argument("--no-web", action="store_true", help="no scoreboard")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the scoreboard's port on 127.0.0.1 (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--bots", help="bot per seat, comma-separated; fewer go round the table again "
                                       f"(default {DEFAULT_BOTS})")
    add_option_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build the simulated table, resume or start its game, and play it out."""
    from controller.table.build import build_demo
    from controller.table.demo import play_out
    speed = _speed(args.speed)
    spec = find_game(args.game or DEFAULT_GAME)
    players = DEFAULT_PLAYERS if args.players is None else args.players
    bots = seated_bots(spec.name, players, DEFAULT_BOTS if args.bots is None else args.bots)
    if args.hands is not None and args.hands < 1:
        raise InvalidInput(f"--hands must be at least 1, not {args.hands}")
    check_port(args.port)
    _check_faults(players if args.db is None or not args.db.exists() else None)
    listener = None if args.no_web else _listen(args.port)  # a port taken: refused before a record is made
    db = args.db or Path(tempfile.mkdtemp(prefix="dicetable-demo-")) / "table.db"
    demo, resumed = build_demo(spec.name, players, args.seed, db, speed, bots, parse_options(args.option))
    out = sys.stdout
    _introduce(demo, resumed, db, out)
    if resumed:
        _unapplied(args, demo, out)
    server = None if listener is None else _serve(demo.table, listener, out, speed)
    narrator = Narrator(demo.table, out)
    try:
        with stopped_as_by_ctrl_c():
            play_out(demo, args.hands, narrator.tell)
        narrator.tell()
        narrator.finish()
    except KeyboardInterrupt:
        narrator.tell()
        print(f"\ndemo stopped; resume with: dicetable demo --db {shown(db)}", file=out)
    finally:
        if server is not None:
            server.stop()
        demo.close()
    return 0


def _speed(text: str) -> float | None:
    if text.strip().lower() == "max":
        return None
    try:
        speed = float(text)
    except ValueError:
        raise InvalidInput(f"--speed must be a number or max, not {text!r}") from None
    if not 0.05 <= speed <= 1000:
        raise InvalidInput(f"--speed must be between 0.05 and 1000 (or max), not {text!r}")
    return speed


DEFAULT_GAME, DEFAULT_PLAYERS, DEFAULT_BOTS = "tao", 4, "heuristic"
"""A new demo's game, number of players and bots when ``--game``, ``--players`` and ``--bots`` are not given."""


def _unapplied(args: argparse.Namespace, demo: Any, out: TextIO) -> None:
    """Say which of the options given do not apply to the game a record resumes (its own game,
    players, seed and rules): they were dropped without a word."""
    table = demo.table
    game = table.ledger.game.name if table.ledger is not None else None
    given = [f"--game {args.game}" if args.game and find_game(args.game).name != game else "",
             f"--players {args.players}" if args.players is not None and args.players != len(table.names) else "",
             f"--seed {args.seed}" if args.seed is not None and args.seed != demo.seed else "",
             f"--bots {args.bots}" if args.bots is not None and named_bots(args.bots) != demo.seats.bots else "",
             "--option" if args.option else ""]
    dropped = [option for option in given if option]
    if dropped:
        print(f"note: {', '.join(dropped)} {'does' if len(dropped) == 1 else 'do'} not apply: the record resumes "
              f"its own game (a new --db starts a new one)", file=out, flush=True)


def _introduce(demo: Any, resumed: bool, db: Path, out: TextIO) -> None:
    table = demo.table
    view = table.state().view
    names = ", ".join(table.names)
    how = "resumed" if resumed else "started"
    print(f"{view.title} demo {how}: game {table.game_no}, {names}; seed {demo.seed}", file=out)
    print(f"record: {shown(db)} (the same --db resumes)", file=out, flush=True)


SHOWDOWN_LEAST_S = 1.0
"""The shortest time the demo's scoreboard holds a showdown on screen (at ``--speed max`` too)."""


def showdown_seconds(speed: float | None) -> float:
    """How long the demo's scoreboard holds a showdown: the table's time at the demo's ``speed``
    (None: as fast as it goes), so that the banner is gone before the next hand has gone far.

    >>> showdown_seconds(1), showdown_seconds(8), showdown_seconds(None)
    (6.0, 1.0, 1.0)
    """
    from web import DEFAULTS
    table_s = float(DEFAULTS["showdown_seconds"])
    return max(SHOWDOWN_LEAST_S, table_s / speed) if speed else SHOWDOWN_LEAST_S


def demo_app(table: Any, speed: float | None, pin: str | None = None) -> Any:
    """The scoreboard's web app for a demo at ``speed``, its dealer console opened by ``pin`` (None:
    the environment's, ``web.PIN_VARIABLE``)."""
    from web import create_app
    config: dict[str, Any] = {"showdown_seconds": showdown_seconds(speed)}
    return create_app(table, config if pin is None else {**config, "dealer_pin": pin})


def console_pin() -> tuple[str, str]:
    """The demo's dealer PIN and how to tell it: the environment's (``web.PIN_VARIABLE``), not
    shown; else six digits drawn for this run, shown, so that whoever started the demo can open the
    console (it serves 127.0.0.1 only)."""
    from web import PIN_VARIABLE, environment_pin
    chosen = environment_pin()
    if chosen:
        return chosen, f"PIN from ${PIN_VARIABLE}"
    drawn = f"{secrets.randbelow(10 ** 6):06d}"
    return drawn, f"PIN {drawn} for this run; set ${PIN_VARIABLE} to choose one"


def _listen(port: int) -> socket.socket:
    """The scoreboard's port on 127.0.0.1 (0: any free one), bound before the demo's record is made
    (the web is imported only for a demo that serves it)."""
    from web.server import listen
    return listen("127.0.0.1", port)


def _serve(table: Any, listener: socket.socket, out: TextIO, speed: float | None) -> Background:
    from web.server import Background
    pin, told = console_pin()
    server = Background(demo_app(table, speed, pin), listener).start()
    print(f"scoreboard: {server.url}/  (dealer console: /dealer, {told})", file=out, flush=True)
    return server


def _check_faults(players: int | None) -> None:
    """Refuse a simulated fault ``DICETABLE_SIM_FAULTS`` names wrong before the record is made
    (the demo's devices take them at start: ``build._sim_config``): an unknown fault, or, for a
    new demo of ``players``, one its table has no device or part for (``rfid[seat5]:timeout``
    at four seats, ``seatnode:...`` on its GPIO panel). A resumed demo (None) seats the record's
    players: its table refuses such a fault as it is built."""
    from controller.table.build import check_sim_faults
    from hardware.config import ENV_FAULTS, env_faults
    from hardware.faults import Fault

    try:
        for fault in env_faults():
            Fault.parse(fault)
        if players is not None:
            check_sim_faults(players)
    except InvalidInput as err:
        raise InvalidInput(f"{ENV_FAULTS}: {err}") from None


class Narrator(Announcer):
    """Tells ``out`` every record line as the room sees it, and each hand's result."""

    def __init__(self, table: Any, out: TextIO) -> None:
        super().__init__(table, out)
        self._results = 0

    def heard(self, update: Update) -> None:
        """Print ``update``'s line, and the hand's result when it ended one."""
        super().heard(update)
        result = update.state.view.result
        if result is not None and result.number != self._results:
            self._results = result.number
            print(f"  == {result.text}", file=self.out, flush=True)

    def finish(self) -> None:
        """Say how the demo ended."""
        view = self.table.state().view
        if view.over and view.winner is not None:
            print(f"Game over: {self.table.names[view.winner]} wins the game.", file=self.out)
        else:
            print(f"Demo stopped after hand {view.number - 1} of the game ({view.title}); the same --db resumes it.",
                  file=self.out)
