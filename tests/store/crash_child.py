"""The child a crash test kills: appends records to the store at argv[1] as fast as it can and
prints each returned seq (so each printed seq was acknowledged as durable).

Every record's contents follow from its seq (see ``expected``), so the parent can tell a
half-written record from a whole one. Every 40 records the next game is started and the one in
play ended with it, in one transaction, as the table's ``new_game`` does (``Store.start_game``'s
``ending``). With :data:`KILL_AT` set to N in its environment, the child kills itself at the
Nth SQL statement of its first game change (after the change when it has fewer), so that a
test can kill it at every point of one.
"""

import hashlib
import os
import signal
import sys
from dataclasses import dataclass

from controller.store import Store
from controller.table.records import GameSummary

GAME_LENGTH = 40
KILL_AT = "DICETABLE_CRASH_KILL_AT"


@dataclass(frozen=True)
class Expected:
    """What one record holds."""

    line: str
    who: str
    event: tuple[str, int, int]
    evidence: bytes | None


def expected(seq: int) -> Expected:
    """What record ``seq`` holds: its line, who, device event, and evidence (every third)."""
    jpeg = None
    if seq % 3 == 0:
        size = 2000 + (seq * 7919) % 30000
        block = hashlib.sha256(str(seq).encode()).digest()
        jpeg = b"\xff\xd8\xff\xe0" + (block * (size // len(block) + 1))[:size]
    return Expected(f"roll 1 d6 {seq % 6 + 1}", f"seat {seq % 4}", ("seatnode:1", 7, seq), jpeg)


def killed_at(store: Store, statement: int) -> None:
    """SIGKILL this process as SQLite begins the ``statement``-th statement from now."""
    count = 0

    def traced(sql: str) -> None:
        nonlocal count
        count += 1
        if count == statement:
            os.kill(os.getpid(), signal.SIGKILL)

    store._conn.set_trace_callback(traced)  # the store's own connection: its every statement


def next_game(store: Store, ended: GameSummary | None, kill_at: int) -> int:
    """Start the next game, ending ``ended`` (the one in play, if any) in the same transaction."""
    ending = None if ended is None else (ended.game_no, {"records": ended.inputs})
    if ending is not None and kill_at:
        killed_at(store, kill_at)
    game_no = store.start_game("tao", 2, {}, ["Ann", "Bob"], ending=ending)
    if ending is not None and kill_at:
        os.kill(os.getpid(), signal.SIGKILL)  # the change had fewer statements: killed after it
    return game_no


def main() -> None:
    """Append forever (until killed)."""
    store = Store(sys.argv[1])
    kill_at = int(os.environ.get(KILL_AT, "0"))
    while True:
        current = store.current_game()
        if current is None or current.inputs >= GAME_LENGTH:
            current = store.game(next_game(store, current, kill_at))
        seq = store.last_seq() + 1  # the one writer: the next seq is known before the append
        want = expected(seq)
        got = store.append(current.game_no, "input", want.line, who=want.who, origin="panel",
                           device_event=want.event, evidence=want.evidence)
        print(got, flush=True)


if __name__ == "__main__":
    main()
