"""The plumbing both engines share: dispatch by record type, one seat check, seat views."""

from __future__ import annotations

import pytest

from controller.games.dice import DieKind
from controller.games.diceholdem import DiceHoldem
from controller.games.engine import Engine
from controller.games.errors import IllegalAction
from controller.games.holdem_inputs import Fold as HoldemFold
from controller.games.registry import create_game
from controller.games.tao import Fold as TaoFold, TaoDice, create


@pytest.mark.parametrize("name", ["tao", "tauren", "diceholdem"])
def test_every_engine_is_built_on_the_shared_plumbing(name: str) -> None:
    assert isinstance(create_game(name, 2, {}), Engine)


def test_a_record_of_another_game_is_refused_naming_its_type() -> None:
    game = create(2, {})
    with pytest.raises(IllegalAction, match="tao does not take controller.games.holdem_inputs.Fold "
                                            "inputs: 'fold 0'"):
        game.apply(HoldemFold(0))
    assert not game.can(HoldemFold(0)) and not game.inputs


def test_a_holdem_seat_view_refuses_a_seat_that_is_not_at_the_table() -> None:
    game = create_game("tauren", 3, {})
    game.apply(game.parse_input("roll 2 d8-tauren W S"))
    with pytest.raises(IllegalAction, match=r"there is no seat -1 \(seats 0-2\)"):
        game.seat_view(-1)  # would otherwise show the last seat's private dice
    assert game.seat_view(2)["my_dice"] == ["W", "S"]


def test_verify_says_what_the_act_would_say_when_the_game_is_over() -> None:
    game = create(2, {"length": "single", "black": "1", "white": "0"})
    for line in ("ante 0 black=1 white=0", "ante 1 black=1 white=0", "roll 0 d6 6 6",
                 "roll 1 d6 1 1", "roll 0 d12 12", "roll 1 d12 1"):
        game.apply(game.parse_input(line))
    assert game.pending().over
    with pytest.raises(IllegalAction, match="the game is over: seat 0 won it"):
        game.verify_ante(0, 1, 0)
    with pytest.raises(IllegalAction, match="the game is over: seat 0 won it"):
        game.verify_roll(0, DieKind.D6, ["1", "1"])


def test_the_typed_act_returns_the_record_it_applied() -> None:
    game = TaoDice(2)
    record = game.ante(0, 1, 0)
    assert game.inputs[-1] is record and str(record) == "ante 0 black=1 white=0"
    assert not game.can(TaoFold(1))


def test_an_engine_names_the_records_it_takes_by_verb() -> None:
    assert sorted(TaoDice.records()) == ["ante", "call", "fold", "pass", "raise"]
    assert DiceHoldem.records()["fold"] is HoldemFold
