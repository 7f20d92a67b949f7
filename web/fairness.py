"""Are the dice fair? Face counts per die kind over the recorded rolls, and a chi-square test.

The counts come from the public record: each die position (a community die, a seat's die) is
counted when a face appears on it or changes (a reroll) within a hand, so the test uses only
what the room saw. The p-value is the chi-square distribution's upper tail, computed here with
the regularized incomplete gamma function (no scipy on the table).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from controller.games.dice import DieKind
from controller.games.view import DieView
from controller.table.records import TableState

LOADED_P = 0.001     # below this p-value a die kind is flagged as looking loaded
MIN_EXPECTED = 5     # the test means little with fewer than five rolls expected per face


@dataclass(frozen=True)
class FaceTest:
    """A die kind's face counts over ``rolls`` rolls, the chi-square statistic and its p-value."""

    kind: DieKind
    counts: tuple[tuple[str, int], ...]
    rolls: int
    chi_square: float
    p_value: float

    @property
    def enough(self) -> bool:
        """Whether enough dice were rolled for the test to mean something."""
        return self.rolls >= MIN_EXPECTED * len(self.counts)

    @property
    def loaded(self) -> bool:
        """Whether the faces are too uneven for a fair die (with enough rolls to say so)."""
        return self.enough and self.p_value < LOADED_P


def face_tests(states: Iterable[TableState]) -> list[FaceTest]:
    """The test of every die kind seen in ``states`` (successive states of the record)."""
    counts = tally(states)
    return [chi_square_test(kind, counts[kind]) for kind in DieKind if counts[kind]]


def tally(states: Iterable[TableState]) -> dict[DieKind, Counter[str]]:
    """The faces rolled, per die kind: a die counts when its face appears or changes."""
    counts: dict[DieKind, Counter[str]] = {kind: Counter() for kind in DieKind}
    seen: dict[tuple[object, ...], str] = {}
    for state in states:
        for key, die in _positions(state):
            if die.face is not None and seen.get(key) != die.face:
                seen[key] = die.face
                counts[die.kind][die.face] += 1
    return counts


def _positions(state: TableState) -> Iterable[tuple[tuple[object, ...], DieView]]:
    view = state.view
    for index, die in enumerate(view.community):
        yield (state.game_no, view.number, "community", index), die
    for seat in view.seats:
        for index, die in enumerate(seat.dice):
            yield (state.game_no, view.number, seat.seat, index), die
    if view.result is not None:
        for shown in view.result.shown:
            for index, die in enumerate(shown.dice):
                yield (state.game_no, view.result.number, shown.seat, index), die


def chi_square_test(kind: DieKind, counts: Counter[str]) -> FaceTest:
    """Pearson's chi-square test of ``counts`` against a fair die of ``kind``."""
    rolls = sum(counts.values())
    expected = rolls / len(kind.faces)
    statistic = sum((counts[face] - expected) ** 2 / expected for face in kind.faces)
    return FaceTest(kind, tuple((face, counts[face]) for face in kind.faces), rolls,
                    statistic, chi_square_tail(statistic, len(kind.faces) - 1))


def chi_square_tail(statistic: float, dof: int) -> float:
    """P(X >= statistic) for X chi-square with ``dof`` degrees of freedom.

    >>> round(chi_square_tail(11.070, 5), 4)   # the 5 % critical value for a d6
    0.05
    >>> chi_square_tail(0.0, 5)
    1.0
    """
    if statistic <= 0:
        return 1.0
    return _upper_gamma(dof / 2, statistic / 2)


def _upper_gamma(a: float, x: float) -> float:
    """The regularized upper incomplete gamma Q(a, x): a series below a+1, a continued fraction
    above (Numerical Recipes' gammq), each accurate to about 1e-12 here."""
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-14:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    return _continued_fraction(a, x) * math.exp(log_front)


def _continued_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-14:
            break
    return h
