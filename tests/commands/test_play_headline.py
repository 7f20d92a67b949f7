"""``dicetable play`` says who won what in the engine's words, not words of its own: a hold'em
hand's ``Result.headline`` (the scoreboard's showdown box: which pot went to whom), a Tao Dice
round's ``Result.text`` (the pot and the winning score, or the tiebreak)."""

from __future__ import annotations

import argparse
import io

from controller.commands.play import play


def played(game: str, typed: str, seed: int, players: int, *option: str) -> list[str]:
    """The lines play printed at ``seed`` for the person at seat 0 typing ``typed``."""
    args = argparse.Namespace(game=game, players=players, seat=0, seed=seed, bots="heuristic",
                              option=list(option))
    out = io.StringIO()
    assert play(args, io.StringIO(typed), out) == 0
    return out.getvalue().splitlines()


def test_play_says_which_seats_split_which_pot_as_the_scoreboard_does() -> None:
    # all four all-in on the first hand; seat 2 (two pair, crowns) takes the main pot and side
    # pot 1, you and seat 1 (the same two pair) split side pot 2: play listed three hands that
    # each "win(s)" chips and never said which pot was whose, nor that two seats split one
    lines = played("tauren", "allin\n", 23, 4, "stack=40,40,20,10", "rebuy=off")
    hand = lines.index("== hand 1: board 5 6 S 2 5")
    assert lines[hand + 5:hand + 7] == [
        "== Seat 2 wins the main pot and side pot 1; you and Seat 1 split side pot 2",
        "   chips: you 20, seat 1 20, seat 2 70, seat 3 0"]


def test_play_says_the_tao_dice_tie_in_the_engines_words() -> None:
    # three seats tie on a score of 15 and play a tiebreak: the engine's sentence, to you
    lines = played("tao", "1\n" * 60, 10, 3, "length=single")
    tie = lines.index("== You, Seat 1 and Seat 2 tie: you play a tiebreak for the 6 stones")
    assert [line.split()[-3:] for line in lines[tie - 3:tie]] == [["plays", "the", "tiebreak"]] * 3


def test_play_says_what_a_tao_dice_round_won_and_with_what_score() -> None:
    # the round's "==" line said only "Seat 1 wins": not the pot, not the score that won it
    lines = played("tao", "1\n" * 60, 10, 3, "length=single")
    assert "== Seat 1 wins 6 stones with score 16" in lines
    assert "== You win 3 stones with score 16" in lines
