"""Seat-node main loop: one seat's buttons, lights and RFID readers, reported to the Pi over the link.

:class:`SeatNode` is the loop's body and takes every part as an argument, so the host tests and
the Pi's simulated seat node run this same code with stand-in pins, SPI and serial port;
:func:`main` wires it to the Pico's pins (see ``firmware/README.md``) and runs forever.
"""

import struct

from buttons import Buttons
from leds import Leds
from link import const, Link, ROLE_NODE, T_BUTTON, T_SET_LED, T_TAG, ticks_diff
from rc522 import RC522, TagWatch

TAG_POLL_MS = const(100)

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
        self.last_tag_poll = now

    def step(self):
        """One pass of the loop: read the link, the buttons and (every 100 ms) the readers."""
        now = self.now_ms()
        data = self.serial.read()
        if data:
            for kind, payload in self.link.feed(data):
                self._on_message(kind, payload, now)
        for index, kind in self.buttons.poll(now):
            self.link.send(T_BUTTON, struct.pack(">BBI", index, kind, now & 0xFFFFFFFF))
        if ticks_diff(now, self.last_tag_poll) >= TAG_POLL_MS:
            self.last_tag_poll = now
            self._poll_tags()
        self.leds.update(now)
        self.link.poll()

    def _on_message(self, kind, payload, now):
        if kind == T_SET_LED and len(payload) == 2:
            self.leds.set(payload[0], payload[1], now)

    def _poll_tags(self):
        for index, watch in enumerate(self.watches):
            for change, uid in watch.poll():
                self.link.send(T_TAG, bytes((index, change)) + uid)


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

    from machine import SPI, Pin

    buttons = [Pin(number, Pin.IN, Pin.PULL_UP) for number in BUTTON_PINS]
    if buttons[0].value() == 0:
        return
    leds = [Pin(number, Pin.OUT) for number in LED_PINS]
    sck, mosi, miso = SPI_PINS
    spi = SPI(0, baudrate=1000000, sck=Pin(sck), mosi=Pin(mosi), miso=Pin(miso))
    readers = [RC522(spi, Pin(number, Pin.OUT)) for number in READER_CS_PINS]
    for reader in readers:
        try:
            reader.init()
        except OSError:
            pass
    session = struct.unpack(">H", os.urandom(2))[0]
    node = SeatNode(UsbSerial(), buttons, leds, readers, time.ticks_ms, session)
    while True:
        try:
            node.step()
        except OSError:
            pass
        time.sleep_ms(1)


if __name__ == "__main__":
    main()
