"""Browser tests: the scoreboard and console in Debian's headless Chromium, driven by Playwright.

The web app is served by the production server (gevent) in a thread, on a free port it binds
itself (port 0) and keeps across a restart of the server; the table comes from ``new_table`` in
``tests/web/conftest.py`` (the one place that chooses it). Screenshots land in ``out/screenshots/``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from web.server import Background, listen

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"
# as root, in a closed network: no sandbox, and none of Chromium's own calls home
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


def _web_conftest() -> Any:
    name = "web_conftest"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "web" / "conftest.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


web_conftest = _web_conftest()
fresh = web_conftest.fresh  # the fixture: the table `run` starts, on a fresh record
# the tests import their helpers from here under one name (conftest files are not packages)
sys.modules.setdefault("browser_conftest", sys.modules[__name__])


class LiveServer(Background):
    """The app under the production server in a thread, at ``url``; restarts keep the port.

    Port 0, the default, is any free port, bound here: a port picked, let go and bound later
    could be taken in between by another process (the suite runs on every core)."""

    def __init__(self, app: Any, port: int = 0) -> None:
        super().__init__(app, listen("127.0.0.1", port))

    def restart(self) -> None:
        """Stop, then serve again on the same port."""
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium (skipped where it is not installed: ``scripts/test`` installs it)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (scripts/test installs Debian's chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def served() -> Iterator[Any]:
    """A factory ``served(table, **config)`` of started servers, all stopped at the end."""
    servers: list[LiveServer] = []

    def serve(table: Any, **config: Any) -> LiveServer:
        live = LiveServer(web_conftest.app_for(table, **config))
        live.start()
        servers.append(live)
        return live
    yield serve
    for live in servers:
        live.stop()


def shot(page: Any, name: str) -> Path:
    """Save a screenshot of ``page`` as ``out/screenshots/NAME.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path
