"""The ``dicetable`` command line: one subcommand per module in ``controller.commands``.

Each module there defines ``register(subparsers)``, adding its parser with
``set_defaults(run=function)``; ``function(args) -> int`` is the exit status. Errors of the
project's own tree print one clear line and exit 2 instead of a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Sequence

import controller.commands
from controller.games.errors import DiceTableError


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand found in ``controller.commands``."""
    parser = argparse.ArgumentParser(
        prog="dicetable",
        description="Controller of a physical dice game table (Tao Dice, Tauren Hold'em, "
                    "DiceHoldem): rules, dice reading, seat hardware, scoreboard.",
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(controller.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"controller.commands.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except DiceTableError as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("dicetable: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
