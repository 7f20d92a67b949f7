"""Hold'em seat controls (DiceHoldem, Tauren Hold'em) with the real engines and a real stone
registry (SQLite): chips on the spot, the +/- dial, Reroll/Protect on a chosen die, rebuy/leave."""

import pytest

from controller.games.dice import DieKind
from controller.games.holdem_inputs import (AllIn, Bet, Call, Check, Fold, Leave, Pass, Protect,
                                            Raise, Rebuy, Reroll)
from controller.games.registry import create_game
from controller.games.rolls import Roll
from controller.table.controls import Refusal, Setting, Stake, find_controls, sim_purse
from controller.table.controls_common import pick_chips
from hardware.rfid import StoneRegistry

NAMES = ("ana", "bo", "cy")


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    """One registry for the module (enrolling commits each tag: slow on a loaded disk)."""
    registry = StoneRegistry(tmp_path_factory.mktemp("registry") / "stones.db")
    for seat, name in enumerate(NAMES):
        for record in sim_purse(seat, name, stones=(1, 0), chips=((5, 4), (1, 4))):
            registry.enroll(record)
    return registry


def chips(seat, fives=0, ones=0):
    """Tag ids of chips of ``seat``'s purse (see sim_purse: 5s are C0, 1s are C1)."""
    return [f"{seat:02X}C0{n:04X}" for n in range(fives)] + \
        [f"{seat:02X}C1{n:04X}" for n in range(ones)]


def spot(registry, seat, ids):
    return Stake.read(ids, registry, NAMES[seat])


def preflop(name="diceholdem", options=None):
    """Three seats with their private dice: seat 0 acts first, seat 1 posted 1, seat 2 posted 2."""
    game = create_game(name, 3, options or {})
    kind = game.pending().dice[0].kind
    for seat in range(3):
        game.apply(Roll(seat, kind, kind.faces[:2]))
    return game


def flop(name="diceholdem"):
    """Everyone called or checked preflop and the flop is down: seat 1 acts first."""
    game = preflop(name)
    for inp in (Call(0), Call(1), Check(2)):
        game.apply(inp)
    kind = game.pending().dice[0].kind
    game.apply(Roll(None, kind, kind.faces[-3:]))
    return game


def test_a_call_takes_exactly_the_chips_owed(registry):
    controls = find_controls("diceholdem")
    game = preflop()
    assert controls.press(game, 0, "check-call", spot(registry, 0, chips(0, ones=2))) == Call(0)
    refusal = controls.press(game, 0, "check-call", spot(registry, 0, chips(0, fives=1)))
    assert refusal == Refusal(0, "check-call",
                              "put exactly 2 in chips on your spot to call (5 there)")


def test_the_small_blind_calls_with_what_it_owes_beyond_its_blind(registry):
    game = preflop()
    game.apply(Call(0))
    assert find_controls("diceholdem").press(game, 1, "check-call",
                                             spot(registry, 1, chips(1, ones=1))) == Call(1)


def test_bet_raise_raises_to_the_round_bet_plus_the_spot(registry):
    game = preflop()
    game.apply(Call(0))
    assert find_controls("diceholdem").press(game, 1, "bet-raise",
                                             spot(registry, 1, chips(1, fives=1))) == Raise(1, 6)


def test_a_bet_on_the_flop_is_the_chips_on_the_spot(registry):
    game = flop("tauren")
    assert find_controls("tauren").press(game, 1, "bet-raise",
                                         spot(registry, 1, chips(1, 1, 2))) == Bet(1, 7)


def test_a_raise_below_the_minimum_gets_the_engines_reason(registry):
    refusal = find_controls("diceholdem").press(preflop(), 0, "bet-raise",
                                                spot(registry, 0, chips(0, ones=3)))
    assert refusal.text == "Seat 0 cannot raise to 3: the minimum raise is to 4"


def test_bet_raise_with_an_empty_spot_asks_for_the_chips(registry):
    refusal = find_controls("diceholdem").press(preflop(), 0, "bet-raise", spot(registry, 0, []))
    assert refusal.text == "put the chips to bet on your spot first"


def test_a_check_needs_an_empty_spot(registry):
    game = preflop()
    game.apply(Call(0))
    game.apply(Call(1))
    controls = find_controls("diceholdem")
    assert controls.press(game, 2, "check-call", spot(registry, 2, [])) == Check(2)
    refusal = controls.press(game, 2, "check-call", spot(registry, 2, chips(2, ones=2)))
    assert refusal.text == "take the 2 in chips (2x1) off your spot, or press bet-raise to bet them"


def test_stones_on_a_chip_spot_are_refused(registry):
    refusal = find_controls("diceholdem").press(preflop(), 0, "check-call",
                                                spot(registry, 0, ["00BB0000", *chips(0, 0, 2)]))
    assert refusal.text == "take the stones off your spot: this game is played with chips"


def test_an_unknown_tag_on_a_chip_spot_is_refused(registry):
    refusal = find_controls("diceholdem").press(preflop(), 0, "bet-raise",
                                                spot(registry, 0, [*chips(0, 1), "0BADC0DE"]))
    assert refusal.text == "an unknown tag lies on your spot: take it off or enrol it"


def test_another_seats_chip_is_refused(registry):
    refusal = find_controls("diceholdem").press(preflop(), 0, "check-call",
                                                spot(registry, 0, [*chips(0, 0, 1), *chips(1, 0, 1)]))
    assert refusal.text == "a 1 chip of bo's lies on your spot: give it back"


def test_it_is_another_seats_turn(registry):
    refusal = find_controls("diceholdem").press(preflop(), 2, "check-call", spot(registry, 2, []))
    assert refusal.text == "it is seat 0's turn"


def test_no_press_before_the_private_dice(registry):
    game = create_game("diceholdem", 3, {})
    refusal = find_controls("diceholdem").press(game, 0, "fold", None)
    assert refusal.text == "the table waits for dice first (private roll)"


def test_fold_all_in_and_the_engine_reasons(registry):
    controls = find_controls("diceholdem")
    game = preflop()
    assert controls.press(game, 0, "fold", spot(registry, 0, chips(0, 1))) == Fold(0)
    assert controls.press(game, 0, "all-in", spot(registry, 0, [])) == AllIn(0)
    game.apply(Call(0))
    game.apply(Call(1))
    assert controls.press(game, 2, "fold", None).text == \
        "Seat 2 cannot fold: there is nothing to call (check instead)"


def test_plus_and_minus_set_the_raise_in_minimum_bet_steps_and_at_the_pot():
    controls = find_controls("diceholdem")
    game = preflop()
    texts = [controls.press(game, 0, button, None).text
             for button in ("plus", "plus", "plus", "minus")]
    assert texts == ["bet-raise: raise to 6", "bet-raise: raise to 7", "bet-raise: raise to 8",
                     "bet-raise: raise to 7"]
    assert controls.press(game, 0, "bet-raise", None) == Raise(0, 7)


def test_without_the_dial_bet_raise_is_the_minimum():
    assert find_controls("diceholdem").press(preflop(), 0, "bet-raise", None) == Raise(0, 4)


def test_minus_stops_at_the_minimum():
    controls = find_controls("diceholdem")
    game = preflop()
    assert controls.press(game, 0, "minus", None) == Setting(0, "minus", "bet-raise: raise to 4")


def test_plus_stops_at_the_largest_bet():
    controls = find_controls("tauren")
    game = preflop("tauren", {"structure": "limit"})
    refusal = controls.press(game, 0, "plus", None)
    assert refusal.text == "that is as far as your bet goes now (all-in bets everything)"
    assert controls.press(game, 0, "bet-raise", None) == Raise(0, 4)


def test_the_dial_starts_afresh_each_turn():
    controls = find_controls("tauren")
    game = preflop("tauren")
    controls.press(game, 0, "plus", None)
    game.apply(controls.press(game, 0, "check-call", None))
    game.apply(Call(1))
    game.apply(Check(2))
    game.apply(Roll(None, DieKind.D8_TAUREN, ("2", "3", "4")))
    game.apply(Check(1))
    game.apply(Check(2))
    assert controls.press(game, 0, "bet-raise", None) == Bet(0, 2)


def test_dial_buttons_are_refused_at_a_seat_with_a_reader(registry):
    refusal = find_controls("diceholdem").press(preflop(), 0, "plus", spot(registry, 0, []))
    assert refusal.text == "your spot's stones or chips set your bet: put them there instead"


def test_reroll_needs_a_chosen_die(registry):
    game = flop()
    game.apply(Check(1))
    refusal = find_controls("diceholdem").press(game, 1, "reroll",
                                                spot(registry, 1, chips(1, 0, 2)))
    assert refusal.text == "choose a die with the die button first (dice 0, 1, 2 may take a bet)"


def test_the_die_button_cycles_through_the_fresh_dice_and_reroll_bets_the_spot(registry):
    controls = find_controls("diceholdem")
    game = flop()
    game.apply(Check(1))
    texts = [controls.press(game, 1, "die", None).text for _ in range(4)]
    assert texts[0] == "bet 2 to reroll die 0; bet 2 to protect die 0"
    assert [t.split()[-1] for t in texts] == ["0", "1", "2", "0"]
    controls.press(game, 1, "die", None)
    assert controls.press(game, 1, "reroll", spot(registry, 1, chips(1, 0, 3))) == Reroll(1, 1, 3)


def test_protect_without_rfid_bets_the_minimum_plus_the_dial():
    controls = find_controls("diceholdem")
    game = flop()
    game.apply(Check(1))
    controls.press(game, 1, "die", None)
    assert controls.press(game, 1, "plus", None).text == \
        "bet 4 to reroll die 0; bet 4 to protect die 0"
    assert controls.press(game, 1, "protect", None) == Protect(1, 0, 4)


def test_the_minimum_reroll_after_a_protect_is_over_the_protect():
    controls = find_controls("diceholdem")
    game = flop()
    game.apply(Check(1))
    game.apply(Protect(1, 0, 2))
    game.apply(Check(2))
    controls.press(game, 2, "die", None)
    assert controls.press(game, 2, "reroll", None) == Reroll(2, 0, 4)
    assert "already in protect state" in controls.press(game, 2, "protect", None).text


def test_check_call_passes_on_reroll_protect(registry):
    controls = find_controls("diceholdem")
    game = flop()
    game.apply(Check(1))
    assert controls.press(game, 1, "check-call", spot(registry, 1, [])) == Pass(1)
    refusal = controls.press(game, 1, "check-call", spot(registry, 1, chips(1, 0, 2)))
    assert refusal.text == \
        "take the 2 in chips (2x1) off your spot, or press reroll or protect to bet them"


def test_reroll_outside_the_side_bet_decision_gets_the_engines_reason():
    game = flop()
    refusal = find_controls("diceholdem").press(game, 1, "reroll", None)
    assert "only right after your own check, call, bet or raise" in refusal.text


def test_tauren_has_no_reroll_button():
    refusal = find_controls("tauren").press(flop("tauren"), 1, "reroll", None)
    assert refusal.text.startswith("the 'reroll' button does nothing in Tauren Hold'em")


def busted():
    """Heads-up DiceHoldem where seat 0 went all-in with 2 chips and lost: rebuy or leave."""
    game = create_game("diceholdem", 2, {"stack": "2,20"})
    for inp in (Roll(0, DieKind.LETTERS, ("M", "E")), Roll(1, DieKind.LETTERS, ("H", "H")),
                AllIn(0), Roll(None, DieKind.LETTERS, ("H", "H", "M")),
                Roll(None, DieKind.LETTERS, ("E",)), Roll(None, DieKind.LETTERS, ("D",))):
        game.apply(inp)
    return game


def test_between_hands_check_call_rebuys_and_fold_leaves(registry):
    controls = find_controls("diceholdem")
    game = busted()
    assert controls.press(game, 0, "check-call", spot(registry, 0, [])) == Rebuy(0)
    assert controls.press(game, 0, "fold", spot(registry, 0, [])) == Leave(0)
    assert controls.press(game, 1, "check-call", None).text == "it is seat 0's turn"


def test_the_panels_a_seat_needs():
    assert find_controls("tauren").panel(rfid=True) == ("check-call", "bet-raise", "fold",
                                                         "all-in")
    diceholdem = find_controls("diceholdem")
    assert diceholdem.panel(rfid=False) == ("check-call", "bet-raise", "fold", "all-in", "die",
                                            "reroll", "protect", "plus", "minus")
    assert set(diceholdem.labels) == set(diceholdem.buttons)


def test_no_die_to_choose_before_the_flop():
    refusal = find_controls("diceholdem").press(preflop(), 0, "die", None)
    assert refusal.text == "no die may take a Reroll/Protect bet now"


def test_the_dial_is_refused_when_no_bet_is_possible():
    game = create_game("diceholdem", 2, {"stack": "3,20"})
    for inp in (Roll(0, DieKind.LETTERS, ("M", "E")), Roll(1, DieKind.LETTERS, ("H", "H")),
                AllIn(0)):
        game.apply(inp)
    assert find_controls("diceholdem").press(game, 1, "plus", None).text == "you cannot bet now"


def test_no_press_once_the_game_is_over():
    game = create_game("diceholdem", 2, {"stack": "2,20", "rebuy": "off"})
    for inp in busted().inputs:
        game.apply(inp)
    assert game.pending().over
    assert find_controls("diceholdem").press(game, 1, "check-call", None).text == \
        "the game is over"


def test_a_gestures_chips_are_found_when_largest_first_fails():
    purse = sim_purse(0, "ana", chips=((25, 1), (10, 3)))
    denominations = {r.tag_id: r.denomination for r in purse}
    assert sorted(denominations[t] for t in pick_chips(purse, 30)) == [10, 10, 10]
    assert sorted(denominations[t] for t in pick_chips(purse, 35)) == [10, 25]
