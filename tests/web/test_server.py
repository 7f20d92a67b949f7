"""The production server: port 0 serves on a free port, and says which; a port taken is told at once."""

from __future__ import annotations

import socket
import urllib.request
import pytest
from flask import Flask

from web import serve_in_background, server


def _board(url: str) -> int:
    """The status of the scoreboard's page at ``url``."""
    with urllib.request.urlopen(f"{url}/", timeout=30) as page:
        status: int = page.status
        return status


def test_port_0_serves_on_a_free_port_the_server_names(app: Flask) -> None:
    # the tests picked a free port, let it go and served on it later: another process could take it
    # in between; the server now binds it itself
    live = serve_in_background(app, "127.0.0.1", 0)
    try:
        assert live.port != 0 and live.url == f"http://127.0.0.1:{live.port}"
        assert _board(live.url) == 200
    finally:
        live.stop()


def test_a_restarted_server_serves_again_on_the_port_it_was_given(app: Flask) -> None:
    live = serve_in_background(app, "127.0.0.1", 0)
    port = live.port
    live.stop()
    live.start()
    try:
        assert live.port == port and _board(live.url) == 200
    finally:
        live.stop()


def test_a_port_in_use_is_refused_at_once_naming_the_address(app: Flask) -> None:
    # the server's thread died of "Address already in use" and the caller waited 10 s for a
    # RuntimeError that named no reason
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(server.CannotServe) as refused:
            serve_in_background(app, "127.0.0.1", port)
    assert str(refused.value).startswith(f"cannot serve the scoreboard on 127.0.0.1:{port}: the port is in use")
    assert isinstance(refused.value, OSError)


@pytest.mark.parametrize("host, port, said", [
    ("127.0.0.1", 70000, "a port is 0-65535"), ("127.0.0.1", -1, "a port is 0-65535"),
    ("192.0.2.1", 0, "cannot assign requested address"),  # TEST-NET: an address of no machine here
])
def test_an_address_that_cannot_be_listened_on_is_refused_in_a_sentence(host: str, port: int, said: str) -> None:
    with pytest.raises(server.CannotServe) as refused:
        server.listen(host, port)
    assert str(refused.value).startswith(f"cannot serve the scoreboard on {host}:{port}: {said}")


def test_a_server_never_started_lets_its_port_go_when_stopped(app: Flask) -> None:
    # a command binds the port before it builds the table, and stops the server if that fails
    listener = server.listen("127.0.0.1", 0)
    port = listener.getsockname()[1]
    server.Background(app, listener).stop()
    assert listener.fileno() == -1
    server.listen("127.0.0.1", port).close()
