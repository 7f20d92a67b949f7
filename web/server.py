"""The production server: gevent's WSGI server, one greenlet per connection.

An event stream is a connection held open for hours; a thread per stream (Flask's development
server, or a threaded WSGI server) runs out long before a bar's worth of phones do, while a
greenlet costs a few kilobytes. Every stream reads one shared fan-out (``web.feed.Fanout``) that a
single thread fills from the table; other calls that may block (a stream catching up from the
record) run in gevent's thread pool, so none stalls the event loop.
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable, TypeVar

from flask import Flask
import gevent
from gevent.hub import get_hub
from gevent.pool import Pool
from gevent.pywsgi import WSGIServer

from web.context import web_table
from web.feed import Fanout

T = TypeVar("T")
STREAMS = 1000  # most streams waiting at once (threads in the pool, each mostly asleep)
CONNECTIONS = 5000  # open connections at most; a pool, so that stop() closes them all


def server(app: Flask, host: str, port: int) -> WSGIServer:
    """A gevent WSGI server for ``app`` on ``host:port`` (not started)."""
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
    return WSGIServer((host, port), app, log=None, error_log=sys.stderr, spawn=Pool(CONNECTIONS))


def serve(app: Flask, host: str, port: int) -> None:
    """Serve ``app`` until interrupted, after printing where."""
    http = server(app, host, port)
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
    """``app`` served by gevent in a thread of its own (the table's loop keeps the main thread);
    :meth:`stop` closes every connection, as a stopped server does, and :meth:`start` serves
    again on the same port."""

    def __init__(self, app: Flask, host: str, port: int) -> None:
        self.app, self.host, self.port = app, host, port
        self._http: WSGIServer | None = None
        self._thread: threading.Thread | None = None
        self._up = threading.Event()

    def start(self) -> Background:
        """Serve in a new thread; returns once the socket listens."""
        self._up.clear()
        self._thread = threading.Thread(target=self._run, name="web", daemon=True)
        self._thread.start()
        if not self._up.wait(10):
            raise RuntimeError(f"the web server did not start on {self.host}:{self.port}")
        return self

    def _run(self) -> None:
        self._http = server(self.app, self.host, self.port)
        self._http.init_socket()
        self._up.set()
        self._http.serve_forever()

    def stop(self) -> None:
        """Stop serving and drop every connection."""
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
    """Start serving ``app`` in a thread; ``stop()`` the returned server to end it."""
    return Background(app, host, port).start()
