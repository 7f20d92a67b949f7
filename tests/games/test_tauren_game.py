"""Tauren Hold'em as a table sees it: options, dice, views, showdowns with the real ranking."""

from __future__ import annotations

import pytest

from controller.games.dice import DieKind
from controller.games.errors import IllegalAction, InvalidInput
from controller.games.history import dumps, loads
from controller.games.holdem import HoldemGame, Phase
from controller.games.registry import create_game
from controller.games.tauren import TaurenHoldem


def table(seats: int = 3, **options: str) -> HoldemGame:
    game = create_game("tauren", seats, options)
    assert isinstance(game, TaurenHoldem)
    return game


def play(game: HoldemGame, *lines: str) -> None:
    for line in lines:
        game.apply(game.parse_input(line))


def check_down(game: HoldemGame, boards: list[str]) -> None:
    """Check (or call) every turn; roll ``boards`` in order when community dice are needed."""
    hand = game.hands_played
    while game.hands_played == hand:
        if game.phase is Phase.BOARD:
            play(game, f"roll table d8-tauren {boards.pop(0)}")
        else:
            seat = game.pending().prompt
            assert seat is not None and game.hand is not None
            play(game, f"{'call' if game.hand.to_call(seat) else 'check'} {seat}")


def test_options_round_trip_through_the_history_header() -> None:
    game = table(4, shaman="wild", wrap="off", structure="pot-limit", stack="10,20,30,40",
                 blinds="off", rebuy="off", min_bet="4", button="2")
    again = create_game("tauren", 4, game.options_text())
    assert again.options_text() == game.options_text()
    assert game.options_text()["shaman"] == "wild" and game.options_text()["stack"] == "10,20,30,40"


@pytest.mark.parametrize("options, named", [({"shaman": "top"}, "shaman"),
                                            ({"wrap": "maybe"}, "wrap"),
                                            ({"variant": "basic"}, "variant"),
                                            ({"button": "7"}, "button"),
                                            ({"stack": "1,2"}, "stack")])
def test_bad_option_is_refused_naming_it(options: dict[str, str], named: str) -> None:
    with pytest.raises(InvalidInput, match=named):
        create_game("tauren", 3, options)


def test_engine_asks_for_two_hidden_dice_per_seat_then_the_flop() -> None:
    game = table()
    needed = game.pending().dice
    assert [(d.seat, d.count, d.hidden, d.kind) for d in needed] == \
        [(s, 2, True, DieKind.D8_TAUREN) for s in range(3)]
    play(game, "roll 2 d8-tauren S S", "roll 0 d8-tauren 2 3", "roll 1 d8-tauren 4 5",
         "call 0", "call 1", "check 2")
    flop = game.pending().dice
    assert [(d.seat, d.count, d.hidden) for d in flop] == [(None, 3, False)]


def test_wrong_dice_are_refused() -> None:
    game = table()
    with pytest.raises(IllegalAction, match="exactly 2"):
        game.roll(0, DieKind.D8_TAUREN, ["S"])
    with pytest.raises(IllegalAction, match="d8-tauren"):
        game.roll(0, DieKind.LETTERS, ["H", "O"])
    with pytest.raises(IllegalAction, match="not waiting"):
        game.roll(None, DieKind.D8_TAUREN, ["S", "S", "S"])


def test_acting_out_of_turn_is_refused_with_the_reason() -> None:
    game = table()
    play(game, "roll 0 d8-tauren 2 3", "roll 1 d8-tauren 4 5", "roll 2 d8-tauren S S")
    with pytest.raises(IllegalAction, match="Seat 2 cannot call: it is seat 0's turn"):
        game.call(2)


def test_seat_view_shows_only_the_seats_own_dice() -> None:
    game = table()
    play(game, "roll 0 d8-tauren 2 3", "roll 1 d8-tauren 4 5")
    assert game.seat_view(0)["my_dice"] == ["2", "3"]
    assert game.seat_view(2)["my_dice"] == []
    assert "my_dice" not in game.public_view()


def test_showdown_uses_the_tauren_ranking_and_shows_only_live_hands() -> None:
    game = table()
    play(game, "roll 0 d8-tauren W W", "roll 1 d8-tauren S S", "roll 2 d8-tauren 2 6",
         "call 0", "call 1", "check 2", "roll table d8-tauren W W 3")
    play(game, "bet 1 amount=2", "fold 2", "call 0")
    check_down(game, ["4", "C"])
    assert game.last_hand["won"] == {"0": 10}
    assert game.last_hand["shown"] == {"0": ["W", "W"], "1": ["S", "S"]}


def test_straight_around_the_horn_beats_three_of_a_kind() -> None:
    game = table(2)
    play(game, "roll 0 d8-tauren C S", "roll 1 d8-tauren 6 6", "call 0", "check 1")
    check_down(game, ["2 3 4", "W", "6"])
    assert game.last_hand["won"] == {"0": 4}


def test_wrap_off_makes_the_same_dice_lose() -> None:
    game = table(2, wrap="off")
    play(game, "roll 0 d8-tauren C S", "roll 1 d8-tauren 6 6", "call 0", "check 1")
    check_down(game, ["2 3 4", "W", "6"])
    assert game.last_hand["won"] == {"1": 4}


def test_history_replays_to_the_same_game() -> None:
    game = table()
    play(game, "roll 0 d8-tauren W W", "roll 1 d8-tauren S S", "roll 2 d8-tauren 2 6",
         "raise 0 to=6", "call 1", "fold 2", "roll table d8-tauren W 2 3", "check 1",
         "bet 0 amount=4")
    again = loads(dumps(game))
    assert again.public_view() == game.public_view()
    assert again.seat_view(1) == game.seat_view(1)


def test_garbage_input_line_is_refused_quoting_it() -> None:
    with pytest.raises(InvalidInput, match="'shove 1'"):
        table().parse_input("shove 1")


def test_game_ends_when_one_player_holds_every_chip() -> None:
    game = table(2, rebuy="off")
    play(game, "roll 0 d8-tauren W W", "roll 1 d8-tauren 3 3", "allin 0", "call 1")
    for board in ("W C 4", "4", "2"):
        play(game, f"roll table d8-tauren {board}")
    assert game.pending().over
    assert game.final() == {"stacks": [40, 0], "hands_played": 1, "rebuys": [0, 0],
                            "over": True, "winner": 0}


def test_dealer_undo_of_the_last_action_restores_the_state_before_it() -> None:
    from controller.games.replays import undo

    game = table()
    play(game, "roll 0 d8-tauren W W", "roll 1 d8-tauren S S", "roll 2 d8-tauren 2 6")
    before = game.public_view()
    play(game, "raise 0 to=6")
    assert undo(game).public_view() == before
