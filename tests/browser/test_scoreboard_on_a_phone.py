"""The scoreboard in a player's hand: a 390x844 phone, which scrolls where a TV cannot.

Screenshots are saved in ``out/screenshots/`` (see ``tests/browser/conftest.py``).
"""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import shot
from tests.browser.test_scoreboard import PHONE, all_in, full_hold_em_table, open_board, showdown_box
from tests.browser.test_scoreboard_from_the_bar import font_sizes

PHONE_PX = 14
"""The least font size of what the showdown box says on a phone, read in the hand."""

OUTSIDE = """box => {
  const edge = box.getBoundingClientRect();
  const left = edge.left + box.clientLeft, top = edge.top + box.clientTop - box.scrollTop;
  const right = left + box.clientWidth, bottom = top + box.scrollHeight;
  return [...box.querySelectorAll("h2, .board, .shown, p")].filter(part => {
    const seen = part.getBoundingClientRect();
    return seen.left < left || seen.right > right || seen.top < top || seen.bottom > bottom;
  }).map(part => part.textContent);
}"""
"""What of the showdown box lies outside the part of it that scrolls into sight (a row wider
than the box, centred, is cut on both sides: its first card can never be scrolled to)."""


def test_a_ten_hand_showdown_reads_on_a_phone(browser: Any, served: Any) -> None:
    # the box shrank all it holds, as on a TV, until the ten hands fitted the phone's screen:
    # hands in 13.6 px, the closing sentence in 12.7, where a phone would rather scroll
    table = full_hold_em_table()
    page = open_board(browser, served(table, showdown_seconds=60), PHONE)
    all_in(table)
    box = showdown_box(page)
    shot(page, "scoreboard-phone-showdown-10-hands")
    said = font_sizes(page, "#showdown h2, #showdown p, #showdown .shown .who, "
                            "#showdown .shown .hand, #showdown .shown .won")
    assert len(said) == 25 and min(said) >= PHONE_PX, said  # ten names and hands, three wins
    assert 0 <= box["top"] and box["bottom"] <= box["height"], box  # the box itself on the screen
    assert 0 <= box["left"] and box["right"] <= box["width"], box
    assert page.locator("#showdown").evaluate(OUTSIDE) == []
    assert page.locator("#showdown").evaluate("box => box.scrollWidth <= box.clientWidth")
