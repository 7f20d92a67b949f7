"""The table over a real record: durable before applied, corrections audited, restarts exact."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from controller.games.errors import IllegalAction, TableNotReady
from controller.games.rolls import Roll
from controller.store import Store
from controller.table.records import Entry, ReplaceDice, TableStatus, Undo, VoidHand
from controller.table.table import Sighting, Table

from tests.table.conftest import next_input, play


def test_every_accepted_input_is_in_the_record_before_the_table_shows_it(store: Store) -> None:
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    seen: list[int] = []
    subscription = table.subscribe(after=table.state().seq)
    play(table, 25)
    while (update := subscription.next(0)) is not None:
        recorded = [r.seq for r in store.records(table.game_no)]
        assert update.seq in recorded
        seen.append(update.seq)
    inputs = [r for r in store.records(table.game_no) if r.kind == "input"]
    assert len(inputs) == 25 and [r.seq for r in inputs] == seen


def test_a_restarted_table_resumes_the_game_exactly(db: Path) -> None:
    store = Store(db)
    table = Table(store)
    table.new_game("diceholdem", ["Ana", "Ben", "Cleo"], {})
    play(table, 60)
    before = table.state()
    store.close()
    again = Table(Store(db))
    assert again.state().view == before.view
    assert again.ledger is not None and table.ledger is not None
    assert again.ledger.game.final() == table.ledger.game.final()
    assert [line.text for line in again.state().log] == [line.text for line in before.log]


def test_each_correction_is_in_the_record_with_who_and_why(store: Store) -> None:
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], {})
    play(table, 12)
    while not any(isinstance(p.input, Roll) and "?" not in p.input.faces
                  for p in table.ledger.played[table.ledger.hand_start:]):  # type: ignore[union-attr]
        play(table, 1)
    play(table, 1)
    table.correct(Undo("Dana (dealer)", "wrong button"))
    assert table.ledger is not None
    ledger = table.ledger
    roll = next(p for p in reversed(ledger.played[ledger.hand_start:])
                if isinstance(p.input, Roll) and "?" not in p.input.faces)
    faces = tuple("1" for _ in roll.input.faces)  # type: ignore[attr-defined]
    table.correct(ReplaceDice(roll.seq, faces, "Dana (dealer)", "camera misread"))
    table.correct(VoidHand("Dana (dealer)", "dice fell off the table"))
    audit = [(r.kind, r.who, r.why) for r in store.records(table.game_no)
             if r.kind in ("undo", "replace", "void")]
    assert audit == [("undo", "Dana (dealer)", "wrong button"),
                     ("replace", "Dana (dealer)", "camera misread"),
                     ("void", "Dana (dealer)", "dice fell off the table")]
    game = table.ledger.game
    assert game.chips_total() == game.chips_expected()


def test_a_refused_correction_is_not_recorded(store: Store) -> None:
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], {})
    with pytest.raises(IllegalAction, match="nothing to undo"):
        table.correct(Undo("dealer", "test"))
    assert [r.kind for r in store.records(table.game_no)] == []


def test_a_paused_table_refuses_inputs_with_the_reason_and_stays_paused_after_restart(
        db: Path) -> None:
    store = Store(db)
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], {})
    table.pause("dealer", "a drink was spilled")
    assert table.state().status is TableStatus.PAUSED
    with pytest.raises(TableNotReady, match="paused"):
        play(table, 1)
    store.close()
    again = Table(Store(db))
    assert again.state().status is TableStatus.PAUSED
    again.resume("dealer")
    play(again, 3)
    assert again.state().status is TableStatus.RUNNING


class _DoubtfulEyes:
    """A camera path that always doubts: every look gives a question."""

    def look(self, need: object) -> Sighting | None:
        return None if need is None else Sighting(None, "die 1 read 5 at 0.41 confidence")


def _ask_about_open_dice(table: Table) -> None:
    """Play until the table waits for open dice, then let the doubtful camera look once."""
    rng = random.Random(3)
    while table.ledger is not None and not (table.ledger.game.pending().dice and
                                            not table.ledger.game.pending().dice[0].hidden):
        table.submit(Entry(next_input(table, rng), "test", "tester"))
    table.tick()


def test_a_table_stopped_with_a_question_open_comes_back_asking_it(db: Path) -> None:
    # it came back paused, without the question (tests/table/test_question_after_restart.py)
    store = Store(db)
    table = Table(store, eyes=_DoubtfulEyes())
    table.new_game("tao", ["Ana", "Ben"], {})
    _ask_about_open_dice(table)
    assert table.state().status is TableStatus.QUESTION
    question = table.state().question
    assert question is not None and "0.41" in question.text
    store.close()
    again = Table(Store(db), eyes=_DoubtfulEyes())
    state = again.state()
    assert state.status is TableStatus.QUESTION
    assert state.question is not None and state.question.text == question.text
    again.store.close()


def test_the_dealer_answers_a_question_and_the_game_goes_on(store: Store) -> None:
    table = Table(store, eyes=_DoubtfulEyes())
    table.new_game("tao", ["Ana", "Ben"], {})
    _ask_about_open_dice(table)
    question = table.state().question
    assert question is not None
    with pytest.raises(IllegalAction, match="not open"):
        table.answer(question.id + 1, ["7"], "dealer")
    table.answer(question.id, ["7"], "Dana (dealer)")
    answer = store.records(table.game_no)[-1]
    assert (answer.kind, answer.who) == ("answer", "Dana (dealer)")
    assert table.state().question is None and table.state().status is TableStatus.RUNNING


def test_a_device_event_recorded_once_is_not_applied_twice(store: Store) -> None:
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], {})
    rng = random.Random(1)
    inp = next_input(table, rng)
    table.submit(Entry(inp, "panel", "Ana"), device_event=("seatnode:0", 7, 1))
    with pytest.raises(Exception, match="already"):
        table.submit(Entry(next_input(table, rng), "panel", "Ana"),
                     device_event=("seatnode:0", 7, 1))
    assert len([r for r in store.records(table.game_no) if r.kind == "input"]) == 1


def test_the_action_log_never_shows_a_hidden_die_entered_unsealed(store: Store) -> None:
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {})
    play(table, 40, sealed=False)
    assert table.ledger is not None
    hidden = [p for p in table.ledger.played if p.hidden and not p.reveal]
    assert hidden
    texts = [line.text for line in table.state().log]
    for played in hidden:
        assert any("hidden dice" in text for text in texts)
        faces = " ".join(played.input.faces)  # type: ignore[attr-defined]
        assert not any(text.endswith(faces) and "hidden" not in text for text in texts
                       if str(played.input.seat) in text)  # type: ignore[attr-defined]


def test_a_subscriber_that_reconnects_gets_what_it_missed(store: Store) -> None:
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], {})
    play(table, 5)
    last = table.state().seq
    play(table, 4, seed=2)
    missed = table.subscribe(after=last)
    seqs = []
    while (update := missed.next(0)) is not None:
        seqs.append(update.seq)
    assert seqs == [r.seq for r in store.records(table.game_no) if r.seq > last]


def test_the_last_ten_games_stay_whole_and_older_ones_are_exported(tmp_path: Path) -> None:
    from controller.games import history
    store = Store(tmp_path / "t.db")
    table = Table(store, exports=tmp_path / "exports")
    finals = []
    for number in range(12):
        table.new_game("tao", ["Ana", "Ben"], {"length": "single", "black": "1", "white": "0"})
        play(table, 400, seed=number)
        assert table.ledger is not None and table.ledger.game.pending().over
        finals.append(table.ledger.game.final())
    kept = [game.game_no for game in store.games(20)]
    assert kept == list(range(12, 2, -1))
    exported = sorted((tmp_path / "exports").iterdir())
    assert len(exported) == 2
    assert [history.loads(path.read_text()).final() for path in exported] == finals[:2]


def test_seat_colours_are_kept_in_the_record_and_shown_in_the_view(db: Path) -> None:
    store = Store(db)
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben", "Cleo"], {}, ["#FF0000", "#00ff00", "#0000ff"])
    assert [seat.colour for seat in table.state().view.seats] == ["#ff0000", "#00ff00", "#0000ff"]
    assert table.state().to_json()["view"]["seats"][2]["colour"] == "#0000ff"
    play(table, 5)
    store.close()
    again = Table(Store(db))
    assert again.colours == ("#ff0000", "#00ff00", "#0000ff")
    assert again.games(1)[0].colours == again.colours


def test_a_game_without_colours_gets_one_default_colour_per_seat(store: Store) -> None:
    table = Table(store)
    table.new_game("diceholdem", ["Ana", "Ben", "Cleo", "Dan"], {})
    colours = [seat.colour for seat in table.state().view.seats]
    assert len(set(colours)) == 4 and all(c.startswith("#") and len(c) == 7 for c in colours)


@pytest.mark.parametrize("colours, problem", [
    (["#ff0000"], "2 seats need 2 colours"),
    (["#ff0000", "red"], "'red' is not #rrggbb"),
    (["#ff0000", "#FF0000"], "seats 0 and 1 have the same colour"),
])
def test_bad_seat_colours_are_refused_and_the_game_in_play_goes_on(
        store: Store, colours: list[str], problem: str) -> None:
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], {})
    number = table.game_no
    with pytest.raises(ValueError, match=problem):
        table.new_game("tao", ["Ana", "Ben"], {}, colours)
    assert table.game_no == number and len(store.games(10)) == 1


def test_a_press_while_no_game_is_in_play_is_told_and_never_played_in_the_next_game(tmp_path: Path) -> None:
    # the panel keeps its presses until polled: those made before the dealer started the next game
    # were played at its first beat ("Ana: Seat 0 cannot fold now", or a call with stones laid)
    from controller.table.build import build_demo
    from controller.table.demo import BEAT, play_out
    from tests.table.test_every_die import GAMES

    demo, _ = build_demo("tao", 2, 2, tmp_path / "t.db", None, ["heuristic"], GAMES["tao"][0])
    table, sim = demo.table, demo.parts.devices.sim

    def beats(count: int) -> list[str]:
        for _ in range(count):
            table.tick()
            demo.clock.advance(BEAT)
        return [line.text for line in table.state().log]

    try:
        play_out(demo, None)
        for button in ("fold", "pass"):
            sim.press(0, button)
            demo.clock.advance(0.08)
            sim.release(0, button)
            demo.clock.advance(0.08)
        told = beats(3)
        table.new_game("tao", ["Ana", "Ben"], {})
        after = beats(5)
    finally:
        demo.close()
    assert [line for line in told if "no game is in play" in line] == [
        "Ana pressed fold, but no game is in play", "Ana pressed pass, but no game is in play"]
    assert not [line for line in after if line.startswith("Ana")], after


def test_a_change_asked_of_the_table_as_it_stood_at_an_earlier_record_is_refused(store: Store) -> None:
    # a console's second click of Undo took back an input the dealer never saw; the check was the
    # web's, before the table's lock, so two clicks at once could both pass it
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], {})
    play(table, 2)
    seen = table.state().seq
    table.correct(Undo("dealer", "wrong button"), at=seen)
    records = len(store.records(table.game_no))
    with pytest.raises(TableNotReady, match=f"the table has changed since record {seen} "):
        table.correct(Undo("dealer", "wrong button"), at=seen)
    with pytest.raises(TableNotReady, match="changed since record"):
        table.submit(Entry(next_input(table, random.Random(1)), "console", "dealer"), at=seen)
    assert len(store.records(table.game_no)) == records
    game = table.game_no
    table.new_game("tao", ["Cy", "Di"], {}, after_game=game)
    with pytest.raises(TableNotReady, match=f"game {game + 1} was started since game {game}"):
        table.new_game("tao", ["Cy", "Di"], {}, after_game=game)
    assert table.game_no == game + 1


def test_a_pause_refused_before_the_first_game_leaves_the_table_as_it_was(store: Store) -> None:
    # the table took itself for paused, though the pause was refused and not recorded: a console
    # drawn then offered Resume, which was refused too
    table = Table(store)
    with pytest.raises(TableNotReady, match="no game has been started"):
        table.pause("dealer", "a drink was spilled")
    assert not table.state().paused


def _played_out(table: Table) -> None:
    """Play the game in play to its result (the test's random players)."""
    for seed in range(100):
        if table.ledger is not None and table.ledger.game.pending().over:
            return
        play(table, 100, seed=seed)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("correction", [Undo("Dana (dealer)", "Ana meant to rebuy"),
                                        VoidHand("Dana (dealer)", "Ana meant to rebuy")])
def test_a_correction_that_takes_back_the_end_reopens_the_game_in_the_record_and_after_a_restart(
        db: Path, correction: Undo | VoidHand) -> None:
    # the table played the game on, but the record kept it finished with its old result: the
    # record's current game was none, so a restarted demo started another game
    store = Store(db)
    table = Table(store)
    table.new_game("diceholdem", ["Ana", "Ben"], {})  # it ends with a seat that leaves, a hand of its own
    _played_out(table)
    table.correct(correction)
    before = table.state()
    assert before.status == TableStatus.RUNNING
    current = store.current_game()
    assert current is not None and current.game_no == table.game_no
    assert (current.over, current.final) == (False, {})
    store.close()
    again = Table(Store(db))
    assert again.store.current_game() is not None
    assert (again.game_no, again.state().status, again.state().view) == (
        table.game_no, TableStatus.RUNNING, before.view)
    assert [line.text for line in again.state().log] == [line.text for line in before.log]
    again.store.close()


def test_a_demo_restarted_after_an_undo_of_its_last_input_plays_that_game_on_to_its_new_result(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the restarted demo found no current game in the record: it finished the reopened one again
    # with its result so far ("over", no winner) and started game 2
    from controller.cli import main
    from controller.table.build import build_demo
    from controller.table.demo import play_out
    from tests.table.test_full_games import GAMES

    db = tmp_path / "t.db"
    demo, _ = build_demo("diceholdem", 2, 5, db, None, ["heuristic"], GAMES["diceholdem"])
    try:
        play_out(demo, None)
        demo.table.correct(Undo("Dana (dealer)", "the camera misread the last die"))
        before = demo.table.state()
    finally:
        demo.close()
    assert main(["history", "--db", str(db)]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 1 and listed[0].startswith("game 1: ") and listed[0].endswith("; in play")
    demo, resumed = build_demo("diceholdem", 2, 5, db, None, ["heuristic"], GAMES["diceholdem"])
    try:
        assert resumed and demo.table.game_no == 1 and demo.table.state().view == before.view
        play_out(demo, None)
        assert demo.table.ledger is not None
        final = json.loads(json.dumps(demo.table.ledger.game.final()))
    finally:
        demo.close()
    assert main(["history", "--db", str(db), "--json"]) == 0
    games = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(game["game_no"], game["over"], game["final"]) for game in games] == [(1, True, final)]
    assert final["winner"] is not None
