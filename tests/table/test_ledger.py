"""The ledger: record lines become the inputs in effect; corrections are derived on replay."""

from __future__ import annotations

import random

import pytest

from controller.games.errors import IllegalAction
from controller.games.rolls import Roll
from controller.simulation import BotTable, roll_dice
from controller.table.ledger import Ledger, replace_line


def _played_lines(game: str, seats: int, seed: int, count: int) -> list[str]:
    """The first ``count`` inputs of a seeded bot game, as history lines."""
    table = BotTable(game, seats, seed)
    while len(table.game.inputs) < count:
        table.step()
    return [str(inp) for inp in table.game.inputs[:count]]


def _ledger(game: str, seats: int, lines: list[str]) -> Ledger:
    ledger = Ledger(game, seats, {})
    for seq, line in enumerate(lines, 1):
        ledger.take(seq, "input", line)
    return ledger


def _open_roll_then_two(game: str, seats: int, seed: int) -> tuple[list[str], int]:
    """Lines up to two inputs after the first community/open roll of a later hand's kind."""
    lines = _played_lines(game, seats, seed, 400)
    ledger = Ledger(game, seats, {})
    for index, line in enumerate(lines):
        inp = ledger.game.parse_input(line)
        need = next((n for n in ledger.game.pending().dice if n.seat == getattr(inp, "seat", 0)),
                    None)
        ledger.take(index + 1, "input", line)
        if need is not None and not need.hidden and isinstance(inp, Roll) and index > 3:
            return lines[:index + 3], index + 1
    raise AssertionError("no open roll found")


@pytest.mark.parametrize("game, seats", [("tao", 3), ("diceholdem", 3), ("tauren", 4)])
def test_misread_die_replaced_after_two_more_inputs_gives_the_right_state(game: str,
                                                                          seats: int) -> None:
    lines, seq = _open_roll_then_two(game, seats, seed=5)
    misread = Roll.parse(lines[seq - 1])
    other = next(f for f in misread.kind.faces if f != misread.faces[0])
    wrong = str(Roll(misread.seat, misread.kind, (other, *misread.faces[1:])))
    ledger = _ledger(game, seats, [*lines[:seq - 1], wrong, *lines[seq:]])
    try:
        ledger.take(len(lines) + 1, "replace", replace_line(seq, misread.faces))
    except IllegalAction as err:  # the wrong face changed who may act next: said, not applied
        assert f"record {seq + 1}" in str(err) or f"record {seq + 2}" in str(err)
        return
    right = _ledger(game, seats, lines)
    assert ledger.game.public_view() == right.game.public_view()
    assert [str(p.input) for p in ledger.played] == lines


def test_undo_then_the_same_input_again_gives_the_same_state() -> None:
    lines = _played_lines("tao", 3, 2, 30)
    ledger = _ledger("tao", 3, lines)
    ledger.take(31, "undo", "")
    assert [str(p.input) for p in ledger.played] == lines[:-1]
    ledger.take(32, "input", lines[-1])
    assert ledger.game.public_view() == _ledger("tao", 3, lines).game.public_view()


def test_void_strikes_the_hand_in_play_and_gives_the_stakes_back() -> None:
    lines = _played_lines("diceholdem", 3, 4, 120)
    ledger = _ledger("diceholdem", 3, lines)
    start = ledger.hand_start
    assert start < len(lines)
    ledger.take(200, "void", "")
    assert ledger.game.public_view() == _ledger("diceholdem", 3, lines[:start]).game.public_view()
    assert ledger.game.chips_total() == ledger.game.chips_expected()


def test_corrections_that_cannot_be_made_are_refused_and_change_nothing() -> None:
    lines = _played_lines("tao", 3, 3, 20)
    ledger = _ledger("tao", 3, lines)
    before = ledger.game.public_view()
    ante = next(i for i, line in enumerate(lines, 1) if line.startswith("ante"))
    with pytest.raises(IllegalAction, match="not a roll"):
        ledger.take(21, "replace", replace_line(ante, ["3"]))
    with pytest.raises(IllegalAction, match="not an input in effect"):
        ledger.take(21, "replace", replace_line(999, ["3"]))
    assert ledger.game.public_view() == before
    empty = Ledger("tao", 3, {})
    with pytest.raises(IllegalAction, match="nothing to undo"):
        empty.take(1, "undo", "")
    with pytest.raises(IllegalAction, match="nothing to void"):
        empty.take(1, "void", "")


def test_a_replacement_with_another_count_of_dice_is_refused() -> None:
    rng = random.Random(1)
    ledger = Ledger("tao", 2, {})
    seq = 0
    while ledger.game.pending().dice == () or ledger.game.pending().dice[0].kind.value != "d12":
        seq += 1
        pending = ledger.game.pending()
        if pending.dice:
            line = str(roll_dice(pending.dice[0], rng))
        else:
            line = str(ledger.game.legal_inputs(pending.prompt or 0)[0])
        ledger.take(seq, "input", line)
    # the first d6 roll of seat 0 replaced by a d6 roll of three dice cannot be made
    first_roll = next(p for p in ledger.played if isinstance(p.input, Roll))
    with pytest.raises(IllegalAction, match="has 2 dice, not 3"):
        ledger.take(seq + 1, "replace", replace_line(first_roll.seq, ["1", "2", "3"]))
