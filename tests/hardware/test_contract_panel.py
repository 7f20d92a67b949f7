"""The SeatPanel contract, run against every panel backend."""

import pytest

from hardware.devices import LightState, PressKind, SeatPanel


def first_button(panel):
    seat = panel.seats[0]
    return seat, panel.buttons(seat)[0]


def test_panel_is_a_seat_panel(any_panel):
    assert isinstance(any_panel.device, SeatPanel)


def test_panel_checks_ok(any_panel):
    assert any_panel.device.check().ok


def test_every_seat_has_named_buttons(any_panel):
    panel = any_panel.device
    assert panel.seats
    assert all(panel.buttons(seat) and all(isinstance(b, str) for b in panel.buttons(seat))
               for seat in panel.seats)


def test_unknown_seat_has_no_buttons(any_panel):
    with pytest.raises(KeyError):
        any_panel.device.buttons(99)


def test_poll_returns_a_list(any_panel):
    assert isinstance(any_panel.device.poll(), list)


def test_press_arrives_once(panel_rig):
    seat, button = first_button(panel_rig.device)
    panel_rig.press(seat, button)
    events = panel_rig.drain()
    assert [(e.seat, e.button, e.kind) for e in events] == [(seat, button, PressKind.PRESS)]
    assert panel_rig.drain(0.2) == []


def test_release_follows_press(panel_rig):
    seat, button = first_button(panel_rig.device)
    panel_rig.press(seat, button)
    panel_rig.advance(0.2)
    panel_rig.release(seat, button)
    assert [e.kind for e in panel_rig.drain()] == [PressKind.PRESS, PressKind.RELEASE]


def test_event_times_are_not_in_the_future(panel_rig):
    seat, button = first_button(panel_rig.device)
    panel_rig.press(seat, button)
    events = panel_rig.drain()
    assert events and all(e.at <= panel_rig.clock.now() for e in events)


def test_holding_gives_a_long_press(panel_rig):
    seat, button = first_button(panel_rig.device)
    panel_rig.press(seat, button)
    assert [e.kind for e in panel_rig.drain(3.0)] == [PressKind.PRESS, PressKind.LONG_PRESS]


def test_second_seat_reports_its_own_seat(panel_rig):
    panel = panel_rig.device
    seat = panel.seats[1]
    panel_rig.press(seat, panel.buttons(seat)[-1])
    assert [(e.seat, e.button) for e in panel_rig.drain()] == [(seat, panel.buttons(seat)[-1])]


@pytest.mark.parametrize("state", [LightState.ON, LightState.OFF])
def test_light_follows_set_light(panel_rig, state):
    seat = panel_rig.device.seats[0]
    panel_rig.device.set_light(seat, state)
    panel_rig.drain()
    assert panel_rig.light(seat) is state


def test_light_of_unknown_seat_raises_key_error(panel_rig):
    with pytest.raises(KeyError):
        panel_rig.device.set_light(99, LightState.ON)


def test_close_twice_is_harmless(any_panel):
    any_panel.device.close()
    any_panel.device.close()
