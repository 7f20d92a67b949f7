"""The simulated clock: time moves only when advanced, and timers run in order when due."""

import pytest

from hardware.clock import Clock, RealClock, SimClock


def test_both_clocks_are_clocks():
    assert isinstance(SimClock(), Clock) and isinstance(RealClock(), Clock)


def test_sim_clock_stands_still_until_advanced():
    clock = SimClock(5.0)
    assert clock.now() == 5.0
    clock.advance(0.25)
    assert clock.now() == 5.25


def test_sim_clock_sleep_advances():
    clock = SimClock()
    clock.sleep(2.0)
    assert clock.now() == 2.0


def test_timers_run_in_due_order_at_their_due_time():
    clock, seen = SimClock(), []
    clock.call_later(2.0, lambda: seen.append(("b", clock.now())))
    clock.call_later(1.0, lambda: seen.append(("a", clock.now())))
    clock.advance(3.0)
    assert seen == [("a", 1.0), ("b", 2.0)]


def test_timer_not_yet_due_does_not_run():
    clock, seen = SimClock(), []
    clock.call_later(1.0, lambda: seen.append(1))
    clock.advance(0.5)
    assert seen == [] and clock.pending() == 1


def test_cancelled_timer_does_not_run():
    clock, seen = SimClock(), []
    clock.call_later(1.0, lambda: seen.append(1)).cancel()
    clock.advance(2.0)
    assert seen == []


def test_timer_scheduled_by_a_timer_runs_in_the_same_advance():
    clock, seen = SimClock(), []
    clock.call_later(1.0, lambda: clock.call_later(0.5, lambda: seen.append(clock.now())))
    clock.advance(2.0)
    assert seen == [1.5]


def test_time_never_goes_back():
    with pytest.raises(ValueError):
        SimClock().advance(-1.0)
