"""The rule options both hold'em games share, read from history-header text (RULES.md 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from controller.games.betting import BettingRules, Structure
from controller.games.errors import InvalidInput


@dataclass(frozen=True)
class HoldemOptions:
    """The rule options both hold'em games share (RULES.md section 2, Betting)."""

    betting: BettingRules
    stacks: tuple[int, ...]
    rebuy: bool = True
    button: int = 0
    reveal_all_in: bool = True  # sealed private dice are asked for once all-ins close the betting

    def text(self) -> dict[str, str]:
        """The options as history-header text."""
        return {"blinds": "on" if self.betting.blinds else "off",
                "min_bet": str(self.betting.min_bet), "stack": _stack_text(self.stacks),
                "structure": self.betting.structure.value,
                "rebuy": "on" if self.rebuy else "off", "button": str(self.button),
                "reveal_all_in": "on" if self.reveal_all_in else "off"}


HOLDEM_KEYS = ("blinds", "min_bet", "stack", "structure", "rebuy", "button", "reveal_all_in")


def switch(options: Mapping[str, str], key: str, default: bool) -> bool:
    """Read an on/off option.

    :raises InvalidInput: naming the option.
    """
    text = options.get(key, "on" if default else "off").strip().lower()
    if text in ("on", "true", "yes", "1"):
        return True
    if text in ("off", "false", "no", "0"):
        return False
    raise InvalidInput(f"option {key}={text!r}: expected on or off")


def number(options: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    """Read a whole-number option in ``low..high``.

    :raises InvalidInput: naming the option.
    """
    text = options.get(key, str(default)).strip()
    if not text.isdigit() or not low <= int(text) <= high:
        raise InvalidInput(f"option {key}={text!r}: expected a whole number from {low} to {high}")
    return int(text)


MOST_CHIPS = 1_000_000
"""Largest starting stack: far more than any table holds, and few enough for the record (SQLite
keeps 64-bit numbers, and the pot of ten such stacks stays far below)."""


def stacks_option(options: Mapping[str, str], seats: int) -> tuple[int, ...]:
    """Read ``stack``: one starting stack for everyone (``20``) or one per seat (``10,20,40``).

    :raises InvalidInput: naming the option.
    """
    text = options.get("stack", "20").strip()
    parts = [part.strip() for part in text.split(",")]
    if len(parts) not in (1, seats) or not all(p.isdigit() and 0 < int(p) <= MOST_CHIPS for p in parts):
        raise InvalidInput(f"option stack={text!r}: expected a whole number from 1 to {MOST_CHIPS}, or "
                           f"{seats} of them separated by commas (one per seat)")
    return tuple(int(p) for p in parts) * (seats if len(parts) == 1 else 1)


def _stack_text(stacks: tuple[int, ...]) -> str:
    return str(stacks[0]) if len(set(stacks)) == 1 else ",".join(map(str, stacks))


def parse_holdem_options(seats: int, options: Mapping[str, str],
                         known: Sequence[str] = ()) -> HoldemOptions:
    """Read the shared options; ``known`` are the game's own keys (checked by the game).

    :raises InvalidInput: for an unknown option or a bad value, naming it.
    """
    for key in options:
        if key not in HOLDEM_KEYS and key not in known:
            allowed = ", ".join(sorted((*HOLDEM_KEYS, *known)))
            raise InvalidInput(f"unknown option {key!r} (options: {allowed})")
    if not 2 <= seats <= 10:
        raise InvalidInput(f"hold'em needs 2 to 10 seats, not {seats}")
    text = options.get("structure", "no-limit").strip().lower()
    try:
        structure = Structure(text)
    except ValueError:
        raise InvalidInput(f"option structure={text!r}: expected limit, pot-limit or "
                           "no-limit") from None
    rules = BettingRules(structure, number(options, "min_bet", 2, 1, 10**6),
                         switch(options, "blinds", True))
    return HoldemOptions(rules, stacks_option(options, seats),
                         switch(options, "rebuy", True), number(options, "button", 0, 0, seats - 1),
                         switch(options, "reveal_all_in", True))
