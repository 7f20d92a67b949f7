"""The production server: gevent's WSGI server, one greenlet per connection.

An event stream is a connection held open for hours; a thread per stream (Flask's development
server, or a threaded WSGI server) runs out long before a bar's worth of phones do, while a
greenlet costs a few kilobytes. Every stream reads one shared fan-out (``web.feed.Fanout``) that a
single thread fills from the table; other calls that may block (a stream catching up from the
record) run in gevent's thread pool, so none stalls the event loop.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, TypeVar

from flask import Flask
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
    ctx.fanout = Fanout(ctx.public_subscribe, ctx.public_state().seq)
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
