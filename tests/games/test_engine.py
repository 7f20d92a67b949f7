"""The plumbing both engines share: dispatch by record type, one seat check, seat views, and an
``apply`` that is all or nothing."""

from __future__ import annotations

import pytest

from controller.games.base import Game
from controller.games.dice import DieKind
from controller.games.diceholdem import DiceHoldem
from controller.games.engine import Engine
from controller.games.errors import IllegalAction
from controller.games.holdem import HoldemGame, Phase
from controller.games.holdem_inputs import Fold as HoldemFold
from controller.games.registry import create_game
from controller.games.rolls import Roll
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


def fail_once(monkeypatch: pytest.MonkeyPatch, cls: type, method: str) -> None:
    """Make ``cls.method`` raise the first time it is called (an act that breaks half-way)."""
    real = getattr(cls, method)
    calls = []

    def broken(self: object, *args: object) -> object:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a bug half-way through the act")
        return real(self, *args)

    monkeypatch.setattr(cls, method, broken)


def snapshot(game: Game) -> tuple[object, ...]:
    return (game.view(), game.public_view(), [game.seat_view(s) for s in range(game.seats)],
            game.pending(), list(game.inputs), game.final(), game.chips_total())


def test_an_act_that_fails_after_verify_leaves_the_tao_game_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = create(2, {})
    for line in ("ante 0 black=1 white=0", "ante 1 black=1 white=0", "roll 0 d6 3 4"):
        game.apply(game.parse_input(line))
    before = snapshot(game)
    fail_once(monkeypatch, TaoDice, "_after_dice")  # after the roll was stored, before betting
    with pytest.raises(RuntimeError, match="half-way"):
        game.apply(game.parse_input("roll 1 d6 5 5"))
    assert snapshot(game) == before
    game.apply(game.parse_input("roll 1 d6 5 5"))
    assert game.view().phase == "part-one" and game.seat_view(1)["my_d6"] == [5, 5]


@pytest.mark.parametrize("name", ["tauren", "diceholdem"])
def test_an_act_that_fails_after_verify_leaves_the_holdem_game_as_it_was(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = create_game(name, 3, {})
    assert isinstance(game, HoldemGame)
    kind = game.kind.faces[0]
    for seat in (0, 1):
        game.apply(Roll(seat, game.kind, (kind, kind)))
    before = snapshot(game)
    fail_once(monkeypatch, HoldemGame, "_open_round")  # the private dice are stored by then
    with pytest.raises(RuntimeError, match="half-way"):
        game.apply(Roll(2, game.kind, (kind, kind)))
    assert snapshot(game) == before and game.private[2] == ()
    game.apply(Roll(2, game.kind, (kind, kind)))
    assert game.phase is Phase.BETTING
