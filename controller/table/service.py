"""Running a table as a service: the loop, a clean stop on SIGTERM, and systemd's notifications.

systemd's notify protocol (``sd_notify``) is a datagram to the socket named by
``$NOTIFY_SOCKET``: ``READY=1`` once the table runs, ``WATCHDOG=1`` at least every half of
``$WATCHDOG_USEC``, ``STOPPING=1`` on the way out. Outside systemd the variables are unset and
nothing is sent. (The format is systemd's ``sd_notify(3)``; an abstract socket's name starts
with ``@``.)
"""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from typing import Any, Callable, Mapping

BEAT = 0.03
"""Seconds between two polls of the devices on the real table."""


class Notifier:
    """Sends systemd notifications, if systemd asked for them."""

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        watchdog = env.get("WATCHDOG_USEC", "")
        self.every = int(watchdog) / 2e6 if watchdog.isdigit() and int(watchdog) > 0 else None
        self._last = 0.0

    def send(self, message: str) -> bool:
        """Send ``message`` (e.g. ``READY=1``); False when not under systemd or it failed."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto(message.encode(), self.address)
        except OSError:
            return False
        return True

    def alive(self, now: float) -> None:
        """Tell the watchdog the loop still turns (at most every half watchdog period)."""
        if self.every is not None and now - self._last >= self.every:
            self._last = now
            self.send("WATCHDOG=1")


class Stop:
    """Set by SIGTERM or SIGINT: the loop ends and the devices are closed."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def install(self) -> None:
        """Handle SIGTERM and SIGINT (only from the main thread)."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self.event.set())


def serve_table(tick: Callable[[], bool], stop: Stop, notifier: Notifier,
                sleep: Callable[[float], None] = time.sleep,
                clock: Callable[[], float] = time.monotonic) -> None:
    """Turn the table's loop until ``stop``: poll the devices, keep the watchdog fed."""
    notifier.send("READY=1")
    while not stop.event.is_set():
        busy = tick()
        notifier.alive(clock())
        if not busy:
            sleep(BEAT)
    notifier.send("STOPPING=1")


def close_all(*things: Any) -> None:
    """Close every thing given that has a ``close`` (devices, registry, record), in order."""
    for thing in things:
        if thing is not None:
            thing.close()
