"""Tao Dice invariants over random games (hypothesis): stones, replay, refusals, privacy."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings, strategies as st

from controller.games import history
from controller.games.base import Game, Input
from controller.games.dice import DieKind
from controller.games.errors import IllegalAction
from controller.games.replays import undo
from controller.games.rolls import Roll
from controller.games.tao import Ante, Call, Fold, Pass, Raise, SeatStatus, TaoDice, create

OPTIONS = st.fixed_dictionaries({}, optional={
    "black": st.integers(0, 4).map(str), "white": st.integers(1, 3).map(str),
    "length": st.sampled_from(["token", "single", "first-to-2"]),
    "bid_multiplier": st.sampled_from(["on", "off"])})


def random_input(game: TaoDice, rng: random.Random) -> Input:
    """A legal input: the dice asked for, or any legal action of any seat that may act."""
    pending = game.pending()
    if pending.dice:
        needed = rng.choice(pending.dice)
        faces = needed.kind.faces
        return Roll(needed.seat, needed.kind, tuple(rng.choice(faces) for _ in range(needed.count)))
    seat = rng.choice(pending.actors)
    return rng.choice(game.legal_inputs(seat))


def any_input(game: TaoDice, rng: random.Random) -> Input:
    """An input of any kind for any seat (up to one past the last), legal or not."""
    seat = rng.randrange(game.seats + 1)
    black, white = rng.randrange(4), rng.randrange(3)
    kind = rng.choice([DieKind.D6, DieKind.D12])
    faces = tuple(rng.choice(kind.faces) for _ in range(rng.choice([1, 2])))
    inputs: list[Input] = [Ante(seat, black, white), Pass(seat), Raise(seat, black, white),
                           Call(seat, black, white), Fold(seat), Roll(seat, kind, faces)]
    return rng.choice(inputs)


def snapshot(game: Game) -> tuple[Any, ...]:
    return (game.public_view(), [game.seat_view(s) for s in range(game.seats)], game.final(),
            game.pending(), len(game.inputs), game.chips_total())


def games(seats: int, options: dict[str, str], seed: int, steps: int) -> TaoDice:
    game = create(seats, options)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.pending().over:
            break
        game.apply(random_input(game, rng))
    return game


GAME_ARGS = (st.integers(2, 6), OPTIONS, st.integers(0, 2**32), st.integers(0, 400))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), OPTIONS, st.integers(0, 2**32))
def test_stones_are_conserved_after_every_input(seats: int, options: dict[str, str],
                                                seed: int) -> None:
    game = create(seats, options)
    rng = random.Random(seed)
    for _ in range(400):
        if game.pending().over:
            break
        game.apply(random_input(game, rng))
        assert game.chips_total() == game.chips_expected()
        assert sum(game.black) + game.pot_black == seats * game.options.black


@settings(max_examples=40, deadline=None)
@given(*GAME_ARGS)
def test_replaying_the_history_gives_exactly_the_live_state(seats: int, options: dict[str, str],
                                                            seed: int, steps: int) -> None:
    live = games(seats, options, seed, steps)
    replayed = history.loads(history.dumps(live))
    assert isinstance(replayed, TaoDice)
    assert snapshot(replayed) == snapshot(live)


@settings(max_examples=40, deadline=None)
@given(*GAME_ARGS, st.integers(0, 2**32))
def test_a_random_illegal_input_is_refused_and_changes_nothing(
        seats: int, options: dict[str, str], seed: int, steps: int, probe: int) -> None:
    game = games(seats, options, seed, steps)
    rng = random.Random(probe)
    for _ in range(30):
        inp = any_input(game, rng)
        if game.can(inp):
            continue
        before = snapshot(game)
        try:
            game.apply(inp)
        except IllegalAction as err:
            assert str(err)
        else:
            raise AssertionError(f"{inp} was accepted though can() said no")
        assert snapshot(game) == before


@settings(max_examples=40, deadline=None)
@given(*GAME_ARGS)
def test_legal_inputs_are_exactly_the_actions_the_engine_accepts(
        seats: int, options: dict[str, str], seed: int, steps: int) -> None:
    game = games(seats, options, seed, steps)
    for seat in range(seats):
        legal = game.legal_inputs(seat)
        assert all(game.can(inp) for inp in legal)
        candidates = [Ante(seat, b, w) for b in range(4) for w in range(4)] + [
            Pass(seat), Fold(seat)] + [cls(seat, b, w) for cls in (Raise, Call)
                                       for b in range(4) for w in range(4)]
        assert {inp for inp in candidates if game.can(inp)} == set(legal)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), OPTIONS, st.integers(0, 2**32))
def test_the_public_views_never_hold_an_unrevealed_or_folded_players_2d6(
        seats: int, options: dict[str, str], seed: int) -> None:
    game = create(seats, options)
    rng = random.Random(seed)
    for _ in range(300):
        if game.pending().over:
            break
        game.apply(random_input(game, rng))
        view = game.public_view()
        text = json.dumps(view)
        assert "my_d6" not in text
        assert all("d6" not in player for player in view["players"])
        for seat in range(seats):
            if game.status[seat] is not SeatStatus.ACTIVE:
                assert view["players"][seat]["d12"] is None
        typed = game.view()
        for seat_view in typed.seats:
            if seat_view.status is not SeatStatus.ACTIVE:
                assert seat_view.dice == ()
            assert all(die.face is None for die in seat_view.dice if die.kind is DieKind.D6)
        last = view["last_round"]
        if last is not None:
            shown = {row["seat"] for row in last["reveal"]}
            assert not last["folded_out"] or not shown
            assert set(last["winners"]) <= shown or last["folded_out"]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32), st.integers(0, 300))
def test_showdown_reveals_exactly_the_players_who_did_not_fold(seats: int, seed: int,
                                                                 steps: int) -> None:
    game = games(seats, {}, seed, steps)
    rng = random.Random(seed + 1)
    rounds = game.hands_played
    while game.hands_played == rounds and not game.pending().over:
        active = [s for s in range(seats) if game.status[s] is SeatStatus.ACTIVE]
        dice = {s: game.d6[s] for s in active}
        record = game.apply(random_input(game, rng))
        if isinstance(record, Fold):  # the last answer to a raise may end the round
            active.remove(record.seat)
    last = game.public_view()["last_round"]
    if last is not None and not last["folded_out"] and game.hands_played > rounds:
        assert {row["seat"] for row in last["reveal"]} == set(active)
        for row in last["reveal"]:
            assert tuple(row["d6"]) == dice[row["seat"]]


@settings(max_examples=30, deadline=None)
@given(*GAME_ARGS)
def test_undo_gives_the_state_before_the_last_input(seats: int, options: dict[str, str],
                                                    seed: int, steps: int) -> None:
    game = games(seats, options, seed, steps + 1)
    if not game.inputs:
        return
    before = history.loads(history.dumps(game), upto=len(game.inputs) - 1)
    assert snapshot(undo(game)) == snapshot(before)


SEATS = st.integers(0, 9)
COUNT = st.integers(0, 9)
RECORDS = st.one_of(
    st.builds(Ante, SEATS, COUNT, COUNT), st.builds(Pass, SEATS), st.builds(Raise, SEATS, COUNT, COUNT),
    st.builds(Call, SEATS, COUNT, COUNT), st.builds(Fold, SEATS),
    st.builds(lambda seat, kind, data: Roll(seat, kind, tuple(data)), SEATS,
              st.sampled_from([DieKind.D6, DieKind.D12]),
              st.lists(st.sampled_from([str(n) for n in range(1, 7)]), min_size=1, max_size=3)))


@given(RECORDS)
def test_every_record_round_trips_through_its_history_line(record: Input) -> None:
    assert create(2, {}).parse_input(str(record)) == record
