"""``dicetable play`` speaks to the person: their seat is ``you`` wherever the engine names it,
in a list of seats or after a colon, with the verb agreed; counts read as English."""

from __future__ import annotations

import argparse
import io

import pytest

from controller.commands.play import play, to_you


def played(game: str, typed: str, seed: int, players: int, *option: str,
           seat: int = 0) -> list[str]:
    """The lines play printed at ``seed`` for the person at ``seat`` typing ``typed``."""
    args = argparse.Namespace(game=game, players=players, seat=seat, seed=seed, bots="heuristic",
                              option=list(option))
    out = io.StringIO()
    assert play(args, io.StringIO(typed), out) == 0
    return out.getvalue().splitlines()


@pytest.mark.parametrize("said, seat, told", [
    ("Seat 0 and Seat 2 split", 0, "You and Seat 2 split"),
    ("Seat 1 and Seat 0 split side pot 2", 0, "Seat 1 and you split side pot 2"),
    ("Seat 2 wins the main pot; Seat 1 wins side pot 1", 1,
     "Seat 2 wins the main pot; you win side pot 1"),
    ("Seat 2 wins 3 stones: everyone else folded", 2, "You win 3 stones: everyone else folded"),
    ("Seat 0, Seat 1 and Seat 2 tie: they play a tiebreak for the 6 stones", 1,
     "Seat 0, you and Seat 2 tie: you play a tiebreak for the 6 stones"),
    ("the table waits for antes from seats 0, 1, 2", 1,
     "the table waits for antes from seat 0, you and seat 2"),
    ("Seat 3 cannot raise: it is seat 1's turn", 1, "Seat 3 cannot raise: it is your turn"),
    ("Seat 1 is not asked to reveal: their dice are shown already", 1,
     "You are not asked to reveal: your dice are shown already"),
    ("Seat 1 rolls exactly 2 private dice, not 3", 1, "You roll exactly 2 private dice, not 3"),
    ("Seat 1 cannot reroll die 0 for 2: only in a round where they are allowed", 1,
     "You cannot reroll die 0 for 2: only in a round where they are allowed"),
    ("Seat 12 wins; seats 10, 2 tie", 1, "Seat 12 wins; seats 10, 2 tie"),
])
def test_the_persons_seat_is_you_wherever_the_engine_names_it(said: str, seat: int,
                                                               told: str) -> None:
    # to_you turned only a lone "Seat N" into "you": "Seat 0 and Seat 2 split" and "seats 0, 1"
    # kept the number, and "they" after the colon stayed "they" where the seat was "You"
    assert to_you(said, seat) == told


def test_tao_notes_and_refusals_name_you_in_a_list_and_after_the_colon() -> None:
    # seed 10: in the tiebreak seat 2 raises and you hold 0 black, 2 white; "call black" is refused
    lines = played("tao", "1\n" * 10 + "call black\nquit\n", 10, 3, "length=single")
    assert lines[1:5] == ["-- no dice yet | you hold 4 black, 2 white | pot 0 | bid 1",
                          "   seat 1: active, 6 stones", "   seat 2: active, 6 stones",
                          "the table waits for antes from you, seat 1 and seat 2"]
    refused = lines.index("> Refused: You cannot call with 1 black and 0 white: "
                          "you hold 0 black and 2 white")
    assert lines[refused - 3:refused] == [
        "   seat 2: active, 1 stone, d12 11",  # was "1 stones"
        "the table waits for you and seat 1 to call or fold",  # was "seats 0, 1"
        "Your choices: 1) call with 1 white (white: must reroll)  2) fold"]


def test_a_hold_em_headline_names_you_second_in_a_split() -> None:
    # seed 23, four all-in: seat 0 and seat 1 split side pot 2; the person is seat 1
    lines = played("tauren", "allin\n", 23, 4, "stack=40,40,20,10", "rebuy=off", seat=1)
    assert "== Seat 2 wins the main pot and side pot 1; Seat 0 and you split side pot 2" in lines


@pytest.mark.parametrize("game, river", [("tauren", "  The table rolls 5 (board: 5 6 S 2 5)"),
                                         ("diceholdem", "  The table rolls D (board: D E H E D)")])
def test_the_river_that_ends_the_hand_is_told_with_the_board(game: str, river: str) -> None:
    # all four all-in before the flop: the river's roll ends the hand and clears the board, and
    # play fell back to the room's words ("The table rolls d8-tauren: 5")
    lines = played(game, "allin\n", 23, 4, "stack=40,40,20,10", "rebuy=off")
    rolls = [line for line in lines if line.startswith("  The table rolls")]
    assert rolls[2] == river


def test_a_hold_em_call_says_how_much_it_put_in() -> None:
    # seed 3: the bots called and play said "Seat 1 calls", never how much, while a bet or a
    # raise said its chips; what a call puts in is what the seat owed (or its stack) before it
    lines = played("tauren", "1\n" * 3 + "quit\n", 3, 3)
    assert [line for line in lines if " calls" in line][:3] == [
        "  Seat 1 calls 1", "  Seat 1 calls 4", "  Seat 1 calls 2"]


def test_a_tao_seat_that_puts_in_its_last_stone_is_told_it_waits_for_the_showdown() -> None:
    # seed 3, match 1's last round: you and seat 1 ante your last stone and the round went on
    # without a word to either of you (Seat 2 passes, raises, and the round table followed)
    lines = played("tao", "1\n" * 40, 3, 3)
    waiting = [line.removeprefix("> ") for line in lines if "no stones left" in line]
    assert waiting[:2] == ["  You ante with 1 white: no stones left, you wait for the showdown",
                           "  Seat 1 antes with 1 black: no stones left, waits for the showdown"]


def test_the_round_table_of_a_matchs_last_round_shows_the_stones_it_left() -> None:
    # seed 3, match 1's last round: the table showed the next match's stones, "6 (4+2)" at
    # every seat, beside "takes the pot of 4", and no seat out of the match
    lines = played("tao", "1\n" * 40, 3, 3)
    end = lines.index("== Seat 2 wins match 1! Matches won: you 0, seat 1 0, seat 2 1")
    assert [line.split()[1:3] + line.split()[7:] for line in lines[end - 4:end - 1]] == [
        ["0", "(0+0)", "out", "of", "the", "match"], ["0", "(0+0)", "out", "of", "the", "match"],
        ["18", "(12+6)", "takes", "the", "pot", "of", "4", "(best", "score)"]]
