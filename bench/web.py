"""Benchmark of the scoreboard's event stream: many spectators on loopback during a fast game.

Usage: ``python bench/web.py [--clients 200] [--inputs 300] [--pace 0.05] [--game tauren]``

The web app runs under the production server (``web.server``, gevent) in this process, over the
table that ``tests/web/conftest.py:new_table`` gives (the real ``controller.table.Table`` over a
SQLite record, bots at the seats, hidden dice sealed). A second process opens ``--clients``
event streams (plain sockets, one ``selectors`` loop) and notes when each event arrives. Bots
then play ``--inputs`` inputs, one every ``--pace`` seconds (default 0.05: twenty a second, far
faster than people play). Printed: the delay from an accepted input (``step()`` returned: it is
durable) to its arrival at a client, over every client and input (median, 95th percentile,
max), events lost, and the server process's memory (resident set) and threads.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import multiprocessing
import resource
import selectors
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _tables() -> Any:
    spec = importlib.util.spec_from_file_location("web_conftest", ROOT / "tests/web/conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["web_conftest"] = module
    spec.loader.exec_module(module)
    return module


def rss_mb(pid: str = "self") -> float:
    """Resident memory of a process in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def spectators(port: int, clients: int, last: multiprocessing.Value, ready: Any,  # type: ignore[valid-type]
               results: Any) -> None:
    """Open ``clients`` streams; record (seq, arrival) per client until ``last`` is seen."""
    selector = selectors.DefaultSelector()
    arrivals: list[dict[int, float]] = [{} for _ in range(clients)]
    buffers = [b""] * clients
    for index in range(clients):
        conn = socket.create_connection(("127.0.0.1", port))
        conn.sendall(b"GET /api/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
        conn.setblocking(False)
        selector.register(conn, selectors.EVENT_READ, index)
    connected: set[int] = set()
    deadline = time.time() + 600
    while time.time() < deadline:
        for key, _ in selector.select(timeout=0.5):
            index = key.data
            chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
            now = time.time()
            buffers[index] += chunk
            while b"\n\n" in buffers[index]:
                block, buffers[index] = buffers[index].split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"id: "):
                        arrivals[index].setdefault(int(line[4:]), now)
                        connected.add(index)
        if len(connected) == clients:
            ready.set()
        target = last.value
        if target and all(target in seen for seen in arrivals):
            break
    results.put(arrivals)


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--inputs", type=int, default=300)
    parser.add_argument("--pace", type=float, default=0.05)
    parser.add_argument("--game", default="tauren")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    tables = _tables()
    from web.server import serve_in_background

    # the spectators' process starts before this one has threads (fork is then safe)
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    last = multiprocessing.Value("q", 0)
    ready, results = multiprocessing.Event(), multiprocessing.Queue()
    table = tables.new_table(args.game, 4, args.seed, ["Ann", "Bo", "Cy", "Dee"])
    app = tables.create_app(table, {"keepalive": 15.0})
    memory_idle = rss_mb()
    web = serve_in_background(app, "127.0.0.1", port)
    crowd = multiprocessing.Process(target=spectators,
                                    args=(port, args.clients, last, ready, results))
    crowd.start()
    if not ready.wait(120):
        raise SystemExit("bench: the spectators did not all connect")
    memory_connected, threads = rss_mb(), threading.active_count()
    accepted: dict[int, float] = {}
    for _ in range(args.inputs):
        update = table.step()
        accepted[update.seq] = time.time()
        time.sleep(args.pace)
    memory_peak = rss_mb()
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    last.value = max(accepted)
    arrivals = results.get(timeout=600)
    crowd.join(10)
    web.stop()
    crowd_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    delays = [(seen[seq] - at) * 1000 for seen in arrivals for seq, at in accepted.items()
              if seq in seen]
    lost = sum(1 for seen in arrivals for seq in accepted if seq not in seen)
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))]
    print(f"web stream: {args.clients} clients, {args.inputs} inputs every {args.pace * 1000:.0f} ms "
          f"({args.game}), {len(delays)} arrivals, {lost} lost")
    print(f"delay accepted input -> client: median {statistics.median(delays):.1f} ms, "
          f"p95 {p95:.1f} ms, max {delays[-1]:.1f} ms")
    print(f"server process memory: {memory_idle:.0f} MB before serving, {memory_connected:.0f} MB "
          f"with {args.clients} streams open ({threads} threads), {memory_peak:.0f} MB after the game")
    print(f"CPU: server and table {cpu.ru_utime + cpu.ru_stime:.1f} s, spectators' process "
          f"{crowd_cpu.ru_utime + crowd_cpu.ru_stime:.1f} s; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
