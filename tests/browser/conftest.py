"""Browser tests: the scoreboard and console in Debian's headless Chromium, driven by Playwright.

The web app is served by the production server (gevent) in a thread, on a port that survives a
restart of the server; the table comes from ``new_table`` in ``tests/web/conftest.py`` (the one
place that chooses it). Screenshots land in ``out/screenshots/``.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import gevent
import pytest

from web.context import web_table

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
# the tests import their helpers from here under one name (conftest files are not packages)
sys.modules.setdefault("browser_conftest", sys.modules[__name__])


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """The app under gevent's WSGI server in a thread; :meth:`restart` keeps the port."""

    def __init__(self, app: Any, port: int) -> None:
        self.app, self.port = app, port
        self.url = f"http://127.0.0.1:{port}"
        self._thread: threading.Thread | None = None
        self._http: Any = None
        self._up = threading.Event()

    def start(self) -> None:
        """Serve in a new thread (returns once it listens)."""
        self._up.clear()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._up.wait(10), "the server did not start"

    def _run(self) -> None:
        from web.server import server
        self._http = server(self.app, "127.0.0.1", self.port)
        self._http.init_socket()
        self._up.set()
        self._http.serve_forever()

    def stop(self) -> None:
        """Stop serving and drop every connection (as a killed server would)."""
        http, thread = self._http, self._thread
        if http is None or thread is None:
            return
        hub_loop = http.loop
        done = threading.Event()

        def close() -> None:
            http.stop(timeout=0.1)
            done.set()
        # a loop callback may not block: stop() runs in a greenlet of the server's own loop
        hub_loop.run_callback_threadsafe(lambda: gevent.spawn(close))
        done.wait(5)
        thread.join(5)
        self._http = None
        fanout = web_table(self.app).fanout
        if fanout is not None:
            fanout.close()

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
        live = LiveServer(web_conftest.app_for(table, **config), free_port())
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
