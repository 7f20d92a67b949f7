"""The dice fairness page: face counts, the chi-square p-value, a loaded die flagged."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.games.dice import DieKind
from controller.table.records import RollSeen
from web.fairness import chi_square_tail, chi_square_test as face_test, die_names, face_tests, tally
from tests.web.conftest import app_for, log_in, new_table


@pytest.mark.parametrize(("statistic", "dof", "tail"), [
    (3.841, 1, 0.05), (6.635, 1, 0.01), (11.070, 5, 0.05), (20.515, 5, 0.001),
    (19.675, 11, 0.05), (1.145, 5, 0.95), (24.322, 7, 0.001), (0.5, 2, 0.7788008)])
def test_the_p_value_matches_the_chi_square_table(statistic: float, dof: int,
                                                  tail: float) -> None:
    assert chi_square_tail(statistic, dof) == pytest.approx(tail, rel=2e-3)


def test_a_fair_die_is_not_flagged_and_a_loaded_one_is() -> None:
    rng = random.Random(5)
    fair = Counter(rng.choice(DieKind.D6.faces) for _ in range(600))
    loaded = Counter(rng.choice("1234566") for _ in range(600))
    assert not face_test(DieKind.D6, fair).loaded
    assert face_test(DieKind.D6, loaded).loaded
    assert face_test(DieKind.D6, loaded).p_value < 1e-6


def test_too_few_rolls_are_not_flagged() -> None:
    result = face_test(DieKind.D12, Counter({"12": 9}))
    assert not result.enough and not result.loaded


def _roll(kind: DieKind, colour: str, *faces: str) -> RollSeen:
    return RollSeen(1, 1, 1, 0, kind, colour, faces)


def test_dice_are_counted_per_kind_and_colour() -> None:
    rolls = [_roll(DieKind.D6, "#ff0000", "3", "5"), _roll(DieKind.D6, "#00ff00", "3"),
             _roll(DieKind.D6, "#ff0000", "3"), _roll(DieKind.D12, "#ff0000", "12")]
    counts = tally(rolls)
    assert counts[(DieKind.D6, "#ff0000")] == Counter({"3": 2, "5": 1})
    assert counts[(DieKind.D6, "#00ff00")] == Counter({"3": 1})
    assert [(t.kind, t.colour) for t in face_tests(rolls)] == [
        (DieKind.D6, "#00ff00"), (DieKind.D6, "#ff0000"), (DieKind.D12, "#ff0000")]


COLOURS = ["#e4572e", "#29a0b1", "#f3a712"]


def _loaded_tao() -> Any:
    """A real Tao Dice table whose second seat (colour #29a0b1) rolls a d6 that shows 6 half the
    time, played until that die was rolled 40 times."""
    table = new_table("tao", 3, 7, colours=COLOURS, loaded=(1, "d6", "6"))
    while sum(len(r.faces) for r in table.rolls()
              if r.kind is DieKind.D6 and r.colour == COLOURS[1]) < 40:
        for _ in range(50):
            table.step()
    return table


def test_the_record_gives_each_roll_with_its_seat_colour_and_reader() -> None:
    table = new_table("tao", 3, 7, colours=COLOURS)
    for _ in range(120):
        table.step()
    rolls = table.rolls()
    seen = {p.seq for p in table.records if hasattr(p.input, "faces")
            and "?" not in p.input.faces and (p.reveal or not p.hidden)}
    assert rolls and {r.seq for r in rolls if r.game_no == table.game_no} == seen
    assert all("?" not in r.faces for r in rolls)
    assert all(r.colour == COLOURS[r.seat] for r in rolls if r.seat is not None)
    assert {r.read_by for r in rolls} == {"bot"}
    assert table.games(1)[0].colours == tuple(COLOURS)


def test_a_loaded_die_on_a_real_table_is_flagged(dealer: FlaskClient) -> None:
    table = _loaded_tao()
    tests = {(t.kind, t.colour): t for t in face_tests(table.rolls())}
    assert tests[(DieKind.D6, COLOURS[1])].loaded
    assert not any(t.loaded for (kind, colour), t in tests.items() if colour != COLOURS[1])
    app = app_for(table)
    client = app.test_client()
    assert log_in(client).status_code == 302
    page = client.get("/dealer/fairness").get_data(as_text=True)
    loaded = page.split('id="fair-d6-29a0b1"')[1].split('class="fair')[0]
    assert "looks loaded" in loaded
    fair = page.split('id="fair-d6-e4572e"')[1].split('class="fair')[0]
    assert "looks loaded" not in fair and "looks fair" in fair


def test_each_die_is_named_by_its_colour_in_a_word_its_hex_in_small_print(dealer: FlaskClient) -> None:
    table = new_table("tao", 3, 7, colours=COLOURS)
    for _ in range(120):
        table.step()
    client = app_for(table).test_client()
    assert log_in(client).status_code == 302
    page = client.get("/dealer/fairness").get_data(as_text=True)
    for colour, word in zip(COLOURS, ("red", "teal", "yellow")):
        card = page.split(f'id="fair-d6-{colour[1:]}"')[1].split('class="fair')[0]
        heading = card.split("<h2>")[1].split("</h2>")[0]
        assert f"d6 · {word}" in heading and f'title="{colour}"' in heading
        assert heading.count(colour) == 2  # the swatch's colour and title, not the words
        assert f'<span class="hex">{colour}</span>' in card


def test_two_dice_of_one_kind_with_one_word_keep_their_hex_in_the_heading() -> None:
    dice = [(DieKind.D6, "#1d4ed8"), (DieKind.D6, "#4682b4"), (DieKind.D6, "#d62828"),
            (DieKind.D6, ""), (DieKind.D12, "#1d4ed8")]
    names = die_names([face_test(kind, Counter({"1": 1}), colour) for kind, colour in dice])
    assert names == {"d6-1d4ed8": "blue #1d4ed8", "d6-4682b4": "blue #4682b4", "d6-d62828": "red",
                     "d6": "colour unknown", "d12-1d4ed8": "blue"}
    assert die_names([face_test(DieKind.D6, Counter({"1": 1}), "#zz0000")]) == {"d6-zz0000": "#zz0000"}


def test_the_console_names_colours_without_loading_opencv_or_numpy() -> None:
    code = ("import sys, collections, web.dealer\n"
            "from controller.games.dice import DieKind\n"
            "from web.fairness import chi_square_test, die_names\n"
            "die = chi_square_test(DieKind.D6, collections.Counter('16'), '#1d4ed8')\n"
            "print(die_names([die])['d6-1d4ed8'], 'cv2' in sys.modules, 'numpy' in sys.modules)")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.split() == ["blue", "False", "False"]


def test_sealed_dice_count_only_once_revealed_and_an_answer_is_the_dealers() -> None:
    table = new_table("tauren", 3, 7, colours=COLOURS)
    while table.game.hands_played < 3:
        table.step()
    sealed = {p.seq for p in table.records if p.hidden and not p.reveal}
    reveals = {p.seq for p in table.records if p.reveal}
    seqs = {r.seq for r in table.rolls()}
    assert sealed and reveals and not sealed & seqs and reveals <= seqs
    question = table.ask()
    faces = [question.kind.faces[0]] * question.count
    ack = table.answer(question.id, faces, "dealer")
    last = table.rolls()[-1]
    assert (last.seq, last.read_by, last.picture) == (ack.seq, "dealer", question.evidence)
    assert last.picture is not None and table.evidence(last.picture)
