"""Dice the players settle by hand keep their faces: when the table asks them to move a die the
camera doubts (or dice it did not all find, or to lay a revealed cocked die flat), the same faces
up, a face the camera had read surely before must still be there after. One that is not was
turned, by mistake or to cheat, and only the dealer settles it (``records.TURNED``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Callable

import pytest

from controller.games.base import DiceNeeded
from controller.games.rolls import Roll
from controller.store import Store
from controller.table.records import COCKED, TURNED, UNSEEN, Entry, TableStatus
from controller.table.table import Sighting, Table
from tests.table.conftest import next_input

Script = Callable[[DiceNeeded], Sighting]


class _ScriptedEyes:
    """A camera path that gives one scripted sighting per look while the table waits for dice."""

    def __init__(self, *sights: Script) -> None:
        self.sights = list(sights)

    def look(self, need: DiceNeeded | None) -> Sighting | None:
        return None if need is None or not self.sights else self.sights.pop(0)(need)


def _doubted(sure: tuple[str, ...], code: str = "confidence") -> Script:
    said = {"confidence": "die 3 in the community zone read M at 0.61 confidence: move it a little, the same face up",
            UNSEEN: "3 dice expected in the community zone, 2 seen: move the dice apart, the same faces up",
            COCKED: "die 3 in the community zone lies cocked: throw the dice again"}[code]
    return lambda need: Sighting(None, said, code=code, sure=sure)


def _read(*faces: str) -> Script:
    return lambda need: Sighting(Roll(need.seat, need.kind, faces), sure=faces)


def _at_the_flop(store: Store, eyes: _ScriptedEyes) -> Table:
    """A DiceHoldem table waiting for the community dice, its camera looking once per tick."""
    table = Table(store, eyes=eyes)
    table.new_game("diceholdem", ["Ana", "Ben"], {})
    rng = random.Random(5)
    while not _flop(table):
        table.submit(Entry(next_input(table, rng), "test", "tester"))
    return table


def _restarted(db: Path, *sights: Script) -> Table:
    """The table opened again on its record ``db`` (a crash, a power cut, `run` restarted), its
    camera looking anew; it asks again the question open when it stopped
    (tests/table/test_question_after_restart.py), which the players settle meanwhile."""
    return Table(Store(db), eyes=_ScriptedEyes(*sights))


def _flop(table: Table) -> bool:
    return _community(table, 3)


def _community(table: Table, count: int) -> bool:
    """The table waits for ``count`` community dice."""
    assert table.ledger is not None
    need = table.ledger.game.pending().dice
    return bool(need) and need[0].seat is None and need[0].count == count


def _to_the_turn(table: Table) -> None:
    """Play the flop's betting until the table waits for the turn's die."""
    rng = random.Random(2)
    while not _community(table, 1):
        table.submit(Entry(next_input(table, rng), "test", "tester"))


def test_a_die_read_surely_that_shows_another_face_after_the_players_moved_the_dice_goes_to_the_dealer(
        store: Store) -> None:
    table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")), _read("H", "L", "M")))
    table.tick()
    assert table.question is not None and table.question.players  # move it a little
    table.tick()  # the O the camera read surely is gone: an L in its place
    question = table.question
    assert question is not None and question.code == TURNED and not question.players
    assert question.text.endswith("the dice for the community show H L M, but O was read there before "
                                  "the players moved them: was a die turned?")
    assert _flop(table)  # not taken
    assert table.state().status is TableStatus.QUESTION


def test_dice_moved_with_their_faces_up_are_taken(store: Store) -> None:
    # the doubted die shows M, as it was read below the threshold: its face was doubted, and a
    # die may read otherwise once moved, so only the faces read surely are held to
    table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")), _read("O", "E", "H")))
    table.tick()
    table.tick()
    assert table.question is None and not _flop(table)


def test_faces_read_surely_at_any_question_of_the_move_are_held_to(store: Store) -> None:
    # moved once, still doubted; moved again: the H of the first reading must be there too
    table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")), _doubted(("O", "E")), _read("O", "E", "D")))
    for _ in range(3):
        table.tick()
    assert table.question is not None and table.question.code == TURNED
    assert "but H was read there before" in table.question.text


def test_dice_thrown_again_after_a_cocked_die_show_new_faces(store: Store) -> None:
    table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")), _doubted(("H", "O"), COCKED), _read("D", "D", "E")))
    for _ in range(3):
        table.tick()
    assert table.question is None and not _flop(table)


def test_dice_the_dealer_enters_by_hand_end_the_question_and_its_faces(store: Store) -> None:
    # the dealer's Enter dice, while the players were to move them: the O held then is no face
    # the turn's die must show
    eyes = _ScriptedEyes(_doubted(("H", "O")))
    table = _at_the_flop(store, eyes)
    table.tick()
    assert table.question is not None
    table.submit(Entry(Roll(None, table.question.kind, ("H", "O", "M")), "console", "dealer"))
    assert table.question is None and table.state().status is TableStatus.RUNNING
    _to_the_turn(table)
    eyes.sights.append(_read("D"))
    table.tick()
    assert table.question is None and table.state().log[-1].text == "The table rolls D"  # taken


def test_the_roll_that_settles_a_question_is_told_with_the_question_ended(store: Store) -> None:
    # the scoreboard's update of the roll still showed the question, until the next change
    table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")), _read("O", "E", "H")))
    table.tick()
    told = table.subscribe(after=table.state().seq)
    table.tick()
    update = told.next(0)
    assert update is not None and update.kind == "input"
    assert update.state.question is None and update.state.status is TableStatus.RUNNING


@pytest.mark.parametrize("code", ["confidence", UNSEEN])
def test_a_die_turned_while_the_table_restarted_goes_to_the_dealer(db: Path, code: str) -> None:
    # the faces read surely were held in memory only: the restarted table took the turned die
    with Store(db) as store:
        table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O"), code)))
        table.tick()
        assert table.question is not None and table.question.players
        assert table.state().log[-1].text.endswith("the same face up" if code != UNSEEN else "the same faces up")
    again = _restarted(db, _read("H", "L", "M"))
    again.tick()
    question = again.question
    assert question is not None and question.code == TURNED
    assert question.text.endswith("the dice for the community show H L M, but O was read there before "
                                  "the players moved them: was a die turned?")
    assert _flop(again)  # not taken
    again.store.close()


def test_dice_moved_with_their_faces_up_while_the_table_restarted_are_taken(db: Path) -> None:
    with Store(db) as store:
        _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")))).tick()
    again = _restarted(db, _read("O", "E", "H"))
    again.tick()
    assert again.question is None and not _flop(again)
    again.store.close()


def test_faces_held_by_every_question_of_the_move_are_held_through_restarts(db: Path) -> None:
    with Store(db) as store:
        _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")))).tick()
    again = _restarted(db, _doubted(("O", "E")))
    again.tick()  # moved once, still doubted
    again.store.close()
    third = _restarted(db, _read("O", "E", "D"))
    third.tick()
    assert third.question is not None and third.question.code == TURNED
    assert "but H was read there before" in third.question.text
    third.store.close()


def test_a_question_settled_before_the_restart_holds_no_face_after_it(db: Path) -> None:
    with Store(db) as store:
        table = _at_the_flop(store, _ScriptedEyes(_doubted(("H", "O")), _read("O", "E", "H")))
        table.tick()
        table.tick()  # taken
        _to_the_turn(table)
    again = _restarted(db, _read("D"))
    again.tick()
    assert again.question is None and again.state().log[-1].text == "The table rolls D"
    again.store.close()


def test_a_question_an_older_table_recorded_holds_no_face(db: Path) -> None:
    # its record keeps no faces (its why is empty): the moved dice are taken, as that table did
    with Store(db) as store:
        table = _at_the_flop(store, _ScriptedEyes())
        store.append(table.game_no, "question", "3 letter dice for the community (flop): die 3 in the "
                     "community zone read M at 0.61 confidence: move it a little, the same face up",
                     who="camera", origin="camera")
    again = _restarted(db, _read("H", "L", "M"))
    again.tick()
    assert again.question is None and not _flop(again)
    again.store.close()
