"""The access log never shows a credential sent in a query string, however its parameter's
name is spelled or encoded: the value of every parameter named like a credential is
`[redacted]` in uvicorn's real access-log records, and every other parameter is kept."""

from __future__ import annotations

import logging
import socket
import uuid
from collections.abc import Iterator

import pytest
from security_support import copy_store

from gridservice.runtime.server import RunningServer, start_in_thread
from gridservice.settings import Settings

# Parameter names as sent on the wire. Each carries a credential.
CREDENTIAL_NAMES = [
    "access_token",
    "access_%74oken",  # a letter percent-encoded
    "t%6fken",
    "%74%6F%6B%65%6E",  # every letter, upper-case hex
    "access%255Ftoken",  # encoded twice
    "ACCESS_TOKEN",
    "access+token",  # `+` is a space in a query string
    "bearer",
    "jwt",
    "password",
    "pass",
    "Passwd",
    "credential",
    "credentials",
    "client_secret",
    "api_key",
    "apikey",
    "api-key",
    "API%2DKEY",
    "a%70i%5Fkey",
]


@pytest.fixture(scope="module")
def logged(demo_template, tmp_path_factory) -> Iterator[RunningServer]:
    """The service on a loopback port with uvicorn's access log on, as `serve` runs it."""
    store = copy_store(demo_template, tmp_path_factory.mktemp("access-log"))
    server = start_in_thread(Settings.for_store(store, demo=True), access_log=True)
    yield server
    server.stop()


def access_log_of(server: RunningServer, target: str, caplog: pytest.LogCaptureFixture) -> str:
    """Send `GET target` as written (no client re-encodes it) and return the access log."""
    access = logging.getLogger("uvicorn.access")
    access.addHandler(caplog.handler)
    host, port = server.base_url.removeprefix("http://").split(":")
    try:
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            while sock.recv(65536):
                pass  # uvicorn logs a request when its answer starts: read it all
    finally:
        access.removeHandler(caplog.handler)
    return "\n".join(r.getMessage() for r in caplog.records if r.name == "uvicorn.access")


@pytest.mark.parametrize("name", CREDENTIAL_NAMES)
def test_a_credential_in_the_query_never_reaches_the_access_log(logged, caplog, name):
    secret = "gds_canary_" + uuid.uuid4().hex
    log = access_log_of(logged, f"/v1/sites?limit=1&{name}={secret}&q=innocent", caplog)
    assert f"/v1/sites?limit=1&{name}=[redacted]&q=innocent" in log
    assert secret not in log


def test_every_value_of_a_repeated_credential_is_redacted(logged, caplog):
    first, second = ("gds_canary_" + uuid.uuid4().hex for _ in range(2))
    log = access_log_of(logged, f"/v1/sites?token={first}&q=innocent&token={second}", caplog)
    assert "/v1/sites?token=[redacted]&q=innocent&token=[redacted]" in log
    assert first not in log and second not in log


def test_an_innocent_query_is_logged_whole(logged, caplog):
    log = access_log_of(logged, "/v1/sites?limit=2&q=substation+north", caplog)
    assert "/v1/sites?limit=2&q=substation+north" in log
