"""Durability for real: a child process appending records is SIGKILLed at random moments; every
seq it was told was durable must be in the file, whole and in order."""

from tests.store.crashes import crash_run


def test_every_acknowledged_record_survives_sigkill(tmp_path):
    kills = crash_run(tmp_path / "table.db", kills=50, seed=15)
    acknowledged = sum(len(kill.acknowledged) for kill in kills)
    assert acknowledged > 100, "the child was killed before it could append anything"
    assert any(not kill.acknowledged for kill in kills), "no kill came before the first append"
    assert kills[-1].records >= max(max(k.acknowledged, default=0) for k in kills)
