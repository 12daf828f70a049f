"""The HTTP surface around the operations: no answer is built from the Host header, an
unknown path (a trailing slash included) is a 404 problem, a malformed request (HTTP/0.9 and
HTTP/2.0 request lines included) is a 400 problem, HTTP/1.0 is served, a head past its limits
is refused before it is read, and a client too slow to send its request is dropped at the
read deadline."""

from __future__ import annotations

import json
import socket
import threading
import time

import httpx
import pytest
from security_support import ALPHA, create_site

from gridservice.runtime.http_protocol import MAX_HEAD_BYTES, MAX_HEAD_LINE_BYTES
from gridservice.runtime.server import start_in_thread
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
        return read_until_closed(sock)


def read_until_closed(sock: socket.socket) -> bytes:
    """Return what the service answered until it closed the connection (a reset, sent when it
    closes with bytes of ours unread, ends the answer too)."""
    answer = b""
    try:
        while data := sock.recv(65536):
            answer += data
    except ConnectionResetError:
        pass
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


@pytest.mark.parametrize("version", [b"HTTP/1.0", b"HTTP/1.1"])
def test_http_1_0_and_1_1_are_served(live, version):
    status_line, headers, body = split_answer(
        raw_exchange(
            live.base_url, [b"GET /v1/health " + version + b"\r\nConnection: close\r\n\r\n"]
        )
    )
    assert status_line.startswith("HTTP/1.1 200")
    assert json.loads(body) == {"status": "ok"}


@pytest.mark.parametrize(
    "request_line", [b"GET /v1/health", b"GET /v1/health HTTP/2.0", b"GET /v1/health HTTP/0.9"]
)
def test_a_request_line_that_is_not_http_1_is_a_400_problem(live, request_line):
    status_line, headers, body = split_answer(
        raw_exchange(live.base_url, [request_line + b"\r\n\r\n"])
    )
    assert status_line.startswith("HTTP/1.1 400")
    assert headers["content-type"] == "application/problem+json"
    assert json.loads(body)["code"] == "malformed_request"


def request_with(*header_lines: bytes, target: bytes = b"/v1/health") -> bytes:
    return (
        b"GET "
        + target
        + b" HTTP/1.1\r\nHost: x\r\n"
        + b"".join(line + b"\r\n" for line in header_lines)
        + b"Connection: close\r\n\r\n"
    )


def assert_refused(answer: bytes, status: int, code: str) -> None:
    status_line, headers, body = split_answer(answer)
    assert status_line.startswith(f"HTTP/1.1 {status}"), status_line
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    assert json.loads(body)["code"] == code


def test_a_header_line_past_its_limit_is_431(live):
    big = b"X-Big: " + b"a" * (MAX_HEAD_LINE_BYTES + 4096)
    answer = raw_exchange(live.base_url, [request_with(big)])
    assert_refused(answer, 431, "header_fields_too_large")


def test_headers_past_their_limit_in_all_are_431(live):
    lines = [b"X-Part-%d: " % n + b"a" * 8000 for n in range(MAX_HEAD_BYTES // 8000 + 1)]
    answer = raw_exchange(live.base_url, [request_with(*lines)])
    assert_refused(answer, 431, "header_fields_too_large")


def test_a_request_line_past_its_limit_is_414(live):
    target = b"/v1/health?pad=" + b"a" * (MAX_HEAD_LINE_BYTES + 1)
    answer = raw_exchange(live.base_url, [request_with(target=target)])
    assert_refused(answer, 414, "uri_too_long")


def test_a_later_request_on_a_kept_connection_is_held_to_the_limit_too(live):
    host, port = live.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
        first = b""
        while not first.endswith(b'{"status":"ok"}'):
            first += sock.recv(65536)
        sock.sendall(request_with(b"X-Big: " + b"a" * (MAX_HEAD_LINE_BYTES + 4096)))
        assert_refused(read_until_closed(sock), 431, "header_fields_too_large")


@pytest.mark.parametrize(
    "lines",
    [
        [b"X-Big: " + b"a" * 10240],  # 10 KiB in one header
        [b"X-Part-%d: " % n + b"a" * 8000 for n in range(7)],  # 56 KiB in 8 KB lines
    ],
    ids=["one-10-KiB-header", "56-KiB-of-headers"],
)
def test_headers_within_the_limits_are_served(live, lines):
    answer = raw_exchange(live.base_url, [request_with(*lines)])
    status_line, _headers, body = split_answer(answer)
    assert status_line.startswith("HTTP/1.1 200"), status_line
    assert json.loads(body) == {"status": "ok"}


@pytest.fixture(scope="module")
def patient(store_copy):
    """The service with its default read deadline (30 s), so only the head's limit can cut a
    client off while it sends."""
    server = start_in_thread(Settings.for_store(store_copy, demo=True, secret_key=b"s" * 32))
    yield server
    server.stop()


def test_a_multi_mib_header_is_cut_off_while_others_are_served(patient):
    """A 32 MiB header (more than loopback's socket buffers hold) is refused once past the
    limit: the client cannot send it all, and a health check meanwhile is answered."""
    host, port = patient.base_url.removeprefix("http://").split(":")
    total = 32 * 2**20
    sending = threading.Event()
    outcome: dict[str, object] = {}

    def send_oversized_header() -> None:
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            sent = 0
            try:
                sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ")
                chunk = b"a" * 65536
                while sent < total:
                    sock.sendall(chunk)
                    sent += len(chunk)
                    sending.set()
            except OSError:
                pass
            finally:
                sending.set()
            outcome["sent"] = sent
            # Had it all been sent, the service would wait for the rest of the head.
            outcome["answer"] = read_until_closed(sock) if sent < total else b""

    sender = threading.Thread(target=send_oversized_header)
    sender.start()
    assert sending.wait(30)
    with httpx.Client(base_url=patient.base_url) as http:
        assert http.get("/v1/health").json() == {"status": "ok"}
    sender.join(60)
    assert outcome["sent"] < total
    assert_refused(outcome["answer"], 431, "header_fields_too_large")
