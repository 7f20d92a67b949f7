"""The child a crash test kills between the table's two writes at a game's end: it plays a short
Tao Dice game on the record at argv[1] and is killed (SIGKILL, by itself) when the table goes to
record the result, once the input that ended the game is durable and before the result is."""

import os
import signal
import sys

from controller.store import Store
from controller.table.table import Table
from tests.table.conftest import play

OPTIONS = {"length": "single", "black": "1", "white": "0"}


def main() -> None:
    """Play until killed."""
    store = Store(sys.argv[1])
    table = Table(store)
    table.new_game("tao", ["Ana", "Ben"], OPTIONS)
    store.finish_game = lambda *args: os.kill(os.getpid(), signal.SIGKILL)  # type: ignore[method-assign]
    for seed in range(100):
        play(table, 100, seed=seed)
    raise SystemExit("the game did not end")


if __name__ == "__main__":
    main()
