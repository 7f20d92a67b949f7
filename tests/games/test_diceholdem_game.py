"""DiceHoldem as a table sees it: letter dice, the HOLDEM hand, options, variants."""

from __future__ import annotations

import pytest

from controller.games.dice import DieKind
from controller.games.errors import IllegalAction, InvalidInput
from controller.games.holdem import HoldemGame
from controller.games.registry import create_game


def table(seats: int = 2, **options: str) -> HoldemGame:
    game = create_game("diceholdem", seats, options)
    assert isinstance(game, HoldemGame)
    return game


def play(game: HoldemGame, *lines: str) -> None:
    for line in lines:
        game.apply(game.parse_input(line))


def test_holdem_beats_five_of_a_kind() -> None:
    game = table(variant="basic")
    play(game, "roll 0 letters H O", "roll 1 letters L L", "allin 0", "call 1",
         "roll table letters L D E", "roll table letters M", "roll table letters L")
    assert game.last_hand["won"] == {"0": 40}


def test_dice_must_be_letter_dice() -> None:
    with pytest.raises(IllegalAction, match="letters"):
        table().roll(0, DieKind.D8_TAUREN, ["2", "3"])


def test_options_round_trip_and_unknown_variant_is_refused() -> None:
    game = table(3, variant="basic", extra_rounds="2")
    assert create_game("diceholdem", 3, game.options_text()).options_text() == game.options_text()
    with pytest.raises(InvalidInput, match="variant"):
        create_game("diceholdem", 3, {"variant": "casino"})
    with pytest.raises(InvalidInput, match="shaman"):
        create_game("diceholdem", 3, {"shaman": "ace"})


def test_standard_is_the_default_variant() -> None:
    assert table().options_text()["variant"] == "standard"


def test_plain_pip_dice_stand_in_for_letter_dice() -> None:
    game = table(variant="basic")
    play(game, "roll 0 d6 6 5", "roll 1 letters L L", "call 0", "check 1", "roll table d6 4 3 2")
    assert game.seat_view(0)["my_dice"] == ["H", "O"]
    assert game.board == ["L", "D", "E"]
