"""Fixtures of the web tests: the real table with bots at its seats, the app, a client and a
logged-in dealer.

``new_table`` is the one place that says which table the web is tested against; the browser
tests and the bench call it too. It returns a ``TableHandle`` (``controller.table.Table`` over a
SQLite record) that can also ``step()`` (play one simulated input) and ``ask()`` (the camera
doubts a roll: a question to the dealer); see ``tests/web/driven.py``.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any, Iterator, Sequence

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app

# the tests import their helpers from here under one name (conftest files are not packages)
sys.modules.setdefault("web_conftest", sys.modules[__name__])

PIN = "2468"
NAMES = ("Ann", "Bo", "Cy")


def _load(name: str, file: str) -> Any:
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(file))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def new_table(game: str = "tauren", players: int = 3, seed: int = 7,
              names: Sequence[str] | None = None, options: dict[str, str] | None = None,
              sealed: bool = True, colours: Sequence[str] = (),
              loaded: tuple[int, str, str] | None = None) -> Any:
    """A real table with bots for the web to show (``sealed``: hidden rolls entered sealed and
    revealed at the showdown, as the camera table does; False: entered with their faces;
    ``colours`` the seats' colours; ``loaded`` (seat, kind, face): that seat's dice of that kind favour the face)."""
    driven = _load("web_driven", "driven.py")
    return driven.DrivenTable(game, players, seed, list(names or NAMES[:players]), options, sealed,
                              colours, loaded)


def fresh_table(folder: Path) -> Any:
    """The table ``run`` starts on a fresh record in ``folder``: no game yet, simulated devices
    (see ``FreshTable`` in ``tests/web/driven.py``)."""
    return _load("web_driven", "driven.py").FreshTable(folder)


def app_for(table: Any, **config: Any) -> Flask:
    """The web app of ``table`` with the test PIN and short keep-alives."""
    return create_app(table, {"dealer_pin": PIN, "TESTING": True, "keepalive": 0.2, **config})


@pytest.fixture
def table() -> Any:
    """The table under the web (see :func:`new_table`)."""
    return new_table()


@pytest.fixture
def app(table: Any) -> Flask:
    """The app of ``table``."""
    return app_for(table)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser without a dealer session."""
    return app.test_client()


def csrf_of(client: FlaskClient, path: str = "/dealer/login") -> str:
    """The CSRF token of the form on ``path``."""
    page = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found, f"no CSRF token on {path}"
    return found.group(1)


def console_form(client: FlaskClient) -> dict[str, str]:
    """The CSRF token, the record's sequence number (``at``) and the game's number (``game_no``)
    of the console's forms now."""
    page = client.get("/dealer/").get_data(as_text=True)
    found = re.search(r'name="at" value="(\d+)"', page)
    game = re.search(r'name="game_no" value="(\d+)"', page)
    assert found and game, "no form on the console carries the record's sequence number, or the game's"
    return {"csrf": csrf_of(client, "/dealer/"), "at": found.group(1), "game_no": game.group(1)}


def log_in(client: FlaskClient, pin: str = PIN) -> Any:
    """Submit the login form with ``pin``; returns the response."""
    return client.post("/dealer/login", data={"pin": pin, "csrf": csrf_of(client)})


@pytest.fixture
def dealer(client: FlaskClient) -> Iterator[FlaskClient]:
    """A browser with a dealer session."""
    assert log_in(client).status_code == 302
    yield client


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Any]:
    """The table ``run`` starts on a fresh record (:func:`fresh_table`), closed after the test."""
    table = fresh_table(tmp_path)
    yield table
    table.close()


@pytest.fixture
def fresh_dealer(fresh: Any) -> FlaskClient:
    """A browser with a dealer session on the console of :func:`fresh`'s table."""
    client = app_for(fresh).test_client()
    assert log_in(client).status_code == 302
    return client


def hidden_rolls(table: Any) -> list[Any]:
    """The hidden rolls with known faces in the game in play, as the table recorded them (what
    the room must not see before the showdown)."""
    return [played for played in table.records if played.hidden and not played.reveal
            and "?" not in played.input.faces]


def read_events(client: FlaskClient, count: int, headers: dict[str, str] | None = None,
                query: str = "") -> list[dict[str, Any]]:
    """The first ``count`` events (and keep-alive comments) of ``/api/stream``, parsed:
    ``{"id", "event", "data"}`` or ``{"comment"}``; ``{"retry"}`` for the retry line."""
    response = client.get(f"/api/stream{query}", headers=headers or {}, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    found: list[dict[str, Any]] = []
    text = ""
    try:
        for chunk in response.response:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in text and len(found) < count:
                block, text = text.split("\n\n", 1)
                found.append(parse_block(block))
            if len(found) >= count:
                break
    finally:
        response.close()
    return found


def parse_block(block: str) -> dict[str, Any]:
    """One Server-Sent Events block as a dict (``data`` parsed as JSON)."""
    import json
    event: dict[str, Any] = {}
    for line in block.split("\n"):
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "":
            event["comment"] = value
        elif field == "data":
            event["data"] = json.loads(value)
        else:
            event[field] = value
    return event


class StreamReader:
    """An open ``/api/stream``, read as the game goes on (the events a live spectator gets)."""

    def __init__(self, client: FlaskClient, query: str = "") -> None:
        self._response = client.get(f"/api/stream{query}", buffered=False)
        self._chunks: Iterator[bytes | str] = iter(self._response.response)
        self._text = ""

    def until(self, seq: int) -> list[dict[str, Any]]:
        """Every event up to the one with id ``seq`` (keep-alives left out)."""
        found: list[dict[str, Any]] = []
        while not found or found[-1].get("id") != str(seq):
            event = self.next_event()
            if "data" in event:
                found.append(event)
        return found

    def next_event(self) -> dict[str, Any]:
        """The stream's next block (an event or a keep-alive comment), parsed."""
        while "\n\n" not in self._text:
            chunk = next(self._chunks)
            self._text += chunk.decode() if isinstance(chunk, bytes) else chunk
        block, self._text = self._text.split("\n\n", 1)
        return parse_block(block)

    def close(self) -> None:
        """Close the stream."""
        self._response.close()
