"""Tao Dice seat controls with the real engine and a real stone registry (SQLite)."""

import pytest

from controller.games.dice import DieKind
from controller.games.rolls import Roll
from controller.games.tao import Ante, Call, Fold, Pass, Raise, create
from controller.simulation import BotTable
from controller.table.controls import (Refusal, Setting, Stake, find_controls,
                                       sim_purse)
from hardware.rfid import StoneRegistry, TagKind, TagRecord


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    """One registry for the module (enrolling commits each tag: slow on a loaded disk)."""
    registry = StoneRegistry(tmp_path_factory.mktemp("registry") / "stones.db")
    for seat, name in enumerate(("ana", "bo")):
        for record in sim_purse(seat, name, stones=(4, 2), chips=((5, 1),)):
            registry.enroll(record)
    return registry


def tags(seat, black=0, white=0):
    """Tag ids of stones of ``seat``'s purse (see sim_purse)."""
    return [f"{seat:02X}BB{n:04X}" for n in range(black)] + \
        [f"{seat:02X}EE{n:04X}" for n in range(white)]


def spot(registry, ids, owner="ana"):
    return Stake.read(ids, registry, owner)


def in_part_one():
    """Two seats that anted and rolled: part one's open phase, seat 0 passes first."""
    game = create(2, {})
    game.apply(Ante(0, 1, 0))
    game.apply(Ante(1, 1, 0))
    game.apply(Roll(0, DieKind.D6, ("3", "4")))
    game.apply(Roll(1, DieKind.D6, ("2", "2")))
    return game


def antes_at_bid_two():
    """A seeded 4-seat bot game played on to an ante phase where two seats are out (bid 2):
    seats 0 and 3 hold stones of both colours."""
    table = BotTable("tao", 4, seed=2)
    while table.game.multiplier != 2 or table.game.pending().actors != (0, 3):
        table.step()
    return table.game


def test_call_in_the_ante_phase_antes_the_stones_on_the_spot(registry):
    game = create(2, {})
    assert find_controls("tao").press(game, 0, "call", spot(registry, tags(0, 1))) == Ante(0, 1, 0)


def test_a_white_ante_is_an_ante_with_a_white_stone(registry):
    game = create(2, {})
    assert find_controls("tao").press(game, 0, "call", spot(registry, tags(0, white=1))) == \
        Ante(0, 0, 1)


def test_white_stone_in_a_call_forces_a_reroll(registry):
    game = in_part_one()
    controls = find_controls("tao")
    game.apply(controls.press(game, 0, "raise", spot(registry, tags(0, black=1))))
    call = controls.press(game, 1, "call", spot(registry, tags(1, white=1), "bo"))
    assert call == Call(1, 0, 1)
    game.apply(call)
    needed = game.pending().dice
    assert [(d.seat, d.kind, d.reason) for d in needed] == [(1, DieKind.D6, "white stone reroll")]


def test_black_stone_in_a_call_forces_no_reroll(registry):
    game = in_part_one()
    controls = find_controls("tao")
    game.apply(controls.press(game, 0, "raise", spot(registry, tags(0, black=1))))
    game.apply(controls.press(game, 1, "call", spot(registry, tags(1, black=1), "bo")))
    assert game.pending().dice[0].reason == "d12 into the centre"


def test_the_count_must_be_the_due_amount(registry):
    refusal = find_controls("tao").press(create(2, {}), 0, "call", spot(registry, tags(0, 2, 1)))
    assert refusal == Refusal(0, "call", "put exactly 1 stone on your spot (3 there)")


def test_an_empty_spot_bets_nothing(registry):
    refusal = find_controls("tao").press(in_part_one(), 0, "raise", spot(registry, []))
    assert refusal.text == "put exactly 1 stone on your spot (0 there)"


def test_an_unknown_tag_is_refused(registry):
    refusal = find_controls("tao").press(create(2, {}), 0, "call",
                                         spot(registry, ["0BADC0DE"]))
    assert refusal.text == "an unknown tag lies on your spot: take it off or enrol it"


def test_an_unknown_tag_beside_the_right_stones_is_still_refused(registry):
    refusal = find_controls("tao").press(create(2, {}), 0, "call",
                                         spot(registry, [*tags(0, 1), "0BADC0DE", "0BADC0DF"]))
    assert refusal.text == "2 unknown tags lie on your spot: take them off or enrol them"


def test_another_owners_stone_is_refused(registry):
    refusal = find_controls("tao").press(create(2, {}), 0, "call", spot(registry, tags(1, 1)))
    assert refusal.text == "a black stone of bo's lies on your spot: give it back"


def test_without_owners_any_enrolled_stone_counts(registry):
    stake = Stake.read(tags(1, 1), registry)
    assert find_controls("tao").press(create(2, {}), 0, "call", stake) == Ante(0, 1, 0)


def test_chips_on_a_tao_spot_are_refused(registry):
    refusal = find_controls("tao").press(create(2, {}), 0, "call",
                                         spot(registry, [*tags(0, 1), "00C00000"]))
    assert refusal.text == "take the chips off your spot: Tao Dice is played with stones"


def test_the_engine_refuses_colours_the_seat_does_not_hold(registry):
    game = create(2, {"white": "0", "black": "4"})
    refusal = find_controls("tao").press(game, 0, "call", spot(registry, tags(0, white=1)))
    assert "they hold 4 black and 0 white" in refusal.text


def test_call_before_any_raise_says_why(registry):
    refusal = find_controls("tao").press(in_part_one(), 0, "call", spot(registry, tags(0, 1)))
    assert refusal.text == "Seat 0 cannot call: nobody has raised in this part"


def test_a_second_raise_in_a_part_is_refused(registry):
    game = in_part_one()
    controls = find_controls("tao")
    game.apply(Raise(0, 1, 0))
    refusal = controls.press(game, 1, "raise", spot(registry, tags(1, 1), "bo"))
    assert "already raised in this part" in refusal.text


def test_pass_and_fold(registry):
    game = in_part_one()
    controls = find_controls("tao")
    assert controls.press(game, 0, "pass", spot(registry, [])) == Pass(0)
    assert "nobody has raised" in controls.press(game, 0, "fold", spot(registry, [])).text
    game.apply(Raise(0, 1, 0))
    assert controls.press(game, 1, "fold", spot(registry, tags(1, 1), "bo")) == Fold(1)


def test_pass_with_stones_on_the_spot_is_refused(registry):
    refusal = find_controls("tao").press(in_part_one(), 0, "pass", spot(registry, tags(0, 1)))
    assert refusal.text == "take the 1 black off your spot, or press raise to bet them"


def test_no_press_while_the_table_waits_for_dice(registry):
    game = create(2, {})
    game.apply(Ante(0, 1, 0))
    game.apply(Ante(1, 1, 0))
    refusal = find_controls("tao").press(game, 0, "call", spot(registry, tags(0, 1)))
    assert refusal.text.startswith("the table waits for dice first (")


def test_a_seat_that_already_anted_is_told_whose_turn_it_is(registry):
    game = create(2, {})
    game.apply(Ante(0, 1, 0))
    refusal = find_controls("tao").press(game, 0, "call", spot(registry, tags(0, 1)))
    assert refusal.text == "it is seat 1's turn"


def test_the_bid_multiplier_sets_the_stones_due(registry):
    game = antes_at_bid_two()
    controls = find_controls("tao")
    assert controls.press(game, 0, "call", spot(registry, tags(0, 1))).text == \
        "put exactly 2 stones on your spot (1 there)"
    assert controls.press(game, 0, "call", spot(registry, tags(0, 1, 1))) == Ante(0, 1, 1)


def test_white_button_cycles_the_white_stones_of_a_bet_without_rfid():
    game = antes_at_bid_two()
    controls = find_controls("tao")
    texts = [controls.press(game, 0, "white", None).text for _ in range(3)]
    assert texts == ["your next bet: 1 black + 1 white", "your next bet: 2 white",
                     "your next bet: 2 black"]
    controls.press(game, 0, "white", None)
    assert controls.press(game, 0, "call", None) == Ante(0, 1, 1)


def test_without_rfid_a_bet_is_black_unless_the_white_button_says(registry):
    game = in_part_one()
    controls = find_controls("tao")
    assert controls.press(game, 0, "raise", None) == Raise(0, 1, 0)
    assert isinstance(controls.press(game, 0, "white", None), Setting)
    assert controls.press(game, 0, "raise", None) == Raise(0, 0, 1)


def test_the_white_setting_lasts_until_the_seats_own_input():
    game = create(3, {})
    controls = find_controls("tao")
    controls.press(game, 0, "white", None)
    game.apply(Ante(1, 1, 0))  # another seat's input keeps it
    assert controls.press(game, 0, "call", None) == Ante(0, 0, 1)
    game.apply(Ante(0, 0, 1))
    game.apply(Ante(2, 1, 0))
    for seat, faces in ((0, ("1", "1")), (1, ("2", "2")), (2, ("3", "3"))):
        game.apply(Roll(seat, DieKind.D6, faces))
    assert controls.press(game, 0, "raise", None) == Raise(0, 1, 0)


def test_the_white_button_is_refused_on_a_seat_with_a_reader(registry):
    refusal = find_controls("tao").press(create(2, {}), 0, "white", spot(registry, []))
    assert refusal.text == "your spot's stones or chips set your bet: put them there instead"


def test_a_button_the_game_does_not_have_is_refused():
    refusal = find_controls("tao").press(create(2, {}), 0, "all-in", None)
    assert refusal.text.startswith("the 'all-in' button does nothing in Tao Dice")


def test_the_panels_a_seat_needs():
    controls = find_controls("tao")
    assert controls.panel(rfid=True) == ("raise", "call", "pass", "fold")
    assert controls.panel(rfid=False) == ("raise", "call", "pass", "fold", "white")
    assert set(controls.labels) == set(controls.buttons)


def test_stake_counts_stones_chips_unknown_and_foreign(registry):
    registry.enroll(TagRecord("0A0B0C0D", TagKind.CHIP, denomination=25))
    stake = Stake.read([*tags(0, 2, 1), *tags(1, 1), "00C00000", "0A0B0C0D", "0BADC0DE"],
                       registry, "ana")
    assert (stake.black, stake.white, stake.chips, stake.chip_total) == (2, 1, ((25, 1), (5, 1)), 30)
    assert stake.unknown == ("0BADC0DE",)
    assert [r.tag_id for r in stake.foreign] == ["01BB0000"]


