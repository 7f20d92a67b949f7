"""The scoreboard and the console in a real headless Chromium, as the room and the dealer use them.

Screenshots (large screen, phone, console) are saved in ``out/screenshots/``.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

import cv2
import numpy as np
import pytest

from controller.games.dice import DieKind
from controller.games.errors import DeviceDisconnected
from controller.store import TABLE
from controller.table.records import Entry
from controller.table.table import HEALTH_EVERY
from vision.face_art import svg_path
from web.security import IDLE_LIMIT

from tests.browser.conftest import LiveServer, shot, web_conftest

LARGE = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
TV = {"width": 1280, "height": 720}  # a venue's smaller TV (LARGE is the full-HD one)
XGA = {"width": 1024, "height": 768}  # an old monitor or projector: the header's facts wrap sooner
TVS = pytest.mark.parametrize("screen", [LARGE, TV], ids=["1920x1080", "1280x720"])  # run on both
WAIT_MS = 15_000


def open_board(browser: Any, live: LiveServer, viewport: dict[str, int] = LARGE) -> Any:
    """A scoreboard page that has drawn its first state."""
    page = browser.new_page(viewport=viewport)
    page.goto(live.url + "/")
    page.wait_for_function("window.dicetable && window.dicetable.renders > 0", timeout=WAIT_MS)
    return page


def caught_up(page: Any, table: Any) -> None:
    """Wait until the page has drawn the table's latest change and had its event (a change
    caught up from the record carries the state now, so the drawn seq can run ahead of it)."""
    seq = table.state().seq
    page.wait_for_function(f"window.dicetable.seq >= {seq} && "
                           f"window.dicetable.seen.includes({seq})", timeout=WAIT_MS)


def enter(table: Any, lines: list[str]) -> None:
    """Enter history lines at the table as the dealer's console does."""
    for line in lines:
        table.submit(Entry(table.game.parse_input(line), "console", "dealer"))


def play_until(table: Any, done: Callable[[Any], bool], most: int = 5000) -> None:
    """Step the table until ``done(state)``."""
    for _ in range(most):
        if done(table.state()):
            return
        table.step()
    raise AssertionError("the game never got there")


def flop_out(state: Any) -> bool:
    """Three community dice on the table and the hand still going."""
    return len(state.view.community) == 3 and state.view.result is None or \
        len(state.view.community) == 3 and state.view.result.number < state.view.number


def showdown_box(page: Any) -> dict[str, float]:
    """Where the showdown box is, against the screen and the page's header (CSS pixels), and
    how tall its content is against the box (``scroll``, ``client``), once it shows."""
    page.locator("#showdown").wait_for(state="visible", timeout=WAIT_MS)
    box: dict[str, float] = page.evaluate("""() => {
      const box = document.getElementById("showdown"), edge = box.getBoundingClientRect();
      const dice = [...box.querySelectorAll("svg.die")].map(d => d.getBoundingClientRect().width);
      return {top: edge.top, left: edge.left, bottom: edge.bottom, right: edge.right,
              width: innerWidth, height: innerHeight,
              header: document.getElementById("top").getBoundingClientRect().bottom,
              scroll: box.scrollHeight, client: box.clientHeight, die: Math.min(...dice),
              fit: Number(getComputedStyle(box).getPropertyValue("--fit"))};
    }""")
    return box


def assert_in_sight(box: dict[str, float]) -> None:
    """The room reads all of the showdown box: nothing under its lower edge (nobody scrolls a
    TV), all of it on the screen, the page's header (the game and its number) not hidden."""
    assert box["scroll"] <= box["client"], box
    assert 0 <= box["left"] and box["right"] <= box["width"], box
    assert box["header"] <= box["top"] and box["bottom"] <= box["height"], box


def hands_in_rows(page: Any) -> list[list[dict[str, float]]]:
    """The showdown box's hands (their edges in CSS pixels) in the rows the room sees them."""
    cards: list[dict[str, float]] = page.locator("#showdown .shown").evaluate_all(
        "cards => cards.map(c => c.getBoundingClientRect().toJSON())")
    tops = sorted({card["top"] for card in cards})
    return [[card for card in cards if card["top"] == top] for top in tops]


def assert_even_rows(page: Any) -> None:
    """No row of hands shorter than another by two or more (ten as 4, 3, 3, never 4, 4, 2)."""
    counts = [len(row) for row in hands_in_rows(page)]
    assert max(counts) - min(counts) <= 1, counts


def painted(page: Any) -> None:
    """Let two frames go by: what the page does before it paints a change (a refit in the frame
    after a resize, or as its ResizeObserver sees the header change height) is done, as the room
    sees it."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def resized(page: Any, screen: dict[str, int]) -> None:
    """Give ``page`` the size of ``screen`` and let it paint: the page fits its showdown box again
    in the frame after the resize."""
    page.set_viewport_size(screen)
    painted(page)


TEN_SEATS = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def full_hold_em_table(names: list[str] = TEN_SEATS) -> Any:
    """Ten Tauren seats (``names``) with stacks 30..100, dice entered with their faces (see all_in)."""
    return web_conftest.new_table("tauren", 10, 1, names,
                                  {"stack": "30,40,50,100,60,70,80,90,100,20"}, sealed=False)


def ten_hands_shown(browser: Any, served: Any, screen: dict[str, int],
                    names: list[str] = TEN_SEATS) -> tuple[Any, Any, dict[str, float]]:
    """Ten seats (``names``) all in (:func:`all_in`), the board open at ``screen`` with their
    showdown: the table, the page, and where the box is (:func:`showdown_box`)."""
    table = full_hold_em_table(names)
    page = open_board(browser, served(table, showdown_seconds=60), screen)
    all_in(table)
    return table, page, showdown_box(page)


def four_seats() -> Any:
    """Four Tauren seats (seed 3), dice entered with their faces: all four show their hands at
    the first showdown, with five community dice."""
    return web_conftest.new_table("tauren", 4, 3, ["Ann", "Bo", "Cy", "Dee"], sealed=False)


def all_in(table: Any) -> None:
    """The hand of :func:`full_hold_em_table`: all ten all-in preflop, ten hands shown and a
    headline naming eight side pots."""
    holes = ["2 3", "4 4", "5 6", "W C", "S S", "3 5", "6 6", "C S", "2 W", "4 5"]
    enter(table, [f"roll {seat} d8-tauren {dice}" for seat, dice in enumerate(holes)] +
          ["allin 3"] + [f"call {seat}" for seat in (4, 5, 6, 7, 8, 9, 0, 1, 2)] +
          ["roll table d8-tauren W 5 2", "roll table d8-tauren C", "roll table d8-tauren 6"])


def test_the_scoreboard_follows_a_game_live(browser: Any, served: Any) -> None:
    colours = ["#e4572e", "#29a0b1", "#f3a712", "#a06cd5"]
    table = web_conftest.new_table("tauren", 4, 11, ["Ann", "Bo", "Cy", "Dee"], colours=colours)
    live = served(table, showdown_seconds=0.5)
    page = open_board(browser, live)
    stop = threading.Event()
    driver = threading.Thread(target=lambda: [table.step() or stop.wait(0.02)
                                              for _ in range(120) if not stop.is_set()])
    driver.start()
    driver.join(30)
    caught_up(page, table)
    state = table.state()
    names = page.locator(".seat .name").all_inner_texts()
    assert names == ["Ann", "Bo", "Cy", "Dee"]
    faces = page.locator("#community svg.die").evaluate_all("els => els.map(e => e.dataset.face)")
    assert faces == [die.face or "" for die in state.view.community]
    drawn = page.locator("#community svg.die path.ink").evaluate_all(
        "els => els.map(e => e.getAttribute('d'))")  # each face as the stickers print it
    assert drawn == [svg_path(DieKind.D8_TAUREN, die.face) for die in state.view.community if die.face]
    assert page.locator("#awaited").inner_text() == state.view.awaited.text
    assert page.locator("#log li").first.inner_text() == state.log[-1].text
    assert page.evaluate("window.dicetable.seen.length") > 100  # it followed, event by event
    play_until(table, flop_out)
    caught_up(page, table)
    page.wait_for_timeout(600)  # let a showdown banner from before the flop go
    for seat in table.state().view.seats:  # a seat's own dice in its colour, as recorded
        edges = page.locator(f".seat[data-seat='{seat.seat}'] svg.die").evaluate_all(
            "els => els.map(e => e.dataset.colour)")
        assert edges == [colours[seat.seat]] * len(seat.dice)
    assert page.locator("#community svg.die.coloured").count() == 0
    shot(page, "scoreboard-large-tauren")
    phone = open_board(browser, live, PHONE)
    shot(phone, "scoreboard-phone-tauren")
    phone.screenshot(path=str(shot(phone, "scoreboard-phone-tauren-full").with_name(
        "scoreboard-phone-tauren-full.png")), full_page=True)


def test_the_scoreboard_draws_sealed_dice_and_the_showdown(browser: Any, served: Any) -> None:
    table = web_conftest.new_table("tao", 3, 3, ["Ann", "Bo", "Cy"])
    live = served(table, showdown_seconds=30)
    page = open_board(browser, live)
    play_until(table, lambda s: any(d.face is None for seat in s.view.seats for d in seat.dice)
               and any(d.face for seat in s.view.seats for d in seat.dice))
    caught_up(page, table)
    assert page.locator("svg.die[aria-label='sealed d6']").count() >= 2
    assert page.locator("svg.die[data-kind='d12']").count() >= 1
    shot(page, "scoreboard-large-tao")
    rounds = table.game.hands_played
    play_until(table, lambda s: table.game.hands_played > rounds and bool(s.view.result.shown))
    caught_up(page, table)
    banner = page.locator("#showdown")
    banner.wait_for(state="visible", timeout=WAIT_MS)
    result = table.state().view.result
    assert banner.locator("h2").inner_text() == result.headline
    assert table.state().view.seats[result.winners[0]].name in result.headline
    assert banner.locator(".hand").first.inner_text().startswith("Score")
    shot(page, "scoreboard-large-tao-showdown")


@TVS
def test_the_showdown_box_says_who_won_each_pot_and_fits_the_screen(browser: Any, served: Any,
                                                                     screen: dict[str, int]) -> None:
    # it said "Ann, Bo and Dee split" (the winners of any pot, split when more than one): Dee
    # took the main pot alone, Ann and Bo split both side pots; four hands shown (two rows) and
    # a headline of two lines must fit the box, or the room cannot read its last line (at
    # 1280x720 they did not, with dice of 72 px)
    table = web_conftest.new_table("tauren", 4, 1, ["Ann", "Bo", "Cy", "Dee"],
                                   {"stack": "40,40,20,10"}, sealed=False)
    live = served(table, showdown_seconds=60)
    page = open_board(browser, live, screen)
    enter(table, ["roll 0 d8-tauren 4 3", "roll 1 d8-tauren 4 3", "roll 2 d8-tauren 2 2",
                  "roll 3 d8-tauren W W", "allin 3", "call 0", "call 1", "allin 2", "call 0",
                  "call 1", "roll table d8-tauren W 5 5", "bet 1 amount=10", "call 0",
                  "roll table d8-tauren C", "check 1", "check 0", "roll table d8-tauren 6",
                  "check 1", "check 0"])
    banner = page.locator("#showdown")
    banner.wait_for(state="visible", timeout=WAIT_MS)
    assert banner.locator("h2").inner_text() == "Dee wins the main pot; Ann and Bo split side pots 1 and 2"
    assert banner.locator(".shown.winner .who").all_inner_texts() == ["Ann", "Bo", "Dee"]
    # the board the hands were made with is in the box: the table clears it for the next hand
    assert banner.locator(".board .who").inner_text() == "Board"
    assert banner.locator(".board svg.die").count() == 5
    box = showdown_box(page)
    shot(page, f"scoreboard-side-pot-showdown-{screen['width']}x{screen['height']}")
    assert_in_sight(box)
    # four hands and the board, docked beside the seats, give up a quarter of their size and no
    # more, on either TV (dice of 54 px at 1280x720, 81 px at 1920x1080)
    assert box["fit"] >= 0.75, box
    assert_even_rows(page)  # two and two: they wrapped as three and one


@TVS
def test_a_full_hold_em_table_s_showdown_fits_the_screen_beside_every_seat(
        browser: Any, served: Any, screen: dict[str, int]) -> None:
    # ten hands shown (everyone all-in preflop, dice entered with their faces) made four rows of
    # cards at 72 px dice: the box ran under the screen's edge with the sentence saying who won;
    # and the box lay over the middle of the board: the room could not see the stacks change as
    # the pots were paid (ten seats: the board at its smallest beside the box)
    table, page, box = ten_hands_shown(browser, served, screen)
    caught_up(page, table)
    assert page.locator("#showdown .shown").count() == 10
    shot(page, f"scoreboard-showdown-beside-10-seats-{screen['width']}x{screen['height']}")
    assert_in_sight(box)
    assert page.locator(".seat").count() == 10
    assert unseen(page) == []


def board_edges(page: Any) -> dict[str, float]:
    """How far the page runs down against the screen, where the seats end, and the seats' dice
    and the root font's size (CSS pixels)."""
    edges: dict[str, float] = page.evaluate("""() => ({
      page: document.scrollingElement.scrollHeight, height: innerHeight,
      seats: Math.max(...[...document.querySelectorAll('.seat')].map(s => s.getBoundingClientRect().bottom)),
      die: Math.min(...[...document.querySelectorAll('.seat-dice svg.die')].map(d => d.getBoundingClientRect().width)),
      rem: parseFloat(getComputedStyle(document.documentElement).fontSize)})""")
    return edges


@TVS
@pytest.mark.parametrize("game, seats", [("tauren", 10), ("diceholdem", 6)])
def test_a_full_table_s_board_fits_the_screen(browser: Any, served: Any, screen: dict[str, int],
                                             game: str, seats: int) -> None:
    # six DiceHoldem seats at 1920x1080 ran a row of seats under the screen's lower edge, their
    # dice cut off, and ten ran two rows under it: nobody scrolls a TV
    table = web_conftest.new_table(game, seats, 5, TEN_SEATS[:seats], sealed=False)
    page = open_board(browser, served(table), screen)
    play_until(table, lambda s: all(seat.dice for seat in s.view.seats))
    caught_up(page, table)
    edges = board_edges(page)
    shot(page, f"scoreboard-{seats}-seats-{screen['width']}x{screen['height']}")
    assert edges["page"] <= edges["height"] and edges["seats"] <= edges["height"], edges
    assert edges["die"] >= 0.6 * 3.4 * edges["rem"], edges  # smaller, but read across the room
    resized(page, PHONE)  # a phone scrolls: its seats keep their size
    page.wait_for_function("document.scrollingElement.scrollHeight > innerHeight", timeout=WAIT_MS)
    assert board_edges(page)["die"] == pytest.approx(2.6 * 15, abs=0.5)


READABLE_PX = 24
"""The least font size of a seat's name and stack on a 1280x720 TV (``.seat .name`` in
``scoreboard.css`` says why)."""


@pytest.mark.parametrize("paused", [False, True], ids=["playing", "paused"])
def test_a_full_table_s_names_and_stacks_read_from_across_the_room(browser: Any, served: Any,
                                                                   paused: bool) -> None:
    # ten seats on a 1280x720 TV shrank the board to 0.75 of full size, 0.65 under a pause's
    # banner: names of 18 px and stacks of 16 px, a blur from the bar
    table = full_hold_em_table()
    page = open_board(browser, served(table), TV)
    play_until(table, lambda s: all(seat.dice for seat in s.view.seats))
    if paused:
        table.pause("dealer", "a player went to the bar and will be back in five minutes or so")
    caught_up(page, table)
    sizes: list[float] = page.locator(".seat .name, .seat .stack").evaluate_all(
        "parts => parts.map(part => parseFloat(getComputedStyle(part).fontSize))")
    assert len(sizes) == 20 and min(sizes) >= READABLE_PX, sizes
    edges = board_edges(page)  # and the board, its seats a little taller, still fits the screen
    assert edges["page"] <= edges["height"] and edges["seats"] <= edges["height"], edges


def test_a_log_longer_than_its_box_fades_out_instead_of_ending_on_half_a_line(
        browser: Any, served: Any) -> None:
    # the box's lower edge cut its last line in half ("Ben passes on reroll/prot..." at the
    # edge of a six-seat DiceHoldem demo's screenshot)
    table = web_conftest.new_table("tauren", 4, 5, TEN_SEATS[:4], sealed=False)
    page = open_board(browser, served(table))
    faded = "getComputedStyle(document.getElementById('log')).maskImage !== 'none'"
    assert page.locator("#log li").count() < 8 and not page.evaluate(faded)  # a short log: every line whole
    play_until(table, lambda s: len(s.log) >= 40)
    caught_up(page, table)
    # the log is read when it shows: a showdown box opened in those 40 lines has its place, and
    # the log drawn while it did is measured again as it closes
    page.locator("#showdown").wait_for(state="hidden", timeout=WAIT_MS)
    spill = page.evaluate("(() => { const log = document.getElementById('log'); "
                          "return log.scrollHeight > log.clientHeight; })()")
    assert spill and page.evaluate(faded)


def test_a_few_seats_keep_their_full_size(browser: Any, served: Any) -> None:
    table = web_conftest.new_table("tauren", 4, 5, TEN_SEATS[:4], sealed=False)
    page = open_board(browser, served(table))
    play_until(table, lambda s: all(seat.dice for seat in s.view.seats))
    caught_up(page, table)
    edges = board_edges(page)
    assert edges["die"] == pytest.approx(3.4 * edges["rem"], abs=0.5), edges


@pytest.mark.parametrize("screen", [LARGE, TV, PHONE], ids=["1920x1080", "1280x720", "390x844"])
def test_a_seat_s_bet_or_empty_stack_does_not_move_its_dice(browser: Any, served: Any,
                                                            screen: dict[str, int]) -> None:
    # a seat with a bet in front of it had one line more than its neighbours, and a seat all in
    # (no chips left) one line less: their cups sat lower or higher than their neighbours', a
    # ragged row the room read as a layout fault
    table = web_conftest.new_table("tauren", 5, 11, ["Ann", "Bo", "Cy", "Dee", "Eve"],
                                   {"stack": "20,20,2,20,20"}, sealed=False)  # Cy's big blind: all in
    page = open_board(browser, served(table), screen)
    play_until(table, lambda s: all(seat.dice for seat in s.view.seats))
    caught_up(page, table)
    seats: list[dict[str, Any]] = page.locator(".seat").evaluate_all("""seats => seats.map(s => ({
      top: s.getBoundingClientRect().top, bet: !!s.querySelector('.bet'),
      held: (s.querySelector('.stack > .chips, .stack > .stones') || {}).textContent || '',
      dice: s.querySelector('.seat-dice').getBoundingClientRect().top}))""")
    # a seat with no chips says 0: its stack line was empty, and the room could not tell it from
    # a seat whose stack the page failed to draw
    assert sorted(seat["held"] for seat in seats) == ["0", "19", "20", "20", "20"], seats
    for seat in seats:
        seat["chips"] = seat["held"] != "0"
    tops = {round(seat["top"]) for seat in seats}
    rows = [[seat for seat in seats if round(seat["top"]) == top] for top in tops]
    mixed = [row for row in rows if len({(seat["bet"], seat["chips"]) for seat in row}) > 1]
    kinds = {(seat["bet"], seat["chips"]) for row in mixed for seat in row}
    assert len(kinds) == 3, seats  # a bet, none and no chips each beside another, or it shows nothing
    for row in rows:
        assert len({round(seat["dice"]) for seat in row}) == 1, row


@TVS
def test_a_full_hold_em_table_s_hands_lie_in_even_rows(browser: Any, served: Any,
                                                       screen: dict[str, int]) -> None:
    # the ten hands wrapped as they came: rows of 4, 4 and 2 at 1920x1080, a last row half empty
    _, page, box = ten_hands_shown(browser, served, screen)
    assert_in_sight(box)
    assert_even_rows(page)


@pytest.mark.parametrize("opened, shown", [(TV, LARGE), (LARGE, TV)],
                         ids=["1280x720-to-1920x1080", "1920x1080-to-1280x720"])
def test_the_showdown_box_fits_again_when_the_screen_changes_size(
        browser: Any, served: Any, opened: dict[str, int], shown: dict[str, int]) -> None:
    # the box was fitted once, as it opened: fitted on a 1280x720 screen its dice stayed small
    # when the TV went to 1920x1080; fitted at 1920x1080 it ran under the lower edge of a
    # 1280x720 screen, with the sentence saying who won what, and nobody scrolls a TV
    table = full_hold_em_table()
    live = served(table, showdown_seconds=60)
    page, there = open_board(browser, live, opened), open_board(browser, live, shown)
    all_in(table)
    showdown_box(page)
    resized(page, shown)
    box, opened_there = showdown_box(page), showdown_box(there)
    shot(page, f"scoreboard-showdown-resized-to-{shown['width']}x{shown['height']}")
    assert_in_sight(box)
    for card in sum(hands_in_rows(page), []):  # every hand on the screen
        assert 0 <= card["left"] and card["right"] <= box["width"], card
        assert box["top"] <= card["top"] and card["bottom"] <= box["bottom"], card
    # no smaller than a box that opened at this size: the largest size that fits
    assert (box["fit"], box["die"]) == (opened_there["fit"], opened_there["die"])
    assert_even_rows(page)


@pytest.mark.parametrize("hands", [4, 10])
def test_the_showdown_box_s_dice_take_the_same_share_of_every_tv(browser: Any, served: Any,
                                                                 hands: int) -> None:
    # the box's dice were sized in pixels (72 at most) while all else in it followed the screen:
    # against the screen they were a third smaller at 1920x1080 than at 1280x720 (four hands:
    # 58 px on both; ten: 40 px and 36 px), the hands' names and words large around small dice
    table = full_hold_em_table() if hands == 10 else four_seats()
    live = served(table, showdown_seconds=60)
    large, tv = open_board(browser, live, LARGE), open_board(browser, live, TV)
    if hands == 10:
        all_in(table)
    else:
        play_until(table, lambda s: s.view.result is not None)
    seen = {screen["width"]: showdown_box(page) for screen, page in ((LARGE, large), (TV, tv))}
    shares = {width: box["die"] / width for width, box in seen.items()}
    # the same within a step of the box's fit (0.05 of 0.5 at the smallest)
    assert shares[1920] == pytest.approx(shares[1280], rel=0.11), seen


def test_what_a_winner_takes_reads_as_large_as_the_hand_it_took_it_with(browser: Any,
                                                                        served: Any) -> None:
    # "wins 25" under a winner's hand was the smallest line in the box, in the box's own size:
    # on a 1280x720 TV 15 px, its chips 13 px across (9 px and 8 px in a box of ten hands), a
    # blur from the bar
    table = four_seats()
    page = open_board(browser, served(table, showdown_seconds=60), TV)
    play_until(table, lambda s: s.view.result is not None)
    assert_in_sight(showdown_box(page))
    size = "part => parseFloat(getComputedStyle(part).fontSize)"
    won = page.locator("#showdown .winner .won").evaluate_all(f"parts => parts.map({size})")
    hand = page.locator("#showdown .winner .hand").evaluate_all(f"parts => parts.map({size})")
    assert won and won == hand, (won, hand)


def test_a_phone_shows_the_showdown_s_board_in_one_row(browser: Any, served: Any) -> None:
    # on a phone the box's five board dice broke as four and one, the fifth alone under them,
    # read as a sixth row of the showdown rather than the board the hands were made with
    table = web_conftest.new_table("tauren", 2, 3, ["Ann", "Bo"], sealed=False)
    page = open_board(browser, served(table, showdown_seconds=60), PHONE)
    play_until(table, lambda s: s.view.result is not None and len(s.view.result.community) == 5)
    assert_in_sight(showdown_box(page))
    dice = page.locator("#showdown .board svg.die").evaluate_all(
        "dice => dice.map(die => die.getBoundingClientRect().toJSON())")
    shot(page, "scoreboard-phone-heads-up-showdown")
    assert len(dice) == 5 and len({die["top"] for die in dice}) == 1, dice
    assert all(0 <= die["left"] and die["right"] <= PHONE["width"] for die in dice), dice


def test_a_phone_s_header_lays_its_facts_side_by_side(browser: Any, served: Any) -> None:
    # on a phone the facts shared a line with the game's name and number, squeezed into a column
    # a third of the screen wide: one fact a line, "Matches won" on four, a Tao Dice header
    # 200 px tall, pushing the board and the showdown box down (about 140 px now)
    table = web_conftest.new_table("tao", 6, 3, TEN_SEATS[:6], sealed=False)
    page = open_board(browser, served(table), PHONE)
    facts = page.locator("#facts li").evaluate_all(
        "facts => facts.map(fact => fact.getBoundingClientRect().toJSON())")
    shot(page, "scoreboard-phone-tao-header")
    assert len(facts) >= 5 and len({fact["top"] for fact in facts}) < len(facts) - 1, facts
    assert all(fact["right"] <= PHONE["width"] for fact in facts), facts


def test_an_empty_pot_says_0(browser: Any, served: Any) -> None:
    # before the first ante a Tao Dice pot read "Pot" and nothing: the room could not tell an
    # empty pot from one the page failed to draw
    table = web_conftest.new_table("tao", 3, 3, ["Ann", "Bo", "Cy"])
    page = open_board(browser, served(table), TV)
    assert page.locator("#pots .pot").inner_text().split() == ["Pot", "0"]


def test_a_black_stone_reads_as_a_stone_not_an_empty_ring(browser: Any, served: Any) -> None:
    # a black stone was a flat #111 disc in a grey ring: on the dark felt the room saw an empty
    # ring beside the white stone's filled disc, and "○11 ●5" could be read the wrong way round
    table = web_conftest.new_table("tao", 3, 3, ["Ann", "Bo", "Cy"])
    page = open_board(browser, served(table), TV)
    stone = page.locator("#seats .stone.black").first
    picture = cv2.imdecode(np.frombuffer(stone.screenshot(), np.uint8), cv2.IMREAD_GRAYSCALE)
    assert picture is not None
    high, wide = picture.shape
    rows, cols = np.mgrid[:high, :wide]
    inside = (rows - (high - 1) / 2) ** 2 + (cols - (wide - 1) / 2) ** 2 < (0.5 * min(high, wide) / 2) ** 2
    shot(page, "scoreboard-tao-stones")
    assert int(picture[inside].max()) >= 96, picture  # a polished stone's highlight, not a hole


def test_a_phone_scrolled_down_the_board_shows_the_whole_showdown_box(browser: Any,
                                                                     served: Any) -> None:
    # the box was put under the header's lower edge as the screen saw it: on a phone scrolled
    # down to the seats that edge lay above the screen, and so did the box's headline
    table = four_seats()
    page = open_board(browser, served(table, showdown_seconds=60), PHONE)
    play_until(table, lambda s: len(s.log) >= 12)
    caught_up(page, table)
    page.evaluate("scrollTo(0, 200)")
    play_until(table, lambda s: s.view.result is not None)
    box = showdown_box(page)
    assert box["header"] < 0, box  # the header above the screen as the box opened
    shot(page, "scoreboard-phone-scrolled-showdown")
    assert 0 <= box["top"], box
    assert_in_sight(box)


def test_the_showdown_box_moves_down_when_the_header_wraps_after_it_opened(browser: Any,
                                                                         served: Any) -> None:
    # the box measured the header only as it opened: on a 1024x768 screen the next hand's
    # "Current bet" wrapped the header's facts to a second line while the box showed the last
    # hand's, and the box lay over that line
    table = four_seats()
    page = open_board(browser, served(table, showdown_seconds=60), XGA)
    play_until(table, lambda s: s.view.result is not None)
    opened = showdown_box(page)
    play_until(table, lambda s: any(fact.label == "Current bet" for fact in s.view.facts))
    caught_up(page, table)
    painted(page)
    box = showdown_box(page)
    assert box["header"] > opened["header"], (opened, box)  # the header did wrap
    assert_in_sight(box)


@TVS
def test_a_full_tao_dice_table_s_showdown_fits_the_screen(browser: Any, served: Any,
                                                          screen: dict[str, int]) -> None:
    # six seats that all stay in to the showdown: six hands of three dice each
    table = web_conftest.new_table("tao", 6, 1, TEN_SEATS[:6], sealed=False)
    page = open_board(browser, served(table, showdown_seconds=60), screen)
    hidden, centre = ["1 2", "3 4", "5 6", "6 6", "2 2", "1 5"], [3, 7, 11, 12, 1, 9]
    enter(table, [f"ante {seat} black=1 white=0" for seat in range(6)] +
          [f"roll {seat} d6 {dice}" for seat, dice in enumerate(hidden)] +
          [f"pass {seat}" for seat in range(6)] +
          [f"roll {seat} d12 {face}" for seat, face in enumerate(centre)] +
          [f"pass {seat}" for seat in range(6)])
    box = showdown_box(page)
    assert page.locator("#showdown .shown").count() == 6
    shot(page, f"scoreboard-showdown-tao-6-hands-{screen['width']}x{screen['height']}")
    assert_in_sight(box)


def unseen(page: Any) -> list[str]:
    """The seats' names and stacks the room cannot see: off the screen, or under something else
    (what lies at the centre of each is not it nor in it)."""
    hidden: list[str] = page.locator(".seat .name, .seat .stack").evaluate_all("""parts => parts.filter(part => {
      const edge = part.getBoundingClientRect();
      const seen = document.elementFromPoint(edge.left + edge.width / 2, edge.top + edge.height / 2);
      return !(seen && part.contains(seen));
    }).map(part => `seat ${part.closest('.seat').dataset.seat} ${part.className}`)""")
    return hidden


def test_the_board_takes_the_screen_back_when_the_showdown_box_closes(browser: Any, served: Any) -> None:
    # the board gives the box the log's place and its seats' dice while it shows (see above)
    table = full_hold_em_table()
    page = open_board(browser, served(table, showdown_seconds=4), TV)
    all_in(table)
    page.locator("#showdown").wait_for(state="visible", timeout=WAIT_MS)
    assert page.locator("aside").is_hidden()
    page.locator("#showdown").wait_for(state="hidden", timeout=WAIT_MS)
    assert page.locator("aside").is_visible() and page.locator(".seat-dice").first.is_visible()
    assert unseen(page) == [] and board_edges(page)["page"] <= TV["height"]


def test_a_dealer_corrects_a_misread_die_and_the_scoreboard_shows_it(browser: Any,
                                                                     served: Any) -> None:
    table = web_conftest.new_table("tauren", 3, 7)
    live = served(table)
    play_until(table, flop_out)
    flop = next(line for line in reversed(table.state().log) if line.text.startswith("The table rolls"))
    board = open_board(browser, live)
    console = browser.new_page(viewport={"width": 1280, "height": 900})
    console.goto(live.url + "/dealer/")
    console.fill("#pin", web_conftest.PIN)
    console.click("#login")
    console.wait_for_selector("#correct-seq")
    console.select_option("#correct-seq", str(flop.seq))
    console.fill("#correct-faces", "W C S")
    shot(console, "console")
    console.click("#correct-button")
    console.wait_for_selector("#table-status")
    board.wait_for_function(
        "[...document.querySelectorAll('#community svg.die')].slice(0, 3)"
        ".map(e => e.dataset.face).join(' ') === 'W C S'", timeout=WAIT_MS)
    assert [d.face for d in table.state().view.community[:3]] == ["W", "C", "S"]
    shot(board, "scoreboard-large-corrected")


def test_the_console_question_shows_the_evidence_with_detections(browser: Any,
                                                                 served: Any) -> None:
    table = web_conftest.new_table("tauren", 3, 7)
    live = served(table)
    play_until(table, lambda s: len(table.game.pending().dice) > 0 and
               table.game.pending().dice[0].seat is None)
    table.ask()
    console = browser.new_page(viewport={"width": 1280, "height": 1000})
    console.goto(live.url + "/dealer/")
    console.fill("#pin", web_conftest.PIN)
    console.click("#login")
    console.wait_for_selector("#evidence")
    console.wait_for_function("document.querySelector('#evidence').naturalWidth > 0")
    boxes = console.locator("figure.evidence g.det rect")
    assert boxes.count() == table.state().question.count
    assert console.locator("figure.evidence svg").get_attribute("viewBox") == "0 0 640 400"
    for k in range(boxes.count()):  # labelled below the box: the picture has its own label above it
        rect, label = boxes.nth(k), console.locator("figure.evidence g.det").nth(k).locator("text").first
        bottom = float(rect.get_attribute("y") or 0) + float(rect.get_attribute("height") or 0)
        assert float(label.get_attribute("y") or 0) > bottom
    # and shown even for a die at the picture's bottom edge
    assert console.locator("figure.evidence svg").evaluate("e => getComputedStyle(e).overflow") == "visible"
    shot(console, "console-question")


def test_a_wrong_pin_is_refused_and_rate_limited(browser: Any, served: Any) -> None:
    live = served(web_conftest.new_table())
    page = browser.new_page()
    page.goto(live.url + "/dealer/")
    for attempt in range(5):
        page.fill("#pin", f"999{attempt}")
        page.click("#login")
        assert page.locator("#error").inner_text() == "Wrong PIN."
    page.fill("#pin", web_conftest.PIN)  # even the right PIN waits now
    page.click("#login")
    assert page.locator("#error").inner_text().startswith("Too many wrong PINs")
    assert page.url.endswith("/dealer/login")
    shot(page, "console-locked")


def test_the_stream_reconnects_after_a_server_restart_without_losing_an_event(
        browser: Any, served: Any) -> None:
    table = web_conftest.new_table("diceholdem", 3, 5)
    live = served(table, retry_ms=300)
    page = open_board(browser, live)
    first = page.evaluate("window.dicetable.seq")
    for _ in range(5):
        table.step()
    caught_up(page, table)
    live.stop()
    page.wait_for_function("!window.dicetable.connected", timeout=WAIT_MS)
    for _ in range(7):  # the table goes on while the web server is down
        table.step()
    live.start()
    for _ in range(5):
        table.step()
    caught_up(page, table)
    seen = page.evaluate("window.dicetable.seen")
    assert seen == list(range(first, table.state().seq + 1))
    assert page.locator("#log li").first.inner_text() == table.state().log[-1].text


def log_in(browser: Any, live: LiveServer, path: str = "/dealer/",
           viewport: dict[str, int] | None = None) -> Any:
    """A console page with a dealer session, at ``path``."""
    console = browser.new_page(viewport=viewport or {"width": 1280, "height": 1000})
    console.goto(live.url + "/dealer/")
    console.fill("#pin", web_conftest.PIN)
    console.click("#login")
    console.wait_for_selector("#table-status")
    if path != "/dealer/":
        console.goto(live.url + path)
    return console


def played(served: Any, steps: int) -> tuple[Any, LiveServer]:
    """A served three-seat Tauren table (seed 7) after ``steps`` of play."""
    table = web_conftest.new_table("tauren", 3, 7)
    live = served(table)
    for _ in range(steps):
        table.step()
    return table, live


def test_a_pause_shows_its_reason_on_the_scoreboard_and_the_console(browser: Any,
                                                                    served: Any) -> None:
    table, live = played(served, 6)
    board = open_board(browser, live)
    console = log_in(browser, live)
    console.fill("#pause-why", "a player went to the bar")
    console.click("#pause")
    assert "a player went to the bar" in console.locator("#table-status").inner_text()
    board.locator("#status").wait_for(state="visible", timeout=WAIT_MS)
    assert board.locator("#status").inner_text() == "Paused a player went to the bar"
    shot(board, "scoreboard-large-paused")


@pytest.mark.parametrize("code, text, head", [
    ("cocked", "die 1 in the community zone lies cocked: throw the dice again", "Look at the tray"),
    # a die the camera doubts is the players' to move since they can (it said the dealer checks)
    ("confidence", "die 1 read W at 0.42 confidence: move it a little, the same face up", "Look at the tray"),
    ("count", "3 dice expected in the community zone, 4 seen", "The dealer is checking the dice")])
def test_a_question_shows_on_the_scoreboard_saying_who_acts(browser: Any, served: Any, code: str, text: str,
                                                            head: str) -> None:
    table = web_conftest.new_table("tauren", 3, 7)
    live = served(table)
    cocked = code == "cocked"
    table.ask(text, cocked=cocked, code=code)
    board = open_board(browser, live)
    board.locator("#status").wait_for(state="visible", timeout=WAIT_MS)
    assert board.locator("#status strong").inner_text() == head
    assert text in board.locator("#status").inner_text()
    if cocked:
        shot(board, "scoreboard-large-cocked")


def test_the_fairness_page_flags_a_loaded_die_named_by_its_colour(browser: Any, served: Any) -> None:
    colours = ["#e4572e", "#29a0b1", "#f3a712"]
    table = web_conftest.new_table("tao", 3, 7, colours=colours, loaded=(1, "d6", "6"))
    for _ in range(900):
        table.step()
    live = served(table)
    console = log_in(browser, live, "/dealer/fairness")
    flagged = console.locator(".fair.loaded").evaluate_all("els => els.map(e => e.id)")
    assert "fair-d6-29a0b1" in flagged and "fair-d6-e4572e" not in flagged
    heading = console.locator("#fair-d6-29a0b1 h2")
    assert heading.inner_text().split() == ["d6", "·", "teal", "looks", "loaded"]
    assert heading.locator(".swatch").get_attribute("title") == "#29a0b1"
    assert console.locator("#fair-d6-29a0b1 .stat .hex").inner_text() == "#29a0b1"
    shot(console, "console-fairness")


def test_the_last_games_show_the_evidence_of_every_roll_on_the_demo_table(
        browser: Any, served: Any, tmp_path: Any) -> None:
    from controller.table.build import build_demo
    demo, _ = build_demo("diceholdem", 3, 7, tmp_path / "table.db", None, ["heuristic"])
    try:
        demo.table.new_game("diceholdem", ["Ana", "Ben", "Cleo"], {},
                            ["#e4572e", "#29a0b1", "#f3a712"])
        while demo.table.ledger.game.hands_played < 1 and demo.step():
            pass
        live = served(demo.table)
        console = log_in(browser, live, "/dealer/games")
        rolls = demo.table.games(1)[0].rolls
        pictured = [roll for roll in rolls if roll.picture is not None]
        assert pictured and {roll.read_by for roll in pictured} <= {"camera", "dealer"}
        thumbs = console.locator(f"#game-{demo.table.game_no} img.thumb")
        assert thumbs.count() == len(pictured)
        console.wait_for_function("[...document.querySelectorAll('img.thumb')]"
                                  ".every(img => img.complete && img.naturalWidth > 0)")
        shot(console, "console-last-games")
    finally:
        demo.close()


def test_one_hand_late_the_board_shows_the_last_hands_end(browser: Any, served: Any) -> None:
    table = web_conftest.new_table("tauren", 4, 11, ["Ann", "Bo", "Cy", "Dee"])
    live = served(table, delay_one_hand=True, showdown_seconds=60)
    page = open_board(browser, live)
    assert "one hand late" in page.locator("#awaited").inner_text()
    play_until(table, lambda s: table.game.hands_played >= 2 and bool(s.view.community))
    page.locator("#showdown").wait_for(state="visible", timeout=WAIT_MS)
    shown = page.evaluate("window.dicetable.seq")
    assert shown < table.state().seq  # the hand in play is not on the board
    shot(page, "scoreboard-large-one-hand-late")


def test_the_console_follows_the_table_unless_the_dealer_is_filling_in_a_form(browser: Any,
                                                                               served: Any) -> None:
    # its forms act only on the table as drawn (at=), and the page never drew itself again: a dealer
    # who waited while the players went on was refused until they reloaded by hand
    table, live = played(served, 4)
    console = log_in(browser, live)
    table.step()
    newest = table.state().log[-1].text
    console.locator("#log li", has_text=newest).first.wait_for(timeout=WAIT_MS)
    assert console.locator("#stale").is_hidden()
    console.fill("#pause-why", "a spilled drink")  # the dealer is typing: the page is not redrawn
    table.step()
    console.locator("#stale").wait_for(state="visible", timeout=WAIT_MS)
    assert console.input_value("#pause-why") == "a spilled drink"


def test_a_console_page_whose_session_ended_elsewhere_goes_to_the_login(browser: Any, served: Any) -> None:
    # its questions to the table were sent to the login page, and it stood as it was drawn
    live = served(web_conftest.new_table("tauren", 3, 7))
    console = log_in(browser, live)
    other = browser.new_page()  # the same session, in another window
    other.context.add_cookies(console.context.cookies())
    other.goto(live.url + "/dealer/")
    other.click("text=Log out")
    console.wait_for_url("**/dealer/login", timeout=WAIT_MS)
    assert console.locator("#pin").is_visible()


def test_a_console_left_open_ends_after_the_idle_limit_and_its_login_says_why(browser: Any,
                                                                              served: Any) -> None:
    # the page draws itself again as the game goes on: taken for the dealer's use, a tablet left
    # open on the console at the bar never reached the idle limit
    now = [1_765_000_000.0]
    table = web_conftest.new_table("tauren", 3, 7)
    live = served(table, wall_clock=lambda: now[0])
    console = log_in(browser, live)

    def drawn_again(seconds: float) -> None:
        now[0] += seconds
        table.step()
        console.locator(f"#status-shown[data-at='{table.state().played}']").wait_for(timeout=WAIT_MS)
        console.wait_for_url(f"{live.url}/dealer/", timeout=WAIT_MS)  # its mark dropped once drawn
    for _ in range(3):
        drawn_again(IDLE_LIMIT / 4)
    console.reload()  # the dealer's own: a use
    drawn_again(IDLE_LIMIT / 2)  # past the limit since the login, not since that use
    now[0] += IDLE_LIMIT / 2
    console.wait_for_url("**/dealer/login", timeout=WAIT_MS)
    assert console.locator("#ended").inner_text() == "Logged out after 3 hours without use: log in again."
    shot(console, "console-logged-out-idle")


def test_an_open_scoreboard_shows_a_notice_and_a_fault_told_after_it_opened(
        browser: Any, served: Any, fresh: Any) -> None:
    # a notice keeps the last record's number, and the production server's fan-out sent only
    # changes of a higher number: only a page opened afterwards showed it. A fault before the
    # first game is the table's own record (store.TABLE), shown once, after the notice
    board = open_board(browser, served(fresh))
    fresh.press(1, "call")
    board.locator("#log li", has_text="pressed call, but no game is in play").wait_for(timeout=WAIT_MS)
    fresh.hardware.sim.inject("rfid:dead")
    fresh.beats(HEALTH_EVERY * 2.5)
    assert fresh.state().status.value == "fault"
    board.locator("#status", has_text=fresh.state().problem).wait_for(timeout=WAIT_MS)
    faults = [record.seq for record in fresh.store.records(TABLE)]
    assert faults and board.evaluate("window.dicetable.seq") == faults[-1]  # the events' id says so
    shown = board.eval_on_selector_all("#log li", "lines => lines.map((line) => Number(line.dataset.seq))")
    assert shown == [*reversed(faults), 0]  # newest first, each once, the notice (no record) last
    shot(board, "scoreboard-large-fault-before-the-first-game")


def test_the_scoreboard_shows_a_command_in_a_fault_as_code_not_in_backticks(browser: Any, served: Any,
                                                                           fresh: Any) -> None:
    # the fix of a device that says nothing better (table.DEVICE_FIX) is the terminal's sentence
    # too, and the board showed the room "`dicetable doctor`"
    board = open_board(browser, served(fresh))
    fresh.eyes.failing = DeviceDisconnected("camera: stopped sending frames")
    fresh.beats(HEALTH_EVERY * 2.5)
    board.locator("#status", has_text="stopped sending frames").wait_for(timeout=WAIT_MS)
    assert board.locator("#status code").inner_text() == "dicetable doctor"
    assert "`" not in board.locator("#status").inner_text()


def test_the_scoreboard_tells_a_stray_tags_fix_once_as_code(browser: Any, served: Any,
                                                           fresh: Any) -> None:
    # a stray tag's problem said its fix too, so the board's status said it twice
    board = open_board(browser, served(fresh))
    fresh.stray_tag("seat0", "04a1b2c3")
    board.locator("#status", has_text="unknown tag").wait_for(timeout=WAIT_MS)
    assert board.locator("#status code").inner_text() == "dicetable stones enroll"
    assert board.locator("#status").inner_text().count("take it off") == 1
    assert "enrol" not in board.locator("#log li", has_text="unknown tag").inner_text()


def test_an_open_console_shows_a_fault_before_the_first_game_and_its_end(
        browser: Any, served: Any, fresh: Any) -> None:
    # the console asked /dealer/at for the record's number and the game's, which a fault before
    # any game keeps: the dealer, who must see a dead camera first, saw it only on reloading
    console = log_in(browser, served(fresh))
    fresh.eyes.failing = DeviceDisconnected("camera: stopped sending frames")
    fresh.beats(HEALTH_EVERY * 2.5)
    status = console.locator("#table-status.status-fault")
    status.filter(has_text="fault: camera: stopped sending frames").wait_for(timeout=WAIT_MS)
    assert "Fix: check the device's cable" in status.inner_text()
    console.locator("#log li", has_text="Fault: camera: stopped sending frames").wait_for(timeout=WAIT_MS)
    assert console.locator("#stale").is_hidden()
    shot(console, "console-fault-before-the-first-game")
    fresh.eyes.failing = None
    fresh.beats(HEALTH_EVERY * 2.5)
    console.locator("#log li", has_text="the camera works again").wait_for(timeout=WAIT_MS)
    assert console.locator("#table-status.status-over").count() == 1
    fault, clear = (record.seq for record in fresh.store.records(TABLE))  # the table's own records
    assert console.locator("#log li").all_inner_texts() == [
        f"{clear} · Fixed: the camera works again", f"{fault} · Fault: camera: stopped sending frames"]
    assert "camera" not in console.locator("#status-shown").inner_text()


def test_a_console_form_filled_in_before_a_notice_is_sent_after_it(browser: Any, served: Any,
                                                                   fresh: Any) -> None:
    # a notice makes no record and the forms act on the record: the console draws the notice
    # again without calling its forms stale, and keeps what the dealer typed
    fresh.new_game("tauren", ["Ann", "Bo", "Cy"], {})
    fresh.beats(0.5)  # the hidden rolls, sealed: Ann is to bet
    console = log_in(browser, served(fresh))
    console.fill("#void-why", "dice off the tray")
    fresh.press(1, "call")  # not Bo's turn: told, not recorded
    notice = fresh.state().log[-1].text
    assert notice.startswith("Bo: ")
    console.locator("#log li", has_text=notice).wait_for(timeout=WAIT_MS)
    assert console.locator("#stale").is_hidden()
    assert console.input_value("#void-why") == "dice off the tray"
    console.click("#void")
    console.locator("#log li", has_text="dice off the tray").wait_for(timeout=WAIT_MS)
    assert "dice off the tray" in fresh.state().log[-1].text


def test_a_console_form_filled_in_before_a_device_fails_in_a_game_is_sent_after_it(
        browser: Any, served: Any, fresh: Any) -> None:
    # a device's fault and its end are records, and the console took them for a change of the
    # game: it called its forms stale while the dealer typed, and the table refused the Void
    fresh.new_game("tauren", ["Ann", "Bo", "Cy"], {})
    fresh.beats(0.5)  # the hidden rolls, sealed: Ann is to bet
    console = log_in(browser, served(fresh))
    console.fill("#void-why", "dice off the tray")
    fresh.eyes.failing = DeviceDisconnected("camera: stopped sending frames")
    fresh.beats(0.5)
    console.locator("#table-status.status-fault").wait_for(timeout=WAIT_MS)  # drawn again in place
    fresh.eyes.failing = None
    fresh.beats(0.5)
    console.locator("#log li", has_text="the camera works again").wait_for(timeout=WAIT_MS)
    assert console.locator("#stale").is_hidden()
    assert console.input_value("#void-why") == "dice off the tray"
    console.click("#void")
    console.locator("#log li", has_text="dice off the tray").wait_for(timeout=WAIT_MS)
    assert "dice off the tray" in fresh.state().log[-1].text
