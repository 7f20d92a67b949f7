"""Dice that stay on a real tray: a hand revealed at the showdown (or before an all-in's last
community dice) lies in its seat's zone while the next seat reveals, the community dice lie in
the centre, and so do Tao Dice's d12s while the hands are revealed. The table expects them
(``build.lying``) and does not ask the dealer about them; the demo's simulated camera draws them
there, as a real tray shows them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.table import build
from controller.table.demo import play_out
from tests.table.test_every_die import GAMES


@pytest.mark.parametrize("game", ["diceholdem", "tauren", "tao"])
def test_a_hand_left_lying_on_the_tray_is_no_question_at_the_next_reveal(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    demo, _ = build.build_demo(game, 2, 3, tmp_path / "t.db", None, ["heuristic"], GAMES[game][0])
    camera = demo.parts.devices.camera
    roll = camera.roll
    beside: list[int] = []  # per throw into a seat's zone: dice drawn lying in another seat's zone
    other_kind: list[int] = []  # per throw: dice of another kind drawn lying on the tray

    def counted(values: Any, *args: Any, zones: list[str], lying: int = 0, **kwargs: Any) -> None:
        if zones and zones[-1].startswith("seat"):
            beside.append(sum(zone.startswith("seat") and zone != zones[-1] for zone in zones[:lying]))
        roll(values, *args, zones=zones, lying=lying, **kwargs)
        other_kind.append(sum(die.kind != kwargs["kind"] for die in camera.scene.dice))

    monkeypatch.setattr(camera, "roll", counted)
    try:
        play_out(demo, None)
        records = demo.table.store.records(demo.table.game_no)
    finally:
        demo.close()
    assert sum(n > 0 for n in beside) >= 2  # reveals with another seat's hand lying there
    if game == "tao":
        assert sum(n > 0 for n in other_kind) >= 2  # reveals with the d12s lying in the centre
    astray = [r.line for r in records if r.kind == "question" and "while the table waits" in r.line]
    assert astray == []
