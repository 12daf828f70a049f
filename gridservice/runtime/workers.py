"""`gridservice serve --workers N`: N worker processes on one port, connections spread evenly.

Each worker opens its own listening socket on the port with `SO_REUSEPORT`, and the kernel
spreads incoming connections across those sockets by their addresses. uvicorn's own
supervisor instead hands one shared socket to every worker, and a connection goes to
whichever worker accepts first; with keep-alive clients the imbalance lasts as long as the
connections do (in the load test one worker held 25 of 33 connections, the other 8, and
throughput halved from one run to the next). Linux only: elsewhere `SO_REUSEPORT` does not
spread connections, and `serve` runs one process.

The parent keeps the port bound (not listening, so it is never handed a connection),
starts the workers, replaces a worker that dies, and stops them all on SIGTERM or SIGINT.
A worker that exits with an error before it has said it is ready (its app built, its socket
listening) is not replaced: the app cannot start, and the parent stops with an error instead
of restarting it in a loop. Readiness is the worker's own signal, not a wall-clock grace, so a
slow start on a loaded machine is never taken for a crash. A worker killed by a signal is
always replaced.
"""

from __future__ import annotations

import multiprocessing
import signal
import socket
import sys
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event

from gridservice.settings import Settings

STOP_TIMEOUT_SECONDS = 30.0


def supported() -> bool:
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def reuseport_socket(host: str, port: int, *, listen: bool) -> socket.socket:
    """A TCP socket bound to `host:port` that other such sockets may share."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    if listen:
        sock.listen(128)
    return sock


def _worker(settings_json: str, host: str, port: int, ready: Event) -> None:
    """One worker process: build the app, then listen (not before: a socket in the group
    gets its share of connections as soon as it listens), then say it is ready."""
    # Here, in the worker process: the parent that forks it never needs FastAPI or uvicorn.
    import uvicorn

    from gridservice.app import create_app
    from gridservice.runtime.server import freeze_start_up, uvicorn_config

    settings = Settings.from_json(settings_json)
    app = create_app(settings)
    freeze_start_up()
    sock = reuseport_socket(host, port, listen=True)
    ready.set()
    uvicorn.Server(uvicorn_config(app, settings, log_level="info")).run(sockets=[sock])


def serve_workers(
    settings: Settings,
    holder: socket.socket,
    workers: int,
    target: Callable[[str, str, int, Event], None] | None = None,
) -> int:
    """Run `workers` worker processes on the port `holder` keeps; return the exit status.

    `target` replaces the worker's body (tests)."""
    host, port = holder.getsockname()[:2]
    context = multiprocessing.get_context("spawn")
    settings_json = settings.to_json()
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}

    def start() -> tuple[BaseProcess, Event]:
        ready = context.Event()
        process = context.Process(target=target or _worker, args=(settings_json, host, port, ready))
        process.start()
        return process, ready

    running = [start() for _ in range(workers)]
    status = 0
    try:
        while not stopping:
            time.sleep(0.2)
            for index, (process, ready) in enumerate(running):
                if stopping or process.is_alive():
                    continue
                failed = process.exitcode is not None and process.exitcode > 0
                if failed and not ready.is_set():
                    print(
                        f"gridservice serve: worker {process.pid} exited while starting "
                        f"(status {process.exitcode}); stopping",
                        file=sys.stderr,
                        flush=True,
                    )
                    stopping, status = True, 1
                    break
                print(
                    f"gridservice serve: worker {process.pid} exited (status "
                    f"{process.exitcode}); starting another",
                    file=sys.stderr,
                    flush=True,
                )
                running[index] = start()
    finally:
        for process, _ready in running:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        for process, _ready in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
        holder.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return status
