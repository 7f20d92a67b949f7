"""Seat panels: buttons (debounced, with long press) and a turn light per seat.

Debouncing and long-press detection happen here, on raw pin edges timestamped by the injected
:class:`~hardware.clock.Clock`, rather than in gpiozero (whose timing uses the real clock): so the
same code runs on the Pi and under a simulated clock in tests. A change counts once the pin has
stayed in its new state for ``bounce_time``; a press held ``hold_time`` also gives a long press.
"""

from __future__ import annotations

import os
import tempfile
import threading
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Mapping, MutableMapping

from controller.games.errors import DeviceDisconnected, DeviceError
from hardware.clock import Clock
from hardware.config import PanelConfig
from hardware.devices import (
    ButtonEvent, DeviceFailing, DeviceStatus, EverySeat, LightState, PressKind,
)


def give_lgpio_a_writable_directory(env: MutableMapping[str, str] | None = None) -> str:
    """Point lgpio at a writable directory for its notification pipes (``.lgd-nfy*``).

    lgpio creates them in ``$LG_WD`` or the working directory, which the service unit's
    sandbox may make read-only; then every GPIO fails. Prefers systemd's ``$STATE_DIRECTORY``,
    then a writable working directory, then the temporary directory. Returns the choice.
    """
    if env is None:
        env = os.environ
    if env.get("LG_WD"):
        return env["LG_WD"]
    state = env.get("STATE_DIRECTORY", "").split(":")[0]
    choice = state or (os.getcwd() if os.access(os.getcwd(), os.W_OK) else tempfile.gettempdir())
    env["LG_WD"] = choice
    return choice


@dataclass
class Debouncer:
    """One button's debouncing: feed raw edges with :meth:`edge`, collect with :meth:`settle`.

    >>> button = Debouncer(seat=0, button="call", bounce_time=0.02, hold_time=1.0)
    >>> for at, closed in [(0.0, True), (0.005, False), (0.01, True)]:
    ...     _ = button.edge(closed, at)
    >>> [(e.kind.value, e.at) for e in button.settle(now=0.1)]
    [('press', 0.01)]
    """

    seat: int
    button: str
    bounce_time: float
    hold_time: float
    raw: bool = False
    raw_at: float = 0.0
    pressed: bool = False
    pressed_at: float = 0.0
    long_sent: bool = False

    def edge(self, pressed: bool, at: float) -> list[ButtonEvent]:
        """The pin changed to ``pressed`` at ``at``; returns events settled before this edge."""
        events = self.settle(at)
        if pressed != self.raw:
            self.raw, self.raw_at = pressed, at
        return events

    def settle(self, now: float) -> list[ButtonEvent]:
        """The events that are certain by ``now``, oldest first."""
        events = self._long_press(min(now, self._change_due()))
        if self.raw != self.pressed and now - self.raw_at >= self.bounce_time:
            events.append(self._change())
        events += self._long_press(now)
        return events

    def _change_due(self) -> float:
        if self.raw != self.pressed:
            return self.raw_at + self.bounce_time
        return float("inf")

    def _change(self) -> ButtonEvent:
        self.pressed = self.raw
        if self.pressed:
            self.pressed_at, self.long_sent = self.raw_at, False
        kind = PressKind.PRESS if self.pressed else PressKind.RELEASE
        return ButtonEvent(self.seat, self.button, kind, self.raw_at)

    def _long_press(self, now: float) -> list[ButtonEvent]:
        due = self.pressed_at + self.hold_time
        if not self.pressed or self.long_sent or now < due:
            return []
        self.long_sent = True
        return [ButtonEvent(self.seat, self.button, PressKind.LONG_PRESS, due)]


class DebouncedButtons:
    """The debouncers of a whole panel and the queue of their events (thread safe)."""

    def __init__(self, layout: Mapping[int, tuple[str, ...]], clock: Clock,
                 bounce_time: float, hold_time: float) -> None:
        self.clock = clock
        self.layout = {seat: tuple(names) for seat, names in layout.items()}
        self._buttons = {(seat, name): Debouncer(seat, name, bounce_time, hold_time)
                         for seat, names in self.layout.items() for name in names}
        self._queue: list[ButtonEvent] = []
        self._lock = threading.Lock()

    def edge(self, seat: int, button: str, pressed: bool) -> None:
        """Record a raw edge of ``button`` at ``seat`` now."""
        with self._lock:
            self._queue += self._buttons[(seat, button)].edge(pressed, self.clock.now())

    def poll(self) -> list[ButtonEvent]:
        """Every settled event since the last poll, oldest first."""
        now = self.clock.now()
        with self._lock:
            for debouncer in self._buttons.values():
                self._queue += debouncer.settle(now)
            events, self._queue = self._queue, []
        return sorted(events, key=lambda e: e.at)

    def buttons(self, seat: int) -> tuple[str, ...]:
        """The button names of ``seat``.

        :raises KeyError: no such seat on this panel.
        """
        return self.layout[seat]


class _DebouncedPanel(EverySeat):
    """What both panels share: a name and the debounced buttons of their seats."""

    def __init__(self, name: str, buttons: DebouncedButtons) -> None:
        self._name = name
        self._buttons = buttons

    @property
    def name(self) -> str:
        """The device's name."""
        return self._name

    @property
    def seats(self) -> tuple[int, ...]:
        """The seats of this panel."""
        return tuple(self._buttons.layout)

    def buttons(self, seat: int) -> tuple[str, ...]:
        """The button names of ``seat``.

        :raises KeyError: no such seat.
        """
        return self._buttons.buttons(seat)


class GpioPanel(_DebouncedPanel):
    """Seat panels wired to the Pi's GPIO: buttons to ground (pull-ups on), lights via LEDs.

    ``pin_factory`` is gpiozero's pin factory (``MockFactory()`` in tests, None for the
    default on a Pi).
    """

    def __init__(self, config: PanelConfig, clock: Clock, pin_factory: Any = None,
                 name: str = "panel") -> None:
        layout = {s.seat: tuple(s.buttons) for s in config.seats}
        super().__init__(name, DebouncedButtons(layout, clock, config.bounce_time,
                                                config.hold_time))
        self._config = config
        self._inputs: list[Any] = []
        self._lights: dict[int, Any] = {}
        self._error = ""
        try:
            self._open(pin_factory)
        except Exception as err:  # gpiozero raises many kinds: pin in use, no factory, ...
            self.close()
            self._error = f"{type(err).__name__}: {err}"

    def _open(self, pin_factory: Any) -> None:
        give_lgpio_a_writable_directory()
        from gpiozero import LED, DigitalInputDevice  # type: ignore[import-untyped]
        with warnings.catch_warnings(record=True) as fallbacks:
            # gpiozero tries each pin factory in turn and warns why each failed; its final
            # "Unable to load any default pin factory" says none of that, so keep the reasons
            warnings.simplefilter("always")
            try:
                self._open_pins(pin_factory, DigitalInputDevice, LED)
            except Exception as err:
                reasons = [str(w.message) for w in fallbacks]
                raise type(err)("; ".join([str(err), *reasons])) from err

    def _open_pins(self, pin_factory: Any, input_device: Any, led: Any) -> None:
        for seat in self._config.seats:
            for button, pin in seat.buttons.items():
                device = input_device(pin, pull_up=True, bounce_time=None,
                                      pin_factory=pin_factory)
                device.when_activated = self._edge_callback(seat.seat, button, True)
                device.when_deactivated = self._edge_callback(seat.seat, button, False)
                self._inputs.append(device)
            if seat.light is not None:
                self._lights[seat.seat] = led(seat.light, pin_factory=pin_factory)

    def _edge_callback(self, seat: int, button: str, pressed: bool) -> Callable[[], None]:
        return lambda: self._buttons.edge(seat, button, pressed)

    def poll(self) -> list[ButtonEvent]:
        """Debounced button events since the last poll.

        :raises DeviceError: the GPIO pins could not be opened.
        """
        self._raise_if_broken()
        return self._buttons.poll()

    def set_light(self, seat: int, state: LightState) -> None:
        """Switch ``seat``'s light (no-op for a seat wired without one).

        :raises KeyError: no such seat.
        :raises DeviceFailing: the light's pin cannot be written (lgpio's error, gpiozero's):
            the table catches a device's errors, not the GPIO library's, and a beat that ended
            in one ended the table's loop.
        """
        self._raise_if_broken()
        if seat not in self.seats:
            raise KeyError(f"no seat {seat!r} on this panel; seats: {self.seats}")
        led = self._lights.get(seat)
        if led is None:
            return
        try:
            _switch(led, state)
        except Exception as err:  # gpiozero and lgpio raise many kinds, none a DeviceError
            pin = next(s.light for s in self._config.seats if s.seat == seat)
            raise DeviceFailing(DeviceStatus.failing(
                self._name, f"GPIO {pin} cannot be switched ({type(err).__name__}: {err})",
                f"check the light's wiring to GPIO {pin} and that no other program uses the "
                "pin")) from err

    def _raise_if_broken(self) -> None:
        if self._error:
            raise DeviceFailing(self.check())

    def check(self) -> DeviceStatus:
        """OK when every pin opened; otherwise the error and the usual causes."""
        if not self._error:
            return DeviceStatus.healthy(self._name)
        return DeviceStatus.failing(
            self._name, f"GPIO pins could not be opened ({self._error})",
            "run on the Raspberry Pi as a user in the 'gpio' group, check [panel.seats] pins "
            "in table.toml, and that no other program uses them")

    def close(self) -> None:
        """Release every pin."""
        for device in [*self._inputs, *self._lights.values()]:
            device.close()
        self._inputs, self._lights = [], {}


def _switch(led: Any, state: LightState) -> None:
    """Switch a gpiozero ``LED`` to ``state``."""
    if state is LightState.ON:
        led.on()
    elif state is LightState.BLINK:
        led.blink(on_time=0.4, off_time=0.4, background=True)
    else:
        led.off()


class SimPanel(_DebouncedPanel):
    """A simulated seat panel: tests and the simulated table drive its raw button contacts.

    It debounces exactly like :class:`GpioPanel`, so scripted bounces behave as on the table.
    Fault ``disconnected`` makes it fail as a panel whose cable was pulled.
    """

    def __init__(self, layout: Mapping[int, tuple[str, ...]], clock: Clock,
                 bounce_time: float = 0.02, hold_time: float = 1.0, name: str = "panel") -> None:
        super().__init__(name, DebouncedButtons(layout, clock, bounce_time, hold_time))
        self.lights: dict[int, LightState] = {seat: LightState.OFF for seat in layout}
        self.fault = ""
        self.before_use: Callable[[], None] | None = None

    def contact(self, seat: int, button: str, closed: bool) -> None:
        """Close (press) or open (release) the raw contact of ``button`` at ``seat`` now."""
        self._buttons.edge(seat, button, closed)

    def poll(self) -> list[ButtonEvent]:
        """Debounced events since the last poll.

        :raises DeviceDisconnected: fault ``disconnected`` is on.
        """
        self._raise_if_faulty()
        return self._buttons.poll()

    def set_light(self, seat: int, state: LightState) -> None:
        """Switch the simulated light (read it back from :attr:`lights`)."""
        self._raise_if_faulty()
        if seat not in self.lights:
            raise KeyError(seat)
        self.lights[seat] = state

    def _raise_if_faulty(self) -> None:
        if self.before_use is not None:
            self.before_use()
        if self.fault:
            raise DeviceDisconnected(f"{self._name}: simulated fault {self.fault!r}")

    def check(self) -> DeviceStatus:
        """OK unless a fault is injected."""
        if self.before_use is not None:
            self.before_use()
        if not self.fault:
            return DeviceStatus.healthy(self._name)
        return DeviceStatus.failing(self._name, f"panel not answering (simulated {self.fault})",
                                    "reconnect the panel cable (clear the simulated fault)")

    def close(self) -> None:
        """Nothing to release."""
