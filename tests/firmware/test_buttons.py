"""Debounced buttons and long press, on fake pins with a hand-driven millisecond clock."""

from __future__ import annotations

from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from hardware.seatnode_firmware import firmware

LINK = firmware().link


@pytest.fixture
def pin(machine: ModuleType) -> Any:
    """A button input with the pull-up on (idle high)."""
    return machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP)


def run(button: Any, levels: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Hold each ``(until_ms, level)`` on the pin until that ms, polling every ms; the events."""
    events = []
    ms = 0
    for until, level in levels:
        button.pin.value(level)
        while ms < until:
            kind = button.poll(ms)
            if kind is not None:
                events.append((ms, kind))
            ms += 1
    return events


def test_press_counts_after_the_debounce_time(fw: SimpleNamespace, pin: Any) -> None:
    button = fw.buttons.Button(pin, 0, debounce_ms=30)
    assert run(button, [(10, 1), (100, 0)]) == [(40, LINK.BUTTON_PRESS)]


def test_bounce_shorter_than_the_debounce_time_is_ignored(fw: SimpleNamespace, pin: Any) -> None:
    button = fw.buttons.Button(pin, 0, debounce_ms=30)
    bounces = [(10, 1), (15, 0), (20, 1), (25, 0), (28, 1), (200, 1)]
    assert run(button, bounces) == []


def test_bouncy_press_gives_one_press(fw: SimpleNamespace, pin: Any) -> None:
    button = fw.buttons.Button(pin, 0, debounce_ms=30)
    events = run(button, [(10, 1), (12, 0), (14, 1), (16, 0), (18, 1), (20, 0), (200, 0)])
    assert events == [(48, LINK.BUTTON_PRESS)]


def test_release_follows_press(fw: SimpleNamespace, pin: Any) -> None:
    button = fw.buttons.Button(pin, 0, debounce_ms=30)
    events = run(button, [(10, 1), (100, 0), (300, 1)])
    assert events == [(40, LINK.BUTTON_PRESS), (130, LINK.BUTTON_RELEASE)]


def test_held_button_reports_one_long_press_then_release(fw: SimpleNamespace, pin: Any) -> None:
    button = fw.buttons.Button(pin, 0, debounce_ms=30, long_ms=800)
    events = run(button, [(0, 0), (2000, 0), (2100, 1)])
    assert events == [(30, LINK.BUTTON_PRESS), (830, LINK.BUTTON_LONG), (2030, LINK.BUTTON_RELEASE)]


def test_short_press_has_no_long_press(fw: SimpleNamespace, pin: Any) -> None:
    button = fw.buttons.Button(pin, 0, debounce_ms=30, long_ms=800)
    events = run(button, [(0, 0), (500, 1), (2000, 1)])
    assert LINK.BUTTON_LONG not in [kind for _, kind in events]


def test_buttons_report_their_wiring_index(fw: SimpleNamespace, machine: ModuleType) -> None:
    pins = [machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in (2, 3, 4)]
    buttons = fw.buttons.Buttons(pins, 0, debounce_ms=5)
    pins[2].value(0)
    assert buttons.poll(1) == [] and buttons.poll(6) == [(2, LINK.BUTTON_PRESS)]
