"""Sealed hidden dice: a history whose hidden rolls are ``?`` until the reveal is the same game.

The unsealed histories come from seeded bot games (``controller.simulation.BotTable``); each is
replayed sealed (``replays.sealed_steps``) beside the unsealed one, comparing what the room sees
after every input, and the end: ``final()``, stacks, winners.
"""

from __future__ import annotations

import json
from typing import Callable, Sequence

import pytest
from hypothesis import given, settings, strategies as st

from controller.games.base import REVEAL, DiceNeeded, Game
from controller.games.dice import DieKind
from controller.games.errors import IllegalAction, InvalidInput
from controller.games.registry import create_game
from controller.games.replays import replay_sealed, sealed_steps
from controller.games.rolls import Roll
from controller.games.view import SeatStatus, TableView
from controller.simulation import BotTable

NAMES = ("Ana", "Ben", "Cy", "Dee")
HIDDEN = {"tao": DieKind.D6, "tauren": DieKind.D8_TAUREN, "diceholdem": DieKind.LETTERS}


def first(asked: Sequence[DiceNeeded]) -> DiceNeeded:
    return asked[0]


def last(asked: Sequence[DiceNeeded]) -> DiceNeeded:
    return asked[-1]


def assert_redacted(view: TableView, reveal_all_in: bool) -> None:
    """No hidden die shows a face before its reveal; folded or absent seats show no dice."""
    json.dumps(view.to_json())
    hidden = HIDDEN[view.game]
    in_play = [s for s in view.seats if s.status in (SeatStatus.ACTIVE, SeatStatus.ALL_IN)]
    for seat in view.seats:
        if seat.status not in (SeatStatus.ACTIVE, SeatStatus.ALL_IN):
            assert seat.dice == (), seat
        faces = [die.face for die in seat.dice if die.kind is hidden]
        if any(faces):
            # only hold'em shows private dice during a hand: once all-ins closed the betting
            assert view.game != "tao" and reveal_all_in and view.phase != "betting"
            assert sum(s.status is SeatStatus.ACTIVE for s in in_play) <= 1


def play_both(game: Game, seal: Callable[[int], bool],
              pick: Callable[[Sequence[DiceNeeded]], DiceNeeded]) -> tuple[Game, Game, set[str]]:
    """Replay ``game``'s inputs unsealed and sealed side by side; return both and what was seen."""
    options = game.options_text()
    unsealed = create_game(game.name, game.seats, options)
    steps = sealed_steps(game.name, game.seats, options, game.inputs, seal, pick)
    sealed = next(steps)
    reveal_all_in = options.get("reveal_all_in") == "on"
    seen: set[str] = set()
    for inp, sealed in zip(game.inputs, steps):
        unsealed.apply(inp)
        view = unsealed.view(NAMES)
        assert sealed.view(NAMES) == view, inp
        assert sealed.public_view() == unsealed.public_view(), inp
        assert_redacted(view, reveal_all_in)
        seen |= events(view, inp)
    seen |= {"reveal"} if any(str(i).endswith(("? ?")) for i in sealed.inputs) else set()
    return unsealed, sealed, seen


def events(view: TableView, inp: object) -> set[str]:
    """The situations this step shows, so the tests can say they were played."""
    seen = {type(inp).__name__.lower()}
    if any(f.label == "Tiebreak" for f in view.facts):
        seen.add("tiebreak")
    if any(s.status is SeatStatus.ALL_IN for s in view.seats):
        seen.add("all-in")
    if view.game != "tao" and any(d.face for s in view.seats for d in s.dice):
        seen.add("all-in reveal")
    return seen


CONFIGS = [
    ("tao", 3, {}, ("random", "heuristic"), {"fold", "tiebreak", "reveal"}),
    ("tao", 4, {"black": "2", "white": "2"}, ("random",), {"fold", "tiebreak", "reveal"}),
    ("tauren", 3, {"stack": "8"}, ("random", "heuristic"),
     {"fold", "all-in", "all-in reveal", "rebuy", "reveal"}),
    ("tauren", 3, {"stack": "8", "reveal_all_in": "off"}, ("random",),
     {"fold", "all-in", "rebuy", "reveal"}),
    ("diceholdem", 3, {"stack": "8"}, ("random", "heuristic"),
     {"fold", "all-in", "all-in reveal", "rebuy", "reroll", "reveal"}),
    ("diceholdem", 3, {"stack": "8", "variant": "basic"}, ("random",),
     {"fold", "all-in", "all-in reveal", "rebuy", "leave", "reveal"}),
]


@pytest.mark.parametrize("name, players, options, bots, wanted", CONFIGS,
                         ids=[f"{c[0]}-{c[1]}-{'-'.join(c[2].values()) or 'default'}"
                              for c in CONFIGS])
def test_a_sealed_history_gives_the_same_game_as_the_unsealed_one(
        name: str, players: int, options: dict[str, str], bots: tuple[str, ...],
        wanted: set[str]) -> None:
    seen: set[str] = set()
    for seed in range(3):
        table = BotTable(name, players, seed, bots, options)
        table.play(15)
        seal = (lambda seat: True) if seed != 1 else (lambda seat: seat % 2 == 0)  # seats mix
        for game in table.games:
            unsealed, sealed, found = play_both(game, seal, last if seed == 2 else first)
            seen |= found
            assert sealed.final() == unsealed.final() == game.final()
            assert sealed.chips_total() == sealed.chips_expected()
            assert len(sealed.inputs) > len(game.inputs)  # the reveals were asked for
    assert wanted <= seen, f"not played: {wanted - seen}"


@settings(max_examples=20)
@given(name=st.sampled_from(["tao", "tauren", "diceholdem"]), players=st.integers(2, 4),
       seed=st.integers(0, 10**6), sealed_seats=st.sets(st.integers(0, 3)),
       reveal_last=st.booleans(), reveal_all_in=st.booleans())
def test_any_seats_may_seal_and_reveal_in_any_order(name: str, players: int, seed: int,
                                                    sealed_seats: set[int], reveal_last: bool,
                                                    reveal_all_in: bool) -> None:
    options = {} if name == "tao" else {"stack": "6",
                                        "reveal_all_in": "on" if reveal_all_in else "off"}
    table = BotTable(name, players, seed, ("random",), options)
    table.play(4)
    game = table.game
    sealed = replay_sealed(name, players, game.options_text(), game.inputs,
                           seal=lambda seat: seat in sealed_seats,
                           pick=last if reveal_last else first)
    assert sealed.final() == game.final()
    assert sealed.view() == game.view()
    sealed_rolls = [i for i in sealed.inputs if isinstance(i, Roll) and i.sealed]
    assert all(roll.seat in sealed_seats for roll in sealed_rolls)


# --- Tao Dice: who is asked to reveal ------------------------------------------------------------

def tao(lines: Sequence[str], seats: int = 3) -> Game:
    game = create_game("tao", seats, {})
    for line in lines:
        game.apply(game.parse_input(line))
    return game


ROUND_TO_REVEAL = ["ante 0 black=1 white=0", "ante 1 black=1 white=0", "ante 2 black=1 white=0",
                   "roll 0 d6 ? ?", "roll 1 d6 ? ?", "roll 2 d6 ? ?",
                   "raise 0 black=1 white=0", "fold 1", "call 2 black=1 white=0",
                   "roll 0 d12 5", "roll 2 d12 7", "pass 0", "pass 2"]


def test_tao_asks_only_the_active_sealed_seats_to_reveal_before_the_showdown() -> None:
    game = tao(ROUND_TO_REVEAL)
    assert game.pending().dice == (DiceNeeded(0, DieKind.D6, 2, True, REVEAL),
                                   DiceNeeded(2, DieKind.D6, 2, True, REVEAL))
    assert game.view().phase == "reveal" and game.hands_played == 0
    game.apply(game.parse_input("roll 2 d6 6 6"))  # reveals may come in any order
    seats = game.view().seats
    assert [d.face for d in seats[2].dice] == ["6", "6", "7"]
    assert [d.face for d in seats[0].dice] == [None, None, "5"] and seats[1].dice == ()
    game.apply(game.parse_input("roll 0 d6 1 2"))
    result = game.view().result
    assert result is not None and result.winners == (2,)
    assert [s.hand for s in result.shown] == ["score 8 (1+2, d12 5)", "score 19 (6+6, d12 7)"]


def test_a_folded_seat_is_never_asked_and_its_reveal_is_refused_with_the_reason() -> None:
    game = tao(ROUND_TO_REVEAL)
    with pytest.raises(IllegalAction, match="seat 1's dice now: they folded this round and "
                                            "never reveal"):
        game.apply(Roll(1, DieKind.D6, ("6", "6")))
    game.apply(game.parse_input("roll 2 d6 3 3"))
    with pytest.raises(IllegalAction, match="seat 2's dice now: their dice are shown already"):
        game.apply(Roll(2, DieKind.D6, ("4", "4")))


def test_a_reveal_must_give_the_faces_and_a_reveal_nobody_asked_for_is_refused() -> None:
    game = tao(ROUND_TO_REVEAL[:-1])
    with pytest.raises(IllegalAction, match="does not need seat 0's dice now: the table waits "
                                            "for seat 2 to pass"):
        game.apply(Roll(0, DieKind.D6, ("6", "6")))
    game.apply(game.parse_input("pass 2"))
    with pytest.raises(IllegalAction, match=r"seat 0's d6 \(the reveal\) cannot be entered "
                                            r"sealed"):
        game.apply(Roll.sealed_roll(0, DieKind.D6, 2))
    with pytest.raises(IllegalAction, match="seat 0 must reveal 2d6, not 1d12"):
        game.apply(Roll(0, DieKind.D12, ("4",)))


def test_tao_needs_no_reveal_when_everyone_else_folds() -> None:
    game = tao(["ante 0 black=1 white=0", "ante 1 black=1 white=0", "roll 0 d6 ? ?",
                "roll 1 d6 ? ?", "raise 0 black=1 white=0", "fold 1"], seats=2)
    assert game.hands_played == 1 and not game.pending().dice
    result = game.view().result
    assert result is not None and result.winners == (0,) and result.shown[0].dice == ()


def test_a_sealed_reroll_replaces_the_dice_and_the_reveal_gives_the_final_ones() -> None:
    game = tao(["ante 0 black=1 white=0", "ante 1 black=1 white=0", "roll 0 d6 1 1",
                "roll 1 d6 ? ?", "raise 0 black=1 white=0", "call 1 black=0 white=1",
                "roll 1 d6 ? ?", "roll 0 d12 2", "roll 1 d12 3", "pass 0", "pass 1"], seats=2)
    assert game.pending().dice == (DiceNeeded(1, DieKind.D6, 2, True, REVEAL),)  # seat 0: known
    assert [d.face for d in game.view().seats[0].dice] == ["1", "1", "2"]
    game.apply(game.parse_input("roll 1 d6 4 5"))
    result = game.view().result
    assert result is not None and result.winners == (1,)
    assert result.shown[1].hand == "score 12 (4+5, d12 3)"


def test_open_dice_cannot_be_sealed_and_a_roll_is_never_half_sealed() -> None:
    game = tao(ROUND_TO_REVEAL[:9])
    with pytest.raises(IllegalAction, match=r"d12 \(d12 into the centre\) cannot be entered "
                                            r"sealed \('\?'\): the table must see their faces"):
        game.apply(Roll.sealed_roll(0, DieKind.D12, 1))
    with pytest.raises(InvalidInput, match="either sealed .* or open .*, not a mix"):
        Roll.parse("roll 0 d6 ? 3")
    fresh = tao(ROUND_TO_REVEAL[:3])
    with pytest.raises(IllegalAction, match="not a mix"):
        fresh.apply(Roll(0, DieKind.D6, ("?", "3")))
    assert str(Roll.parse("roll 0 d6 ? ?")) == "roll 0 d6 ? ?"


def test_the_seat_view_of_a_sealed_seat_has_no_dice_to_show() -> None:
    game = tao(ROUND_TO_REVEAL[:4])
    assert game.seat_view(0)["my_d6"] is None and game.public_view()["players"][0]["rolled"]


# --- hold'em: the reveal at the showdown or at an all-in -----------------------------------------

def tauren(options: dict[str, str], lines: Sequence[str]) -> Game:
    game = create_game("tauren", 3, options)
    for line in lines:
        game.apply(game.parse_input(line))
    return game


ALL_IN = ["roll 0 d8-tauren ? ?", "roll 1 d8-tauren ? ?", "roll 2 d8-tauren ? ?",
          "fold 0", "allin 1", "allin 2"]  # button 0, blinds 1 and 2: seat 0 acts first


def test_an_all_in_asks_the_seats_still_in_to_reveal_before_the_board_is_rolled() -> None:
    game = tauren({}, ALL_IN)
    assert game.pending().dice == (DiceNeeded(1, DieKind.D8_TAUREN, 2, True, REVEAL),
                                   DiceNeeded(2, DieKind.D8_TAUREN, 2, True, REVEAL))
    with pytest.raises(IllegalAction, match="Seat 0 is not asked to reveal: folded hands are "
                                            r"never revealed \(waiting for seats 1, 2\)"):
        game.apply(Roll(0, DieKind.D8_TAUREN, ("W", "W")))
    game.apply(game.parse_input("roll 1 d8-tauren W W"))
    with pytest.raises(IllegalAction, match=r"never revealed \(waiting for seat 2\)"):  # one seat: singular
        game.apply(Roll(0, DieKind.D8_TAUREN, ("W", "W")))
    game.apply(game.parse_input("roll 2 d8-tauren 2 3"))
    view = game.view()
    assert [d.face for d in view.seats[1].dice] == ["W", "W"] and view.seats[0].dice == ()
    assert game.pending().dice == (DiceNeeded(None, DieKind.D8_TAUREN, 3, False, "flop"),)
    with pytest.raises(IllegalAction, match="community dice cannot be entered sealed"):
        game.apply(Roll.sealed_roll(None, DieKind.D8_TAUREN, 3))
    for line in ("roll table d8-tauren W 5 5", "roll table d8-tauren C", "roll table d8-tauren 6"):
        game.apply(game.parse_input(line))
    result = game.view().result
    assert result is not None and result.winners == (1,)
    assert result.shown[0].hand == "full house, W over 5"
    assert result.text == "Seat 1 wins 40 with full house, W over 5"


def test_with_reveal_all_in_off_the_reveal_waits_for_the_showdown() -> None:
    game = tauren({"reveal_all_in": "off"}, ALL_IN)
    assert game.pending().dice == (DiceNeeded(None, DieKind.D8_TAUREN, 3, False, "flop"),)
    for line in ("roll table d8-tauren W 5 5", "roll table d8-tauren C", "roll table d8-tauren 6"):
        game.apply(game.parse_input(line))
    assert [d.reason for d in game.pending().dice] == [REVEAL, REVEAL]
    assert all(d.face is None for s in game.view().seats for d in s.dice)


def test_only_sealed_hands_are_asked_and_a_shown_hand_cannot_reveal_again() -> None:
    lines = ["roll 0 d8-tauren ? ?", "roll 1 d8-tauren 4 4", "roll 2 d8-tauren ? ?", "fold 0",
             "allin 1", "allin 2"]
    game = tauren({}, lines)
    assert [d.seat for d in game.pending().dice] == [2]
    assert [d.face for d in game.view().seats[1].dice] == ["4", "4"]
    with pytest.raises(IllegalAction, match="Seat 1 is not asked to reveal: their dice are "
                                            "shown already"):
        game.apply(Roll(1, DieKind.D8_TAUREN, ("4", "4")))
    with pytest.raises(IllegalAction, match="Seat 2's reveal cannot be entered sealed"):
        game.apply(Roll.sealed_roll(2, DieKind.D8_TAUREN, 2))


def test_a_reveal_during_the_betting_is_refused() -> None:
    game = tauren({}, ALL_IN[:3])
    with pytest.raises(IllegalAction, match="not waiting for these dice now"):
        game.apply(Roll(0, DieKind.D8_TAUREN, ("W", "W")))


def test_diceholdem_takes_a_pip_die_reveal_for_a_sealed_letter_roll() -> None:
    game = create_game("diceholdem", 2, {"variant": "basic"})
    for line in ("roll 0 letters ? ?", "roll 1 d6 ? ?", "allin 0", "allin 1",
                 "roll 0 d6 6 6", "roll 1 letters M M"):
        game.apply(game.parse_input(line))
    assert [d.face for d in game.view().seats[0].dice] == ["H", "H"]
