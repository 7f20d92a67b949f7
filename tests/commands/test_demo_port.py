"""``dicetable demo --port``: 0 serves the scoreboard on a free port and prints which; a port in use
is refused in one line before the demo's record is made."""

from __future__ import annotations

import re
import socket
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main


def _demo(tmp_path: Path, port: str) -> list[str]:
    return ["demo", "--speed", "max", "--hands", "1", "--db", str(tmp_path / "t.db"), "--port", port]


def test_demo_on_port_0_serves_on_a_free_port_and_prints_which(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # --port 0 was refused ("--port must be 1-65535"): a test or a second demo had to guess a free port
    served: list[int] = []

    def look(*args: Any) -> None:  # in place of the game: the scoreboard, while it is served
        printed = re.search(r"scoreboard: http://127\.0\.0\.1:(\d+)/ ", capsys.readouterr().out)
        assert printed is not None
        with urllib.request.urlopen(f"http://127.0.0.1:{printed[1]}/", timeout=30) as page:
            served.append(page.status)
        served.append(int(printed[1]))

    monkeypatch.setattr("controller.table.demo.play_out", look)
    assert main(_demo(tmp_path, "0")) == 0
    assert served[0] == 200 and served[1] != 0


def test_demo_refuses_a_port_in_use_in_one_line_before_it_makes_its_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the server's thread died with a traceback, and the demo ended with another (a RuntimeError,
    # 10 s later, exit 1), leaving a record of a game begun
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(_demo(tmp_path, str(port))) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"dicetable: cannot serve the scoreboard on 127.0.0.1:{port}: the port is in use; stop what "
        "listens there or give another port (0: any free port)"]
    assert not (tmp_path / "t.db").exists()

