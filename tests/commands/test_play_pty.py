"""``dicetable play`` on a real terminal (a pty): what a person sees from first prompt to the end.

Each test starts the installed command on a pseudo-terminal, answers every prompt with the first
choice, and reads the screen: the hands named at each showdown and the winner announced.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

DICETABLE = Path(sys.executable).with_name("dicetable")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def play_on_a_terminal(*args: str, answer: str = "1", seconds: float = 60.0) -> str:
    """Run ``dicetable play ARGS`` on a pty, typing ``answer`` at every prompt; the screen."""
    main, side = pty.openpty()
    process = subprocess.Popen([str(DICETABLE), "play", *args], stdin=side, stdout=side,
                               stderr=side, close_fds=True)
    os.close(side)
    screen = b""
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 1.0)
            if not ready:
                if process.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the command ended and closed the terminal
                break
            screen += chunk
            if screen.endswith(b"> "):
                os.write(main, answer.encode() + b"\n")
        assert process.wait(timeout=10) == 0, screen.decode(errors="replace")[-2000:]
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)
    return ANSI.sub("", screen.decode("utf-8", errors="replace")).replace("\r\n", "\n")


def test_tao_dice_on_a_terminal_names_each_round_s_winning_score_and_the_match_winner() -> None:
    screen = play_on_a_terminal("--game", "tao", "--players", "2", "--seed", "5",
                                "--option", "length=single")
    assert re.search(r" \d+  takes the pot of \d+ \((best score|everyone else folded)\)$", screen,
                     re.M)  # in the round's table, after the winner's score
    assert re.search(r"^== (You win|Seat 1 wins) \d+ stones?( with score \d+|: everyone else folded)$",
                     screen, re.M)  # the engine's sentence
    assert re.search(r"== (You win|Seat 1 wins) match 1! Matches won: you \d, seat 1 \d", screen)
    assert re.search(r"== (You win the game!|Seat 1 wins the game\.)", screen)
    assert "Traceback" not in screen


@pytest.mark.parametrize("game", ["tauren", "diceholdem"])
def test_holdem_on_a_terminal_names_the_hands_at_showdown_and_the_game_winner(game: str) -> None:
    screen = play_on_a_terminal("--game", game, "--players", "2", "--seed", "3",
                                "--option", "rebuy=off")
    shown = re.findall(r"^   (?:you|seat 1) +\S \S +([a-z ]+): [A-Z0-9 ]+", screen, re.M)
    assert shown, screen[-2000:]
    assert set(shown) <= {"holdem", "five of a kind", "four of a kind", "full house", "straight",
                          "three of a kind", "two pair", "one pair", "high die"}
    assert re.search(r"(, wins|, win) \d+$", screen, re.M)
    assert re.search(r"== (You win the game!|Seat 1 wins the game\.)", screen)
    assert "Traceback" not in screen
