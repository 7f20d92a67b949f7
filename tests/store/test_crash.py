"""Durability for real: a child process appending records is SIGKILLed at random moments; every
seq it was told was durable must be in the file, whole and in order, and a game in play."""

from controller.store import Store
from tests.store.crashes import check, crash_run, kill_in_game_change


def test_every_acknowledged_record_survives_sigkill(tmp_path):
    kills = crash_run(tmp_path / "table.db", kills=50, seed=15)
    acknowledged = sum(len(kill.acknowledged) for kill in kills)
    assert acknowledged > 100, "the child was killed before it could append anything"
    assert any(not kill.acknowledged for kill in kills), "no kill came before the first append"
    assert kills[-1].records >= max(max(k.acknowledged, default=0) for k in kills)


def test_a_kill_at_any_statement_of_a_game_change_leaves_a_game_in_play(tmp_path):
    # the harness finished a game and started the next in two transactions, which the table no
    # longer does: killed between the two, the record held game 1 finished and none in play
    for statement in range(1, 9):
        db = tmp_path / f"killed-at-{statement}.db"
        check(db, kill_in_game_change(db, statement))
    with Store(db) as store:  # the last kill came after the whole change
        assert store.current_game().game_no == 2 and store.game(1).over
