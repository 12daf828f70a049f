"""Authentication (OWASP API2): every refused credential is a 401 with `WWW-Authenticate`,
revocation takes effect on a running service, and no token ever reaches a log."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from security_support import ALPHA, copy_store, free_port, key, site_body, store_text

from gridservice.app import create_app
from gridservice.cli import main as gridservice_cli
from gridservice.settings import Settings

OPEN_PATHS = {"/v1/release", "/v1/health", "/v1/openapi.json"}
BAD_CREDENTIALS = {
    "no header": {},
    "empty header": {"Authorization": ""},
    "not bearer": {"Authorization": "Basic Z2RzOmRlbW8="},
    "bearer without token": {"Authorization": "Bearer"},
    "token without scheme": {"Authorization": "gds_demo_alpha"},
    "unknown token": {"Authorization": "Bearer gds_not_a_token_of_this_service"},
    "token of another case": {"Authorization": "Bearer GDS_DEMO_ALPHA"},
}


@pytest.fixture(scope="module")
def service(store_copy: Path | str):
    """The service without the per-address limit on refused credentials: this module sends
    some 200 of them from one address (the limit itself: `test_resource_caps.py`)."""
    settings = Settings.for_store(
        store_copy, demo=True, secret_key=b"s" * 32, refused_rate_per_second=None
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield client


def authenticated_operations(service) -> list[tuple[str, str]]:
    document = service.get("/v1/openapi.json").json()
    operations = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            if path in OPEN_PATHS:
                assert "security" not in operation
                continue
            assert operation.get("security"), (method, path)
            operations.append((method.upper(), path.replace("{", "x").replace("}", "")))
    return operations


def send(service, method: str, path: str, headers: dict) -> httpx.Response:
    if method == "GET":
        return service.get(path, headers=headers)
    if method == "PATCH":
        return service.patch(path, json={"archived": True}, headers={**headers, **key()})
    return service.post(path, json=site_body(), headers={**headers, **key()})


def assert_refused(response: httpx.Response) -> None:
    assert response.status_code == 401, response.text
    assert response.headers["www-authenticate"] == "Bearer"
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] in {"missing_token", "invalid_token", "malformed_authorization"}


@pytest.mark.parametrize("credential", sorted(BAD_CREDENTIALS))
def test_every_authenticated_operation_refuses_a_bad_credential(service, credential):
    operations = authenticated_operations(service)
    assert len(operations) >= 20
    for method, path in operations:
        assert_refused(send(service, method, path, BAD_CREDENTIALS[credential]))


def test_open_paths_answer_without_a_token(service):
    for path in OPEN_PATHS:
        assert service.get(path).status_code == 200, path


def cli_output(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = gridservice_cli(list(argv))
    return code, out.getvalue()


def test_a_revoked_token_is_refused_by_the_running_service(service, store_copy):
    code, printed = cli_output("tokens", "create", "--tenant", "acme", "--db", str(store_copy))
    assert code == 0
    token = printed.strip()
    headers = {"Authorization": f"Bearer {token}"}
    assert service.get("/v1/sites", headers=headers).status_code == 200

    code, printed = cli_output("tokens", "revoke", "--token", token, "--db", str(store_copy))
    assert code == 0 and "revoked 1" in printed and token not in printed
    assert_refused(service.get("/v1/sites", headers=headers))
    # Revoking again finds nothing and says so by its exit status.
    assert cli_output("tokens", "revoke", "--token", token, "--db", str(store_copy))[0] == 1


def test_revoking_a_tenant_revokes_all_its_tokens_and_no_others(service, store_copy):
    tokens = [
        cli_output("tokens", "create", "--tenant", "acme-2", "--db", str(store_copy))[1].strip()
        for _ in range(2)
    ]
    code, printed = cli_output("tokens", "revoke", "--tenant", "acme-2", "--db", str(store_copy))
    assert code == 0 and "revoked 2" in printed
    for token in tokens:
        assert_refused(service.get("/v1/sites", headers={"Authorization": f"Bearer {token}"}))
    assert service.get("/v1/sites", headers=ALPHA).status_code == 200


def test_the_store_keeps_only_digests_of_tokens(store_copy):
    code, printed = cli_output("tokens", "create", "--tenant", "acme-3", "--db", str(store_copy))
    token = printed.strip()
    dump = store_text(store_copy)
    assert token not in dump and "gds_demo_alpha" not in dump


def test_tokens_never_reach_the_service_log_in_process(service, caplog):
    secret = "gds_canary_" + "x" * 24
    with caplog.at_level(logging.DEBUG):
        service.get("/v1/sites", headers={"Authorization": f"Bearer {secret}"})
        service.get("/v1/sites", headers={"Authorization": f"Basic {secret}"})
        service.get("/v1/sites", headers=ALPHA)
    assert caplog.records  # the capture works: httpx and the service log at DEBUG
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert secret not in text and "gds_demo_alpha" not in text


def test_tokens_never_reach_the_access_log_of_gridservice_serve(demo_template, tmp_path: Path):
    db = copy_store(demo_template, tmp_path)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "gridservice", "serve", "--db", str(db), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    canary = "gds_canary_" + "y" * 24
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(base + "/v1/health", timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
        with httpx.Client(base_url=base) as http:
            http.get("/v1/sites", headers={"Authorization": f"Bearer {canary}"})
            http.get("/v1/sites", headers={"Authorization": f"Token {canary}"})
            http.get("/v1/sites?limit=1", headers=ALPHA)
            http.get("/v1/no-such-path", headers={"Authorization": f"Bearer {canary}"})
            http.get("/v1/sites", params={"limit": 1, "access_token": canary})
            http.get("/v1/sites", params={"api_key": canary, "token": canary, "q": "kept"})
            http.get("/v1/sites", params={"X-Amz-Signature": canary, "password": canary})
    finally:
        process.send_signal(signal.SIGINT)
        log, _ = process.communicate(timeout=30)
    assert re.search(r'"GET /v1/sites HTTP/1.1" 401', log)  # the access log was captured
    assert re.search(r'"GET /v1/sites\?limit=1 HTTP/1.1" 200', log)
    assert canary not in log and "gds_demo_alpha" not in log
    # A credential sent in the query string is redacted from the request line, the rest kept.
    assert "/v1/sites?limit=1&access_token=[redacted]" in log
    assert "api_key=[redacted]&token=[redacted]&q=kept" in log
    assert "X-Amz-Signature=[redacted]&password=[redacted]" in log
