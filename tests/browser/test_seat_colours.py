"""A seat's colour where it is shown: its own dice on the scoreboard, with their state, and its
swatches and colour pickers on the dealer console.

Screenshots are saved in ``out/screenshots/`` (see ``tests/browser/conftest.py``).
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from tests.browser.conftest import shot, web_conftest
from tests.browser.test_scoreboard import TV, caught_up, enter, log_in, open_board

LIGHT, DARK, BLUE = "#f1f1ee", "#222222", "#1d4ed8"
"""Seat colours: the white and the near-black of the ten defaults, and one far from both states."""

PROTECT, REROLL = (63, 174, 73), (228, 87, 46)
"""The states' colours (scoreboard.css, svg.die.state-*), as (r, g, b)."""

INK = (28, 28, 28)
"""The near-black that edges a light seat colour (dice.js, edgeOf), as (r, g, b)."""


def share_of(die: Any, colour: tuple[int, int, int]) -> float:
    """The share of a drawn die's pixels (its element's screenshot) in ``colour``, give or take
    the blending of an edge."""
    picture = cv2.imdecode(np.frombuffer(die.screenshot(), np.uint8), cv2.IMREAD_COLOR)
    assert picture is not None
    near = np.abs(picture[:, :, ::-1].astype(int) - np.array(colour)).max(axis=2) <= 24
    return float(near.mean())


SEEN = 0.01
"""The least share of a die in its state's colour that the room sees (the mark alone is about 2%
of a die; no part of an unmarked die, of these colours, is in either)."""


def tao_table() -> Any:
    """Three Tao Dice seats in white, near-black and blue, each with two sealed d6, where the
    white and near-black seats raised and called with a white stone: their d6 are due a reroll."""
    table = web_conftest.new_table("tao", 3, 3, ["Ann", "Bo", "Cy"], colours=[LIGHT, DARK, BLUE])
    enter(table, [f"ante {seat} black=1 white=0" for seat in range(3)] +
          [f"roll {seat} d6 ? ?" for seat in range(3)] +
          ["raise 0 black=0 white=1", "call 1 black=0 white=1", "call 2 black=1 white=0"])
    return table


def test_a_sealed_die_due_a_reroll_shows_it_in_a_white_or_a_black_seat(browser: Any,
                                                                        served: Any) -> None:
    # a Tao Dice seat that bet a white stone must throw its 2d6 again: its cups, edged in the
    # seat's colour, only had the band dashed, and a plain cup showed no state at all
    table = tao_table()
    page = open_board(browser, served(table), TV)
    caught_up(page, table)
    shot(page, "scoreboard-tao-reroll-due-in-seat-colours")
    for seat, due in ((0, True), (1, True), (2, False)):
        dice = page.locator(f'.seat[data-seat="{seat}"] .seat-dice svg.die')
        assert dice.count() == 2
        for die in dice.all():
            assert (share_of(die, REROLL) >= SEEN) is due, (seat, die.get_attribute("class"))


def test_a_d12_due_a_reroll_shows_it_in_a_white_or_a_black_seat(browser: Any, served: Any) -> None:
    # in Tao Dice's second part a white stone makes the seat throw its d12 again
    table = tao_table()
    enter(table, ["roll 0 d6 ? ?", "roll 1 d6 ? ?", "roll 0 d12 3", "roll 1 d12 5", "roll 2 d12 7",
                  "raise 0 black=0 white=1", "call 1 black=0 white=1", "call 2 black=1 white=0"])
    page = open_board(browser, served(table), TV)
    caught_up(page, table)
    for seat, due in ((0, True), (1, True), (2, False)):
        die = page.locator(f'.seat[data-seat="{seat}"] .seat-dice svg.die[data-kind="d12"]')
        assert (share_of(die, REROLL) >= SEEN) is due, seat


KINDS = [("d6", "5"), ("d12", "11"), ("d8-tauren", "W"), ("letters", "A"), ("d6", None)]
"""A die of every kind, and a sealed one (a cup)."""


def test_every_kind_of_seat_die_shows_it_is_protected_or_due_a_reroll(browser: Any,
                                                                      served: Any) -> None:
    # no game protects a seat's own die yet (DiceHoldem protects community dice, which have no
    # colour), so the page draws them here as it would: a protected die in a white or a
    # near-black seat showed no green at all, only the seat's band in its edge
    page = open_board(browser, served(web_conftest.new_table("tao", 3, 3)), TV)
    dice = [{"kind": kind, "face": face, "state": state, "colour": colour}
            for state in ("protect", "reroll", "") for colour in (LIGHT, DARK, "")
            for kind, face in KINDS]
    page.evaluate("""dice => {
      const tray = document.createElement("div");
      tray.id = "tray";
      tray.style.cssText = "position: fixed; inset: 0; z-index: 99; display: flex; flex-wrap: wrap; " +
        "gap: 12px; padding: 12px; background: #0f3d2e";
      tray.innerHTML = dice.map(die => drawDie(die, 64)).join("");
      document.body.append(tray);
    }""", dice)
    shot(page, "scoreboard-die-states-in-seat-colours")
    drawn = page.locator("#tray svg.die").all()
    assert len(drawn) == len(dice)
    for die, seen in zip(dice, drawn):
        shares = {"protect": share_of(seen, PROTECT), "reroll": share_of(seen, REROLL)}
        assert all((share >= SEEN) is (state == die["state"]) for state, share in shares.items()), \
            (die, shares)


SWATCHES = """swatches => swatches.map(swatch => {
  const style = getComputedStyle(swatch);
  return {who: swatch.parentElement.textContent.trim(), fill: style.backgroundColor,
          edge: style.borderTopColor, width: parseFloat(style.borderTopWidth)};
})"""
"""Each swatch of the console's last games: whose roll it marks, its fill and its edge."""


def test_the_console_edges_a_white_seat_s_swatch_and_tells_it_from_no_colour(browser: Any,
                                                                             served: Any) -> None:
    # the last games marked each roll with its seat's colour as a disc in a grey hairline: a
    # white seat's disc read as empty on the console's white card, the same as the community
    # dice's, which have no colour (drawn white)
    table = web_conftest.new_table("tauren", 3, 7, ["Ann", "Bo", "Cy"], colours=[LIGHT, DARK, BLUE])
    for _ in range(60):
        table.step()
    console = log_in(browser, served(table), "/dealer/games")
    shot(console, "console-last-games-seat-colours")
    swatches: list[dict[str, Any]] = console.locator(".roll .swatch").evaluate_all(SWATCHES)
    assert {swatch["who"] for swatch in swatches} >= {"Ann", "Bo", "community"}, swatches
    for swatch in swatches:
        if swatch["who"] == "Ann":  # the white seat, edged as its dice on the scoreboard
            assert swatch["edge"] == "rgb(28, 28, 28)" and swatch["width"] >= 2, swatch
        if swatch["who"] == "community":  # no colour: an empty ring, not a white disc
            assert swatch["fill"] == "rgba(0, 0, 0, 0)", swatch


def test_the_console_edges_a_white_seat_s_colour_picker(browser: Any, served: Any) -> None:
    # a new game's colour picker for a white seat was a white bar in a pale grey button: it read
    # as a picker with no colour
    table = web_conftest.new_table("tao", 3, 3, ["Ann", "Bo", "Cy"], colours=[LIGHT, DARK, BLUE])
    console = log_in(browser, served(table))
    white, blue = console.locator('input[name="colour0"]'), console.locator('input[name="colour2"]')
    assert white.input_value() == LIGHT
    shot(console, "console-new-game-seat-colours")
    assert share_of(white, INK) >= SEEN
    assert share_of(blue, INK) < SEEN
    blue.fill(LIGHT)  # the dealer picks white for the blue seat: edged at once
    assert share_of(blue, INK) >= SEEN


def test_each_seat_s_colour_picker_stays_beside_its_name(browser: Any, served: Any) -> None:
    # with a picker for each of ten seats the row wrapped inside a label: "Seat 8" ended one line
    # and its picker began the next, beside "Seat 9", read as seat 9's
    table = web_conftest.new_table("tao", 3, 3, ["Ann", "Bo", "Cy"])
    for width in (1280, 1100, 900, 390):
        console = log_in(browser, served(table), viewport={"width": width, "height": 1000})
        apart: list[str] = console.locator("#new-game .colours label").evaluate_all("""labels =>
          labels.filter(label => {
            const name = document.createRange();
            name.selectNodeContents(label.firstChild);
            const text = name.getBoundingClientRect(), picker = label.querySelector("input").getBoundingClientRect();
            return text.bottom <= picker.top || picker.bottom <= text.top;
          }).map(label => label.textContent.trim())""")
        assert apart == [], (width, apart)
        console.close()
