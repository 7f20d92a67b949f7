"""Basic DiceHoldem: the hold'em betting and nothing else (RULES.md 3)."""

from __future__ import annotations

from controller.games.diceholdem import DiceHoldem


class BasicDiceHoldem(DiceHoldem):
    """DiceHoldem without Reroll/Protect bets."""

    variant = "basic"
    reroll_protect = False


VARIANT = BasicDiceHoldem
