"""Tauren Hold'em (RULES.md section 2): hold'em with eight-sided dice and the Shaman."""

from __future__ import annotations

from typing import Mapping

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput
from controller.games.hands import HandRules
from controller.games.holdem import HoldemGame, KeyFunction
from controller.games.holdem_options import parse_holdem_options, switch

SHAMAN_RULES = ("ace", "high", "low", "wild")
TAUREN_KEYS = ("shaman", "wrap")


class TaurenHoldem(HoldemGame):
    """Tauren Hold'em: options ``shaman`` (ace|high|low|wild) and ``wrap`` (on|off) on top of
    the shared hold'em options."""

    name = "tauren"
    title = "Tauren Hold'em"
    kind = DieKind.D8_TAUREN

    def __init__(self, seats: int, options: Mapping[str, str],
                 key: KeyFunction | None = None) -> None:
        shared = parse_holdem_options(seats, options, TAUREN_KEYS)
        self.shaman = options.get("shaman", "ace").strip().lower()
        if self.shaman not in SHAMAN_RULES:
            raise InvalidInput(f"option shaman={self.shaman!r}: expected one of "
                               f"{', '.join(SHAMAN_RULES)}")
        self.wrap = switch(options, "wrap", True)
        super().__init__(seats, shared, HandRules("tauren", shaman=self.shaman, wrap=self.wrap),
                         key)

    def _fresh(self) -> TaurenHoldem:
        return TaurenHoldem(self.seats, self.options_text(), self.key)

    def options_text(self) -> dict[str, str]:
        """The rule options as history-header text."""
        return {**super().options_text(), "shaman": self.shaman,
                "wrap": "on" if self.wrap else "off"}


def create(seats: int, options: dict[str, str]) -> TaurenHoldem:
    """Build a Tauren Hold'em table for ``seats`` players from text options.

    :raises InvalidInput: naming an unknown option or a bad value.
    """
    return TaurenHoldem(seats, options)
