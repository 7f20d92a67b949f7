"""The dealer console's pages and forms do what they say, through the table's own path."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient

from controller.games.rolls import Roll
from controller.store import TABLE, Store
from controller.table.records import SEAT_COLOURS, Entry
from controller.games.errors import DeviceDisconnected
from controller.table.table import DEVICE_FIX, Table
from hardware.devices import DeviceStatus
from tests.web.conftest import app_for, console_form, csrf_of, fresh_table, log_in, new_table


def roll_records(table: Any) -> list[Any]:
    """The open (community) rolls of the game in play."""
    return [r for r in table.records if isinstance(r.input, Roll) and r.input.seat is None]


def test_correcting_a_misread_die_changes_the_public_view(dealer: FlaskClient, table: Any) -> None:
    while len(roll_records(table)) < 1:
        table.step()
    table.step()
    flop = roll_records(table)[0]
    answer = dealer.post("/dealer/replace", data={"csrf": csrf_of(dealer, "/dealer/"),
                                                  "seq": flop.seq, "faces": "W C S",
                                                  "why": "the camera read a shadow"})
    assert answer.status_code == 303
    community = dealer.get("/api/state").get_json()["state"]["view"]["community"]
    assert [die["face"] for die in community[:3]] == ["W", "C", "S"]
    assert "the camera read a shadow" in table.state().log[-1].text


def test_a_correction_of_a_line_that_is_not_a_roll_says_so(dealer: FlaskClient,
                                                           table: Any) -> None:
    for _ in range(4):
        table.step()
    action = next(r for r in table.records if not isinstance(r.input, Roll))
    answer = dealer.post("/dealer/replace", data={"csrf": csrf_of(dealer, "/dealer/"),
                                                  "seq": action.seq, "faces": "2 3"})
    assert answer.status_code == 400 and "roll" in answer.get_data(as_text=True)


@pytest.mark.parametrize("seq", ["-5", "0"])
def test_a_correction_of_a_record_no_game_has_says_so_not_how_records_are_written(
        dealer: FlaskClient, table: Any, seq: str) -> None:
    # it answered "a replace record reads 'SEQ FACE...', not '-5 2 3'": the record's format
    answer = dealer.post("/dealer/replace", data={"csrf": csrf_of(dealer, "/dealer/"), "seq": seq, "faces": "2 3"})
    said = answer.get_data(as_text=True)
    assert answer.status_code == 400 and f"record {seq} is not an input in effect in this game" in said
    assert "SEQ FACE" not in said


def test_the_open_question_shows_its_evidence_and_takes_the_answer(dealer: FlaskClient,
                                                                   table: Any) -> None:
    question = table.ask(code="count")
    page = dealer.get("/dealer/").get_data(as_text=True)
    assert f"/dealer/evidence/{question.evidence}" in page
    assert 'id="players-settle"' not in page  # a die too many: the dealer's alone
    assert table.state().fix == "the dealer confirms or enters the dice on the console"
    assert page.count('<g class="det') == question.count  # one box per die the camera saw
    assert dealer.get("/api/state").get_json()["state"]["status"] == "question"
    faces = " ".join(question.kind.faces[:question.count])
    dealer.post("/dealer/answer", data={"csrf": csrf_of(dealer, "/dealer/"),
                                        "question": question.id, "faces": faces})
    state = table.state()
    assert state.status.value == "running" and state.question is None
    assert table.records[-1].input.faces == tuple(faces.split())


def test_the_evidence_marks_as_doubtful_only_the_dice_the_reader_doubted(dealer: FlaskClient, table: Any) -> None:
    # the picture marked every die under 0.8 as a doubt, its own threshold, while the reader
    # doubts under vision.read.UNCERTAIN (0.755) and flags such a die: a die the table took showed as doubted
    question = table.ask(sure=0.78)
    page = dealer.get("/dealer/").get_data(as_text=True)
    assert question.count >= 2 and question.seen[0].flag and not question.seen[1].flag
    assert page.count('<g class="det doubt">') == 1 and page.count('<g class="det">') == question.count - 1


def test_the_answer_box_marks_the_die_the_camera_could_not_read(dealer: FlaskClient, table: Any) -> None:
    # prefilled with the faces read, a "?" where a die showed none: the dealer sees which to fill
    # in (an empty slot, " M O", was easy to miss), and a "?" left in is refused
    question = table.ask(cocked=True)
    page = dealer.get("/dealer/").get_data(as_text=True)
    read = " ".join(d.face for d in question.seen[1:])
    assert f'value="? {read}"' in page
    # the players lay a cocked die flat themselves: the console says so, and the answer is the
    # dealer's only when they cannot
    assert 'id="players-settle"' in page and "enter the dice only if they cannot" in page
    assert table.state().fix.startswith("the players do as it says at the tray, or the dealer")
    refused = dealer.post("/dealer/answer", data={"csrf": csrf_of(dealer, "/dealer/"), "question": question.id,
                                                  "faces": f"? {read}"})
    assert refused.status_code == 400 and table.state().question is not None
    assert "&#39;?&#39; is not a face of a" in refused.get_data(as_text=True)


def _restarted(table: Any, *, pictures: int | None = None) -> Table:
    """``table`` stopped (a power cut) and opened again on its record; ``pictures``: the
    record's bound on the evidence it keeps, which a later picture then makes it keep to."""
    table.store.close()
    store = Store(table.store.path) if pictures is None else Store(table.store.path, max_evidence_bytes=pictures)
    if pictures is not None:
        store.append(table.state().game_no, "note", "a later roll's picture", evidence=b"\xff\xd8\xff later")
    return Table(store)


def test_a_question_asked_again_after_a_restart_shows_its_picture_and_marks_no_die(table: Any) -> None:
    # the picture is the question's record's; the camera's reading of each die was in memory only
    question = table.ask()
    again = _restarted(table)
    dealer = app_for(again).test_client()
    log_in(dealer)
    page = dealer.get("/dealer/").get_data(as_text=True)
    assert f"Question {question.id}: {question.text}" in page
    assert f'src="/dealer/evidence/{question.evidence}"' in page and 'id="no-evidence"' not in page
    assert dealer.get(f"/dealer/evidence/{question.evidence}").status_code == 200
    assert '<g class="det' not in page and 'id="no-readings"' in page and "none is marked on the picture" in page
    faces = " ".join(question.kind.faces[:question.count])
    dealer.post("/dealer/answer", data={"csrf": csrf_of(dealer, "/dealer/"), "question": question.id, "faces": faces})
    assert again.state().question is None
    again.store.close()


def test_a_question_about_a_tray_where_the_camera_saw_no_die_says_nothing_of_a_restart(dealer: FlaskClient,
                                                                                       table: Any) -> None:
    # no die seen is not no die kept: only a table that restarted while it asked lost its readings
    question = table.ask("no die found", code="unseen", blind=True)
    assert question.seen == () and not question.asked_again
    page = dealer.get("/dealer/").get_data(as_text=True)
    assert f"Question {question.id}: {question.text}" in page and 'id="no-readings"' not in page
    again = _restarted(table)
    asked = again.state().question
    assert asked is not None and asked.asked_again
    again.store.close()


def test_a_question_whose_picture_the_record_no_longer_keeps_says_so(table: Any) -> None:
    question = table.ask()
    again = _restarted(table, pictures=1)
    dealer = app_for(again).test_client()
    log_in(dealer)
    page = dealer.get("/dealer/").get_data(as_text=True)
    assert f"Question {question.id}: {question.text}" in page
    assert "/dealer/evidence/" not in page and 'id="no-evidence"' in page and "look at the dice on the tray" in page
    again.store.close()


def test_undo_takes_back_the_last_input(dealer: FlaskClient, table: Any) -> None:
    for _ in range(5):
        table.step()
    inputs = [r.input for r in table.records]
    dealer.post("/dealer/undo", data=console_form(dealer))
    assert [r.input for r in table.records] == inputs[:-1]


def test_void_needs_a_reason(dealer: FlaskClient, table: Any) -> None:
    for _ in range(5):
        table.step()
    form = console_form(dealer)
    assert dealer.post("/dealer/void", data={**form, "why": " "}).status_code == 400
    assert dealer.post("/dealer/void", data={**form, "why": "dice off the tray"}
                       ).status_code == 303
    assert "dice off the tray" in table.state().log[-1].text


def test_pause_and_resume(dealer: FlaskClient, table: Any) -> None:
    token = csrf_of(dealer, "/dealer/")
    dealer.post("/dealer/pause", data={"csrf": token, "why": "a player left"})
    state = dealer.get("/api/state").get_json()["state"]
    assert state["status"] == "paused" and state["problem"] == "a player left"
    console = dealer.get("/dealer/").get_data(as_text=True)
    assert 'id="resume"' in console and "paused</strong>: a player left" in console
    refused = dealer.post("/dealer/dice", data={**console_form(dealer), "faces": "2 3"})
    assert refused.status_code == 409 and "a player left" in refused.get_data(as_text=True)
    dealer.post("/dealer/resume", data={"csrf": token})
    assert table.state().status.value == "running"


def test_a_paused_table_at_fault_can_still_be_resumed(dealer: FlaskClient, table: Any) -> None:
    # the fault is shown first, and the console offered Pause (refused: already paused) until
    # the device came back, so the dealer could not take the pause back while it failed
    token = csrf_of(dealer, "/dealer/")
    dealer.post("/dealer/pause", data={"csrf": token, "why": "a player left"})
    table.eyes.failing = DeviceDisconnected("camera: stopped sending frames")
    table.tick()
    state = dealer.get("/api/state").get_json()["state"]
    assert (state["status"], state.get("paused")) == ("fault", True)
    console = dealer.get("/dealer/").get_data(as_text=True)
    assert "fault</strong>" in console and 'id="resume"' in console and 'id="pause"' not in console
    dealer.post("/dealer/resume", data={"csrf": token})
    assert not table.state().paused and table.state().status.value == "fault"  # the camera still holds it
    table.eyes.failing = None
    table.tick()
    assert table.state().status.value == "running"
    assert 'id="pause"' in dealer.get("/dealer/").get_data(as_text=True)


def test_a_device_fault_alone_is_no_pause_and_the_console_offers_pause(dealer: FlaskClient,
                                                                      table: Any) -> None:
    # TableState.paused is the dealer's pause only: Resume on a table nobody paused is refused
    table.eyes.failing = DeviceDisconnected("camera: stopped sending frames")
    table.tick()
    state = dealer.get("/api/state").get_json()["state"]
    assert (state["status"], state["paused"]) == ("fault", False)
    console = dealer.get("/dealer/").get_data(as_text=True)
    assert 'id="pause"' in console and 'id="resume"' not in console
    dealer.post("/dealer/pause", data={"csrf": csrf_of(dealer, "/dealer/"), "why": "a player left"})
    assert table.state().paused and table.state().status.value == "fault"
    table.eyes.failing = None
    table.tick()
    assert table.state().status.value == "paused" and table.state().problem == "a player left"


def test_a_new_game_with_names_options_and_colours(dealer: FlaskClient, table: Any) -> None:
    answer = dealer.post("/dealer/new-game", data={
        **console_form(dealer), "game": "tauren", "names": "Zed, Yu",
        "options": "shaman=wild, wrap=off", "colour0": "#112233", "colour1": "#445566"})
    assert answer.status_code == 303
    document = dealer.get("/api/state").get_json()
    assert [s["name"] for s in document["state"]["view"]["seats"]] == ["Zed", "Yu"]
    assert document["colours"] == ["#112233", "#445566"]
    assert table.games(1)[0].options["shaman"] == "wild"
    assert table.games(1)[0].colours == ("#112233", "#445566")
    assert table.state().colours == ("#112233", "#445566")  # the record's, not the web's


def test_the_new_game_form_picks_a_colour_for_every_seat_a_game_can_have(dealer: FlaskClient) -> None:
    # the form had pickers for seats 0-5 only: a ten-seat table's seats 6-9 always got their defaults
    page = dealer.get("/dealer/").get_data(as_text=True)
    pickers = re.findall(r'<input type="color" name="colour(\d+)"', page)
    assert [int(seat) for seat in pickers] == list(range(len(SEAT_COLOURS)))
    assert f'name="colour9"\n        value="{SEAT_COLOURS[9]}"' in page


def test_a_colour_that_is_not_a_colour_falls_back_to_the_seats_default(dealer: FlaskClient,
                                                                       table: Any) -> None:
    dealer.post("/dealer/new-game", data={
        **console_form(dealer), "game": "tao", "names": "Zed, Yu",
        "colour0": "red\" onload=\"x", "colour1": "#445566"})
    assert table.state().colours == (SEAT_COLOURS[0], "#445566")


def test_a_new_game_needs_two_names(dealer: FlaskClient) -> None:
    answer = dealer.post("/dealer/new-game", data={**console_form(dealer),
                                                   "game": "tao", "names": "Solo"})
    assert answer.status_code == 400


def test_a_new_game_refuses_a_name_given_twice(dealer: FlaskClient, table: Any) -> None:
    before = table.state().seq
    answer = dealer.post("/dealer/new-game", data={**console_form(dealer),
                                                   "game": "tao", "names": "Zed, Yu, zed"})
    assert answer.status_code in (400, 409) and "seat names must differ" in answer.get_data(as_text=True)
    assert table.state().seq == before


def test_device_health_names_the_failing_device_and_its_fix(dealer: FlaskClient,
                                                           table: Any) -> None:
    table.devices = lambda: [DeviceStatus.failing("camera", "no frame for 5 s", "check its cable"),
                             DeviceStatus.healthy("seat node 0")]
    page = dealer.get("/dealer/devices").get_data(as_text=True)
    assert 'class="bad"><td>camera' in page and "check its cable" in page


def test_device_health_shows_a_warning_as_a_warning(dealer: FlaskClient, table: Any) -> None:
    # a seat node under an empty seat that does not answer: the table plays on without it
    table.devices = lambda: [DeviceStatus.warning("panel", "seat 3's node has never answered",
                                                  "check the USB cable of seat 3's node")]
    page = dealer.get("/dealer/devices").get_data(as_text=True)
    assert 'class="warn"><td>panel</td><td>warning</td>' in page and "USB cable of seat 3" in page


def test_device_health_of_the_table_run_starts_names_its_dead_reader(fresh: Any,
                                                                     fresh_dealer: FlaskClient) -> None:
    # the page on the table's own Table.devices(), not a stand-in: the fresh table's simulated
    # devices were its attribute "devices", which hid the method
    fresh.hardware.sim.inject("rfid:dead")
    page = fresh_dealer.get("/dealer/devices").get_data(as_text=True).split('id="devices"')[1]
    assert 'class="bad"><td>rfid' in page and 'class="ok"><td>camera' in page


def test_the_last_games_page_lists_recorded_games(dealer: FlaskClient, table: Any) -> None:
    while table.game_no < 3:
        table.step()
    page = dealer.get("/dealer/games").get_data(as_text=True)
    assert "The last 3 games" in page and page.count("Ann, Bo, Cy") == 3


def test_the_last_games_page_counts_one_game_and_none_in_words(fresh: Any, fresh_dealer: FlaskClient,
                                                                dealer: FlaskClient) -> None:
    # it said "The last 1 games" (seen on dicetable demo's console), and "The last 0 games"
    assert "<h1>The last game</h1>" in dealer.get("/dealer/games").get_data(as_text=True)
    assert "<h1>Last games</h1>" in fresh_dealer.get("/dealer/games").get_data(as_text=True)


def test_the_last_games_page_says_when_a_game_started_in_the_tables_own_time(
        dealer: FlaskClient, table: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # it showed the record's UTC ISO text ('2026-12-06T15:45:58+00:00')
    monkeypatch.setenv("TZ", "Asia/Kolkata")  # UTC+5:30 all year
    time.tzset()
    try:
        page = dealer.get("/dealer/games").get_data(as_text=True)
    finally:
        monkeypatch.undo()
        time.tzset()
    [(iso, shown)] = re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', page)
    local = datetime.fromisoformat(iso) + timedelta(hours=5, minutes=30)
    assert iso.endswith("+00:00") and shown == f"{local.day} {local:%b %Y %H:%M}"


def test_the_last_games_show_every_roll_with_its_evidence_picture(dealer: FlaskClient,
                                                                  table: Any) -> None:
    # driven.py, as tests/web/conftest.py loads it (the `table` is its DrivenTable): not a module mypy finds
    from web_driven import evidence_picture  # type: ignore[import-not-found]
    while not table.game.pending().dice or table.game.pending().dice[0].hidden:
        table.step()
    need = table.game.pending().dice[0]
    faces = need.kind.faces[:need.count]
    read = table.table.submit(Entry(Roll(need.seat, need.kind, faces), "camera", "camera"),
                              evidence=evidence_picture(()))
    question = table.ask()
    answered = table.answer(question.id, [question.kind.faces[1]] * question.count, "dealer")
    rolls = {r.seq: r for r in table.games(1)[0].rolls}
    assert rolls[read.seq].read_by == "camera" and rolls[read.seq].picture is not None
    assert rolls[answered.seq].picture == question.evidence
    page = dealer.get("/dealer/games").get_data(as_text=True)
    for seq in (read.seq, answered.seq):
        item = page.split(f'id="roll-{seq}"')[1].split("</li>")[0]
        link = f'/dealer/evidence/{rolls[seq].picture}'
        assert f'href="{link}"' in item and f'src="{link}"' in item
        assert dealer.get(link).mimetype == "image/jpeg"
    assert "read by camera" in page and "read by dealer" in page
    public = dealer.get("/api/history").get_json()["games"][0]
    assert "rolls" not in public  # the evidence is the dealer's


def test_the_correction_form_offers_the_rolls_and_only_them() -> None:
    # it matched "roll" in the log's words: DiceHoldem's "Ann passes on reroll/protect" was offered
    # (first, as the latest line), and a reveal ("Bo reveals O E") was not
    table = new_table("diceholdem", 3, seed=11)
    client = app_for(table).test_client()
    assert log_in(client).status_code == 302
    said = lambda words: any(words in line.text for line in table.state().log)  # noqa: E731
    while not (said("reveals") and said("passes on reroll")):
        assert table.step() is not None
    form = client.get("/dealer/").get_data(as_text=True).split('id="correct-seq"')[1].split("</select>")[0]
    offered = sorted(int(seq) for seq in re.findall(r'<option value="(\d+)">', form))
    logged = {line.seq for line in table.state().log}
    assert offered == sorted(r.seq for r in table.records if isinstance(r.input, Roll) and r.seq in logged)
    assert any(line.roll and "reveals" in line.text for line in table.state().log)


def test_a_double_click_on_pause_or_resume_records_it_once(dealer: FlaskClient, table: Any) -> None:
    token = csrf_of(dealer, "/dealer/")
    for button, refused in (("pause", "already paused: a player left"), ("resume", "not paused")):
        first = dealer.post(f"/dealer/{button}", data={"csrf": token, "why": "a player left"})
        before = table.state().seq
        again = dealer.post(f"/dealer/{button}", data={"csrf": token, "why": "again"})
        assert first.status_code == 303 and again.status_code == 409
        assert refused in again.get_data(as_text=True)
        assert table.state().seq == before  # the log said "Table resumed" twice
    assert table.state().status.value == "running"


def test_a_double_click_on_undo_takes_back_one_input(dealer: FlaskClient, table: Any) -> None:
    for _ in range(5):
        table.step()
    inputs, form = [r.input for r in table.records], console_form(dealer)
    assert dealer.post("/dealer/undo", data=form).status_code == 303
    again = dealer.post("/dealer/undo", data=form)  # it took back a second input, unseen
    assert again.status_code == 409 and "the table has changed since record" in again.get_data(as_text=True)
    assert [r.input for r in table.records] == inputs[:-1]


def test_a_console_form_that_does_not_say_when_it_was_drawn_is_refused(dealer: FlaskClient,
                                                                       table: Any) -> None:
    for _ in range(5):
        table.step()
    before = table.state().seq
    for path in ("/dealer/undo", "/dealer/void", "/dealer/dice"):
        answer = dealer.post(path, data={"csrf": csrf_of(dealer, "/dealer/"), "why": "x", "faces": "2"})
        assert answer.status_code == 400 and "reload the page" in answer.get_data(as_text=True), path
    assert table.state().seq == before


def test_an_answer_to_a_question_that_is_not_a_number_says_so(dealer: FlaskClient, table: Any) -> None:
    table.ask()
    answer = dealer.post("/dealer/answer", data={"csrf": csrf_of(dealer, "/dealer/"),
                                                 "question": "abc", "faces": "2 3"})
    # it said "question 0 is not open", a number the dealer never sent
    said = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "&#39;abc&#39; is not a question&#39;s number" in said
    assert table.state().question is not None


def test_a_double_click_on_start_starts_one_game(dealer: FlaskClient, table: Any) -> None:
    # the second click started a second game and left the first empty in the history
    form = {**console_form(dealer), "game": "tao", "names": "Zed, Yu"}
    assert dealer.post("/dealer/new-game", data=form).status_code == 303
    again = dealer.post("/dealer/new-game", data=form)
    assert again.status_code == 409 and "was started since game" in again.get_data(as_text=True)
    games = table.games(10)
    assert games[0].names == ("Zed", "Yu") and len([g for g in games if g.names == ("Zed", "Yu")]) == 1
    unsaid = dealer.post("/dealer/new-game", data={"csrf": form["csrf"], "game": "tao", "names": "Zed, Yu"})
    assert unsaid.status_code == 400 and len(table.games(10)) == len(games)


def test_a_seat_name_or_a_reason_too_long_for_the_scoreboard_is_refused(dealer: FlaskClient, table: Any) -> None:
    # a 60 KB seat name went to every scoreboard in every update; a pause's reason is shown there too
    before = table.state().seq, len(table.games(10))
    named = dealer.post("/dealer/new-game", data={**console_form(dealer), "game": "tao", "names": f"Zed, {'Y' * 60_000}"})
    assert named.status_code in (400, 409) and "a seat name is at most 32 characters" in named.get_data(as_text=True)
    paused = dealer.post("/dealer/pause", data={**console_form(dealer), "why": "x" * 201})
    assert paused.status_code == 400 and "a reason is at most 200 characters, not 201" in paused.get_data(as_text=True)
    assert (table.state().seq, len(table.games(10))) == before and table.state().status.value != "paused"
    assert dealer.post("/dealer/new-game", data={**console_form(dealer), "game": "tao",
                                                 "names": f"Zed, {'Y' * 32}"}).status_code == 303


def test_the_console_is_told_of_a_fault_before_the_first_game_and_of_its_end(fresh: Any,
                                                                             fresh_dealer: FlaskClient) -> None:
    # /dealer/at said only the record's number and the game's, which a fault before any game
    # kept: an open console never drew the dead camera the dealer must see first, nor its end.
    # They are the table's own records now: the record's number (seq) moves, and the console
    # draws its status and log again; its forms, which act on the game alone (at), stay valid
    form = {"csrf": csrf_of(fresh_dealer, "/dealer/"), "game_no": "0"}  # Start, drawn first
    asked = [fresh_dealer.get("/dealer/at").get_json()]
    fresh.eyes.failing = DeviceDisconnected("camera: stopped sending frames")
    fresh.beats(2.5)
    asked.append(fresh_dealer.get("/dealer/at").get_json())
    console = fresh_dealer.get("/dealer/").get_data(as_text=True)
    assert "status-fault" in console and "fault</strong>: camera: stopped sending frames" in console
    fresh.eyes.failing = None
    fresh.beats(2.5)
    asked.append(fresh_dealer.get("/dealer/at").get_json())
    fault, clear = (record.seq for record in fresh.store.records(TABLE))
    assert [(a["at"], a["seq"], a["game_no"], a["told"]) for a in asked] == \
        [(0, 0, 0, 0), (0, fault, 0, 0), (0, clear, 0, 0)]
    log = re.findall(r"<li>(\d+) · ([^<]*)</li>", fresh_dealer.get("/dealer/").get_data(as_text=True))
    assert log == [(str(clear), "Fixed: the camera works again"),
                   (str(fault), "Fault: camera: stopped sending frames")]  # newest first, each once
    started = fresh_dealer.post("/dealer/new-game", data={**form, "game": "tao", "names": "Zed, Yu"})
    assert started.status_code == 303 and fresh.game_no == 1


def test_a_restarted_table_shows_the_fault_that_stands_on_its_console_and_devices_page(fresh: Any) -> None:
    # the console said "over" until the table's first poll found the camera out again; the devices
    # page asked the camera, whose own check gets frames and says it works while the table waits
    # for the tray it cannot find
    fresh.eyes.failing = DeviceDisconnected("the camera cannot find the tray: 2 of its 4 markers seen")
    fresh.beats(2.5)
    fresh.restart()
    dealer = app_for(fresh).test_client()
    assert log_in(dealer).status_code == 302
    console = dealer.get("/dealer/").get_data(as_text=True)
    assert "status-fault" in console and "fault</strong>: the camera cannot find the tray" in console
    page = dealer.get("/dealer/devices").get_data(as_text=True).split('id="devices"')[1]
    assert 'class="bad"><td>camera' in page and "2 of its 4 markers seen" in page
    assert [r.kind for r in fresh.store.records(TABLE)] == ["fault"]


def test_a_console_form_drawn_before_a_notice_is_accepted_after_it(fresh: Any,
                                                                   fresh_dealer: FlaskClient) -> None:
    # a notice makes no record, and the forms act on the record: it must not make them stale
    fresh.new_game("tauren", ["Ann", "Bo", "Cy"], {})
    fresh.beats(0.5)  # the hidden rolls, sealed: Ann is to bet
    form, before = console_form(fresh_dealer), fresh_dealer.get("/dealer/at").get_json()
    fresh.press(1, "call")
    notice = fresh.state().log[-1].text
    assert notice.startswith("Bo: ") and fresh_dealer.get("/dealer/at").get_json()["told"] != before["told"]
    assert fresh_dealer.post("/dealer/void", data={**form, "why": "dice off the tray"}).status_code == 303
    assert "dice off the tray" in fresh.state().log[-1].text


def test_before_the_first_game_the_console_offers_only_a_new_game(fresh: Any,
                                                                  fresh_dealer: FlaskClient) -> None:
    # it offered Pause, Undo, Void and a correction, which the table refuses with no game, and
    # a Start that "ends the current game" when there was none
    console = fresh_dealer.get("/dealer/").get_data(as_text=True)
    for refused in ("pause", "resume", "undo", "void", "correct-button"):
        assert f'id="{refused}"' not in console, refused
    assert '<button id="start">Start</button>' in console
    assert 'id="seats"' not in console  # a table of column heads with no one in it


def test_start_says_it_ends_a_game_only_while_one_is_in_play(dealer: FlaskClient, table: Any) -> None:
    assert '<button id="start">Start (ends the current game)</button>' in dealer.get("/dealer/").get_data(as_text=True)
    while not table.game.pending().over:
        table.step()
    console = dealer.get("/dealer/").get_data(as_text=True)
    assert '<button id="start">Start</button>' in console
    assert all(f'id="{taken}"' in console for taken in ("pause", "undo", "void"))  # the table takes them


def test_start_offers_the_game_in_play_with_its_seats(dealer: FlaskClient, table: Any) -> None:
    # it offered the first game by name (diceholdem) and no names, whatever was played: the next
    # game of the same players meant choosing the game again and typing every name
    start = dealer.get("/dealer/").get_data(as_text=True).split('id="new-game"')[1]
    names = ", ".join(seat.name for seat in table.state().view.seats)
    assert re.findall(r"<option selected>(\w+)</option>", start) == [table.state().view.game]
    assert f'name="names" placeholder="Ann, Bo, Cy" value="{names}"' in start


def test_before_the_first_game_start_offers_no_names(fresh: Any, fresh_dealer: FlaskClient) -> None:
    start = fresh_dealer.get("/dealer/").get_data(as_text=True).split('id="new-game"')[1]
    assert "<option selected>" not in start and 'name="names" placeholder="Ann, Bo, Cy" value=""' in start


def test_a_command_in_a_fix_is_shown_as_code_not_in_the_terminals_backticks(fresh: Any,
                                                                            fresh_dealer: FlaskClient) -> None:
    # table.DEVICE_FIX is the terminal's sentence too, and the console showed "`dicetable doctor`"
    fresh.eyes.failing = DeviceDisconnected("camera: stopped sending frames")
    fresh.beats(2.5)
    status = fresh_dealer.get("/dealer/").get_data(as_text=True).split('id="status-shown"')[1].split("</div>")[0]
    assert "Fix: check the device&#39;s cable and power; <code>dicetable doctor</code> says more" in status
    assert "`" not in status and "`dicetable doctor`" in DEVICE_FIX  # the terminal's words stay


def test_a_stray_tags_fault_says_to_take_it_off_or_enrol_it_not_to_check_the_device(fresh: Any,
                                                                                    fresh_dealer: FlaskClient) -> None:
    # its fix was the failing device's (DEVICE_FIX: the cable, the power), yet the reader works
    fresh.stray_tag("seat0", "04a1b2c3")
    status = fresh_dealer.get("/dealer/").get_data(as_text=True).split('id="status-shown"')[1].split("</div>")[0]
    problem, fix = status.split("Fix: ")
    assert "take it off" in fix and "<code>dicetable stones enroll</code>" in fix
    assert "cable" not in fix and "doctor" not in fix
    # told once, in the fix: the problem and the log's line name the tag and the spot only
    log = fresh_dealer.get("/dealer/").get_data(as_text=True).split('id="log"')[1].split("</section>")[0]
    for told in (problem, log):
        assert "unknown tag 04A1B2C3 lies on spot seat0" in told and "enrol" not in told


def test_the_device_health_page_shows_a_command_in_a_fix_as_code(dealer: FlaskClient, table: Any) -> None:
    table.devices = lambda: [DeviceStatus.failing("camera", "no frame for 5 s", DEVICE_FIX)]
    detail = dealer.get("/dealer/devices").get_data(as_text=True).split('id="devices"')[1]
    assert "<code>dicetable doctor</code> says more" in detail and "`" not in detail


def test_the_refusal_page_shows_a_command_as_code_and_escapes_the_rest(dealer: FlaskClient, table: Any) -> None:
    # a refusal quotes the table's words (a fault's fix, a pause's reason), written for its terminal too
    dealer.post("/dealer/pause", data={"csrf": csrf_of(dealer, "/dealer/"), "why": "<b>run `dicetable doctor`</b>"})
    refused = dealer.post("/dealer/dice", data={**console_form(dealer), "faces": "2 3"})
    reason = refused.get_data(as_text=True).split('id="reason">')[1].split("</p>")[0]
    assert refused.status_code == 409 and "&lt;b&gt;run <code>dicetable doctor</code>&lt;/b&gt;" in reason


def test_a_questions_text_shows_a_command_as_code_and_escapes_the_rest(dealer: FlaskClient, table: Any) -> None:
    table.ask(reason="<i>teach the set again</i> with `dicetable vision teach`")
    question = dealer.get("/dealer/").get_data(as_text=True).split('id="question"')[1].split("</h2>")[0]
    assert "&lt;i&gt;teach the set again&lt;/i&gt; with <code>dicetable vision teach</code>" in question


def test_a_form_drawn_in_the_game_before_is_refused_in_the_new_one(dealer: FlaskClient, table: Any) -> None:
    # a new game makes no record, and the forms were checked against the record's number alone:
    # Enter drawn in the last game gave its dice to the new game's first roll
    while not table.game.pending().dice:
        table.step()
    form, drawn_in = console_form(dealer), table.game_no
    table.new_game("tauren", ["Ann", "Bo", "Cy"], {})  # from another console: no record
    need = table.game.pending().dice[0]
    faces = " ".join(need.kind.faces[:need.count])
    for path in ("/dealer/dice", "/dealer/undo", "/dealer/void"):
        answer = dealer.post(path, data={**form, "faces": faces, "why": "dice off the tray"})
        said = answer.get_data(as_text=True)
        assert answer.status_code == 409, (path, said)
        assert f"game {table.game_no} was started since game {drawn_in}, in which the form was drawn" in said
    assert table.records == []


def drawn_place(page: str) -> dict[str, Any]:
    """The place a console page was drawn at (#status-shown's data attributes), named as
    /dealer/at names them."""
    shown = page.split('id="status-shown"')[1].split(">")[0]
    place: dict[str, Any] = {name.replace("-", "_"): value
                             for name, value in re.findall(r'data-([a-z-]+)="([^"]*)"', shown)}
    return {**place, **{name: int(place[name]) for name in ("at", "seq", "game_no", "told")}}


def test_a_restarted_table_is_not_taken_for_the_one_an_open_console_was_drawn_by(tmp_path: Any) -> None:
    # told counts again from 0 when the table restarts: a console drawn after a notice took the
    # restarted table, at the same record and game after a notice of its own, for what it showed
    places = []
    for _ in range(2):  # the table, then the table restarted on its record
        table = fresh_table(tmp_path)
        try:
            dealer = app_for(table).test_client()
            assert log_in(dealer).status_code == 302
            table.press(1, "call")
            places.append((drawn_place(dealer.get("/dealer/").get_data(as_text=True)),
                           dealer.get("/dealer/at").get_json()))
        finally:
            table.close()
    (drawn, _), (_, restarted) = places
    assert [drawn[name] for name in ("at", "game_no", "told")] == \
        [restarted[name] for name in ("at", "game_no", "told")]  # the same record, game and told ...
    assert drawn != restarted  # ... but not the table the page shows
    assert all(page == at for page, at in places)  # a page drawn now is where /dealer/at says


def _posted(dealer: FlaskClient, path: str, body: bytes) -> Any:
    """``body`` posted raw to ``path`` as a browser posts a form."""
    return dealer.post(path, data=body, content_type="application/x-www-form-urlencoded")


def test_a_form_whose_body_is_not_utf8_text_is_refused_as_such(dealer: FlaskClient, table: Any) -> None:
    # werkzeug read such a body as an empty form: it was refused as a stale security token
    form = console_form(dealer)
    before = table.state().seq, len(table.games(10))
    body = "&".join(f"{key}={value}" for key, value in form.items()).encode() + b"&game=tao&names=Zed,%20Y\xffu"
    answer = _posted(dealer, "/dealer/new-game", body)
    assert answer.status_code == 400 and "the form is not valid text" in answer.get_data(as_text=True)
    assert "security token" not in answer.get_data(as_text=True)
    assert (table.state().seq, len(table.games(10))) == before


def test_a_percent_escape_that_is_not_utf8_is_refused_not_taken_as_text(dealer: FlaskClient, table: Any) -> None:
    # werkzeug keeps a bad escape as it came: the table got a seat named 'Y%FFu'
    form = console_form(dealer)
    before = table.state().seq, len(table.games(10))
    body = "&".join(f"{key}={value}" for key, value in form.items()) + "&game=tao&names=Zed,%20Y%FFu"
    answer = _posted(dealer, "/dealer/new-game", body.encode())
    assert answer.status_code == 400 and "the form is not valid text" in answer.get_data(as_text=True)
    assert (table.state().seq, len(table.games(10))) == before
    typed = body.replace("%FF", "%25FF")  # a name typed with a percent sign is a name
    assert _posted(dealer, "/dealer/new-game", typed.encode()).status_code == 303
    assert table.games(1)[0].names == ("Zed", "Y%FFu")


def _camera_fails_then_works(fresh: Any, seconds: float = 2.5) -> None:
    """The camera stops sending frames, then sends them again: a fault and its end, recorded."""
    fresh.eyes.failing = DeviceDisconnected("camera: stopped sending frames")
    fresh.beats(seconds)
    fresh.eyes.failing = None
    fresh.beats(seconds)


def test_a_console_form_drawn_before_a_device_failed_between_games_is_accepted_after_it(
        fresh: Any, fresh_dealer: FlaskClient) -> None:
    # the fault and its end are the table's own records (game 0) and moved the record's number
    # the forms were checked against: Undo, drawn after the game's end, was refused as stale
    fresh.new_game("tauren", ["Ann", "Bo", "Cy"], {})
    fresh.play()
    form, ended = console_form(fresh_dealer), fresh.state().seq
    _camera_fails_then_works(fresh)
    assert [record.kind for record in fresh.store.records(TABLE)] == ["fault", "clear"]
    now = fresh_dealer.get("/dealer/at").get_json()
    undone = fresh_dealer.post("/dealer/undo", data={**form, "why": "the last bet was Bo's"})
    assert undone.status_code == 303, undone.get_data(as_text=True)
    assert fresh.state().log[-1].text.startswith("Dealer undid the last input")
    assert now["at"] == ended and now["seq"] == ended + 2  # the forms act on the game's last record


def test_a_console_form_drawn_before_a_device_failed_in_a_game_is_accepted_after_it(
        fresh: Any, fresh_dealer: FlaskClient) -> None:
    # in a game the fault and its end are the game's records: Void, drawn before, was refused
    fresh.new_game("tauren", ["Ann", "Bo", "Cy"], {})
    fresh.beats(0.5)  # the hidden rolls, sealed: Ann is to bet
    form, before = console_form(fresh_dealer), fresh_dealer.get("/dealer/at").get_json()
    _camera_fails_then_works(fresh, 0.5)
    kinds = [record.kind for record in fresh.store.records(fresh.game_no)]
    assert kinds[-2:] == ["fault", "clear"] and fresh.store.records(TABLE) == []
    now = fresh_dealer.get("/dealer/at").get_json()  # the page draws its status and log again
    voided = fresh_dealer.post("/dealer/void", data={**form, "why": "dice off the tray"})
    assert voided.status_code == 303, voided.get_data(as_text=True)
    assert "dice off the tray" in fresh.state().log[-1].text
    assert now["at"] == before["at"] and now["seq"] == now["at"] + 2 and now["told"] == 0


def test_a_console_form_drawn_before_a_device_failed_and_a_seat_acted_is_still_stale(
        fresh: Any, fresh_dealer: FlaskClient) -> None:
    # a device's records leave the forms valid; an input after them still makes them stale
    fresh.new_game("tauren", ["Ann", "Bo", "Cy"], {})
    fresh.beats(0.5)
    form = console_form(fresh_dealer)
    _camera_fails_then_works(fresh, 0.5)
    fresh.play(1)  # Ann bets or folds: an input
    assert fresh.store.records(fresh.game_no)[-1].kind == "input"
    voided = fresh_dealer.post("/dealer/void", data={**form, "why": "dice off the tray"})
    assert voided.status_code == 409 and "the table has changed since record" in voided.get_data(as_text=True)
    assert fresh.store.records(fresh.game_no)[-1].kind == "input"


def test_a_restarted_table_draws_its_forms_at_the_games_last_record_not_a_devices(tmp_path: Any) -> None:
    # a restarted table takes its place from the record, whose last record was the camera's end
    places = []
    for _ in range(2):  # the table, then the table restarted on its record
        table = fresh_table(tmp_path)
        try:
            if table.game_no == 0:
                table.new_game("tauren", ["Ann", "Bo", "Cy"], {})
                table.beats(0.5)
                _camera_fails_then_works(table, 0.5)
            dealer = app_for(table).test_client()
            assert log_in(dealer).status_code == 302
            places.append(dealer.get("/dealer/at").get_json())
        finally:
            table.close()
    before, after = ({name: place[name] for name in ("at", "seq", "game_no")} for place in places)
    assert after == before and after["at"] == after["seq"] - 2  # the fault and its end past


def test_an_undo_of_the_input_that_ended_the_game_lists_it_in_play_again() -> None:
    # the console and the scoreboard's history said "over · winner Bo" of the game the table
    # played on after the dealer's Undo, until the game ended again
    table = new_table("tauren", 2, options={"stack": "6", "min_bet": "2", "rebuy": "off"})
    dealer = app_for(table).test_client()
    assert log_in(dealer).status_code == 302
    try:
        while not table.game.pending().over:
            table.step()
        assert dealer.post("/dealer/undo", data=console_form(dealer)).status_code == 303
        row = dealer.get("/dealer/games").get_data(as_text=True).split('id="games"')[1].split("</tr>")[1]
        assert "in play" in row and "winner" not in row
        public = dealer.get("/api/history").get_json()["games"][0]
        assert (public["game_no"], public["over"], public["final"]["winner"]) == (1, False, None)
    finally:
        table.close()
