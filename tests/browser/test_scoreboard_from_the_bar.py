"""The scoreboard read from across a bar: a full table's showdown, names and counts, seat colours.

Screenshots are saved in ``out/screenshots/`` (see ``tests/browser/conftest.py``).
"""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import shot
from tests.browser.test_scoreboard import (TV, all_in, assert_in_sight, full_hold_em_table,
                                           open_board, showdown_box)

BAR_PX = 14
"""The least font size of what the showdown box says, read from a bar stool on a 1280x720 TV."""


def font_sizes(page: Any, selector: str) -> list[float]:
    """The computed font size (CSS pixels) of every element ``selector`` finds."""
    sizes: list[float] = page.locator(selector).evaluate_all(
        "parts => parts.map(part => parseFloat(getComputedStyle(part).fontSize))")
    return sizes


def test_a_full_hold_em_table_s_showdown_reads_from_the_bar_on_a_small_tv(browser: Any,
                                                                         served: Any) -> None:
    # ten hands stacked (name, dice, hand) in rows of three under a three-line headline needed
    # the box at its smallest on a 1280x720 TV: hands and names in 13 and 14 px, "wins" in 13,
    # the closing sentence in 12: a blur from a bar stool
    table = full_hold_em_table()
    page = open_board(browser, served(table, showdown_seconds=60), TV)
    all_in(table)
    assert_in_sight(showdown_box(page))
    shot(page, "scoreboard-showdown-10-hands-from-the-bar-1280x720")
    hands = font_sizes(page, "#showdown .shown .who, #showdown .shown .hand, #showdown .shown .won")
    assert len(hands) == 23 and min(hands) >= BAR_PX, hands  # ten names, ten hands, three wins
    said = font_sizes(page, "#showdown h2, #showdown p")
    assert min(said) >= BAR_PX, said
