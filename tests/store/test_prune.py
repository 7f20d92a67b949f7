"""Retention: the last ten games stay whole; older finished ones leave as history files that
replay, and only once those files are safely written."""

import os

import pytest

from controller.games import history
from controller.simulation import BotTable
from controller.store import TABLE, NoSuchGame, Store, StoreError

NAMES = ["Ann", "Bob"]


def _play(store, seed, finish=True):
    """Record a whole real Tao Dice game of two bots, input by input; returns its game number
    and the engine's final results."""
    table = BotTable("tao", 2, seed=seed, options={"length": "single"})
    game_no = store.start_game("tao", 2, table.game.options_text(), NAMES)
    while not table.game.pending().over:
        record = table.step().record
        store.append(game_no, "input", str(record), origin="bot",
                     device_event=("seatnode:0", seed, len(table.game.inputs)),
                     evidence=b"\xff\xd8\xff\xe0 frame" if "roll" in str(record) else None)
    if finish:
        store.finish_game(game_no, table.game.final())
    return game_no, table.game.final()


def _short(store, count):
    """Record ``count`` finished games of one note each (the newer games a prune keeps)."""
    for _ in range(count):
        game_no = store.start_game("tao", 2, {}, NAMES)
        store.append(game_no, "note", "a short game")
        store.finish_game(game_no, {})


def _effective(store):
    return lambda game_no: [r.line for r in store.records(game_no) if r.kind == "input"]


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "table.db") as opened:
        yield opened


def test_games_older_than_the_last_ten_are_exported_and_replay(store, tmp_path):
    played = [_play(store, seed) for seed in range(2)]
    _short(store, 10)
    old = [store.records(game_no) for game_no, _ in played[:2]]
    exports = tmp_path / "exports"
    exports.mkdir()
    written = store.prune(exports, _effective(store))
    assert [path.name for path in written] == ["game-000001-tao.history", "game-000002-tao.history"]
    for path, (_, final), records in zip(written, played, old):
        replayed = history.loads(path.read_text(encoding="utf-8"))
        assert replayed.final() == final
        assert len(replayed.inputs) == len(records)
    assert [game.game_no for game in store.games(limit=20)] == list(range(12, 2, -1))


def test_a_pruned_game_leaves_no_rows_behind(store, tmp_path):
    played = [_play(store, seed) for seed in range(2)]
    first = store.records(played[0][0])
    last_seq = store.last_seq()
    store.prune(tmp_path, _effective(store), keep=1)
    with pytest.raises(NoSuchGame):
        store.game(played[0][0])
    assert store.records(played[0][0]) == []
    assert not any(store.evidence(r.picture) for r in first if r.picture)
    assert not store.seen("seatnode:0", 0, 1) and store.seen("seatnode:0", 1, 1)
    rows = store._conn.execute("SELECT count(*) FROM pictures p LEFT JOIN records r "
                               "ON r.picture = p.id WHERE r.seq IS NULL").fetchone()
    assert rows == (0,)  # no picture without its record
    assert store.last_seq() == last_seq  # seqs are never reused:
    assert store.append(played[-1][0], "note", "after the prune") == last_seq + 1


def test_the_tables_own_records_go_with_the_games_before_them(store, tmp_path):
    # the table's own records (a device failing between games) are kept as long as the games
    # around them, not for ever
    store.append(TABLE, "fault", "before the first game")
    first, _ = _play(store, 0)
    store.append(TABLE, "fault", "after the first game")
    second, _ = _play(store, 1)
    store.append(TABLE, "fault", "after the second game")
    _short(store, 1)
    store.prune(tmp_path, _effective(store), keep=2)
    assert [game.game_no for game in store.games()] == [first + 2, second]
    assert [r.line for r in store.records(TABLE)] == ["after the first game", "after the second game"]
    store.prune(tmp_path, _effective(store), keep=1)
    assert [r.line for r in store.records(TABLE)] == ["after the second game"]


def test_the_game_in_progress_is_never_pruned(store, tmp_path):
    game_no, _ = _play(store, 0, finish=False)
    assert store.prune(tmp_path, _effective(store), keep=0) == []
    assert store.current_game().game_no == game_no


def test_a_second_prune_finds_nothing_more(store, tmp_path):
    _play(store, 0)
    _short(store, 10)
    assert len(store.prune(tmp_path, _effective(store))) == 1
    assert store.prune(tmp_path, _effective(store)) == []


def test_an_existing_export_file_is_not_overwritten_and_its_game_stays(store, tmp_path):
    _play(store, 0)
    _short(store, 1)
    taken = tmp_path / "game-000001-tao.history"
    taken.write_text("someone else's notes\n")
    with pytest.raises(StoreError, match="not overwritten"):
        store.prune(tmp_path, _effective(store), keep=1)
    assert taken.read_text() == "someone else's notes\n"
    assert store.game(1).over and len(store.games()) == 2


def test_an_export_written_before_an_interrupted_prune_is_taken_as_done(store, tmp_path,
                                                                        monkeypatch):
    _play(store, 0)
    _short(store, 1)

    def killed(game_no):
        raise KeyboardInterrupt  # stopped between the export and the deletion

    with monkeypatch.context() as patch:
        patch.setattr(store, "_forget", killed)
        with pytest.raises(KeyboardInterrupt):
            store.prune(tmp_path, _effective(store), keep=1)
    assert store.game(1).over  # the rows are still there, and the export too:
    export = tmp_path / "game-000001-tao.history"
    assert store.prune(tmp_path, _effective(store), keep=1) == [export]
    with pytest.raises(NoSuchGame):
        store.game(1)
    assert sorted(path.name for path in tmp_path.iterdir() if "history" in path.name) == [
        export.name]  # nothing partial left behind


def test_the_export_folder_must_exist(store, tmp_path):
    with pytest.raises(StoreError, match="not a folder"):
        store.prune(tmp_path / "nowhere", _effective(store))


def test_a_record_whose_name_is_not_utf8_exports_its_old_games(tmp_path):
    # the export's header named the record raw, and writing it as UTF-8 raised
    # UnicodeEncodeError: a table on such a file crashed once it finished its eleventh game
    with Store(tmp_path / os.fsdecode(b"caf\xe9.db")) as store:
        _short(store, 11)
        [written] = store.prune(tmp_path, _effective(store))
    header = written.read_text(encoding="utf-8").splitlines()[1]
    assert header.startswith("# game 1 of ") and "caf\\xe9.db, started " in header  # escaped as the commands show it


def _last_words(store):
    """Each device's newest fault, warning and clear, as a restarted table reads them."""
    return [(r.seq, r.kind, r.origin, r.line, r.why, r.at)
            for kind in ("fault", "warning", "clear") for r in store.newest((kind,))]


def test_each_devices_newest_fault_warning_and_clear_outlive_their_pruned_game(store, tmp_path):
    # a fault that began in a pruned game and still stood went with it: a restarted table found
    # none standing in the record and recorded it again, as new, its start lost
    store.append(TABLE, "fault", "camera stopped sending frames", origin="camera", why="replug it")
    first = store.start_game("tao", 2, {}, NAMES)
    store.append(first, "clear", "the camera works again", origin="camera")
    store.append(first, "warning", "rfid: seat 3's node has never answered", origin="rfid",
                 why="plug it in")
    store.append(first, "fault", "rfid: seat 1's node is unplugged", origin="rfid", why="plug it in",
                 evidence=b"\xff\xd8\xff\xe0 the tray")
    store.append(first, "fault", "camera stopped sending frames", origin="camera", why="replug it")
    store.finish_game(first, {})
    before = _last_words(store)
    _short(store, 2)
    store.prune(tmp_path, _effective(store), keep=1)
    with pytest.raises(NoSuchGame):
        store.game(first)
    assert _last_words(store) == before
    kept = store.records(TABLE)  # the camera's first fault, superseded, is gone
    assert [(r.kind, r.origin) for r in kept] == [("clear", "camera"), ("warning", "rfid"),
                                                  ("fault", "rfid"), ("fault", "camera")]
    assert [r.picture for r in kept] == [None] * 4 and store.evidence_bytes() == 0
    _short(store, 2)
    store.prune(tmp_path, _effective(store), keep=1)  # and they stay through later prunes
    assert _last_words(store) == before
