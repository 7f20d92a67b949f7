"""The record's games, lines, device events and evidence, as the table and the web use them."""

import threading
from pathlib import Path

import pytest

from controller.games.errors import InvalidInput
from controller.store import TABLE, DuplicateEvent, GameInProgress, NoSuchGame, Store
from controller.store.store import DEVICE_RECORDS

PHOTOS = sorted((Path(__file__).parents[2] / "data/dice-photos/byler-d6-dev/images").glob("*.jpg"))


class Clock:
    """A clock the test moves: every record time is known."""

    def __init__(self) -> None:
        self.now = 1796160000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "table.db", clock=Clock()) as opened:
        yield opened


def _photos(count):
    assert len(PHOTOS) >= count, "the real dice photos are missing"
    return [path.read_bytes() for path in PHOTOS[:count]]


def test_a_new_game_is_the_current_one_until_finished(store):
    assert store.current_game() is None
    game_no = store.start_game("tao", 3, {"length": "single"}, ["Ann", "Bob", "Cy"])
    current = store.current_game()
    assert (current.game_no, current.game, current.seats) == (game_no, "tao", 3)
    assert (current.names, current.options, current.over) == (("Ann", "Bob", "Cy"),
                                                               {"length": "single"}, False)
    assert current.started == "2026-12-01T21:20:01+00:00"
    store.finish_game(game_no, {"winner": 2, "stacks": [0, 0, 18]})
    assert store.current_game() is None
    assert store.game(game_no).over and store.game(game_no).final == {"winner": 2,
                                                                      "stacks": [0, 0, 18]}


def test_a_game_cannot_start_while_another_is_unfinished(store):
    first = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    with pytest.raises(GameInProgress, match=f"game {first}"):
        store.start_game("tauren", 2, {}, ["Ann", "Bob"])
    assert [game.game_no for game in store.games()] == [first]


def test_a_correction_that_takes_back_the_end_puts_the_game_back_in_play(store):
    # an Undo of the input that ended a game left it finished with its old result: a restarted
    # demo started another game, and `history` said "won by" of a game in play
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    store.append(game_no, "input", "fold 0")
    store.finish_game(game_no, {"winner": 1})
    store.append(game_no, "undo", "", who="Dana", why="Ann pressed fold by mistake", reopen=True)
    reopened = store.current_game()
    assert reopened is not None and reopened.game_no == game_no
    assert (store.game(game_no).over, store.game(game_no).final) == (False, {})
    with pytest.raises(GameInProgress, match=f"game {game_no}"):
        store.start_game("tao", 2, {}, ["Ann", "Bob"])
    store.append(game_no, "input", "fold 1")
    store.finish_game(game_no, {"winner": 0})
    assert [(game.game_no, game.over, game.final) for game in store.games()] == [
        (game_no, True, {"winner": 0})]


def test_a_reopening_correction_that_is_not_written_leaves_the_game_finished(store):
    # the correction and the reopening are one transaction: neither without the other
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    seq = store.append(game_no, "input", "fold 0", device_event=("seatnode:1", 7, 1))
    store.finish_game(game_no, {"winner": 1})
    with pytest.raises(DuplicateEvent):
        store.append(game_no, "undo", "", device_event=("seatnode:1", 7, 1), reopen=True)
    assert store.current_game() is None and store.game(game_no).final == {"winner": 1}
    assert store.last_seq() == seq
    with pytest.raises(InvalidInput, match="none reopens"):
        store.append(TABLE, "note", "table opened", reopen=True)
    assert store.last_seq() == seq


def test_every_seat_needs_a_name(store):
    with pytest.raises(InvalidInput, match="3 seats need 3 names"):
        store.start_game("tao", 3, {}, ["Ann", "Bob"])


def test_games_are_listed_newest_first_with_their_input_count(store):
    numbers = []
    for inputs in (1, 3, 2):
        numbers.append(store.start_game("tao", 2, {}, ["Ann", "Bob"]))
        for _ in range(inputs):
            store.append(numbers[-1], "input", "fold 0")
        store.append(numbers[-1], "note", "a spilled drink")
        store.finish_game(numbers[-1], {})
    assert [(game.game_no, game.inputs) for game in store.games()] == [
        (numbers[2], 2), (numbers[1], 3), (numbers[0], 1)]
    assert [game.game_no for game in store.games(limit=2)] == numbers[:0:-1]


def test_seq_is_global_and_increasing_across_games(store):
    first = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    seqs = [store.append(first, "input", "ante 0 black=1 white=0", who="Ann", origin="panel")]
    store.finish_game(first, {})
    second = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    seqs += [store.append(second, "undo", "", who="dealer", why="pressed twice"),
             store.append(second, "input", "roll 2 d6 3 5", origin="camera")]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3 and store.last_seq() == seqs[-1]
    assert [r.seq for r in store.records(first)] == seqs[:1]
    undo = store.records(second)[0]
    assert (undo.kind, undo.who, undo.why, undo.game) == ("undo", "dealer", "pressed twice", second)
    assert [r.seq for r in store.after(seqs[0])] == seqs[1:]
    assert [r.seq for r in store.after(0, limit=2)] == seqs[:2]


def test_a_record_keeps_its_time(store):
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    store.append(game_no, "input", "fold 0", at=1796170000.5)
    store.append(game_no, "input", "fold 1")
    assert [r.at for r in store.records(game_no)] == [1796170000.5, 1796160002.0]


def test_an_unknown_kind_or_game_writes_nothing(store):
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    with pytest.raises(InvalidInput, match="'inptu'"):
        store.append(game_no, "inptu", "fold 0")
    with pytest.raises(NoSuchGame, match="no game 7"):
        store.append(7, "input", "fold 0")
    with pytest.raises(NoSuchGame):
        store.finish_game(7, {})
    assert store.last_seq() == 0 and store.records(game_no) == []


def test_the_tables_own_records_belong_to_no_game(store):
    # a device failing while no game is in play had only a finished game's record to go to
    before = store.append(TABLE, "fault", "camera: stopped sending frames", origin="camera",
                          why="check the camera's cable")
    assert store.current_game() is None and store.games() == []
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    store.append(game_no, "input", "fold 0")
    store.finish_game(game_no, {})
    after = store.append(TABLE, "clear", "the camera works again", origin="camera")
    assert game_no == 1 and [game.game_no for game in store.games()] == [game_no]
    assert [(r.seq, r.game, r.kind) for r in store.records(TABLE)] == [
        (before, TABLE, "fault"), (after, TABLE, "clear")]
    assert [r.kind for r in store.records(game_no)] == ["input"]
    assert [r.seq for r in store.after(0)] == [before, before + 1, after]  # a stream sends them all
    with pytest.raises(NoSuchGame):
        store.game(TABLE)
    with pytest.raises(InvalidInput, match="belongs to a game"):
        store.append(TABLE, "input", "fold 0")
    with pytest.raises(InvalidInput, match="no evidence"):
        store.append(TABLE, "note", "a frame", evidence=b"\xff\xd8\xff\xe0 frame")
    assert store.last_seq() == after


def test_the_newest_record_of_each_device_is_found_across_games(store):
    # a restarted table asks it for the faults that still stand (Table._recall_faults)
    camera = store.append(TABLE, "fault", "camera: stopped sending frames", origin="camera")
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    store.append(game_no, "input", "fold 0", origin="panel")
    store.append(game_no, "fault", "rfid: reader under 'seat0' timed out", origin="rfid")
    rfid = store.append(game_no, "fault", "rfid: reader under 'seat0' answers no version", origin="rfid")
    panel = store.append(game_no, "clear", "the panel works again", origin="panel")
    store.append(game_no, "input", "fold 1", origin="panel")
    assert [r.seq for r in store.newest(DEVICE_RECORDS)] == [camera, rfid, panel]
    assert [r.line for r in store.newest(["input"])] == ["fold 1"]


def test_a_record_is_visible_to_a_reader_once_append_returns(tmp_path):
    path = tmp_path / "table.db"
    with Store(path) as store, Store.open_readonly(path) as reader:
        game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
        seq = store.append(game_no, "input", "ante 0 black=1 white=0")
        assert [r.seq for r in reader.after(0)] == [seq]
        assert reader.current_game().game_no == game_no


def test_a_reader_works_from_another_thread(tmp_path):
    path = tmp_path / "table.db"
    with Store(path) as store:
        game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
        seq = store.append(game_no, "input", "ante 0 black=1 white=0")
        seen = []

        def web():
            with Store.open_readonly(path) as reader:
                seen.extend(r.seq for r in reader.after(0))

        thread = threading.Thread(target=web)
        thread.start()
        thread.join()
        assert seen == [seq]


def test_a_repeated_device_event_is_refused_and_writes_nothing(store):
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    seq = store.append(game_no, "input", "call 1", device_event=("seatnode:1", 17, 42))
    with pytest.raises(DuplicateEvent, match="seatnode:1") as caught:
        store.append(game_no, "input", "call 1", device_event=("seatnode:1", 17, 42))
    assert caught.value.seq == seq and store.last_seq() == seq
    assert store.seen("seatnode:1", 17, 42)
    assert not store.seen("seatnode:1", 18, 42) and not store.seen("seatnode:2", 17, 42)
    store.append(game_no, "input", "fold 0", device_event=("seatnode:1", 18, 42))  # a new session


def test_a_device_event_repeated_after_a_restart_is_refused(tmp_path):
    path = tmp_path / "table.db"
    with Store(path) as store:
        game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
        seq = store.append(game_no, "input", "call 1", device_event=("seatnode:1", 17, 42))
    with Store(path) as store:
        assert store.seen("seatnode:1", 17, 42)
        with pytest.raises(DuplicateEvent):
            store.append(game_no, "input", "call 1", device_event=("seatnode:1", 17, 42))
        assert [r.seq for r in store.records(game_no)] == [seq]


def test_evidence_is_kept_with_its_record(store):
    jpeg = _photos(1)[0]
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    seq = store.append(game_no, "question", "2 d6 for seat 1: one die unclear", evidence=jpeg)
    record = store.record(seq)
    assert record == store.records(game_no)[0] and store.record(seq + 1) is None
    assert record.picture_kept and store.evidence(record.picture) == jpeg
    assert store.evidence(record.picture + 1) is None


def test_evidence_must_be_a_jpeg(store):
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
    with pytest.raises(InvalidInput, match="JPEG"):
        store.append(game_no, "input", "roll 2 d6 3 5", evidence=b"\x89PNG\r\n\x1a\n")
    assert store.last_seq() == 0


def test_the_oldest_evidence_is_dropped_first_and_its_record_says_so(tmp_path):
    photos = _photos(4)
    bound = sum(len(photo) for photo in photos[2:]) + 100  # room for the two newest only
    with Store(tmp_path / "table.db", max_evidence_bytes=bound) as store:
        game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
        for photo in photos:
            store.append(game_no, "input", "roll 2 d6 3 5", evidence=photo)
        records = store.records(game_no)
        assert [r.picture_kept for r in records] == [False, False, True, True]
        assert [store.evidence(r.picture) for r in records] == [None, None, *photos[2:]]
        assert store.evidence_bytes() == bound - 100
        assert [r.line for r in records] == ["roll 2 d6 3 5"] * 4  # the records stay


def test_a_picture_larger_than_the_bound_is_dropped_at_once(tmp_path):
    photo = _photos(1)[0]
    with Store(tmp_path / "table.db", max_evidence_bytes=len(photo) - 1) as store:
        game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
        store.append(game_no, "input", "roll 2 d6 3 5", evidence=photo)
        assert not store.records(game_no)[0].picture_kept and store.evidence_bytes() == 0


def test_a_smaller_bound_on_reopening_drops_the_oldest_pictures(tmp_path):
    path, photos = tmp_path / "table.db", _photos(3)
    with Store(path) as store:
        game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"])
        for photo in photos:
            store.append(game_no, "input", "roll 2 d6 3 5", evidence=photo)
    with Store(path, max_evidence_bytes=len(photos[2])) as store:
        assert [r.picture_kept for r in store.records(game_no)] == [False, False, True]
