"""Every failure is one problem+json shape; headers, versions, auth and rate limits."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from service_support import ALPHA, seed_small_store

from gridservice.app import create_app
from gridservice.settings import Settings
from gridservice.store import collections

PROBLEM_MEMBERS = {"type", "title", "status", "detail", "instance", "code", "requestId"}


def assert_problem(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert set(body) >= PROBLEM_MEMBERS
    assert body["status"] == status and body["type"] == "/problems/" + body["code"].replace(
        "_", "-"
    )
    assert body["requestId"] == response.headers["X-Request-Id"]
    assert body["detail"] and body["title"]
    if code:
        assert body["code"] == code
    return body


def k() -> dict[str, str]:
    return {"Idempotency-Key": uuid.uuid4().hex}


SITE = {"requestedPeakLoadMw": 10, "location": {"latitude": 30.5, "longitude": -97.5}}

FAILURES = [
    # (method, path, kwargs, status, code)
    ("GET", "/v1/generators", {"headers": {}}, 401, "missing_token"),
    ("GET", "/v1/generators", {"headers": {"Authorization": "Bearer nope"}}, 401, "invalid_token"),
    ("GET", "/v1/generators", {"headers": {"Authorization": "Basic eDp5"}}, 401, None),
    ("GET", "/v1/nowhere", {"headers": ALPHA}, 404, "not_found"),
    ("DELETE", "/v1/generators", {"headers": ALPHA}, 405, "method_not_allowed"),
    ("GET", "/v1/generators", {"headers": {**ALPHA, "Accept": "text/html"}}, 406, "not_acceptable"),
    ("GET", "/v1/generators", {"headers": {**ALPHA, "Accept": "application/json;q=0"}}, 406, None),
    (
        "GET",
        "/v1/generators",
        {"headers": {**ALPHA, "Service-Version": "june"}},
        400,
        "invalid_service_version",
    ),
    (
        "GET",
        "/v1/generators",
        {"headers": {**ALPHA, "Service-Version": "2025-05-31"}},
        400,
        "unsupported_service_version",
    ),
    ("GET", "/v1/generators", {"headers": ALPHA, "params": {"limit": 0}}, 400, "invalid_limit"),
    ("GET", "/v1/generators", {"headers": ALPHA, "params": {"x": 1}}, 400, "unknown_parameter"),
    ("GET", "/v1/generators", {"headers": ALPHA, "params": {"cursor": "x.y"}}, 400, None),
    ("GET", "/v1/sites/site_nope", {"headers": ALPHA}, 404, "site_not_found"),
    ("POST", "/v1/sites", {"headers": ALPHA, "json": SITE}, 400, "missing_idempotency_key"),
    (
        "POST",
        "/v1/sites",
        {"headers": {**ALPHA, "Idempotency-Key": "short"}, "json": SITE},
        400,
        "invalid_idempotency_key",
    ),
    (
        "POST",
        "/v1/sites",
        {"headers": {**ALPHA, **k(), "Content-Type": "application/json"}, "content": b"{"},
        400,
        "malformed_json",
    ),
    (
        "POST",
        "/v1/sites",
        {"headers": {**ALPHA, **k(), "Content-Type": "text/csv"}, "content": b"a,b"},
        415,
        "unsupported_media_type",
    ),
    (
        "POST",
        "/v1/sites",
        {"headers": {**ALPHA, **k()}, "json": {"location": {}}},
        422,
        "validation_failed",
    ),
    ("POST", "/v1/sites", {"headers": {**ALPHA, **k()}, "json": [1, 2]}, 422, "validation_failed"),
    (
        "POST",
        "/v1/service-territory-resolutions",
        {"headers": ALPHA, "json": {"location": {"type": "Point", "coordinates": [45, 120]}}},
        422,
        "invalid_coordinates",
    ),
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status", "code"), FAILURES)
def test_every_failure_is_a_problem_document(client, method, path, kwargs, status, code):
    response = client.request(method, path, **kwargs)
    body = assert_problem(response, status, code)
    assert body["instance"] == path
    if status == 401:
        assert response.headers["WWW-Authenticate"] == "Bearer"
    if status == 405:
        assert response.headers["Allow"] == "GET"
    if status == 400 and code == "unsupported_service_version":
        assert "2025-06-01" in body["detail"]
    if code in {"invalid_limit", "unknown_parameter", "validation_failed", "invalid_coordinates"}:
        assert body["errors"] and {"field", "message"} <= set(body["errors"][0])


def test_success_responses_carry_request_id_and_version(client):
    plain = client.get("/v1/generators", headers=ALPHA)
    dated = client.get("/v1/generators", headers={**ALPHA, "Service-Version": "2026-01-15"})
    for response in (plain, dated):
        assert response.headers["content-type"] == "application/json"
        assert response.headers["X-Request-Id"].startswith("req_")
        assert response.headers["Service-Version"] == "2025-06-01"
    assert plain.headers["X-Request-Id"] != dated.headers["X-Request-Id"]


def test_open_paths_need_no_token(client):
    for path in ("/v1/release", "/v1/health", "/v1/openapi.json"):
        assert client.get(path).status_code == 200
    assert client.get("/v1/docs").status_code == 200
    assert_problem(client.get("/v1/quality"), 401)


def test_an_unexpected_failure_is_a_500_problem_without_a_trace(client, monkeypatch):
    def explode(*args, **kwargs):
        raise ZeroDivisionError("secret internals")

    # A page not kept in the page cache: built by the full path, which fails.
    monkeypatch.setattr(collections, "page", explode)
    response = client.get("/v1/queue-records", headers=ALPHA)
    body = assert_problem(response, 500, "internal_error")
    assert "secret internals" not in response.text and "Traceback" not in response.text
    assert body["instance"] == "/v1/queue-records"
    # A page answered from the page cache, failing on its lean path.
    monkeypatch.undo()
    assert client.get("/v1/generators?limit=3", headers=ALPHA).status_code == 200
    monkeypatch.setattr(client.app.state.rate_limiter, "retry_after", explode)
    response = client.get("/v1/generators?limit=3", headers=ALPHA)
    body = assert_problem(response, 500, "internal_error")
    assert "secret internals" not in response.text and "Traceback" not in response.text
    assert body["instance"] == "/v1/generators"


def test_the_rate_limit_answers_429_with_retry_after(tmp_path: Path):
    db_path = tmp_path / "rate.db"
    seed_small_store(db_path)
    app = create_app(Settings(db_path=db_path, rate_limit_per_second=0.5, rate_limit_burst=3))
    with TestClient(app, raise_server_exceptions=False) as client:
        statuses = [client.get("/v1/queue-records", headers=ALPHA).status_code for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        limited = client.get("/v1/queue-records", headers=ALPHA)
        assert_problem(limited, 429, "rate_limited")
        assert int(limited.headers["Retry-After"]) >= 1
        # another token has its own bucket
        other = client.get("/v1/queue-records", headers={"Authorization": "Bearer tok_beta_test"})
        assert other.status_code == 200


def test_cursors_survive_a_restart_when_the_key_is_kept_in_the_store(tmp_path: Path):
    db_path = tmp_path / "restart.db"
    seed_small_store(db_path)
    with TestClient(create_app(Settings(db_path=db_path))) as first:
        cursor = first.get("/v1/generators", params={"limit": 2}, headers=ALPHA).json()["meta"][
            "nextCursor"
        ]
    with TestClient(create_app(Settings(db_path=db_path))) as second:
        page = second.get("/v1/generators", params={"limit": 2, "cursor": cursor}, headers=ALPHA)
        assert page.status_code == 200
        assert page.json()["data"][0]["id"] == "gen-003-v2"


def test_allow_lists_every_method_of_a_path(client):
    response = client.request("PUT", "/v1/sites", headers=ALPHA)
    assert_problem(response, 405)
    assert response.headers["Allow"] == "GET, POST"
    templated = client.request("DELETE", "/v1/sites/site_x/assessments", headers=ALPHA)
    assert templated.headers["Allow"] == "GET, POST"
