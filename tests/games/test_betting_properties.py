"""Invariants of both hold'em games under random play (hypothesis drives seeds and tables)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.base import Input
from controller.games.errors import DiceTableError, IllegalAction
from controller.games.history import dumps, loads
from controller.games.holdem import HoldemGame
from controller.games.holdem_inputs import (AllIn, Bet, Call, Check, Fold, Leave, Pass, Protect,
                                            Raise, Rebuy, Reroll)
from controller.games.registry import create_game
from controller.games.rolls import Roll

GAMES = st.sampled_from(["tauren", "diceholdem"])
OPTIONS = st.fixed_dictionaries({}, optional={
    "structure": st.sampled_from(["limit", "pot-limit", "no-limit"]),
    "blinds": st.sampled_from(["on", "off"]),
    "stack": st.sampled_from(["3", "7", "20"]),
    "rebuy": st.sampled_from(["on", "off"]),
    "variant": st.sampled_from(["standard", "basic"]),
})


def build(name: str, seats: int, options: dict[str, str]) -> HoldemGame:
    if name == "tauren":
        options = {k: v for k, v in options.items() if k != "variant"}
    game = create_game(name, seats, options)
    assert isinstance(game, HoldemGame)
    return game


def step(game: HoldemGame, rng: random.Random) -> Input:
    """Apply one random legal input (dice if the game waits for dice)."""
    pending = game.pending()
    if pending.dice:
        needed = pending.dice[0]
        roll = Roll(needed.seat, needed.kind,
                    tuple(rng.choice(needed.kind.faces) for _ in range(needed.count)))
        return game.apply(roll)
    seat = pending.prompt
    assert seat is not None, pending
    return game.apply(rng.choice(game.legal_inputs(seat)))


def snapshot(game: HoldemGame) -> tuple[Any, ...]:
    return (game.public_view(), [game.seat_view(s) for s in range(game.seats)],
            game.final(), game.pending(), len(game.inputs), game.chips_total())


def random_input(game: HoldemGame, rng: random.Random) -> Input:
    seat = rng.randrange(-1, game.seats + 1)
    amount = rng.randrange(-2, 60)
    die = rng.randrange(-1, 6)
    faces = tuple(rng.choice(game.kind.faces + ("X",)) for _ in range(rng.randrange(0, 4)))
    inputs: list[Input] = [Fold(seat), Check(seat), Call(seat), AllIn(seat), Pass(seat),
                           Rebuy(seat), Leave(seat), Bet(seat, amount), Raise(seat, amount),
                           Reroll(seat, die, amount), Protect(seat, die, amount),
                           Roll(rng.choice([None, seat]), game.kind, faces)]
    return rng.choice(inputs)


@settings(max_examples=40, deadline=None)
@given(GAMES, st.integers(2, 9), OPTIONS, st.integers(0, 2**32))
def test_chips_are_conserved_after_every_input(name: str, seats: int,
                                               options: dict[str, str], seed: int) -> None:
    game, rng = build(name, seats, options), random.Random(seed)
    for _ in range(300):
        if game.pending().over:
            break
        step(game, rng)
        assert game.chips_total() == game.chips_expected()
        assert min(game.stacks) >= 0


@settings(max_examples=40, deadline=None)
@given(GAMES, st.integers(2, 9), OPTIONS, st.integers(0, 2**32))
def test_every_pot_is_paid_only_to_eligible_players(name: str, seats: int,
                                                    options: dict[str, str], seed: int) -> None:
    game, rng = build(name, seats, options), random.Random(seed)
    for _ in range(300):
        if game.pending().over:
            break
        hands = game.hands_played
        live = set(game.hand.live()) if game.hand else set()
        for pot in game.pots():
            assert set(pot.eligible) <= live
        step(game, rng)
        if game.hands_played > hands:
            paid: dict[str, int] = {}
            odd: dict[str, int] = {}  # odd chips a seat may get: one per pot it splits
            for pot in game.last_hand["pots"]:
                assert pot["winners"] and set(pot["winners"]) <= set(pot["eligible"]) <= live
                for seat in map(str, pot["winners"]):
                    paid[seat] = paid.get(seat, 0) + pot["amount"] // len(pot["winners"])
                    odd[seat] = odd.get(seat, 0) + (len(pot["winners"]) > 1)
            won = game.last_hand["won"]
            assert won.keys() == paid.keys()
            assert all(0 <= won[s] - paid[s] <= odd[s] for s in won)
            assert sum(won.values()) == sum(pot["amount"] for pot in game.last_hand["pots"])


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(2, 9), OPTIONS, st.integers(0, 2**32), st.integers(0, 250))
def test_replay_of_the_history_equals_the_live_game(name: str, seats: int,
                                                    options: dict[str, str], seed: int,
                                                    steps: int) -> None:
    game, rng = build(name, seats, options), random.Random(seed)
    for _ in range(steps):
        if game.pending().over:
            break
        step(game, rng)
    replayed = loads(dumps(game))
    assert isinstance(replayed, HoldemGame)
    assert snapshot(replayed) == snapshot(game)
    assert [str(inp) for inp in replayed.inputs] == [str(inp) for inp in game.inputs]


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(2, 9), OPTIONS, st.integers(0, 2**32))
def test_random_illegal_inputs_are_refused_with_no_change(name: str, seats: int,
                                                          options: dict[str, str],
                                                          seed: int) -> None:
    game, rng = build(name, seats, options), random.Random(seed)
    for _ in range(150):
        if game.pending().over:
            break
        for _ in range(3):
            attempt = random_input(game, rng)
            if game.can(attempt):
                continue
            before = snapshot(game)
            try:
                game.apply(attempt)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{attempt} was applied although can() said no")
            assert snapshot(game) == before
        step(game, rng)


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(2, 9), OPTIONS, st.integers(0, 2**32))
def test_every_input_round_trips_through_its_history_line(name: str, seats: int,
                                                          options: dict[str, str],
                                                          seed: int) -> None:
    game, rng = build(name, seats, options), random.Random(seed)
    for _ in range(100):
        if game.pending().over:
            break
        record = step(game, rng)
        assert game.parse_input(str(record)) == record


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(2, 9), OPTIONS, st.integers(0, 2**32), st.integers(1, 200))
def test_public_view_never_depends_on_an_unrevealed_private_die(name: str, seats: int,
                                                                options: dict[str, str],
                                                                seed: int, steps: int) -> None:
    options = {**options, "reveal_all_in": "off"}  # the typed view too: no reveal mid-hand
    game, rng = build(name, seats, options), random.Random(seed)
    hand_start = 0
    for _ in range(steps):
        if game.pending().over:
            break
        hands = game.hands_played
        step(game, rng)
        if game.hands_played > hands:
            hand_start = len(game.inputs)
    other = build(name, seats, options)
    for n, inp in enumerate(game.inputs):
        if n >= hand_start and isinstance(inp, Roll) and inp.seat is not None:
            inp = Roll(inp.seat, inp.kind, tuple(rng.choice(inp.kind.faces) for _ in inp.faces))
        other.apply(inp)
    assert other.public_view() == game.public_view()
    assert other.view() == game.view()


def test_bad_option_is_refused_naming_it() -> None:
    for options, word in (({"colour": "red"}, "colour"), ({"structure": "spread"}, "structure"),
                          ({"stack": "0"}, "stack"), ({"variant": "casino"}, "variant"),
                          ({"shaman": "none"}, "shaman")):
        game = "tauren" if "shaman" in options else "diceholdem"
        try:
            create_game(game, 3, options)
        except DiceTableError as err:
            assert word in str(err)
        else:
            raise AssertionError(f"{options} accepted")


@settings(max_examples=30, deadline=None)
@given(GAMES, st.integers(2, 9), OPTIONS, st.integers(0, 2**32))
def test_legal_inputs_are_all_legal_and_never_empty_for_the_prompted_seat(
        name: str, seats: int, options: dict[str, str], seed: int) -> None:
    game, rng = build(name, seats, options), random.Random(seed)
    for _ in range(200):
        pending = game.pending()
        if pending.over:
            break
        if pending.prompt is not None:
            choices = game.legal_inputs(pending.prompt)
            assert choices and all(game.can(choice) for choice in choices)
            others = [s for s in range(seats) if s not in pending.actors]
            assert not any(game.legal_inputs(s) for s in others)
        step(game, rng)


@settings(max_examples=30, deadline=None)
@given(GAMES, st.integers(2, 9), st.sampled_from(["3", "7", "20"]), st.integers(0, 2**32))
def test_all_in_is_legal_in_no_limit_whenever_the_action_is_open(name: str, seats: int,
                                                                 stack: str, seed: int) -> None:
    game, rng = build(name, seats, {"stack": stack}), random.Random(seed)
    for _ in range(200):
        hand, seat = game.hand, game.pending().prompt
        if game.pending().over:
            break
        if hand is not None and seat is not None and game.can_check(seat) is False \
                and game.can_call(seat) and hand.stacks[seat] <= hand.to_call(seat):
            assert game.can_all_in(seat)  # cannot cover the call
        if hand is not None and seat is not None and hand.to_act == seat \
                and hand.reopened(seat) and hand.others_can_act(seat):
            assert game.can_all_in(seat)
        step(game, rng)
