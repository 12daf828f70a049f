"""The HTTP surface around the operations: no answer is built from the Host header, an
unknown path (a trailing slash included) is a 404 problem, a malformed request is a 400
problem, and a client too slow to send its request is dropped at the read deadline."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest
from security_support import ALPHA, create_site

from gridservice.server import start_in_thread
from gridservice.settings import Settings


@pytest.mark.parametrize("suffix", ["/", "//", "/assessments/"])
def test_no_redirect_is_built_from_the_host_header(service, suffix):
    site = create_site(service, ALPHA)
    response = service.get(
        f"/v1/sites/{site['id']}{suffix}",
        headers={**ALPHA, "Host": "evil.example"},
        follow_redirects=False,
    )
    assert response.status_code == 404, response.headers
    assert "location" not in response.headers
    assert "evil.example" not in response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("path", ["/v1/sites/", "/v1/health/", "/v1/no-such-thing", "/", "/x/"])
def test_an_unknown_path_is_a_404_problem(service, path):
    response = service.get(path, headers={**ALPHA, "Host": "evil.example"}, follow_redirects=False)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "not_found"
    assert "evil.example" not in response.text


@pytest.fixture(scope="module")
def live(store_copy):
    """The service on a loopback port, with a short read deadline."""
    server = start_in_thread(
        Settings.for_store(store_copy, demo=True, secret_key=b"s" * 32, read_timeout_seconds=0.5)
    )
    yield server
    server.stop()


def raw_exchange(base_url: str, chunks: list[bytes], pause: float = 0.0) -> bytes:
    """Send `chunks` over one connection (pausing between them) and return all it answered
    until the service closed it; a send refused because it closed ends the sending."""
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        try:
            for chunk in chunks:
                sock.sendall(chunk)
                time.sleep(pause)
        except OSError:
            pass
        answer = b""
        while data := sock.recv(65536):
            answer += data
    return answer


def split_answer(answer: bytes) -> tuple[str, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return status_line, headers, body


def test_a_malformed_request_line_is_a_400_problem(live):
    status_line, headers, body = split_answer(raw_exchange(live.base_url, [b"NOT HTTP\r\n\r\n"]))
    assert status_line.startswith("HTTP/1.1 400")
    assert headers["content-type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["code"] == "malformed_request" and problem["status"] == 400
    assert problem["requestId"] == headers["x-request-id"]


def test_a_client_dribbling_its_headers_is_dropped_with_a_408(live):
    """One header byte every 0.2 s would hold the connection for a minute; the service
    drops it at its read deadline (0.5 s here) with a 408 problem."""
    dribble = [b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: "] + [b"a"] * 300
    status_line, headers, body = split_answer(raw_exchange(live.base_url, dribble, pause=0.2))
    assert status_line.startswith("HTTP/1.1 408")
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "request_timeout"


def test_a_client_dribbling_its_body_is_dropped(live):
    head = (
        b"POST /v1/sites HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer gds_demo_alpha\r\n"
        b"Idempotency-Key: dribble-0001\r\nContent-Type: application/json\r\n"
        b"Content-Length: 400\r\n\r\n"
    )
    answer = raw_exchange(live.base_url, [head] + [b" "] * 300, pause=0.2)
    assert b"201 Created" not in answer
    # The connection was closed by the service (raw_exchange returned), nothing was created.
    with httpx.Client(base_url=live.base_url, headers=ALPHA) as http:
        assert http.get("/v1/health").status_code == 200


def test_a_prompt_request_is_untouched_by_the_read_deadline(live):
    with httpx.Client(base_url=live.base_url, headers=ALPHA) as http:
        for _ in range(3):
            assert http.get("/v1/sites", params={"limit": 1}).status_code == 200
            time.sleep(0.3)
