"""Run the service with uvicorn in a background thread (embedded mode, tests, benchmarks)."""

from __future__ import annotations

import gc
import socket
import threading
import time
from dataclasses import dataclass

import uvicorn

from gridservice.app import create_app
from gridservice.runtime.http_protocol import guarded_protocol, redact_access_log
from gridservice.settings import Settings


@dataclass
class RunningServer:
    """A service listening on loopback; `stop()` shuts it down and joins the thread."""

    base_url: str
    _server: uvicorn.Server
    _thread: threading.Thread
    _socket: socket.socket

    def stop(self, timeout: float = 10.0) -> None:
        self._server.should_exit = True
        self._thread.join(timeout)
        self._socket.close()
        self._server.config.app.state.connections.close_all()


def bound_socket(host: str, port: int) -> socket.socket:
    """Return a listening TCP socket; IPPROTO_TCP keeps keep-alive requests fast (no Nagle stall)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    return sock


def freeze_start_up() -> None:
    """Move what start-up built out of the garbage collector's scans, in a process of its
    own (`serve` and its workers; never where the service is embedded in another program).

    Routes, schemas, the store's connections and caches live as long as the process, yet each
    full collection that a large answer sets off scanned them all again (about a tenth of a
    surroundings request's CPU at demo scale 100). Reference counting still frees them.
    """
    gc.collect()
    gc.freeze()


def uvicorn_config(app, settings: Settings, **options) -> uvicorn.Config:
    """Return uvicorn's configuration for the app: the guarded protocol (read deadline,
    problem+json 400), no `X-Forwarded-*` trust, credentials redacted from the access log.

    Forwarded headers are not trusted: on the same host any client could claim any address
    and so escape its bucket for refused credentials (SECURITY.md, section 5)."""
    redact_access_log()
    return uvicorn.Config(
        app,
        http=guarded_protocol(settings.read_timeout_seconds),
        proxy_headers=False,
        **options,
    )


def start_in_thread(
    settings: Settings, host: str = "127.0.0.1", port: int = 0, *, access_log: bool = False
) -> RunningServer:
    """Build the app, serve it on `host:port` (0: any free port) and return once it listens.

    `access_log` writes uvicorn's access log (logger `uvicorn.access`) as `serve` does."""
    app = create_app(settings)
    sock = bound_socket(host, port)
    # uvicorn sets the access logger to the log level: INFO, or its records are dropped.
    level = "info" if access_log else "warning"
    config = uvicorn_config(app, settings, log_level=level, access_log=access_log, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="gridservice", daemon=True
    )
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError("the service did not start")
        time.sleep(0.01)
    real_host, real_port = sock.getsockname()[:2]
    return RunningServer(f"http://{real_host}:{real_port}", server, thread, sock)
