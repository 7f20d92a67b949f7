"""The child a crash test kills inside the table's writes at a game's end: it plays a short Tao
Dice game on the record at argv[1] and is killed (SIGKILL, by itself) at the moment argv[2] names:

- ``finish``: as the table goes to record the result, once the input that ended the game is
  durable and before the result is (two transactions);
- ``reopen``: then, the game's result recorded, as the dealer's Undo of its last input puts the
  game back in play, after the undo's line is written and before the game is reopened (one
  transaction: the kill must take both back);
- ``new_game``: a few inputs into the game, as the dealer starts another, once the game in play
  is marked finished and before the new one is recorded (one transaction: the kill must take
  both back).
"""

import os
import signal
import sys

from controller.store import Store
from controller.table.records import Undo
from controller.table.table import Table
from tests.table.conftest import play

OPTIONS = {"length": "single", "black": "1", "white": "0"}
REOPENING = "UPDATE games SET finished = NULL"
STARTING = "INSERT INTO games"


def main() -> None:
    """Play until killed."""
    store = Store(sys.argv[1])
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], OPTIONS)
    if sys.argv[2] == "new_game":
        play(table, 4)
        store._conn.set_trace_callback(lambda sql: _killed() if sql.startswith(STARTING) else None)
        table.new_game("tao", ["Ana", "Ben"], OPTIONS)
    if sys.argv[2] == "finish":
        store.finish_game = lambda *args: _killed()  # type: ignore[method-assign]
    for seed in range(100):
        play(table, 100, seed=seed)
    store._conn.set_trace_callback(lambda sql: _killed() if sql.startswith(REOPENING) else None)
    table.correct(Undo("Dana (dealer)", "misread die"))


def _killed() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    main()
