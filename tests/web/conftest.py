"""Fixtures of the web tests: the table (a STAND-IN until ``controller.table`` lands), the app,
a client and a logged-in dealer.

``new_table`` is the one place that says which table the web is tested against; the browser
tests and the bench call it too. Whatever it returns is a ``TableHandle`` that can also ``step()``
(play one simulated input) and ``ask()`` (put a question to the dealer), as the simulated table
of ``dicetable demo`` does.
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
              names: Sequence[str] | None = None) -> Any:
    """A table for the web to show (STAND-IN: ``tests/web/standin.py`` over BotTable)."""
    standin = _load("web_standin", "standin.py")
    return standin.StandInTable(game, players, seed, list(names or NAMES[:players]))


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


def log_in(client: FlaskClient, pin: str = PIN) -> Any:
    """Submit the login form with ``pin``; returns the response."""
    return client.post("/dealer/login", data={"pin": pin, "csrf": csrf_of(client)})


@pytest.fixture
def dealer(client: FlaskClient) -> Iterator[FlaskClient]:
    """A browser with a dealer session."""
    assert log_in(client).status_code == 302
    yield client
