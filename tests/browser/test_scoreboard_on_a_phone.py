"""The scoreboard in a player's hand: a 390x844 phone, which scrolls where a TV cannot.

Screenshots are saved in ``out/screenshots/`` (see ``tests/browser/conftest.py``).
"""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import shot
from tests.browser.test_scoreboard import PHONE, caught_up, enter, showdown_box, ten_hands_shown
from tests.browser.test_scoreboard_from_the_bar import font_sizes

SMALL_PHONE = {"width": 375, "height": 667}
"""A smaller phone than PHONE (an iPhone SE's screen), where a second showdown scrolls too."""

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
    _, page, box = ten_hands_shown(browser, served, PHONE)
    shot(page, "scoreboard-phone-showdown-10-hands")
    said = font_sizes(page, "#showdown h2, #showdown p, #showdown .shown .who, "
                            "#showdown .shown .hand, #showdown .shown .won")
    assert len(said) == 25 and min(said) >= PHONE_PX, said  # ten names and hands, three wins
    assert 0 <= box["top"] and box["bottom"] <= box["height"], box  # the box itself on the screen
    assert 0 <= box["left"] and box["right"] <= box["width"], box
    assert page.locator("#showdown").evaluate(OUTSIDE) == []
    assert page.locator("#showdown").evaluate("box => box.scrollWidth <= box.clientWidth")


def all_in_again(table: Any) -> None:
    """After :func:`tests.browser.test_scoreboard.all_in`, the busted seats buy back in and all ten go all in again: a second
    showdown of ten hands."""
    enter(table, [f"rebuy {seat.seat}" for seat in table.state().view.seats
                  if seat.status.value == "deciding"])
    enter(table, [f"roll {seat} d8-tauren {dice}" for seat, dice in enumerate(HOLES)])
    enter(table, [f"allin {table.state().view.awaited.prompt}"])
    while table.state().view.phase == "betting":
        enter(table, [f"call {table.state().view.awaited.prompt}"])
    enter(table, ["roll table d8-tauren W 5 2", "roll table d8-tauren C", "roll table d8-tauren 6"])


HOLES = ["2 3", "4 4", "5 6", "W C", "S S", "3 5", "6 6", "C S", "2 W", "4 5"]


def test_the_next_showdown_on_a_phone_opens_at_its_headline(browser: Any, served: Any) -> None:
    # the box kept the place its reader had scrolled the last showdown to: the next one, drawn
    # into it, opened 163 px down, its headline and first hands out of sight
    table, page, _ = ten_hands_shown(browser, served, SMALL_PHONE)
    page.locator("#showdown").evaluate("box => { box.scrollTop = box.scrollHeight; }")
    assert page.locator("#showdown").evaluate("box => box.scrollTop") > 0  # the box does scroll
    all_in_again(table)
    caught_up(page, table)
    assert table.state().view.result.number == 2 and page.locator("#showdown .shown").count() == 10
    box = showdown_box(page)
    assert box["scroll"] > box["client"], box  # this one scrolls too
    assert page.locator("#showdown").evaluate("box => box.scrollTop") == 0
