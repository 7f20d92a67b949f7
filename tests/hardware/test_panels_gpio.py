"""gpiozero seat panels on MockFactory pins with the simulated clock: press, release, bounce, hold."""

import pytest
from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from controller.games.errors import DeviceError
from hardware.clock import SimClock
from hardware.config import PanelConfig, SeatPins
from hardware.devices import LightState, PressKind
from hardware.panels import GpioPanel

CONFIG = PanelConfig(bounce_time=0.02, hold_time=1.0,
                     seats=(SeatPins(0, {"raise": 5, "call": 6}, light=19),
                            SeatPins(1, {"raise": 12, "call": 16}, light=None)))


@pytest.fixture
def rig():
    factory, clock = MockFactory(), SimClock(100.0)
    panel = GpioPanel(CONFIG, clock, pin_factory=factory)
    yield panel, factory, clock
    panel.close()


def kinds(events):
    return [(e.seat, e.button, e.kind) for e in events]


def test_press_is_reported_once_the_contact_settles(rig):
    panel, factory, clock = rig
    factory.pin(5).drive_low()
    clock.advance(0.03)
    events = panel.poll()
    assert kinds(events) == [(0, "raise", PressKind.PRESS)]
    assert events[0].at == 100.0
    assert panel.poll() == []


def test_press_is_not_reported_before_bounce_time(rig):
    panel, factory, clock = rig
    factory.pin(5).drive_low()
    clock.advance(0.01)
    assert panel.poll() == []


def test_release_follows_press(rig):
    panel, factory, clock = rig
    factory.pin(6).drive_low()
    clock.advance(0.1)
    factory.pin(6).drive_high()
    clock.advance(0.1)
    assert kinds(panel.poll()) == [(0, "call", PressKind.PRESS), (0, "call", PressKind.RELEASE)]


def test_bouncing_contact_gives_one_press(rig):
    panel, factory, clock = rig
    pin = factory.pin(12)
    for _ in range(5):
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.05)
    assert kinds(panel.poll()) == [(1, "raise", PressKind.PRESS)]


def test_glitch_shorter_than_bounce_time_is_ignored(rig):
    panel, factory, clock = rig
    factory.pin(16).drive_low()
    clock.advance(0.005)
    factory.pin(16).drive_high()
    clock.advance(0.5)
    assert panel.poll() == []


def test_bouncing_release_gives_one_release(rig):
    panel, factory, clock = rig
    pin = factory.pin(5)
    pin.drive_low()
    clock.advance(0.2)
    for _ in range(3):
        pin.drive_high()
        clock.advance(0.003)
        pin.drive_low()
        clock.advance(0.003)
    pin.drive_high()
    clock.advance(0.05)
    assert kinds(panel.poll()) == [(0, "raise", PressKind.PRESS), (0, "raise", PressKind.RELEASE)]


def test_holding_gives_long_press_at_hold_time(rig):
    panel, factory, clock = rig
    factory.pin(5).drive_low()
    clock.advance(1.5)
    events = panel.poll()
    assert kinds(events) == [(0, "raise", PressKind.PRESS), (0, "raise", PressKind.LONG_PRESS)]
    assert events[1].at == pytest.approx(101.0)


def test_short_press_gives_no_long_press(rig):
    panel, factory, clock = rig
    factory.pin(5).drive_low()
    clock.advance(0.5)
    factory.pin(5).drive_high()
    clock.advance(2.0)
    assert PressKind.LONG_PRESS not in [e.kind for e in panel.poll()]


def test_long_press_is_reported_once_per_hold(rig):
    panel, factory, clock = rig
    factory.pin(6).drive_low()
    clock.advance(1.2)
    first = panel.poll()
    clock.advance(3.0)
    assert [e.kind for e in first].count(PressKind.LONG_PRESS) == 1
    assert panel.poll() == []


def test_long_press_between_polls_keeps_its_order(rig):
    panel, factory, clock = rig
    factory.pin(6).drive_low()
    clock.advance(1.5)
    factory.pin(6).drive_high()
    clock.advance(0.1)
    assert [e.kind for e in panel.poll()] == [PressKind.PRESS, PressKind.LONG_PRESS,
                                              PressKind.RELEASE]


def test_light_drives_its_pin(rig):
    panel, factory, _ = rig
    panel.set_light(0, LightState.ON)
    assert factory.pin(19).state
    panel.set_light(0, LightState.OFF)
    assert not factory.pin(19).state


def test_seat_without_light_ignores_set_light(rig):
    panel, _, _ = rig
    panel.set_light(1, LightState.ON)
    assert panel.check().ok


def test_pin_in_use_makes_check_say_so():
    factory, clock = MockFactory(), SimClock()
    first = GpioPanel(CONFIG, clock, pin_factory=factory)
    second = GpioPanel(CONFIG, clock, pin_factory=factory)
    status = second.check()
    assert not status.ok and "GPIO" in status.problem and "table.toml" in status.fix
    with pytest.raises(DeviceError) as err:
        second.poll()
    # the table shows the error's problem and fix: they were a failing device's (cable, power)
    assert (getattr(err.value, "problem", ""), getattr(err.value, "fix", "")) == (status.problem, status.fix)
    first.close()


def test_open_failure_keeps_gpiozero_s_reasons(monkeypatch):
    import warnings
    from gpiozero.exc import BadPinFactory, PinFactoryFallback  # type: ignore[import-untyped]

    def no_factory(*args, **kwargs):
        warnings.warn(PinFactoryFallback("Falling back from lgpio: No module named 'lgpio'"))
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr("gpiozero.DigitalInputDevice", no_factory)
    status = GpioPanel(CONFIG, SimClock()).check()
    assert not status.ok and "Unable to load" in status.problem and "lgpio" in status.problem


def test_lgpio_gets_a_writable_directory(tmp_path):
    from hardware.panels import give_lgpio_a_writable_directory
    env = {"STATE_DIRECTORY": str(tmp_path)}
    assert give_lgpio_a_writable_directory(env) == str(tmp_path) and env["LG_WD"] == str(tmp_path)
    assert give_lgpio_a_writable_directory({"LG_WD": "/run/x"}) == "/run/x"


def test_a_light_whose_pin_cannot_be_written_is_a_device_error_naming_the_pin():
    # lgpio's gpio_write raises its own error on a pin it lost, which ended the table's loop
    from gpiozero.pins.mock import MockPin

    lost = []

    class Lamp(MockPin):
        def _set_state(self, value):
            if lost:
                raise RuntimeError("'GPIO not allocated'")
            super()._set_state(value)

    panel = GpioPanel(CONFIG, SimClock(), pin_factory=MockFactory(pin_class=Lamp))
    try:
        lost.append(19)
        with pytest.raises(DeviceError) as failed:
            panel.set_light(0, LightState.ON)
        assert failed.value.problem == "GPIO 19 cannot be switched (RuntimeError: 'GPIO not allocated')"
        assert failed.value.fix == "check the light's wiring to GPIO 19 and that no other program uses the pin"
    finally:
        panel.close()
