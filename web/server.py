"""The production server: gevent's WSGI server, one greenlet per connection.

An event stream is a connection held open for hours; a thread per stream (Flask's development
server, or a threaded WSGI server) runs out long before a bar's worth of phones do, while a
greenlet costs a few kilobytes. The table's subscriptions block on ordinary locks, so their waits
run in gevent's thread pool and never stall the event loop; the pool grows with the streams.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, TypeVar

from flask import Flask
from gevent.hub import get_hub
from gevent.pywsgi import WSGIServer

from web.context import web_table

T = TypeVar("T")
STREAMS = 1000  # most streams waiting at once (threads in the pool, each mostly asleep)


def server(app: Flask, host: str, port: int) -> WSGIServer:
    """A gevent WSGI server for ``app`` on ``host:port`` (not started)."""
    pool = get_hub().threadpool
    pool.maxsize = STREAMS

    def in_pool(call: Callable[..., T], *args: Any) -> T:
        result: T = pool.apply(call, args)
        return result

    web_table(app).blocking = in_pool
    return WSGIServer((host, port), app, log=None, error_log=sys.stderr)


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
