"""The seat's lights: off, on or blinking, driven from the main loop (MicroPython subset)."""

from link import const, LED_BLINK, LED_OFF, LED_ON, ticks_diff

BLINK_HALF_MS = const(250)


class Led:
    """One light on an output pin (1 = lit)."""

    def __init__(self, pin):
        self.pin = pin
        self.mode = LED_OFF
        self.since = 0
        pin.value(0)

    def set(self, mode, now):
        """Switch to ``LED_OFF``, ``LED_ON`` or ``LED_BLINK``; other values are ignored (False)."""
        if mode not in (LED_OFF, LED_ON, LED_BLINK):
            return False
        self.mode = mode
        self.since = now
        self.pin.value(1 if mode != LED_OFF else 0)
        return True

    def update(self, now):
        """Advance blinking to time ``now``."""
        if self.mode == LED_BLINK:
            phase = (ticks_diff(now, self.since) // BLINK_HALF_MS) % 2
            self.pin.value(1 - phase)


class Leds:
    """The seat's lights, numbered in wiring order."""

    def __init__(self, pins):
        self.leds = [Led(pin) for pin in pins]

    def set(self, index, mode, now):
        """Set light ``index``; False when there is no such light or mode."""
        if not 0 <= index < len(self.leds):
            return False
        return self.leds[index].set(mode, now)

    def update(self, now):
        """Advance every blinking light to time ``now``."""
        for led in self.leds:
            led.update(now)

    def modes(self):
        """The mode of every light, in order."""
        return [led.mode for led in self.leds]
