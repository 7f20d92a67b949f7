"""Debounced seat buttons with long press, polled from the main loop (MicroPython subset).

A button is any pin object with ``value()``; the buttons are wired to ground with the pull-up
on, so a pressed button reads 0. A change counts once the pin has held its new level for
``debounce_ms``; a button held ``long_ms`` reports one long press before its release.
"""

from link import const, BUTTON_LONG, BUTTON_PRESS, BUTTON_RELEASE, ticks_diff

DEBOUNCE_MS = const(30)
LONG_MS = const(800)


class Button:
    """One debounced button on an active-low pin."""

    def __init__(self, pin, now, debounce_ms=DEBOUNCE_MS, long_ms=LONG_MS):
        self.pin = pin
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.raw = self._read()
        self.changed_at = now
        self.pressed = self.raw
        self.pressed_at = now
        self.long_sent = False

    def _read(self):
        return self.pin.value() == 0

    def poll(self, now):
        """The event kind this poll brings (press, release, long press) or ``None``."""
        raw = self._read()
        if raw != self.raw:
            self.raw = raw
            self.changed_at = now
        if raw != self.pressed and ticks_diff(now, self.changed_at) >= self.debounce_ms:
            return self._settle(raw, now)
        if self.pressed and not self.long_sent and ticks_diff(now, self.pressed_at) >= self.long_ms:
            self.long_sent = True
            return BUTTON_LONG
        return None

    def _settle(self, pressed, now):
        self.pressed = pressed
        if pressed:
            self.pressed_at = now
            self.long_sent = False
            return BUTTON_PRESS
        return BUTTON_RELEASE


class Buttons:
    """The seat's buttons, numbered in wiring order."""

    def __init__(self, pins, now, debounce_ms=DEBOUNCE_MS, long_ms=LONG_MS):
        self.buttons = [Button(pin, now, debounce_ms, long_ms) for pin in pins]

    def poll(self, now):
        """``[(button index, event kind), ...]`` for every button whose state changed."""
        events = []
        for index, button in enumerate(self.buttons):
            kind = button.poll(now)
            if kind is not None:
                events.append((index, kind))
        return events
