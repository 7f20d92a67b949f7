"""The scoreboard read from across a bar: a full table's showdown, names and counts, seat colours.

Screenshots are saved in ``out/screenshots/`` (see ``tests/browser/conftest.py``).
"""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import shot, web_conftest
from tests.browser.test_scoreboard import (PHONE, TEN_SEATS, TV, TVS, assert_in_sight, board_edges,
                                           caught_up, full_hold_em_table, open_board, play_until,
                                           ten_hands_shown, unseen)

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
    _, page, box = ten_hands_shown(browser, served, TV)
    assert_in_sight(box)
    shot(page, "scoreboard-showdown-10-hands-from-the-bar-1280x720")
    hands = font_sizes(page, "#showdown .shown .who, #showdown .shown .hand, #showdown .shown .won")
    assert len(hands) == 23 and min(hands) >= BAR_PX, hands  # ten names, ten hands, three wins
    said = font_sizes(page, "#showdown h2, #showdown p")
    assert min(said) >= BAR_PX, said


LONG_NAMES = ["Annabelle Fitzgerald", "Bartholomew", "Konstantinopoulos", *TEN_SEATS[3:]]


@TVS
def test_a_long_name_in_a_full_showdown_stays_on_its_own_card(browser: Any, served: Any,
                                                              screen: dict[str, int]) -> None:
    # with the words beside the dice, "Annabelle Fitzgerald" (kept on one line) ran over the
    # dice of the card beside hers, and so does a long name of one word that cannot wrap,
    # unless the box is fitted to what each card holds, not only to its rows
    _, page, box = ten_hands_shown(browser, served, screen, LONG_NAMES)
    assert_in_sight(box)
    shot(page, f"scoreboard-showdown-long-name-{screen['width']}x{screen['height']}")
    outside: list[str] = page.locator("#showdown .shown").evaluate_all("""cards => cards.flatMap(card => {
      const edge = card.getBoundingClientRect();
      return [...card.querySelectorAll('.who, .hand, .won')].filter(part => {
        const range = document.createRange();
        range.selectNodeContents(part);
        const words = range.getBoundingClientRect();
        return words.left < edge.left || words.right > edge.right;
      }).map(part => part.textContent);
    })""")
    assert outside == []


LINES_OF = r"""(fact, names) => {
  const words = fact.lastChild, text = words.textContent;
  const lines = (start, end) => {
    const range = document.createRange();
    range.setStart(words, start);
    range.setEnd(words, end);
    return new Set([...range.getClientRects()].map(box => Math.round(box.top))).size;
  };
  const items = names.map(name => {
    const start = text.search(new RegExp(name + "\\s\\d")), end = text.indexOf(",", start);
    return lines(start, end < 0 ? text.length : end);
  });
  return {all: lines(0, text.length), items};
}"""
"""How many lines a fact's words take, and each ``name count`` item of them."""


def test_a_phone_keeps_each_name_in_matches_won_beside_its_count(browser: Any, served: Any) -> None:
    # "Matches won Ann 0, Bo 0, Cy 0, Dee 0, Eve 0, Fay 0" broke its line between "Eve" and
    # her 0 on a 390 px phone: the 0 began the next line, read as the next name's
    names = TEN_SEATS[:6]
    table = web_conftest.new_table("tao", 6, 3, names, sealed=False)
    page = open_board(browser, served(table), PHONE)
    lines: dict[str, Any] = page.locator("#facts li", has_text="Matches won").evaluate(LINES_OF, names)
    shot(page, "scoreboard-phone-matches-won")
    assert lines["all"] > 1, lines  # the list does wrap
    assert lines["items"] == [1] * len(names), lines


def luminance(rgb: str) -> float:
    """The relative luminance (WCAG 2) of a computed colour, ``rgb(r, g, b)``."""
    channels = [int(c) / 255 for c in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    """The contrast ratio of two computed colours (1 to 21)."""
    dark, light = sorted((luminance(one), luminance(other)))
    return (light + 0.05) / (dark + 0.05)


EDGED = 3
"""The least contrast that sets a seat's colour off from what lies beside it (WCAG's 3:1 for the
parts of a picture that carry its meaning)."""


def test_every_seat_colour_stands_out_from_the_felt_and_its_dice(browser: Any, served: Any) -> None:
    # the ten seat colours edged their dice and marked their places as they were: the white
    # seat's band ran into its white dice (contrast 1.1), the near-black one into the dark felt
    # (1.3), where it read as the thin dark edge every die has; the near-black seat's place
    # could not be seen at all
    table = full_hold_em_table()  # the ten default colours, white and near-black among them
    page = open_board(browser, served(table), TV)
    play_until(table, lambda s: all(seat.dice for seat in s.view.seats))
    caught_up(page, table)
    shot(page, "scoreboard-ten-seat-colours-1280x720")
    dice: list[dict[str, Any]] = page.locator(".seat-dice svg.die").evaluate_all("""dice => dice.map(die => {
      const style = part => part ? getComputedStyle(part) : null;
      const edge = style(die.querySelector('.body, .cup')), band = style(die.querySelector('.band'));
      return {colour: die.dataset.colour, edge: edge.stroke, edgeWidth: parseFloat(edge.strokeWidth),
              band: band && band.stroke, bandWidth: band && parseFloat(band.strokeWidth)};
    })""")
    assert len({die["colour"] for die in dice}) == 10, dice
    for die in dice:  # a band of the colour, edged on both sides in a shade it stands out from
        assert die["band"] is not None and die["edgeWidth"] > die["bandWidth"], die
        assert contrast(die["band"], die["edge"]) >= EDGED, die
    places: list[dict[str, str]] = page.locator(".seat").evaluate_all("""seats => seats.map(seat => {
      const style = getComputedStyle(seat), probe = document.createElement('i');
      probe.style.color = style.getPropertyValue('--seat-edge');  // the shade, as rgb()
      seat.append(probe);
      const edge = getComputedStyle(probe).color;
      probe.remove();
      return {colour: style.borderLeftColor, edge, shadow: style.boxShadow};
    })""")
    assert len(places) == 10
    for place in places:  # the seat's bar edged in its shade, outside it and inside
        assert contrast(place["colour"], place["edge"]) >= EDGED, place
        assert place["shadow"].count(place["edge"]) == 2 and "inset" in place["shadow"], place


FULL_NAMES = ["Annabelle Fitzgerald", "Bartholomew Okafor", "Cyrus Montgomery", "Delphine Arceneaux",
              "Evangeline Moreau", "Fairfax Whitworth", "Gwendolyn Ashby", "Hieronymus Bosch",
              "Ivanka Petrovic", "Jonathan Livingston"]


@TVS
def test_the_board_beside_the_showdown_box_shows_long_names_whole(browser: Any, served: Any,
                                                                  screen: dict[str, int]) -> None:
    # beside the open box the board's seats are narrower, and ten long names were cut to
    # "Annabelle ..." while the box beside them showed them whole
    _, page, box = ten_hands_shown(browser, served, screen, FULL_NAMES)
    assert_in_sight(box)
    shot(page, f"scoreboard-showdown-beside-10-long-names-{screen['width']}x{screen['height']}")
    cut: list[str] = page.locator(".seat .name").evaluate_all(
        "names => names.filter(name => name.scrollWidth > name.clientWidth).map(name => name.textContent)")
    assert cut == []
    edges = board_edges(page)  # and all of the board still in sight, nothing under the box
    assert edges["page"] <= edges["height"] and edges["seats"] <= edges["height"], edges
    assert unseen(page) == []
