"""The seat's lights: on, off and blinking."""

from __future__ import annotations

from types import ModuleType, SimpleNamespace
from typing import Any

from hardware.seatnode_firmware import firmware

LINK = firmware().link


def leds(fw: SimpleNamespace, machine: ModuleType) -> tuple[Any, list[Any]]:
    pins = [machine.Pin(15, machine.Pin.OUT), machine.Pin(14, machine.Pin.OUT)]
    return fw.leds.Leds(pins), pins


def test_on_and_off_drive_the_pin(fw: SimpleNamespace, machine: ModuleType) -> None:
    lights, pins = leds(fw, machine)
    lights.set(0, LINK.LED_ON, 0)
    assert pins[0].value() == 1
    lights.set(0, LINK.LED_OFF, 5)
    assert pins[0].value() == 0


def test_blink_toggles_every_quarter_second(fw: SimpleNamespace, machine: ModuleType) -> None:
    lights, pins = leds(fw, machine)
    lights.set(1, LINK.LED_BLINK, 1000)
    seen = []
    for ms in (1000, 1249, 1250, 1499, 1500):
        lights.update(ms)
        seen.append(pins[1].value())
    assert seen == [1, 1, 0, 0, 1]


def test_unknown_light_or_mode_is_ignored(fw: SimpleNamespace, machine: ModuleType) -> None:
    lights, _ = leds(fw, machine)
    assert not lights.set(7, LINK.LED_ON, 0)
    assert not lights.set(0, 9, 0)
    assert lights.modes() == [LINK.LED_OFF, LINK.LED_OFF]
