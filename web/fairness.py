"""Are the dice fair? Face counts per die (kind and colour) over the recorded rolls, chi-square.

The counts come from the table's record (:meth:`TableHandle.rolls`): every roll in effect after
the corrections whose faces the room saw (a sealed roll once revealed). A die is told apart by
its kind and colour (the seat's registered colour; "" for the community's and unknown ones),
so a loaded die in front of one seat shows up even when the others are fair. The p-value is the
chi-square distribution's upper tail, computed here with the regularized incomplete gamma
function (no scipy on the table).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from controller.games.dice import DieKind
from controller.games.errors import InvalidInput
from controller.table.records import RollSeen, colour_word

LOADED_P = 0.001     # below this p-value a die is flagged as looking loaded
MIN_EXPECTED = 5     # the test means little with fewer than five rolls expected per face


@dataclass(frozen=True)
class FaceTest:
    """A die's face counts over ``rolls`` dice rolled, the chi-square statistic and its p-value
    (``colour`` "" when the die's colour is not known)."""

    kind: DieKind
    counts: tuple[tuple[str, int], ...]
    rolls: int
    chi_square: float
    p_value: float
    colour: str = ""

    @property
    def enough(self) -> bool:
        """Whether enough dice were rolled for the test to mean something."""
        return self.rolls >= MIN_EXPECTED * len(self.counts)

    @property
    def loaded(self) -> bool:
        """Whether the faces are too uneven for a fair die (with enough rolls to say so)."""
        return self.enough and self.p_value < LOADED_P

    @property
    def key(self) -> str:
        """A name for the page: ``d6`` or ``d6-e4572e``."""
        return f"{self.kind.value}-{self.colour.lstrip('#')}" if self.colour else self.kind.value


def face_tests(rolls: Iterable[RollSeen]) -> list[FaceTest]:
    """The test of every die (kind, colour) among ``rolls``, in the order of the die kinds."""
    counts = tally(rolls)
    return [chi_square_test(kind, counts[(kind, colour)], colour)
            for kind, colour in sorted(counts, key=lambda key: (list(DieKind).index(key[0]),
                                                                key[1]))]


def die_names(tests: Sequence[FaceTest]) -> dict[str, str]:
    """Each die's colour as its card's heading says it, by :attr:`FaceTest.key`: the word a person
    would use ("blue"), and its ``#rrggbb`` beside it when another die of the same kind has the
    same word (two seats with two blues), so that no two headings are the same; "colour unknown"
    for a die whose colour is not known."""
    words = {test.key: _word(test.colour) for test in tests}
    shared = Counter((test.kind, words[test.key]) for test in tests)
    return {test.key: f"{words[test.key]} {test.colour}" if shared[(test.kind, words[test.key])] > 1
            else words[test.key] for test in tests}


def _word(colour: str) -> str:
    """The word for a seat's colour; "colour unknown" for "", the colour as recorded if it is not
    ``#rrggbb``."""
    if not colour:
        return "colour unknown"
    try:
        return colour_word(colour)
    except InvalidInput:
        return colour


def tally(rolls: Iterable[RollSeen]) -> dict[tuple[DieKind, str], Counter[str]]:
    """The faces rolled per die (kind, colour)."""
    counts: dict[tuple[DieKind, str], Counter[str]] = {}
    for roll in rolls:
        counts.setdefault((roll.kind, roll.colour), Counter()).update(roll.faces)
    return counts


def chi_square_test(kind: DieKind, counts: Counter[str], colour: str = "") -> FaceTest:
    """Pearson's chi-square test of ``counts`` against a fair die of ``kind``."""
    rolls = sum(counts.values())
    expected = rolls / len(kind.faces)
    statistic = sum((counts[face] - expected) ** 2 / expected for face in kind.faces)
    return FaceTest(kind, tuple((face, counts[face]) for face in kind.faces), rolls,
                    statistic, chi_square_tail(statistic, len(kind.faces) - 1), colour)


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
