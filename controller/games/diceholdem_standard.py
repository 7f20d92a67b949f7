"""Standard DiceHoldem: the betting plus Reroll/Protect bets on community dice (RULES.md 3)."""

from __future__ import annotations

from controller.games.diceholdem import DiceHoldem


class StandardDiceHoldem(DiceHoldem):
    """DiceHoldem with Reroll/Protect bets after each ordinary action from the flop on."""

    variant = "standard"
    reroll_protect = True


VARIANT = StandardDiceHoldem
