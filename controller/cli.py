"""The ``dicetable`` command line: one subcommand per module in ``controller.commands``.

Each command module there defines ``register(subparsers)``, adding its parser with
``set_defaults(run=function)``; ``function(args) -> int`` is the exit status (modules without
``register`` are helpers). Bad input of any kind (an unknown option, a value out of range, a file
that cannot be read or written) prints one clear line on stderr and exits 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import re
import signal
import sys
from typing import Any, NoReturn, Sequence

import controller.commands
from controller.files import reason
from controller.games.errors import DiceTableError


NEGATIVE = re.compile(r"-\.?\d")
"""The start of a word that begins like a negative number (``-400x300``, ``-1e3``, ``-.5``)."""


class Parser(argparse.ArgumentParser):
    """argparse with its errors in one line (the usage is one ``--help`` away); every
    subcommand's parser is one too, as ``add_subparsers`` builds them of the parent's class."""

    def error(self, message: str) -> NoReturn:
        """Print ``dicetable simulate: argument --game: invalid choice ...`` and exit 2."""
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: Any = None) -> tuple[Any, list[str]]:
        """Refuse words this parser does not know, in its own name: argparse handed a command's
        unknown options up to ``dicetable``, which said "dicetable: unrecognized arguments: --bogus
        (see dicetable --help)", whose help does not list any command's options. Nothing here
        takes unknown words on purpose."""
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras

    def _parse_optional(self, arg_string: str) -> Any:
        """A word that begins like a negative number is a value, not an option, so that the command
        says what is wrong with it: argparse's own rule took only ``-5`` and ``-1.5`` as values, and
        refused ``--size -400x300`` or ``--timeout -1e3`` with "expected one argument". (Its rule
        still holds where an option itself looks like a negative number; none of ours does.)"""
        if NEGATIVE.match(arg_string) and not self._has_negative_number_optionals:
            return None
        return super()._parse_optional(arg_string)


def build_parser() -> argparse.ArgumentParser:
    """The parser with every subcommand found in ``controller.commands``."""
    parser = Parser(
        prog="dicetable",
        description="Controller of a physical dice game table (Tao Dice, Tauren Hold'em, "
                    "DiceHoldem): rules, dice reading, seat hardware, scoreboard.",
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(controller.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"controller.commands.{info.name}")
        if hasattr(module, "register"):
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
        status = int(args.run(args))
        sys.stdout.flush()  # a full disk under stdout fails here, not silently at exit
        return status
    except DiceTableError as err:
        print(f"dicetable: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _say_interrupted()
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return 0
    except OSError as err:  # the output the shell gave us (> /dev/full): no file of ours
        _drop_stdout()
        print(f"dicetable: cannot write the output: {reason(err)}", file=sys.stderr)
        return 2


def _say_interrupted() -> None:
    """Say the command was interrupted, deaf to a second Ctrl-C meanwhile (a key pressed twice, or
    ``timeout -s INT``, which signals the command and then its process group), which would
    otherwise end in a traceback."""
    try:
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread, where Python takes no signals
        before = None
    try:
        print("dicetable: interrupted", file=sys.stderr)
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush does not fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
