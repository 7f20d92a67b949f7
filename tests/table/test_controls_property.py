"""A bot's chosen input, pressed and placed as its gesture says, is exactly that input again:
for every legal input along seeded simulated games of all three games, with and without RFID."""

import pytest

from controller.games.dice import DieKind
from controller.games.holdem_inputs import Call, Raise, Reroll
from controller.games.records import SeatInput
from controller.games.rolls import Roll
from controller.simulation import BotTable
from controller.table.controls import (NoGesture, Refusal, Setting, Stake, find_controls,
                                       sim_purse)
from hardware.rfid import StoneRegistry

GAMES = [("tao", 3, {}), ("tauren", 3, {"stack": "8"}),
         ("diceholdem", 3, {"stack": "8"}), ("diceholdem", 2, {"structure": "pot-limit"})]
STEPS = 160


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    """One registry for the module: the purses' tag ids are the same in every game."""
    return StoneRegistry(tmp_path_factory.mktemp("registry") / "stones.db")


def owner(seat):
    return f"seat {seat}"


def enrolled(registry, controls, game):
    """Each seat's purse, enrolled in the registry."""
    purses = {}
    for seat in range(game.seats):
        purses[seat] = controls.sim_purse(game, seat, owner(seat))
        for record in purses[seat]:
            registry.enroll(record)
    return purses


def pressed(controls, game, gesture, registry):
    """What the presses of ``gesture`` give, the spot read from ``registry``."""
    stake = None if gesture.spot is None else Stake.read(gesture.spot, registry,
                                                          owner(gesture.seat))
    return [controls.press(game, gesture.seat, button, stake) for button in gesture.presses]


@pytest.mark.parametrize("rfid", [True, False], ids=["rfid", "buttons"])
@pytest.mark.parametrize("name,players,options", GAMES, ids=[g[0] + str(g[1]) for g in GAMES])
def test_press_of_gesture_gives_the_input(registry, name, players, options, rfid):
    table = BotTable(name, players, seed=7, options=options)
    purses = enrolled(registry, find_controls(name), table.game) if rfid else {}
    seen = set()
    for _ in range(STEPS):
        game = table.game
        pending = game.pending()
        for seat in () if pending.dice else pending.actors:
            for inp in game.legal_inputs(seat):
                controls = find_controls(name, purses)
                results = pressed(controls, game, controls.gesture(game, inp), registry)
                assert results[-1] == inp, (str(inp), results)
                assert all(isinstance(r, Setting) for r in results[:-1]), results
                seen.add(type(inp).__name__)
        table.step()
    wanted = {"tao": {"Ante", "Pass", "Raise", "Call", "Fold"},
              "tauren": {"Check", "Call", "Raise", "Fold", "AllIn", "Rebuy", "Leave"},
              "diceholdem": {"Check", "Call", "Bet", "Raise", "Fold", "AllIn", "Reroll",
                             "Protect", "Pass"}}[name]
    assert wanted <= seen


def test_a_gesture_continues_from_the_seats_dial():
    """A seat that already turned its dial presses on from there, not from the minimum."""
    table = BotTable("diceholdem", 3, seed=3)
    controls = find_controls("diceholdem")
    while not (table.game.pending().actors and not table.game.pending().dice):
        table.step()
    game = table.game
    seat = game.pending().prompt
    bets = [i for i in game.legal_inputs(seat) if type(i).__name__ in ("Bet", "Raise")]
    controls.press(game, seat, "plus", None)
    controls.press(game, seat, "plus", None)
    gesture = controls.gesture(game, bets[0])
    assert gesture.presses[:2] == ("minus", "minus")
    assert pressed(controls, game, gesture, None)[-1] == bets[0]


@pytest.mark.parametrize("name", ["tao", "tauren", "diceholdem"])
def test_every_button_answers_at_every_seat(name):
    """Each button of each panel gives an input, a setting or a refusal: never an error."""
    table = BotTable(name, 3, seed=5)
    for _ in range(40):
        game = table.game
        for seat in range(game.seats):
            controls = find_controls(name)
            for button in controls.buttons:
                for stake in (None, Stake()):
                    assert isinstance(controls.press(game, seat, button, stake),
                                      (Setting, Refusal, SeatInput))
        table.step()


def test_what_no_panel_can_give_raises_no_gesture():
    game = BotTable("diceholdem", 3, seed=1).game
    controls = find_controls("diceholdem")
    with pytest.raises(NoGesture, match="dice are rolled and read"):
        controls.gesture(game, Roll(0, DieKind.LETTERS, ("H", "O")))
    for seat in range(3):
        game.apply(Roll(seat, DieKind.LETTERS, ("H", "O")))
    with pytest.raises(NoGesture, match="plus and minus do not reach 5"):
        controls.gesture(game, Raise(0, 5))  # the dial stops at 4, 6, 7, 8, ...
    with pytest.raises(NoGesture, match="has no Reroll/Protect bets"):
        find_controls("tauren").gesture(game, Reroll(0, 0, 2))
    short = find_controls("diceholdem", {0: sim_purse(0, "ana", chips=((5, 2),))})
    with pytest.raises(NoGesture, match="cannot make exactly 2"):
        short.gesture(game, Call(0))
