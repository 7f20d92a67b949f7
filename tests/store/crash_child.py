"""The child a crash test kills: appends records to the store at argv[1] as fast as it can and
prints each returned seq (so each printed seq was acknowledged as durable).

Every record's contents follow from its seq (see ``expected``), so the parent can tell a
half-written record from a whole one. A game is finished and a new one started every 40 records.
"""

import hashlib
import sys
from dataclasses import dataclass

from controller.store import Store

GAME_LENGTH = 40


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


def main() -> None:
    """Append forever (until killed)."""
    store = Store(sys.argv[1])
    while True:
        current = store.current_game()
        if current is None or current.inputs >= GAME_LENGTH:
            if current is not None:
                store.finish_game(current.game_no, {"records": current.inputs})
            current = store.game(store.start_game("tao", 2, {}, ["Ann", "Bob"]))
        seq = store.last_seq() + 1  # the one writer: the next seq is known before the append
        want = expected(seq)
        got = store.append(current.game_no, "input", want.line, who=want.who, origin="panel",
                           device_event=want.event, evidence=want.evidence)
        print(got, flush=True)


if __name__ == "__main__":
    main()
