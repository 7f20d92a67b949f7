"""The production server: gevent's WSGI server, one greenlet per connection.

An event stream is a connection held open for hours; a thread per stream (Flask's development
server, or a threaded WSGI server) runs out long before a bar's worth of phones do, while a
greenlet costs a few kilobytes. Every stream reads one shared fan-out (``web.feed.Fanout``) that a
single thread fills from the table; other calls that may block (a stream catching up from the
record) run in gevent's thread pool, so none stalls the event loop.
"""

from __future__ import annotations

import errno
import socket
import sys
import threading
from typing import Any, Callable, TypeVar

from flask import Flask
import gevent
from gevent.hub import get_hub
from gevent.pool import Pool
from gevent.pywsgi import WSGIServer

from controller.files import reason
from controller.games.errors import DiceTableError
from web.context import web_table
from web.feed import Fanout

T = TypeVar("T")
STREAMS = 1000  # most streams waiting at once (threads in the pool, each mostly asleep)
CONNECTIONS = 5000  # open connections at most; a pool, so that stop() closes them all


class CannotServe(DiceTableError, OSError):
    """The scoreboard cannot listen where it was asked: the port is taken or privileged, or the
    host is not an address of this machine."""


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, port 0 picking any free one (``getsockname()`` tells
    which). Bound here, in the caller's thread, before anything is served: a port chosen, released
    and bound later could be taken in between, and a port taken is told at once, not by a server
    thread that dies.

    :raises CannotServe: the address cannot be listened on.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listener = socket.create_server((host, port), family=family)
    except (OSError, OverflowError) as err:  # OverflowError: a port beyond 0-65535
        raise CannotServe(f"cannot serve the scoreboard on {host}:{port}: {_why(err)}") from None
    listener.setblocking(False)  # gevent's accept loop waits on it itself
    return listener


def _why(err: OSError | OverflowError) -> str:
    """What stops a listener, in a person's words, with the way out."""
    if isinstance(err, OverflowError):
        return "a port is 0-65535 (0: any free port)"
    if err.errno == errno.EADDRINUSE:
        return "the port is in use; stop what listens there or give another port (0: any free port)"
    if err.errno == errno.EACCES:
        return "permission denied (a port under 1024 needs root); give a port from 1024"
    return reason(err)


def server(app: Flask, listener: socket.socket) -> WSGIServer:
    """A gevent WSGI server for ``app`` on the socket ``listener`` listens on (not started)."""
    pool = get_hub().threadpool
    pool.maxsize = STREAMS

    def in_pool(call: Callable[..., T], *args: Any) -> T:
        result: T = pool.apply(call, args)
        return result

    ctx = web_table(app)
    ctx.blocking = in_pool
    if ctx.fanout is not None:
        ctx.fanout.close()  # a server started again gets a fan-out of its own event loop
    ctx.fanout = Fanout(ctx.public_subscribe, ctx.public_state().place, ctx.event)
    return WSGIServer(listener, app, log=None, error_log=sys.stderr, spawn=Pool(CONNECTIONS))


def serve(app: Flask, host: str, port: int) -> None:
    """Serve ``app`` until interrupted, after printing where (port 0: the port picked).

    :raises CannotServe: the address cannot be listened on.
    """
    http = server(app, listen(host, port))
    http.init_socket()
    print(f"scoreboard: http://{host}:{http.server_port}/  (dealer console: /dealer)", flush=True)
    try:
        http.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        http.stop(timeout=1)
        fanout = web_table(app).fanout
        if fanout is not None:
            fanout.close()


class Background:
    """``app`` served by gevent in a thread of its own (the table's loop keeps the main thread) on
    the socket ``listener`` listens on, at :attr:`url`; :meth:`stop` closes every connection, as a
    stopped server does, and :meth:`start` serves again on the same port."""

    def __init__(self, app: Flask, listener: socket.socket) -> None:
        self.app = app
        self.host: str = listener.getsockname()[0]
        self.port: int = listener.getsockname()[1]  # the port picked when 0 was asked for
        self._listener: socket.socket | None = listener
        self._http: WSGIServer | None = None
        self._thread: threading.Thread | None = None
        self._up = threading.Event()

    @property
    def url(self) -> str:
        """Where the scoreboard is served, ``http://HOST:PORT`` (no slash at the end)."""
        host = f"[{self.host}]" if ":" in self.host else self.host  # an IPv6 address
        return f"http://{host}:{self.port}"

    def start(self) -> Background:
        """Serve in a new thread; returns once it serves (connections wait in the socket's backlog
        until then). After :meth:`stop` the port is bound again.

        :raises CannotServe: the port was taken while stopped.
        """
        listener = self._listener or listen(self.host, self.port)
        self._listener = None
        self._up.clear()
        self._thread = threading.Thread(target=self._run, args=(listener,), name="web", daemon=True)
        self._thread.start()
        if not self._up.wait(10):
            raise RuntimeError(f"the web server did not start on {self.host}:{self.port}")
        return self

    def _run(self, listener: socket.socket) -> None:
        self._http = server(self.app, listener)
        self._http.init_socket()
        self._up.set()
        self._http.serve_forever()

    def stop(self) -> None:
        """Stop serving and drop every connection (or release the port of a server not started)."""
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        http, thread = self._http, self._thread
        if http is None or thread is None:
            return
        done = threading.Event()

        def close() -> None:
            http.stop(timeout=0.1)
            done.set()
        # a loop callback may not block: stop() runs in a greenlet of the server's own loop
        http.loop.run_callback_threadsafe(lambda: gevent.spawn(close))
        done.wait(5)
        thread.join(5)
        self._http = None
        fanout = web_table(self.app).fanout
        if fanout is not None:
            fanout.close()


def serve_in_background(app: Flask, host: str, port: int) -> Background:
    """Start serving ``app`` in a thread on ``host:port`` (0: any free port; the returned server's
    ``port`` and ``url`` say which); ``stop()`` it to end it.

    :raises CannotServe: the address cannot be listened on.
    """
    return Background(app, listen(host, port)).start()
