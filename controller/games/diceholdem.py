"""DiceHoldem (RULES.md section 3): hold'em with the letter dice H O L D E M, in variants.

A variant is one module, ``controller.games.diceholdem_<name>``, defining ``VARIANT``: a
:class:`DiceHoldem` subclass. ``variant=casino`` would load ``diceholdem_casino`` with no change
here; the built-in ones are ``diceholdem_standard`` (Reroll/Protect bets) and ``diceholdem_basic``.
"""

from __future__ import annotations

import importlib
import re
from typing import Mapping

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput
from controller.games.hand_rules import PIPS_TO_LETTERS
from controller.games.hands import HandRules
from controller.games.holdem import HoldemGame, KeyFunction
from controller.games.holdem_options import number, parse_holdem_options

DICEHOLDEM_KEYS = ("variant", "extra_rounds")


class DiceHoldem(HoldemGame):
    """DiceHoldem; a variant subclass sets ``variant`` and may switch ``reroll_protect`` on."""

    name = "diceholdem"
    kind = DieKind.LETTERS
    stand_ins = {DieKind.D6: PIPS_TO_LETTERS}  # a plain pip d6: 6 = H ... 1 = M
    variant = "basic"

    def __init__(self, seats: int, options: Mapping[str, str],
                 key: KeyFunction | None = None) -> None:
        shared = parse_holdem_options(seats, options, DICEHOLDEM_KEYS)
        super().__init__(seats, shared, HandRules("diceholdem"), key,
                         extra_rounds=number(options, "extra_rounds", 1, 0, 10))
        self.title = f"DiceHoldem ({self.variant})"

    def _fresh(self) -> DiceHoldem:
        return type(self)(self.seats, self.options_text(), self.key)

    def options_text(self) -> dict[str, str]:
        """The rule options as history-header text."""
        return {**super().options_text(), "variant": self.variant,
                "extra_rounds": str(self.extra_rounds)}


def variant_class(name: str) -> type[DiceHoldem]:
    """The class of variant ``name``, from module ``controller.games.diceholdem_<name>``.

    :raises InvalidInput: if no such variant module exists.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise InvalidInput(f"option variant={name!r}: not a variant name")
    try:
        module = importlib.import_module(f"controller.games.diceholdem_{name}")
    except ModuleNotFoundError:
        raise InvalidInput(f"option variant={name!r}: unknown variant "
                           "(known: standard, basic)") from None
    cls: type[DiceHoldem] = module.VARIANT
    return cls


def create(seats: int, options: dict[str, str]) -> DiceHoldem:
    """Build a DiceHoldem table (``variant`` standard by default) from text options.

    :raises InvalidInput: naming an unknown option or a bad value.
    """
    return variant_class(options.get("variant", "standard").strip().lower())(seats, options)
