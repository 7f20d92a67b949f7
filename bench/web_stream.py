"""Benchmark of the scoreboard's event stream: many spectators on loopback during a fast game.

Usage: ``python bench/web_stream.py [--clients 200] [--records 300] [--game tauren] [--players 4]``

The table is the real one of ``dicetable demo`` (:func:`controller.table.build.build_demo`:
simulated devices, the real dice reader behind the simulated camera, bots at the seats, the
simulated dealer answering the camera's questions), stepped as fast as the machine goes
(``--speed max``). The web app runs under the production server
(:func:`web.serve_in_background`, gevent) in the same process. A second process opens
``--clients`` event streams (plain sockets, one ``selectors`` loop) and notes when each event
arrives. The bench stops after ``--records`` records (inputs, answers, corrections, notes).

Printed: the delay from an accepted record (the table's ack time: the store's append returned,
the record is durable) to its arrival at a client, over every client and record (median, 95th
percentile, max), events lost, and the server process's memory (resident set) and threads.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from multiprocessing.queues import Queue
    from multiprocessing.sharedctypes import Synchronized
    from multiprocessing.synchronize import Event

    from controller.table.demo import Demo



def rss_mb(pid: str = "self") -> float:
    """Resident memory of a process in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def spectators(port: int, clients: int, last: Synchronized[int], ready: Event,
               results: Queue[list[dict[int, float]]]) -> None:
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
    deadline = time.time() + 900
    while time.time() < deadline:
        for key, _ in selector.select(timeout=0.5):
            index = key.data
            stream = key.fileobj
            assert isinstance(stream, socket.socket)  # registered above
            chunk = stream.recv(65536)
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


def timed(append: Callable[..., int], accepted: dict[int, float]) -> Callable[..., int]:
    """The store's ``append``, noting when each record became durable (the table's ack time)."""
    def append_timed(*args: Any, **kwargs: Any) -> int:
        seq = append(*args, **kwargs)
        accepted[seq] = time.time()
        return seq
    return append_timed


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--records", type=int, default=300)
    parser.add_argument("--game", default="tauren")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--bots", default="heuristic")
    args = parser.parse_args()
    from controller.table.build import build_demo
    from web import create_app, serve_in_background

    spawn = multiprocessing.get_context("spawn")  # a clean child: this process has threads
    last: Synchronized[int] = spawn.Value("q", 0)
    ready = spawn.Event()
    results: Queue[list[dict[int, float]]] = spawn.Queue()
    db = Path(tempfile.mkdtemp(prefix="dicetable-bench-web-")) / "table.db"
    demo: Demo = build_demo(args.game, args.players, args.seed, db, None, args.bots.split(","))[0]
    table = demo.table
    app = create_app(table, {"keepalive": 15.0})
    memory_idle = rss_mb()
    web = serve_in_background(app, "127.0.0.1", 0)  # any free port, bound by the server itself
    port = web.port
    crowd = spawn.Process(target=spectators, args=(port, args.clients, last, ready, results))
    crowd.start()
    if not ready.wait(120):
        raise SystemExit("bench: the spectators did not all connect")
    memory_connected, threads = rss_mb(), threading.active_count()
    accepted: dict[int, float] = {}
    table.store.append = timed(table.store.append, accepted)
    started = time.time()
    while len(accepted) < args.records and demo.step():
        if demo.table.ledger is not None and demo.table.ledger.game.pending().over:
            break
    played = time.time() - started
    memory_peak = rss_mb()
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    last.value = max(accepted)
    arrivals = results.get(timeout=900)
    crowd.join(10)
    web.stop()
    demo.close()
    crowd_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    delays = sorted((seen[seq] - at) * 1000 for seen in arrivals for seq, at in accepted.items()
                    if seq in seen)
    lost = sum(1 for seen in arrivals for seq in accepted if seq not in seen)
    p95 = delays[int(0.95 * (len(delays) - 1))]
    print(f"web stream on the demo table ({args.game}, {args.players} players, seed {args.seed}, "
          f"speed max): {args.clients} clients, {len(accepted)} records in {played:.1f} s "
          f"({len(accepted) / played:.1f}/s), {len(delays)} arrivals, {lost} lost")
    print(f"delay accepted record -> client: median {statistics.median(delays):.1f} ms, "
          f"p95 {p95:.1f} ms, max {delays[-1]:.1f} ms")
    print(f"server process memory (table, reader and web): {memory_idle:.0f} MB before serving, "
          f"{memory_connected:.0f} MB with {args.clients} streams open ({threads} threads), "
          f"{memory_peak:.0f} MB after the game")
    print(f"CPU: table and server {cpu.ru_utime + cpu.ru_stime:.1f} s, spectators' process "
          f"{crowd_cpu.ru_utime + crowd_cpu.ru_stime:.1f} s; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
