"""No hidden die before its reveal, no folded hand ever: whole games of all three games, every
public response and every streamed event scanned.

The table's record says which rolls were sealed (``hidden_rolls``). A sealed die may reach the room
only in the result of its own hand's showdown, and a seat that folded in a hand is never among
that hand's shown hands. Public responses are ``/api/state``, ``/api/history`` and the page; the
stream is read whole at the end (it replays every change after the point asked for).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.conftest import StreamReader, app_for, hidden_rolls, log_in, new_table

GAMES = [("tao", 3, {}), ("tauren", 3, {"reveal_all_in": "off"}),
         ("diceholdem", 1, {"reveal_all_in": "off"})]  # seeds of games short enough for CI
MOST_INPUTS = 1500
SEAT_ROLL = re.compile(r"roll \d+ [a-z0-9-]+ [0-9A-Z ]+")


class Watch:
    """What the room must not have seen yet, kept up to date as the game goes on."""

    def __init__(self) -> None:
        self.sealed: dict[tuple[int, int], set[tuple[int, str]]] = {}  # (game, seat) -> dice
        self.lines = 0                    # sealed rolls seen
        self._learnt = 0
        self.folded: set[tuple[int, int, int]] = set()  # (game, hand, seat)

    def learn(self, table: Any) -> None:
        """Note the sealed rolls recorded so far in the game in play."""
        sealed = hidden_rolls(table)
        if len(sealed) < self._learnt:  # a new game: its record starts empty
            self._learnt = 0
        for record in sealed[self._learnt:]:
            self.sealed.setdefault((table.game_no, record.input.seat), set()).add(
                (0, record.input.kind.value))
        self.lines += len(sealed) - self._learnt
        self._learnt = len(sealed)

    def check(self, document: dict[str, Any], where: str) -> None:
        """Fail if ``document`` (a public state document) shows what it must not."""
        state, game = document["state"], document["state"]["game_no"]
        view = state["view"]
        for seat in view["seats"]:
            if seat["status"] == "folded":
                self.folded.add((game, view["number"], seat["seat"]))
            sealed_kinds = {kind for _, kind in self.sealed.get((game, seat["seat"]), set())}
            for die in seat["dice"]:
                assert not (die["kind"] in sealed_kinds and die["face"] is not None), \
                    f"{where}: seat {seat['seat']}'s sealed {die['kind']} shown before the showdown"
        result = view["result"]
        for shown in (result or {}).get("shown", []):
            assert (game, result["number"], shown["seat"]) not in self.folded, \
                f"{where}: the folded hand of seat {shown['seat']} is shown"
        assert (state["question"] or {}).get("seen") is None, f"{where}: a question's dice"
        self.check_text(json.dumps(document), where)

    def check_text(self, text: str, where: str) -> None:
        """Fail if a seat's roll is written out in ``text`` as its history line (the public
        log says "Seat 2 rolls their hidden dice", never the faces of a sealed roll)."""
        leaked = SEAT_ROLL.search(text)
        assert leaked is None, f"{where}: {leaked.group()!r} in a public response"


@pytest.mark.parametrize(("game", "seed", "options"), GAMES)
def test_no_hidden_die_before_its_reveal_in_a_whole_game(game: str, seed: int,
                                                         options: dict[str, str]) -> None:
    # hidden rolls entered with their faces (as the simulation may): the table knows them, so
    # a leak is possible; every one waits for the showdown (no reveal at an all-in)
    table = new_table(game, 3, seed, options=options, sealed=False)
    client = app_for(table).test_client()
    watch = Watch()
    stream = StreamReader(client)
    updates = stream.until(table.state().seq)  # the state event first
    while table.game_no == 1 and table.seq < MOST_INPUTS:
        table.step()
        watch.learn(table)
        fresh = stream.until(table.seq)
        for event in fresh:
            watch.check(event["data"], f"event {event['id']}")
        updates += fresh
        if table.seq % 5 == 0:  # the stream carries every state; this is the other path
            watch.check(client.get("/api/state").get_json(), f"/api/state at {table.seq}")
        if table.seq % 50 == 0:
            watch.check_text(client.get("/api/history").get_data(as_text=True), "/api/history")
            watch.check_text(client.get("/").get_data(as_text=True), "/")
    stream.close()
    assert table.game_no == 2 or table.seq >= MOST_INPUTS
    shown = sum(len((event["data"]["state"]["view"]["result"] or {}).get("shown", []))
                for event in updates)
    assert shown > 0, "no showdown happened: the scan proved nothing"
    assert watch.lines, "no sealed roll happened: the scan proved nothing"


def test_a_question_about_dice_does_not_show_the_cameras_reading(table: Any) -> None:
    client = app_for(table).test_client()
    question = table.ask()
    public = client.get("/api/state").get_json()["state"]["question"]
    assert public["text"] == question.text and "seen" not in public and "evidence" not in public


def test_the_faces_an_open_question_holds_the_players_to_are_in_no_public_json(table: Any) -> None:
    # the question's record keeps them in its why, as Update.why does: the dealer's, not the room's
    client = app_for(table).test_client()
    table.ask(held=("W", "C", "S"))
    why = [record.why for record in table.store.records(table.state().game_no) if record.kind == "question"][-1]
    assert why.endswith("C S W")
    log_in(client)
    served = {path: client.get(path).get_data(as_text=True)
              for path in ("/api/state", "/api/history", "/", "/dealer/at")}
    stream = StreamReader(client, "?after=0")  # every record's event, the question's too
    served["/api/stream"] = json.dumps(stream.until(table.state().seq))
    stream.close()
    for path, body in served.items():
        assert '"why"' not in body and why not in body and "C S W" not in body, f"{path} sends the held faces"


def test_the_watch_catches_a_leak() -> None:
    """The scan can fail: a sealed die put in the view is caught."""
    table = new_table(sealed=False)
    watch = Watch()
    while not hidden_rolls(table):
        table.step()
    watch.learn(table)
    document = app_for(table).test_client().get("/api/state").get_json()
    roll = hidden_rolls(table)[0].input
    document["state"]["view"]["seats"][roll.seat]["dice"][0]["face"] = roll.faces[0]
    with pytest.raises(AssertionError, match="sealed"):
        watch.check(document, "planted")
