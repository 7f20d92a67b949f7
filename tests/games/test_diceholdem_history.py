"""A Standard DiceHoldem hand written as a person would read it, replayed from its history text."""

from __future__ import annotations

from controller.games.history import dumps, loads
from controller.games.holdem import HoldemGame

HISTORY = """\
dicetable-history 1
game diceholdem
seats 3
option variant=standard
option stack=20

# private rolls, then seat 0 (button) calls, 1 (small blind) calls, 2 (big blind) checks
roll 0 letters H O
roll 1 letters M M
roll 2 letters E D
call 0
call 1
check 2
roll table letters L D E
# flop: seat 1 checks and bets 2 to reroll die 0; seat 2 protects it for 4
check 1
reroll 1 die=0 amount=2
check 2
protect 2 die=0 amount=4
bet 0 amount=4
pass 0
call 1
pass 1
fold 2
# turn and river: seat 0 bets 2 to reroll the river die
roll table letters M
check 1
pass 1
check 0
pass 0
roll table letters O
check 1
pass 1
check 0
reroll 0 die=4 amount=2
check 1
pass 1
# the reroll after the river brings one extra round of ordinary betting
roll table letters H
check 1
check 0
"""


def test_history_replays_to_the_hand_a_person_reads() -> None:
    game = loads(HISTORY)
    assert isinstance(game, HoldemGame)
    assert game.last_hand["board"] == ["L", "D", "E", "M", "H"]
    assert game.last_hand["shown"] == {"0": ["H", "O"], "1": ["M", "M"]}
    assert game.last_hand["won"] == {"0": 22}
    assert game.last_hand["stacks"] == [34, 12, 14]
    assert game.chips_total() == game.chips_expected() == 60


def test_history_written_back_replays_identically() -> None:
    game = loads(HISTORY)
    assert dumps(loads(dumps(game))) == dumps(game)
