"""Whose die it is, at the table: Tao Dice's d12s, all rolled into the centre, go to the seat of
their colour; a die of no seat's colour and seat colours too close to tell apart are questions or
refusals; the simulated camera draws each seat's d12 in its colour, in the centre."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.games.base import DiceNeeded
from controller.games.dice import DieKind
from controller.games.errors import ConfigError
from controller.games.rolls import Roll
from controller.table.build import build_demo, demo_colours, seat_zones
from controller.table.camera import NO_OWNER, TableEyes, TrayReading, TrayWatcher, match
from controller.table.records import DieSeen, Question
from hardware.camera_sim import SimCamera
from vision.calibrate import TrayConfig, TrayLayout, ZoneMap
from vision.colour import parse_hex

pytestmark = pytest.mark.pi_stack  # scripts/test-pi runs these on the Pi's OpenCV and numpy too

LAYOUT = TrayLayout()
TRAY = TrayConfig(LAYOUT, ZoneMap.from_config(seat_zones(6, LAYOUT.width_mm, LAYOUT.height_mm)))
COLOURS = demo_colours(6)
D12 = DieKind.D12


def centre_of_d12s(seed: int, bodies: list[str]) -> SimCamera:
    camera = SimCamera(random.Random(seed))
    camera.tray = TRAY
    rng = random.Random(seed)
    camera.show([rng.randint(1, 12) for _ in bodies], zones=["community"] * len(bodies), kind="d12",
                bodies=[parse_hex(c) for c in bodies], glare=0.4, tint=1.0)
    return camera


def owner_of(camera: SimCamera, die: DieSeen) -> int:
    """The seat whose colour the rendered die nearest to ``die`` was painted in."""
    truth = min(camera.scene.dice, key=lambda t: float(np.hypot(t.center[0] - die.center[0], t.center[1] - die.center[1])))
    return COLOURS.index("#%02x%02x%02x" % truth.colour[::-1])


@pytest.mark.parametrize("seed", [1, 2])
def test_six_seats_d12s_in_the_centre_go_to_their_owners_zones(seed: int) -> None:
    camera = centre_of_d12s(seed, list(COLOURS))
    seen = TrayWatcher(camera, TRAY).read(camera.frame(), D12, COLOURS)
    assert len(seen.dice) == 6 and not seen.colour_problem
    assert sorted(str(d.zone) for d in seen.dice) == [f"seat{s}" for s in range(6)]  # physically all in the centre
    assert all(d.zone == f"seat{owner_of(camera, d)}" for d in seen.dice)
    picture = cv2.imdecode(np.frombuffer(seen.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture is not None
    dots = [(int(d.box[0] + d.box[2]) + 12, int(d.box[1]) + 12) for d in seen.dice]  # 8 px at 1000 px wide
    for die, (x, y) in zip(seen.dice, dots):  # beside each die, the colour of the seat it went to
        if min(np.hypot(x - u, y - v) for u, v in dots if (u, v) != (x, y)) > 20:  # no other dot over it
            assert np.abs(picture[y, x].astype(int) - parse_hex(COLOURS[int(str(die.zone)[4:])])).max() < 40


def test_the_evidence_names_each_seats_zone_and_dice_by_the_players_name(monkeypatch: pytest.MonkeyPatch) -> None:
    names = ("Ana", "Ben", "Zoë", "Юля", "Eli", "Fay")
    camera = centre_of_d12s(1, list(COLOURS))
    drawn: list[str] = []
    put_text = cv2.putText

    def put_text_noted(image: Any, text: str, *rest: Any) -> Any:
        drawn.append(text)
        return put_text(image, text, *rest)

    monkeypatch.setattr(cv2, "putText", put_text_noted)
    eyes = TableEyes(TrayWatcher(camera, TRAY), colours=lambda: COLOURS, names=lambda: names)
    need = DiceNeeded(0, D12, 1, False, "d12 into the centre")
    sighting = next(filter(None, (eyes.look(need) for _ in range(20))))  # the table's path, as it asks
    assert sighting.jpeg and len(sighting.seen) == 6
    # each seat's zone, and beside each of the six dice its owner: by name, accents dropped for the
    # picture's font; a name it cannot draw at all keeps the zone's name
    assert sorted(text for text in drawn if text in {"Ana", "Ben", "Zoe", "seat3", "Eli", "Fay"}) == sorted(
        ["Ana", "Ben", "Zoe", "seat3", "Eli", "Fay"] * 2)
    assert not {"seat0", "seat1", "seat2", "seat4", "seat5", "Zoë", "Юля"} & set(drawn)
    assert "community" in drawn


def test_without_seat_colours_the_dice_stay_where_they_lie() -> None:
    camera = centre_of_d12s(3, list(COLOURS[:3]))
    seen = TrayWatcher(camera, TRAY).read(camera.frame(), D12)
    assert [d.zone for d in seen.dice] == ["community"] * 3


def test_a_die_of_no_seats_colour_is_flagged_and_asked_about() -> None:
    camera = centre_of_d12s(4, [COLOURS[0], COLOURS[1], "#f1f1ee"])  # a white d12 at a table of two
    seen = TrayWatcher(camera, TRAY).read(camera.frame(), D12, COLOURS[:2])
    strangers = [d for d in seen.dice if d.flag == NO_OWNER]
    assert len(strangers) == 1 and strangers[0].zone == "community"
    faced = TrayReading(D12, tuple(_faced(d, "7") for d in seen.dice), b"", 0.0)
    asked = match(DiceNeeded(1, D12, 1, False, "d12 into the centre"), faced, TRAY.zones)
    assert isinstance(asked, Question) and asked.reason == "owner"
    assert "a d12 in the community zone is of no seat's colour" in asked.text


def test_seat_colours_too_close_under_the_light_send_the_dice_to_the_dealer() -> None:
    close = (COLOURS[0], "#d82a2c")
    camera = centre_of_d12s(5, list(close))
    seen = TrayWatcher(camera, TRAY).read(camera.frame(), D12, close)
    assert "seats 0 #d62828 and 1 #d82a2c are too close" in seen.colour_problem
    faced = TrayReading(D12, tuple(_faced(d, "3") for d in seen.dice), b"", 0.0, colour_problem=seen.colour_problem)
    asked = match(DiceNeeded(0, D12, 1, False, "d12 into the centre"), faced, TRAY.zones)
    assert isinstance(asked, Question) and asked.reason == "owner" and "enter the 1 die by hand" in asked.text


def test_a_seats_d12_is_taken_from_among_the_others_lying_in_the_centre() -> None:
    lying = {"seat0": ("5",), "seat2": ("12",)}
    dice = (_die("seat0", "5", 100), _die("seat1", "9", 180), _die("seat2", "12", 260))
    seen = TrayReading(D12, dice, b"", 0.0)
    need = DiceNeeded(1, D12, 1, False, "d12 into the centre")
    assert match(need, seen, TRAY.zones, lying) == Roll(1, D12, ("9",))
    twice = match(need, TrayReading(D12, (*dice, _die("seat1", "4", 340)), b"", 0.0), TRAY.zones, lying)
    assert isinstance(twice, Question) and twice.reason == "count"  # two dice of seat 1's colour


def test_the_table_refuses_at_setup_colours_it_cannot_tell_apart() -> None:
    eyes = TableEyes(TrayWatcher(SimCamera(random.Random(0)), TRAY))
    eyes.check_colours(COLOURS, ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"))
    with pytest.raises(ConfigError) as refused:
        eyes.check_colours((*COLOURS[:4], "#1e50da"), ("Ana", "Ben", "Cleo", "Dev", "Eli"))
    assert "seats 1 (Ben) #1d4ed8 and 4 (Eli) #1e50da are too close to tell apart" in str(refused.value)


def test_the_simulated_camera_draws_each_seats_d12_in_its_colour_in_the_centre(tmp_path: Path) -> None:
    demo, _ = build_demo("tao", 3, 11, tmp_path / "t.db", None, ["heuristic"], {"length": "single"})
    try:
        table, camera = demo.table, demo.parts.devices.camera
        assert table.colours == COLOURS[:3]
        seen: list[tuple[tuple[int, int, int], ...]] = []
        while len(seen) < 3 and demo.step():
            scene = camera.scene
            if scene is not None and scene.dice and scene.dice[0].kind == "d12":
                bodies = tuple(d.colour for d in scene.dice)
                if not seen or seen[-1] != bodies:
                    seen.append(bodies)
                    community = np.array(TRAY.zones.zones[0].polygon, np.float32).reshape(-1, 1, 2)
                    assert all(cv2.pointPolygonTest(community, d.tray_mm, False) >= 0 for d in scene.dice)
        painted = [parse_hex(c) for c in COLOURS[:3]]
        assert [sorted(b) for b in seen] == [sorted(painted[:n]) for n in (1, 2, 3)]  # one more each throw
    finally:
        demo.close()


def _die(zone: str, face: str, x: float) -> DieSeen:
    return DieSeen(D12, face, 0.99, (x, 300.0), (x - 20, 280.0, 40.0, 40.0), zone)


def _faced(die: DieSeen, face: str) -> DieSeen:
    """A located die as a d12 reader would give it: read, sure, only the owner flag kept."""
    return DieSeen(die.kind, face, 0.99, die.center, die.box, die.zone, die.flag if die.flag == NO_OWNER else None)


def test_the_default_seat_colours_are_the_ten_the_camera_tells_apart() -> None:
    from controller.table.records import SEAT_COLOURS
    from vision.colour import TELLABLE_COLOURS, check_colours
    assert SEAT_COLOURS == TELLABLE_COLOURS
    check_colours(SEAT_COLOURS)  # raises for two it could not tell apart


def test_a_new_game_with_colours_the_camera_cannot_tell_apart_is_refused(tmp_path) -> None:
    from controller.table.build import build_demo
    demo, _ = build_demo("tao", 3, 5, tmp_path / "t.db", None, ["heuristic"])
    table = demo.table
    number = table.game_no
    with pytest.raises(ConfigError, match="too close"):
        table.new_game("tao", ["Ana", "Ben", "Cy"], {}, ["#d62828", "#d03a30", "#1d4ed8"])
    assert table.game_no == number
    demo.close()
