"""Seat-node main loop: one seat's buttons, lights and RFID readers, reported to the Pi over the link.

:class:`SeatNode` is the loop's body and takes every part as an argument, so the host tests and
the Pi's simulated seat node run this same code with stand-in pins, SPI and serial port;
:func:`main` wires it to the Pico's pins (see ``firmware/README.md``) and runs forever.
"""

import struct

from buttons import Buttons
from leds import Leds
from link import (const, Link, NOTICE_MAX, READER_OK, ROLE_NODE, T_BUTTON, T_NOTICE, T_READER,
                  T_SET_LED, T_TAG, ticks_diff)
from rc522 import RC522, TagWatch

TAG_POLL_MS = const(100)
WATCHDOG_MS = const(4000)     # a pass of the loop hung this long: the Pico resets itself
ERRORS_BEFORE_RESET = const(20)  # exceptions in a row before the node restarts afresh

BUTTON_PINS = (2, 3, 4, 5)
LED_PINS = (15, 14)
SPI_PINS = (18, 19, 16)
READER_CS_PINS = (17,)


class SeatNode:
    """The node's state: ``serial`` has ``read() -> bytes or None`` and ``write(bytes)``."""

    def __init__(self, serial, button_pins, led_pins, readers, now_ms, session):
        now = now_ms()
        self.serial = serial
        self.now_ms = now_ms
        self.link = Link(serial.write, now_ms, session, ROLE_NODE)
        self.buttons = Buttons(button_pins, now)
        self.leds = Leds(led_pins)
        self.watches = [TagWatch(reader) for reader in readers]
        self.reported = [READER_OK for _ in readers]
        self.last_tag_poll = now
        self.errors = 0
        self.errors_in_a_row = 0

    def step(self):
        """One pass of the loop: read the link, the buttons and (every 100 ms) the readers."""
        now = self.now_ms()
        data = self.serial.read()
        if data:
            for kind, payload in self.link.feed(data):
                self._on_message(kind, payload, now)
        for index, kind in self.buttons.poll(now):
            self.link.send(T_BUTTON, struct.pack(">BBI", index, kind, now & 0xFFFFFFFF))
        self.errors_in_a_row = 0
        if ticks_diff(now, self.last_tag_poll) >= TAG_POLL_MS:
            self.last_tag_poll = now
            self._poll_tags()
        self.leds.update(now)
        self.link.poll()

    def _on_message(self, kind, payload, now):
        if kind == T_SET_LED and len(payload) == 2:
            self.leds.set(payload[0], payload[1], now)

    def _poll_tags(self):
        now = self.now_ms() & 0xFFFFFFFF
        for index, watch in enumerate(self.watches):
            for change, uid in watch.poll():
                self.link.send(T_TAG, struct.pack(">BBI", index, change, now) + uid)
            state = watch.state()
            if state != self.reported[index]:
                self.reported[index] = state
                self.link.send(T_READER, struct.pack(">BBI", index, state, now))

    def notice(self, text):
        """Tell the Pi something went wrong here (shown in its log), cut to fit one frame."""
        self.link.send(T_NOTICE, text.encode()[:NOTICE_MAX])

    def survive(self, error):
        """An exception escaped a pass of the loop: report it; True when the node should restart
        (it keeps failing, so a fresh start is the better bet)."""
        self.errors += 1
        self.errors_in_a_row += 1
        self.notice("error: " + type(error).__name__ + ": " + str(error))
        return self.errors_in_a_row >= ERRORS_BEFORE_RESET


class UsbSerial:
    """The Pico's USB CDC serial port as a raw byte pipe (keyboard interrupt switched off)."""

    def __init__(self):
        import micropython
        import select
        import sys

        micropython.kbd_intr(-1)
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self):
        """The bytes waiting now, or ``None``."""
        data = bytearray()
        while len(data) < 256 and self.poller.poll(0):
            byte = self.stdin.read(1)
            if not byte:
                break
            data.extend(byte)
        return bytes(data) if data else None

    def write(self, data):
        """Send ``data`` to the Pi."""
        self.stdout.write(data)


def main():
    """Run the seat node on a Pico wired as the README says; never returns.

    Holding button 0 while the Pico powers up returns at once instead, leaving the REPL to
    ``mpremote`` (the running firmware switches Ctrl-C off, so mpremote cannot stop it).
    """
    import os
    import time

    import machine
    from machine import SPI, Pin

    buttons = [Pin(number, Pin.IN, Pin.PULL_UP) for number in BUTTON_PINS]
    if buttons[0].value() == 0:
        return
    leds = [Pin(number, Pin.OUT) for number in LED_PINS]
    sck, mosi, miso = SPI_PINS
    spi = SPI(0, baudrate=1000000, sck=Pin(sck), mosi=Pin(mosi), miso=Pin(miso))
    readers = [RC522(spi, Pin(number, Pin.OUT), time.ticks_us, time.sleep_us)
               for number in READER_CS_PINS]
    for reader in readers:
        try:
            reader.init()
        except Exception:  # a failed reader is reported by its first poll; the node runs on
            pass
    session = struct.unpack(">H", os.urandom(2))[0]
    node = SeatNode(UsbSerial(), buttons, leds, readers, time.ticks_ms, session)
    if machine.reset_cause() == machine.WDT_RESET:
        node.notice("restarted by the watchdog: the loop hung")
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    run(node, watchdog.feed, time.sleep_ms, machine.reset)


def run(node, feed, sleep_ms, reset, passes=-1):
    """The loop: every pass feeds the watchdog; any exception is reported and survived, and
    one that keeps coming restarts the node (``passes`` bounds the loop for tests)."""
    while passes != 0:
        passes -= 1
        try:
            node.step()
        except Exception as error:  # anything at all: the node must never stop
            if node.survive(error):
                node.link.poll()
                reset()
        feed()
        sleep_ms(1)


if __name__ == "__main__":
    main()
