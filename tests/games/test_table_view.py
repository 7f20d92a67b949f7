"""The one typed view every engine gives: seats, stacks, pots, dice, marks, results and facts."""

from __future__ import annotations

import json
import re
from typing import Sequence

import pytest

from controller.games.base import Game, Input
from controller.games.dice import DieKind
from controller.games.records import SeatInput
from controller.games.registry import create_game
from controller.games.rolls import Roll
from controller.games.view import DieView, Fact, Holding, PotView, SeatStatus
from controller.simulation import BotTable


def play(name: str, seats: int, options: dict[str, str], lines: Sequence[str]) -> Game:
    game = create_game(name, seats, options)
    for line in lines:
        game.apply(game.parse_input(line))
    return game


@pytest.mark.parametrize("name", ["tao", "tauren", "diceholdem"])
def test_every_engine_gives_the_view_and_inputs_say_their_seat(name: str) -> None:
    table = BotTable(name, 3, seed=5, bots=("random",))
    table.play(3)
    game = table.game
    assert isinstance(game, Game)
    view = game.view(["Ana"])
    assert [s.name for s in view.seats] == ["Ana", "Seat 1", "Seat 2"]
    assert json.loads(json.dumps(view.to_json())) == view.to_json()
    assert view.number == game.hands_played + 1 and view.awaited.text
    assert not re.search(r"\bseats? \d", view.awaited.text)  # the room sees names, not seat numbers
    for inp in game.inputs:
        assert isinstance(inp, Input)
        assert inp.seat is None or 0 <= inp.seat < 3
        assert isinstance(inp, (SeatInput, Roll))


def test_tao_view_shows_stones_pot_d12_and_the_room_facts() -> None:
    game = play("tao", 3, {}, ["ante 0 black=1 white=0", "ante 1 black=0 white=1",
                               "ante 2 black=1 white=0", "roll 0 d6 1 2", "roll 1 d6 ? ?",
                               "roll 2 d6 3 3", "raise 1 black=0 white=1"])
    view = game.view(["Ana", "Ben", "Cy"])
    assert view.title == "Tao Dice" and view.phase == "part-one"
    assert view.seats[1].stack == (Holding("black", 4), Holding("white", 0))
    assert view.seats[1].marks == ("raised", "reroll due")
    assert view.seats[1].dice == (DieView(DieKind.D6, None, "reroll-due"),) * 2
    assert view.seats[0].dice == (DieView(DieKind.D6, None),) * 2  # known to the engine, hidden
    assert view.pots == (PotView("pot", (Holding("black", 2), Holding("white", 2)), (0, 1, 2)),)
    assert view.awaited.seats == (2, 0) and view.awaited.prompt == 2
    assert Fact("Token", "nobody") in view.facts and Fact("Bid", "1 stone") in view.facts
    assert Fact("Matches won", "Ana 0, Ben 0, Cy 0") in view.facts


def test_tao_view_drops_a_folded_seats_dice_and_names_the_round_winner() -> None:
    game = play("tao", 3, {}, ["ante 0 black=1 white=0", "ante 1 black=1 white=0",
                               "ante 2 black=1 white=0", "roll 0 d6 6 6", "roll 1 d6 1 1",
                               "roll 2 d6 2 2", "raise 0 black=1 white=0", "fold 1",
                               "call 2 black=1 white=0", "roll 0 d12 10", "roll 2 d12 12"])
    view = game.view()
    assert view.seats[1].status is SeatStatus.FOLDED and view.seats[1].dice == ()
    assert view.seats[2].dice[-1] == DieView(DieKind.D12, "12")
    for line in ("pass 0", "pass 2"):
        game.apply(game.parse_input(line))
    result = game.view().result
    assert result is not None and result.text == "Seat 0 wins 5 stones with score 22"
    assert result.headline == "Seat 0 wins"
    assert result.shown[0].hand == "score 22 (6+6, d12 10)"
    assert result.shown[0].won == (Holding("black", 5), Holding("white", 0))
    assert [s.seat for s in result.shown] == [0, 2]


def test_holdem_view_shows_blinds_bets_side_pots_and_the_hand_names() -> None:
    game = play("tauren", 3, {"stack": "10,20,20"},
                ["roll 0 d8-tauren W W", "roll 1 d8-tauren 4 3", "roll 2 d8-tauren ? ?",
                 "allin 0", "raise 1 to=18"])
    view = game.view()
    assert [s.marks for s in view.seats] == [("button",), ("small blind",), ("big blind",)]
    assert [s.bet for s in view.seats] == [(Holding("chips", 10),), (Holding("chips", 18),),
                                           (Holding("chips", 2),)]
    assert view.seats[0].status is SeatStatus.ALL_IN
    assert Fact("Blinds", "1/2") in view.facts and Fact("Current bet", "18") in view.facts
    game.apply(game.parse_input("call 2"))
    view = game.view()
    assert view.pots == (PotView("main pot", (Holding("chips", 30),), (0, 1, 2)),
                         PotView("side pot 1", (Holding("chips", 16),), (1, 2)))
    assert view.seats[0].dice == (DieView(DieKind.D8_TAUREN, None),) * 2  # betting goes on
    for line in ("roll table d8-tauren W 5 5", "check 1", "check 2", "roll table d8-tauren C",
                 "check 1", "check 2", "roll table d8-tauren 6", "check 1", "check 2",
                 "roll 2 d8-tauren 2 3"):
        game.apply(game.parse_input(line))
    result = game.view().result
    assert result is not None and result.winners == (0, 1)
    assert [(s.seat, s.hand, s.won) for s in result.shown] == [
        (0, "full house, W over 5", (Holding("chips", 30),)),
        (1, "straight, C high", (Holding("chips", 16),)),
        (2, "one pair, 5", ())]
    assert result.text == "Seat 0 wins 30 with full house, W over 5; Seat 1 wins 16 with " \
                          "straight, C high"
    assert result.headline == "Seat 0 wins the main pot; Seat 1 wins side pot 1"
    assert [p.winners for p in result.pots] == [(0,), (1,)]
    assert [d.face for d in result.community] == ["W", "5", "5", "C", "6"]


# Dee all-in for 10 preflop, Ann folds on the flop after Bo bets 10 and Cy calls: the main pot
# (40) is Bo's, Cy's and Dee's to win, side pot 1 (20) Bo's and Cy's
SIDE_POT_HAND = ["allin 3", "call 0", "call 1", "call 2", "roll table d8-tauren W 5 5",
                 "bet 1 amount=10", "call 2", "fold 0", "roll table d8-tauren C", "check 1",
                 "check 2", "roll table d8-tauren 6", "check 1", "check 2"]


@pytest.mark.parametrize("bo, cy, dee, headline", [
    ("W W", "4 3", "4 3", "Bo wins"),                  # the best hand takes every pot
    ("4 3", "4 3", "2 2", "Bo and Cy split"),          # a tie for every pot
    ("4 3", "4 3", "W W", "Dee wins the main pot; Bo and Cy split side pot 1"),
    ("4 3", "4 3", "4 3", "Bo, Cy and Dee split the main pot; Bo and Cy split side pot 1"),
    ("4 3", "2 2", "W W", "Dee wins the main pot; Bo wins side pot 1"),
])
def test_the_headline_says_who_won_which_pot(bo: str, cy: str, dee: str, headline: str) -> None:
    rolls = [f"roll 0 d8-tauren 2 3", f"roll 1 d8-tauren {bo}", f"roll 2 d8-tauren {cy}",
             f"roll 3 d8-tauren {dee}"]
    game = play("tauren", 4, {"stack": "40,40,40,10"}, rolls + SIDE_POT_HAND)
    result = game.view(["Ann", "Bo", "Cy", "Dee"]).result
    assert result is not None and [p.name for p in result.pots] == ["main pot", "side pot 1"]
    assert result.headline == headline


def test_the_headline_of_a_hand_everyone_else_folded_names_the_one_winner() -> None:
    game = play("diceholdem", 3, {}, ["roll 0 letters H O", "roll 1 letters M M",
                                      "roll 2 letters L D", "fold 0", "fold 1"])
    result = game.view(["Ann", "Bo", "Cy"]).result
    assert result is not None and result.winners == (2,)
    assert result.headline == "Cy wins"


def test_tied_tao_dice_seats_tie_they_do_not_split() -> None:
    # a tie is played off in a tiebreak round for the same pot: nobody has split anything
    game = play("tao", 3, {}, ["ante 0 black=1 white=0", "ante 1 black=1 white=0",
                               "ante 2 black=1 white=0", "roll 0 d6 6 6", "roll 1 d6 1 1",
                               "roll 2 d6 6 6", "raise 0 black=1 white=0", "fold 1",
                               "call 2 black=1 white=0", "roll 0 d12 10", "roll 2 d12 10",
                               "pass 0", "pass 2"])
    result = game.view(["Ana", "Ben", "Cy"]).result
    assert result is not None and result.winners == (0, 2)
    assert result.headline == "Ana and Cy tie"


def test_diceholdem_community_dice_carry_their_reroll_and_protect_states() -> None:
    game = play("diceholdem", 2, {}, ["roll 0 letters H O", "roll 1 letters M M", "call 0",
                                      "check 1", "roll table letters L D E", "check 1",
                                      "reroll 1 die=2 amount=2"])
    view = game.view()
    assert view.title == "DiceHoldem (standard)"
    assert view.community == (DieView(DieKind.LETTERS, "L"), DieView(DieKind.LETTERS, "D"),
                              DieView(DieKind.LETTERS, "E", "reroll"))
    assert Fact("Street", "flop") in view.facts
