"""The generic bot loop: seeded dice on demand, determinism, new games, the final summary."""

from __future__ import annotations

import random

import pytest

from controller.games.base import DiceNeeded
from controller.games.dice import DieKind
from controller.games.errors import DiceTableError
from controller.games.replays import dumps_all, loads_all
from controller.games.rolls import Roll
from controller.simulation import BotTable, Event, describe, final_of, roll_dice, simulate


def test_roll_dice_gives_the_kind_and_count_asked_for() -> None:
    needed = DiceNeeded(3, DieKind.D8_TAUREN, 2, True, "private")
    roll = roll_dice(needed, random.Random(1))
    assert roll.seat == 3 and roll.kind is DieKind.D8_TAUREN and len(roll.faces) == 2
    assert all(face in DieKind.D8_TAUREN.faces for face in roll.faces)


def test_the_same_seed_plays_the_same_games() -> None:
    one, two = BotTable("tao", 4, 7, ["random", "heuristic"]), BotTable("tao", 4, 7, ["random", "heuristic"])
    one.play(150)
    two.play(150)
    assert [str(i) for i in one.game.inputs] == [str(i) for i in two.game.inputs]
    assert one.final() == two.final()


def test_a_different_seed_plays_other_games() -> None:
    one, two = BotTable("tao", 4, 1), BotTable("tao", 4, 2)
    one.play(50)
    two.play(50)
    assert [str(i) for i in one.game.inputs] != [str(i) for i in two.game.inputs]


def test_play_stops_at_exactly_the_hands_asked_for_across_games() -> None:
    table = BotTable("tao", 2, 3, ["random"], {"length": "single", "black": "1", "white": "1"})
    table.play(40)
    assert table.hands == 40 and len(table.games) > 1
    assert sum(game.hands_played for game in table.games) == 40
    assert all(game.pending().over for game in table.games[:-1])


def test_stones_are_checked_after_every_input() -> None:
    report = simulate(BotTable("tao", 6, 5, ["random"]), 200)
    assert report.conserved and report.hands == 200
    assert report.as_json()["final"]["hands"] == 200


def test_the_recorded_games_replay_to_the_same_final() -> None:
    table = BotTable("tao", 3, 9, ["heuristic", "random"], {"length": "first-to-1"})
    table.play(120)
    assert final_of(loads_all(dumps_all(table.games))) == table.final()


def test_every_event_says_what_happened_without_showing_hidden_dice() -> None:
    table = BotTable("tao", 3, 4)
    events = [table.step() for _ in range(6)]
    assert isinstance(events[0], Event)
    hidden = [event for event in events if event.hidden]
    assert hidden and all(event.describe() == f"Seat {event.record.seat} rolls their hidden dice"
                          for event in hidden if isinstance(event.record, Roll))


def test_describe_bets_with_the_stones_used() -> None:
    game = BotTable("tao", 2, 1).game
    assert describe(game.parse_input("raise 1 black=1 white=1")) == \
        "Seat 1 raises with 1 black + 1 white (white: must reroll)"
    assert describe(game.parse_input("ante 0 black=0 white=1"), viewer=0) == "You ante with 1 white"
    assert describe(Roll(2, DieKind.D12, ("7",))) == "Seat 2 rolls d12: 7"  # Tao Dice: d6 or d12


def test_the_table_s_roll_says_its_faces_not_the_kind_s_file_name() -> None:
    # the room read "The table rolls d8-tauren: 5 4 5" and "The table rolls letters: E", the
    # kind's name in files and on the command line; the board shows the dice drawn
    assert describe(Roll(None, DieKind.D8_TAUREN, ("5", "4", "S"))) == "The table rolls 5 4 S"
    assert describe(Roll(None, DieKind.LETTERS, ("E",))) == "The table rolls E"


def test_a_seated_player_takes_the_place_of_a_bot() -> None:
    class AlwaysFirst:
        seat = 1
        asked = 0

        def choose(self, game):  # type: ignore[no-untyped-def]
            AlwaysFirst.asked += 1
            return game.legal_inputs(1)[0]

    table = BotTable("tao", 2, 1, seated={1: AlwaysFirst()})
    table.play(3)
    assert AlwaysFirst.asked > 0


@pytest.mark.parametrize("players", [1, 7])
def test_seat_counts_outside_the_game_are_refused(players: int) -> None:
    with pytest.raises(DiceTableError, match="tao is for 2 to 6 players"):
        BotTable("tao", players, 1)


def test_unknown_bots_are_refused_naming_the_known_ones() -> None:
    with pytest.raises(DiceTableError, match="unknown bot 'genius' for tao .*heuristic, random"):
        BotTable("tao", 3, 1, ["genius"])


def test_hold_em_actions_are_told_in_table_words():
    from controller.games.holdem_inputs import Bet, Raise, Reroll
    from controller.simulation import describe

    assert describe(Raise(2, to=8)) == "Seat 2 raises to 8"
    assert describe(Bet(1, amount=4), viewer=1) == "You bet 4"
    assert describe(Reroll(0, die=3, amount=2)) == "Seat 0 bets 2 to reroll die 3"


def test_tao_stone_actions_say_the_stones_and_the_reroll():
    from controller.games.tao import Ante, Call
    from controller.simulation import describe

    assert describe(Call(3, black=0, white=1)) == "Seat 3 calls with 1 white (white: must reroll)"
    assert describe(Ante(0, black=0, white=1), viewer=0) == "You ante with 1 white"
