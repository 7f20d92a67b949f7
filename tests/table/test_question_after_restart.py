"""A table restarted (a power cut, a crash, `systemctl restart`) while it asks a question asks it
again: the same question (seat, kind, count, reason, sentence, the players' way to settle it),
so the players settle it as before, with no dealer where none was needed before the restart.

Each test asks on a real SQLite record, closes the table, and opens a new one on the same file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.games.errors import IllegalAction
from controller.store import Store
from controller.table.records import COCKED, TURNED, UNSEEN, Question, TableState, TableStatus
from controller.table.table import DEALER_FIX, Sighting, Table
from tests.table.test_turned_dice import (Script, _at_the_flop, _doubted, _flop, _read, _ScriptedEyes,
                                          _to_the_turn)

PICTURE = b"\xff\xd8\xff\xe0 the camera's picture of the tray \xff\xd9"


def _asked(db: Path, *sights: Script, ticks: int = 1) -> TableState:
    """The state of a DiceHoldem table at the flop once its camera looked ``ticks`` times
    through ``sights``; the table is then closed (its record kept in ``db``)."""
    with Store(db) as store:
        table = _at_the_flop(store, _ScriptedEyes(*sights))
        for _ in range(ticks):
            table.tick()
        return table.state()


def _same(question: Question | None) -> tuple[object, ...]:
    """What a question asks, whoever holds it: all but the dice the camera saw."""
    assert question is not None
    return (question.id, question.seat, question.kind, question.count, question.reason, question.text,
            question.code, question.players)


@pytest.mark.parametrize("code", ["confidence", UNSEEN, COCKED])
def test_a_table_restarted_while_it_asks_the_players_asks_them_again(db: Path, code: str) -> None:
    # it came back paused with no question: the dealer had to press Resume
    before = _asked(db, _doubted(("H", "O"), code))
    with Store(db) as store:
        after = Table(store, eyes=_ScriptedEyes()).state()
    assert _same(after.question) == _same(before.question)
    assert (after.status, after.problem, after.fix, after.paused) == (
        TableStatus.QUESTION, before.problem, before.fix, False)


def test_the_players_settle_the_question_asked_again_with_no_dealer(db: Path) -> None:
    _asked(db, _doubted(("H", "O")))
    with Store(db) as store:
        again = Table(store, eyes=_ScriptedEyes(_read("O", "E", "H")))
        again.tick()  # the players moved the dice, the same faces up
        assert again.question is None and not _flop(again)
        assert not {"pause", "resume"} & {record.kind for record in store.records(again.game_no)}


def test_the_same_dice_seen_again_after_the_restart_are_not_asked_about_twice(db: Path) -> None:
    before = _asked(db, _doubted(("H", "O")))
    with Store(db) as store:
        again = Table(store, eyes=_ScriptedEyes(_doubted(("H", "O"))))
        again.tick()  # the camera looks anew at the tray nobody touched
        assert _same(again.question) == _same(before.question)
        assert [record.kind for record in store.records(again.game_no)].count("question") == 1


def test_the_evidence_picture_comes_back_with_the_question_but_not_the_dice_read(db: Path) -> None:
    # the picture is the question record's (SQLite); the dice read, with their boxes, were in memory
    before = _asked(db, lambda need: Sighting(None, "die 3 in the community zone read M at 0.61 confidence",
                                               (), PICTURE, code="confidence", sure=("H", "O")))
    assert before.question is not None and before.question.evidence is not None
    with Store(db) as store:
        again = Table(store, eyes=_ScriptedEyes())
        question = again.question
        assert question is not None and question.evidence == before.question.evidence
        assert again.evidence(question.evidence) == PICTURE and question.seen == ()


def test_a_question_whose_picture_the_record_dropped_comes_back_without_one(db: Path) -> None:
    # the record keeps the newest pictures that fit its bound: a later one dropped the question's
    before = _asked(db, lambda need: Sighting(None, "die 3 in the community zone read M at 0.61 confidence",
                                              (), PICTURE, code="confidence"))
    with Store(db, max_evidence_bytes=len(PICTURE) + 1) as store:
        store.append(before.game_no, "note", "a later picture", evidence=PICTURE + b" ")
        again = Table(store, eyes=_ScriptedEyes())
        assert again.question is not None and again.question.evidence is None


def test_the_question_the_dealer_settles_comes_back_the_dealers(db: Path) -> None:
    # a die turned while the players moved the dice: the dealer's, asked again, answered on the console
    before = _asked(db, _doubted(("H", "O")), _read("H", "L", "M"), ticks=2)
    with Store(db) as store:
        again = Table(store, eyes=_ScriptedEyes())
        state = again.state()
        assert _same(state.question) == _same(before.question)
        assert state.question is not None and state.question.code == TURNED and not state.question.players
        assert (state.status, state.fix, state.paused) == (TableStatus.QUESTION, DEALER_FIX, False)
        again.answer(state.question.id, ["H", "O", "M"], "Dana (dealer)")  # the console's form, drawn before
        assert again.question is None and not _flop(again)


def test_a_table_the_dealer_paused_with_a_question_open_comes_back_paused_and_asking(db: Path) -> None:
    with Store(db) as store:
        table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O"))))
        table.tick()
        asked = table.question
        table.pause("Dana (dealer)", "a drink spilled on the tray")
    with Store(db) as store:
        state = Table(store, eyes=_ScriptedEyes()).state()
    assert _same(state.question) == _same(asked)
    assert (state.status, state.problem, state.paused) == (TableStatus.PAUSED, "a drink spilled on the tray", True)


def test_an_answer_to_a_question_closed_before_the_restart_is_refused_after_it(db: Path) -> None:
    # the questions were numbered from 1 again after a restart: a console page drawn for the
    # flop's question answered the turn's with the flop's faces
    with Store(db) as store:
        table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")), _read("O", "E", "H")))
        table.tick()
        assert table.question is not None
        flops = table.question.id
        table.tick()  # taken
        _to_the_turn(table)
    with Store(db) as store:
        again = Table(store, eyes=_ScriptedEyes(_doubted(())))
        again.tick()
        assert again.question is not None and again.question.id != flops
        with pytest.raises(IllegalAction, match=f"question {flops} is not open"):
            again.answer(flops, ["D"], "Dana (dealer)")


def test_a_question_recorded_before_its_code_was_comes_back_the_dealers_holding_its_faces(db: Path) -> None:
    # its record keeps the faces it holds alone (b58ea49): whether the players may settle it is unknown
    doubt = "die 3 in the community zone read M at 0.61 confidence: move it a little, the same face up"
    with Store(db) as store:
        table = _at_the_flop(store, _ScriptedEyes())
        store.append(table.game_no, "question", f"3 letter dice for the community (flop): {doubt}",
                     who="camera", why="H O", origin="camera")
    with Store(db) as store:
        again = Table(store, eyes=_ScriptedEyes(_read("H", "L", "M")))
        assert again.question is not None and (again.question.text, again.question.code) == (doubt, "")
        assert (again.state().fix, again.state().paused) == (DEALER_FIX, False)
        again.tick()  # the O it held is gone
        assert again.question is not None and again.question.code == TURNED
