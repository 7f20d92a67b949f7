"""100,000 damaged frames: no crash, and every button press and light command arrives exactly once, in order.

The firmware's own code and the Pi driver talk through in-memory pipes with line noise (bit
flips, truncation, drops, duplicates, replays of old frames, garbage between frames) and a
pulled cable every 10 simulated seconds; presses made during an outage must arrive after it.
"""

from __future__ import annotations

import pytest

from hardware.devices import PressKind
from hardware.seatnode_soak import SoakReport, soak


@pytest.fixture(scope="module")
def report() -> SoakReport:
    """One soak of 100,000 damaged or injected frames (about 1-5 s of real time)."""
    return soak(damaged=100_000, seed=20261129)


def test_soak_damaged_a_hundred_thousand_frames(report: SoakReport) -> None:
    assert report.damaged >= 100_000 and report.bad_frames > 40_000


def test_soak_pulled_the_cable_several_times(report: SoakReport) -> None:
    assert report.outages >= 5


def test_soak_pressed_buttons_while_the_cable_was_out(report: SoakReport) -> None:
    assert report.made_unplugged >= 5


def test_every_button_event_arrives_once_in_order(report: SoakReport) -> None:
    assert report.presses_received == report.presses_made


def test_soak_made_presses_releases_and_long_presses(report: SoakReport) -> None:
    kinds = {kind for _, kind, _ in report.presses_made}
    assert kinds == set(PressKind) and len(report.presses_made) > 100


def test_no_event_was_refused_by_a_full_queue(report: SoakReport) -> None:
    assert report.events_refused == 0


def test_every_light_command_is_applied_once_in_order(report: SoakReport) -> None:
    assert report.lights_applied == report.lights_sent and len(report.lights_sent) > 100


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_short_soaks_with_other_seeds_lose_and_double_nothing(seed: int) -> None:
    short = soak(damaged=5_000, seed=seed, outage_every=300)
    assert short.presses_received == short.presses_made
    assert short.lights_applied == short.lights_sent and short.outages >= 1
