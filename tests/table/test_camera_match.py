"""match(): the camera's dice become exactly the roll the engine waits for, or a question saying why.

Constructed readings (no frames): each rule of the decision on its own. The rendered, really read
trays are in ``test_camera.py``.
"""

from __future__ import annotations

import math

from pathlib import Path

import pytest

from controller.games.base import DiceNeeded
from controller.games.dice import DieKind
from controller.games.rolls import Roll
from controller.games.view import DieView, SeatStatus, SeatView, TableView
from controller.table.camera import TrayReading, dice_on_table, match, zone_for
from controller.table.records import DieSeen, Question
from vision.calibrate import load_tray_config
from vision.read import UNCERTAIN

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

ZONES = load_tray_config(Path(__file__).parents[2] / "table.example.toml").zones
FLOP = DiceNeeded(None, DieKind.D6, 3, False, "flop")
REVEAL_2 = DiceNeeded(2, DieKind.D6, 2, False, "reveal")


def die(face: str | None, zone: str | None, confidence: float = 0.97, flag: str | None = None,
        x: float = 0.0, kind: DieKind = DieKind.D6) -> DieSeen:
    return DieSeen(kind, face, confidence, (x, 100.0), (x - 20, 80.0, 40.0, 40.0), zone, flag)


def reading(*dice: DieSeen, kind: DieKind = DieKind.D6) -> TrayReading:
    return TrayReading(kind, dice, b"", 1.0)


def question(result: Roll | Question) -> Question:
    assert isinstance(result, Question), result
    return result


def test_zone_names_follow_the_convention() -> None:
    assert (zone_for(None), zone_for(0), zone_for(3)) == ("community", "seat0", "seat3")
    assert {zone_for(None), *(zone_for(s) for s in range(4))} <= {z.name for z in ZONES.zones}


def test_three_sure_dice_in_the_community_zone_are_the_flop_in_tray_order() -> None:
    seen = reading(die("3", "community", x=10), die("5", "community", x=20), die("1", "community", x=30))
    assert match(FLOP, seen, ZONES) == Roll(None, DieKind.D6, ("3", "5", "1"))


def test_a_seats_reveal_in_its_zone_is_that_seats_roll() -> None:
    seen = reading(die("6", "seat2"), die("2", "seat2"))
    assert match(REVEAL_2, seen, ZONES) == Roll(2, DieKind.D6, ("6", "2"))


def test_wrong_count_names_expected_and_seen() -> None:
    seen = reading(*(die(f, "community") for f in "3514"))
    asked = question(match(FLOP, seen, ZONES))
    assert (asked.reason, asked.text) == ("count", "3 dice expected in the community zone, 4 seen")
    assert (asked.seat, asked.kind, asked.count, asked.seen) == (None, DieKind.D6, 3, seen.dice)


def test_a_die_outside_every_zone_is_asked_about() -> None:
    seen = reading(die("3", "community"), die("5", "community"), die("1", None))
    asked = question(match(FLOP, seen, ZONES))
    assert asked.reason == "outside"
    assert asked.text.startswith("a die lies outside every zone")


def test_a_die_in_another_seats_zone_is_asked_about() -> None:
    seen = reading(die("3", "seat2"), die("5", "seat1"))
    asked = question(match(REVEAL_2, seen, ZONES))
    assert (asked.reason, asked.text) == ("other_zone", "a die in the seat1 zone while the table waits for seat 2's dice")


def test_a_reading_just_below_the_threshold_is_asked_about_and_one_at_it_is_taken() -> None:
    low = round(UNCERTAIN - 0.004, 4)
    asked = question(match(REVEAL_2, reading(die("6", "seat2"), die("5", "seat2", confidence=low)), ZONES))
    assert (asked.reason, asked.text) == ("confidence", f"die 2 in the seat2 zone read 5 at "
                                          f"{math.floor(low * 100) / 100:.2f} confidence: move it a little, the same face up")
    at = reading(die("6", "seat2"), die("5", "seat2", confidence=UNCERTAIN))
    assert match(REVEAL_2, at, ZONES) == Roll(2, DieKind.D6, ("6", "5"))


@pytest.mark.parametrize("face, flag, code, text", [
    (None, "cocked", "cocked", "die 1 in the seat2 zone lies cocked: lay it flat on the face most up"),
    ("4", "cocked", "cocked", "die 1 in the seat2 zone lies cocked: lay it flat on the face most up"),
    (None, "cut_off", "flagged", "die 1 in the seat2 zone cannot be read (cut off): move it a little, the same face up"),
    ("4", "uncertain", "flagged", "die 1 in the seat2 zone read 4 but is uncertain: move it a little, the same face up"),
])
def test_a_flagged_die_is_asked_about_even_when_sure(face: str | None, flag: str, code: str, text: str) -> None:
    asked = question(match(REVEAL_2, reading(die(face, "seat2", 0.99, flag), die("2", "seat2")), ZONES))
    assert (asked.reason, asked.code, asked.text) == (code, code, text)
    assert asked.players  # the players settle it: lay the die flat, or move it with its face up


def test_a_die_the_camera_doubts_or_misses_is_the_players_to_move_and_a_die_too_many_the_dealers() -> None:
    # a die read below the threshold went to the dealer: it lies flat, its face up, and the
    # players can move it a little, the same face up, for the camera to read it in another pose
    low = reading(die("6", "seat2"), die("5", "seat2", confidence=0.43))
    assert question(match(REVEAL_2, low, ZONES)).players
    missing = question(match(REVEAL_2, reading(die("6", "seat2")), ZONES))
    assert missing.players and missing.text.endswith(": move the dice apart, the same faces up")
    extra = question(match(REVEAL_2, reading(die("6", "seat2"), die("1", "seat2"), die("2", "seat2")), ZONES))
    assert not extra.players and extra.reason == "count"  # a die too many is the dealer's to sort out


def test_a_cocked_die_thrown_is_thrown_again_and_one_lying_from_before_is_no_question() -> None:
    need = DiceNeeded(2, DieKind.D6, 1, False, "reroll")
    thrown = reading(die("6", "seat2"), die(None, "seat2", 0.99, "cocked", x=200))
    assert question(match(need, thrown, ZONES, {"seat2": ("6",)})).text == \
        "die 2 in the seat2 zone lies cocked: throw the die again"
    lay = (die("6", "seat2"),)
    still = reading(die("6", "seat2", 0.99, "cocked"), die("3", "seat2", x=200))
    assert match(need, still, ZONES, {"seat2": ("6",)}, lay) == Roll(2, DieKind.D6, ("3",))


def test_a_sighting_of_another_kind_is_not_taken() -> None:
    need = DiceNeeded(None, DieKind.LETTERS, 3, False, "flop")
    asked = question(match(need, reading(*(die(f, "community") for f in "351")), ZONES))
    assert asked.reason == "unreadable"


def test_a_seat_without_a_zone_is_asked_about() -> None:
    need = DiceNeeded(7, DieKind.D6, 2, False, "reveal")
    asked = question(match(need, reading(die("1", "seat2")), ZONES))
    assert (asked.reason, asked.text) == ("no_zone", "the tray has no seat7 zone (add it to [zones]): enter the dice by hand")


def test_dice_already_on_the_table_are_not_the_new_roll() -> None:
    turn = DiceNeeded(None, DieKind.D6, 1, False, "turn")
    seen = reading(die("3", "community", x=1), die("6", "community", x=2), die("5", "community", x=3),
                    die("1", "community", x=4), die("4", "seat0"), die("2", "seat0"))
    earlier = {"community": ("3", "5", "1"), "seat0": ("4", "2")}
    assert match(turn, seen, ZONES, earlier) == Roll(None, DieKind.D6, ("6",))
    asked = question(match(turn, seen, ZONES, {"community": ("3", "5", "1")}))
    assert (asked.reason, asked.text) == ("other_zone", "2 dice in the seat0 zone while the table waits for the community dice")
    asked = question(match(turn, reading(*seen.dice[:3]), ZONES, {"community": ("3", "5", "1")}))
    assert asked.text == "4 dice expected in the community zone (3 there before and 1 new), 3 seen: " \
        "move the dice apart, the same faces up"


def test_a_die_turned_among_those_already_there_is_asked_about() -> None:
    turn = DiceNeeded(None, DieKind.D6, 1, False, "turn")
    seen = reading(*(die(f, "community") for f in "3626"))
    asked = question(match(turn, seen, ZONES, {"community": ("3", "5", "1")}))
    assert asked.reason == "moved"
    assert asked.text == "the community zone shows 3 6 2 6, but 3 5 1 lay there before: was a die moved or turned?"


def test_dice_on_table_are_the_shown_faces_by_zone_without_those_to_be_rerolled() -> None:
    d6 = DieKind.D6
    seats = (SeatView(0, "Ana", SeatStatus.ACTIVE, (), dice=(DieView(d6, "4"), DieView(d6, "2"))),
             SeatView(1, "Ben", SeatStatus.ACTIVE, (), dice=(DieView(d6, None), DieView(d6, None))))
    view = TableView("g", "G", 1, "turn", seats,
                     community=(DieView(d6, "3"), DieView(d6, "5", "reroll"), DieView(d6, "1", "protect")))
    # seat 0's revealed hand stays in its zone while seat 1 reveals, and while the board is thrown
    for waits_for in (DiceNeeded(1, d6, 2, False, "reveal"), DiceNeeded(None, d6, 1, False, "river")):
        assert dice_on_table(view, waits_for) == {"community": ("3", "1"), "seat0": ("4", "2")}
    # a seat's own open dice are picked up before its reveal
    assert dice_on_table(view, DiceNeeded(0, d6, 2, False, "reveal")) == {"community": ("3", "1")}


def test_tao_dice_d12s_lie_in_the_centre_while_the_hands_are_revealed() -> None:
    d6, d12 = DieKind.D6, DieKind.D12
    seats = (SeatView(0, "Ana", SeatStatus.ACTIVE, (), dice=(DieView(d6, "4"), DieView(d6, "2"), DieView(d12, "9"))),
             SeatView(1, "Ben", SeatStatus.ACTIVE, (), dice=(DieView(d6, None), DieView(d6, None), DieView(d12, "11"))))
    view = TableView("tao", "Tao Dice", 1, "showdown", seats)
    # thrown into the centre, they lie there, whoever reveals; a revealed hand stays in its zone
    assert dice_on_table(view, DiceNeeded(1, d6, 2, False, "reveal")) == {"community": ("9", "11"), "seat0": ("4", "2")}
    # while a d12 is thrown again (the hands still hidden), the camera gives each its owner's zone by colour
    hidden = TableView("tao", "Tao Dice", 1, "part two", tuple(
        SeatView(seat.seat, seat.name, seat.status, (), dice=tuple(DieView(d.kind, None if d.kind is d6 else d.face)
                                                                   for d in seat.dice)) for seat in seats))
    assert dice_on_table(hidden, DiceNeeded(1, d12, 1, False, "reroll")) == {"seat0": ("9",), "seat1": ("11",)}


def test_the_questions_name_the_seats_zones_and_dice_by_the_players_names_when_given() -> None:
    names = ("Ana", "Ben", "Cleo")
    cocked = reading(die(None, "seat2", 0.99, "cocked"), die("2", "seat2"))
    assert question(match(REVEAL_2, cocked, ZONES, names=names)).text == \
        "die 1 in Cleo's zone lies cocked: lay it flat on the face most up"
    astray = reading(die("4", "seat1"), die("2", "seat2"))
    assert question(match(REVEAL_2, astray, ZONES, names=names)).text == \
        "a die in Ben's zone while the table waits for Cleo's dice"
    low = reading(die("4", "seat2", 0.5), die("2", "seat2", x=50))
    assert question(match(REVEAL_2, low, ZONES, names=names)).text == \
        "die 1 in Cleo's zone read 4 at 0.50 confidence: move it a little, the same face up"
    flop = reading(die("4", "community"), die("2", "community"))
    assert question(match(FLOP, flop, ZONES, names=names)).text == \
        "3 dice expected in the community zone, 2 seen: move the dice apart, the same faces up"
    # a seat the names do not reach (and the table's own words without names) keep the zone's name
    assert question(match(REVEAL_2, cocked, ZONES, names=names[:2])).text.startswith("die 1 in the seat2 zone")
    assert question(match(REVEAL_2, astray, ZONES)).text == "a die in the seat1 zone while the table waits for seat 2's dice"


def test_a_cocked_die_is_asked_about_before_the_dice_are_counted() -> None:
    # a leaning die's top and side read as two cocked dice: the players lay it flat, no dealer entry
    seen = reading(die("6", "seat2"), die(None, "seat2", 0.6, "cocked", x=100), die(None, "seat2", 0.7, "cocked", x=130))
    asked = question(match(REVEAL_2, seen, ZONES))
    assert (asked.reason, asked.text) == ("cocked", "die 2 in the seat2 zone lies cocked: lay it flat on the face most up")
    counted = question(match(REVEAL_2, reading(die("6", "seat2"), die("4", "seat2", x=100), die("1", "seat2", x=130)), ZONES))
    assert counted.reason == "count"
