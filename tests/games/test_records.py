"""The one record base: history lines written from the fields and read back, bad lines explained."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, strategies as st

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput
from controller.games.holdem_inputs import Check, Fold, Reroll
from controller.games.records import parse_record, shape
from controller.games.rolls import Roll

RECORDS = (Fold, Reroll)


def test_a_line_is_the_verb_the_seat_then_every_field_by_name() -> None:
    assert str(Reroll(1, 0, 4)) == "reroll 1 die=0 amount=4"
    assert str(Fold(3)) == "fold 3"


def test_the_shape_of_a_line_names_its_fields() -> None:
    assert shape(Reroll) == "reroll SEAT die=N amount=N"
    assert shape(Fold) == "fold SEAT"


@given(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 10**6))
def test_every_record_round_trips_through_its_line(seat: int, die: int, amount: int) -> None:
    for record in (Fold(seat), Reroll(seat, die, amount)):
        assert parse_record(str(record), RECORDS) == record


def test_fields_may_come_in_any_order_and_the_verb_in_any_case() -> None:
    assert parse_record("REROLL 1 amount=4 die=0", RECORDS) == Reroll(1, 0, 4)


def test_a_roll_line_is_read_as_the_shared_dice_record() -> None:
    assert parse_record("roll table d6 3 5", RECORDS) == Roll(None, DieKind.D6, ("3", "5"))


def test_records_of_different_kinds_are_never_equal() -> None:
    assert len({Check(0), Fold(0), Fold(0)}) == 2


def test_records_are_frozen() -> None:
    record = Reroll(1, 0, 4)
    with pytest.raises(FrozenInstanceError):
        record.amount = 5  # type: ignore[misc]


def test_an_unknown_verb_is_refused_listing_the_known_ones() -> None:
    with pytest.raises(InvalidInput, match=r"unknown Tao Dice input 'shove' in 'shove 1' "
                                           r"\(known: fold, reroll, roll\)"):
        parse_record("shove 1", RECORDS, game="Tao Dice")


def test_an_empty_line_is_refused() -> None:
    with pytest.raises(InvalidInput, match="empty input line"):
        parse_record("   ", RECORDS)


@pytest.mark.parametrize("line, message", [
    ("fold", "the seat must be a whole number, it is missing (expected 'fold SEAT')"),
    ("fold x", "the seat must be a whole number, not 'x'"),
    ("reroll 1 die=0", "amount= missing (expected 'reroll SEAT die=N amount=N')"),
    ("reroll 1", "die=, amount= missing"),
    ("reroll 1 die=0 amount=4 colour=2", "'colour=2' is not a field of reroll"),
    ("reroll 1 0 4", "'0' is not a field of reroll (expected 'reroll SEAT die=N amount=N')"),
    ("reroll 1 die=0 amount=four", "amount must be a whole number, not 'four'"),
    ("reroll 1 die=0 amount=-4", "amount must be a whole number, not '-4'"),
    ("reroll 1 die=0 die=1 amount=4", "die= is given twice"),
    ("fold 1 2", "'2' is not a field of fold (expected 'fold SEAT')"),
])
def test_a_malformed_line_is_refused_quoting_it_and_naming_the_field(line: str,
                                                                       message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        parse_record(line, RECORDS)
    assert f"cannot read {line!r}" in str(refused.value) and message in str(refused.value)
