"""A soak of the seat-node link: the firmware and the Pi driver under line noise and outages.

The firmware (run by :class:`~hardware.seatnode_sim.SimSeatNode`) presses buttons at random
while the Pi sends light commands; :class:`~hardware.seatnode_sim.LineNoise` damages the frames
both ways and injects more (replays, mangled copies, garbage) until ``damaged`` frames have gone
by, and the cable is pulled now and then. The report holds what each side sent and what the
other received, so a test can check that nothing was lost, doubled or reordered
(``tests/hardware/test_seatnode_soak.py``) and ``bench/seatnode_link.py`` can time it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hardware.clock import SimClock
from hardware.devices import LightState, PressKind
from hardware.seatnode import PRESS_KINDS, SeatNodeLink
from hardware.seatnode_firmware import firmware
from hardware.seatnode_sim import LIGHT_STATES, LineNoise, SimSeatNode

STEP = 0.005
Press = tuple[int, PressKind, int]
Light = tuple[int, LightState]


@dataclass(frozen=True)
class SoakReport:
    """What both ends of a soaked link sent and received."""

    presses_made: tuple[Press, ...]
    presses_received: tuple[Press, ...]
    lights_sent: tuple[Light, ...]
    lights_applied: tuple[Light, ...]
    damaged: int
    outages: int
    made_unplugged: int
    steps: int
    events_refused: int
    resends: int
    bad_frames: int

    @property
    def sim_seconds(self) -> float:
        """Simulated time the soak took."""
        return self.steps * STEP


@dataclass
class _Log:
    presses: list[Press] = field(default_factory=list)
    lights: list[Light] = field(default_factory=list)
    unplugged: int = 0


def _spy(node: SimSeatNode, log: _Log) -> None:
    """Record what the firmware queues for the Pi and which light commands it applies."""
    link: Any = node.node.link
    leds: Any = node.node.leds
    send, set_led = link.send, leds.set
    t_button = firmware().link.T_BUTTON

    def spy_send(kind: int, payload: bytes) -> bool:
        accepted = bool(send(kind, payload))
        if accepted and kind == t_button:
            log.presses.append((payload[0], PRESS_KINDS[payload[1]],
                                int.from_bytes(payload[2:6], "big")))
            log.unplugged += not node.plugged
        return accepted

    def spy_set(index: int, mode: int, now: int) -> bool:
        log.lights.append((index, LIGHT_STATES[mode]))
        return bool(set_led(index, mode, now))

    link.send, leds.set = spy_send, spy_set


class _Player:
    """Presses and releases the node's buttons at random, each held at least 40 ms."""

    def __init__(self, node: SimSeatNode, rng: random.Random) -> None:
        self.node, self.rng = node, rng
        self.down = [False] * len(node.buttons)
        self.since = [0] * len(node.buttons)

    def play(self, step: int) -> None:
        index = self.rng.randrange(len(self.down))
        chance = 0.004 if self.down[index] else 0.02
        if step - self.since[index] >= 8 and self.rng.random() < chance:
            self.toggle(index, step)

    def toggle(self, index: int, step: int) -> None:
        self.down[index] = not self.down[index]
        self.since[index] = step
        (self.node.press if self.down[index] else self.node.release)(index)

    def let_go(self, step: int) -> None:
        for index, down in enumerate(self.down):
            if down:
                self.toggle(index, step)


class _Soak:
    """One soak run; :meth:`run` returns the report."""

    def __init__(self, damaged: int, seed: int, inject: int, outage_every: int) -> None:
        self.target, self.inject, self.outage_every = damaged, inject, outage_every
        self.rng = random.Random(seed)
        self.clock = SimClock()
        self.noise = LineNoise(random.Random(seed + 1))
        self.node = SimSeatNode(self.clock, session=seed & 0xFFFF, noise=self.noise)
        self.link: SeatNodeLink = self.node.link(session=(seed + 1) & 0xFFFF, retry_after=0.2)
        self.made = _Log()
        self.received: list[Press] = []
        self.sent: list[Light] = []
        self.player = _Player(self.node, self.rng)
        self.outages = 0
        self.steps = 0
        _spy(self.node, self.made)

    def run(self) -> SoakReport:
        while self.noise.damaged < self.target:
            self.step(noisy=True)
        self.node.noise = None
        self.node.plug()
        self.player.let_go(self.steps)
        for _ in range(20_000):
            self.step(noisy=False)
            if self.settled():
                break
        return self.report()

    def step(self, noisy: bool) -> None:
        self.steps += 1
        if noisy:
            self.disturb()
        self.clock.advance(STEP)
        self.link.pump()
        self.received += [(b.index, b.kind, b.node_ms) for b in self.link.take_buttons()]

    def disturb(self) -> None:
        self.player.play(self.steps)
        if self.rng.random() < 0.01:
            light = (self.rng.randrange(2), self.rng.choice(list(LightState)))
            self.sent.append(light)
            self.link.set_led(*light)
        if self.steps % self.outage_every == 0:
            self.outages += 1
            self.node.unplug()
        elif self.steps % self.outage_every == self.outage_every // 10:
            self.node.plug()
        if self.node.plugged:
            for _ in range(self.inject):
                self.node.to_pi.extend(self.noise.inject())
                self.node.to_node.extend(self.noise.inject())

    def settled(self) -> bool:
        return self.node.pending() == 0 and self.link.unacknowledged == 0

    def report(self) -> SoakReport:
        node_link: Any = self.node.node.link
        return SoakReport(
            tuple(self.made.presses), tuple(self.received), tuple(self.sent),
            tuple(self.made.lights), self.noise.damaged, self.outages, self.made.unplugged,
            self.steps, int(node_link.dropped), int(node_link.resends) + self.link.resends,
            int(node_link.decoder.bad) + self.link.damaged_frames)


def soak(damaged: int = 100_000, seed: int = 1, inject: int = 3,
         outage_every: int = 2_000) -> SoakReport:
    """Run the link until ``damaged`` frames were damaged or injected; what each side saw.

    ``inject`` extra damaged frames go each way every 5 ms step; every ``outage_every`` steps
    the cable is pulled for a tenth of that time.
    """
    return _Soak(damaged, seed, inject, outage_every).run()
