"""Resource consumption (OWASP API4): bounded bodies, query strings and searches, and a
per-token rate limit that answers 429 with `Retry-After`."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from security_support import ALPHA, BETA, copy_store, key, site_body

from gridservice.app import create_app
from gridservice.routers.evidence import MAX_QUERY_CHARS, MAX_SEARCH_TERMS
from gridservice.settings import Settings


def assert_problem(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code
    assert response.headers["x-request-id"] == response.json()["requestId"]


def test_a_body_past_the_cap_is_413_before_it_is_read(service):
    cap = service.app.state.settings.max_body_bytes
    padding = "x" * cap
    body = json.dumps(site_body(customerReference=padding))
    response = service.post(
        "/v1/sites",
        content=body,
        headers={**ALPHA, **key(), "Content-Type": "application/json"},
    )
    assert_problem(response, 413, "body_too_large")


def test_a_streamed_body_past_the_cap_is_413(service):
    cap = service.app.state.settings.max_body_bytes

    def chunks():
        yield b'{"requestedPeakLoadMw": 1, "customerReference": "'
        for _ in range(cap // 4096 + 2):
            yield b"y" * 4096
        yield b'"}'

    # A generator body is sent with Transfer-Encoding: chunked (no Content-Length).
    response = service.post(
        "/v1/sites",
        content=chunks(),
        headers={**ALPHA, **key(), "Content-Type": "application/json"},
    )
    assert_problem(response, 413, "body_too_large")


def test_a_body_under_the_cap_is_still_read_when_streamed(service):
    body = json.dumps(site_body()).encode()
    response = service.post(
        "/v1/sites",
        content=iter([body[:10], body[10:]]),
        headers={**ALPHA, **key(), "Content-Type": "application/json"},
    )
    assert response.status_code == 201, response.text


def test_every_post_operation_declares_413(service):
    document = service.get("/v1/openapi.json").json()
    posts = [(p, ops["post"]) for p, ops in document["paths"].items() if "post" in ops]
    # the interface's four writes, and every extension's (review cases) as well
    assert {
        "/v1/sites",
        "/v1/sites/{siteId}/assessments",
        "/v1/assessments/{assessmentId}/exports",
        "/v1/service-territory-resolutions",
    } <= {p for p, _ in posts}
    for path, operation in posts:
        content = operation["responses"]["413"]["content"]
        assert "application/problem+json" in content, path


def test_a_query_string_past_the_cap_is_400(service):
    cap = service.app.state.settings.max_query_bytes
    response = service.get("/v1/generators", params={"state": "T" * cap}, headers=ALPHA)
    assert_problem(response, 400, "query_too_long")


def test_q_is_capped_in_length(service):
    at_cap = service.get("/v1/evidence-search", params={"q": "a" * MAX_QUERY_CHARS}, headers=ALPHA)
    assert at_cap.status_code == 200
    past = service.get(
        "/v1/evidence-search", params={"q": "a" * (MAX_QUERY_CHARS + 1)}, headers=ALPHA
    )
    assert_problem(past, 400, "invalid_parameter")


def test_q_is_capped_in_terms(service):
    words = ["queue", "interconnection", "load", "texas"] * 10
    at_cap = " ".join(words[:MAX_SEARCH_TERMS])
    assert (
        service.get("/v1/evidence-search", params={"q": at_cap}, headers=ALPHA).status_code == 200
    )
    # Punctuation splits terms just as the search does: "a.b" is two terms.
    past = ".".join(words[: MAX_SEARCH_TERMS + 1])
    response = service.get("/v1/evidence-search", params={"q": past}, headers=ALPHA)
    assert_problem(response, 400, "too_many_search_terms")
    assert response.json()["errors"][0]["field"] == "q"


def limited_app(tmp_path: Path, template: Path, **settings) -> TestClient:
    db = copy_store(template, tmp_path)
    return TestClient(create_app(Settings(db_path=db, **settings)), raise_server_exceptions=False)


def test_the_rate_limit_is_per_token_with_retry_after(tmp_path, demo_template):
    with limited_app(
        tmp_path, demo_template, demo=True, rate_limit_per_second=0.2, rate_limit_burst=3
    ) as client:
        answers = [client.get("/v1/sites", headers=ALPHA) for _ in range(4)]
        assert [a.status_code for a in answers[:3]] == [200, 200, 200]
        assert_problem(answers[3], 429, "rate_limited")
        assert int(answers[3].headers["retry-after"]) >= 1
        # Another token has its own bucket; the open health probe is never limited.
        assert client.get("/v1/sites", headers=BETA).status_code == 200
        assert all(client.get("/v1/health").status_code == 200 for _ in range(10))


def test_the_rate_limit_is_off_on_a_demo_store_unless_set(tmp_path, demo_template):
    assert Settings(db_path=tmp_path / "x.db", demo=True).rate_limit() is None
    assert Settings(db_path=tmp_path / "x.db").rate_limit() == (50.0, 100)
    assert Settings(db_path=tmp_path / "x.db", demo=True, rate_limit_burst=5).rate_limit() == (
        50.0,
        5,
    )
    assert Settings(db_path=tmp_path / "x.db", rate_limit_enabled=False).rate_limit() is None
    with limited_app(tmp_path, demo_template, demo=True) as client:
        assert all(client.get("/v1/release").status_code == 200 for _ in range(3))
        statuses = {client.get("/v1/sites", headers=ALPHA).status_code for _ in range(150)}
        assert statuses == {200}


def test_a_real_store_is_rate_limited_by_default(tmp_path, demo_template):
    with limited_app(tmp_path, demo_template) as client:
        limiter = client.app.state.rate_limiter
        assert (limiter.rate, limiter.burst) == (50.0, 100)
        assert client.get("/v1/sites", headers=ALPHA).status_code == 200


def test_refused_credentials_are_rate_limited_per_client_address(store_copy):
    """No token, a malformed header or an unknown token: each is taken from the client
    address's bucket, on a demo store too and on either store (PostgreSQL keeps the bucket
    in the database); valid tokens and other addresses are untouched, and a forwarded
    header does not move a client to another bucket."""
    settings = Settings.for_store(
        store_copy,
        demo=True,
        secret_key=b"s" * 32,
        refused_rate_per_second=0.2,
        refused_rate_burst=3,
    )
    app = create_app(settings)
    with TestClient(app, client=("198.51.100.7", 50000), raise_server_exceptions=False) as client:
        refused = [
            client.get("/v1/sites"),
            client.get("/v1/sites", headers={"Authorization": "Basic eA=="}),
            client.get("/v1/sites", headers={"Authorization": "Bearer gds_guess_1"}),
            client.get(
                "/v1/sites",
                headers={"Authorization": "Bearer gds_guess_2", "X-Forwarded-For": "192.0.2.1"},
            ),
        ]
        assert [r.status_code for r in refused[:3]] == [401, 401, 401]
        assert_problem(refused[3], 429, "rate_limited")
        assert int(refused[3].headers["retry-after"]) >= 1
        assert client.get("/v1/sites", headers=ALPHA).status_code == 200
    with TestClient(app, client=("198.51.100.8", 50000), raise_server_exceptions=False) as other:
        assert other.get("/v1/sites").status_code == 401


def test_the_refused_credential_limit_is_on_by_default_even_on_a_demo_store(tmp_path):
    assert Settings(db_path=tmp_path / "x.db", demo=True).refused_rate_limit() == (20.0, 100)
    off = Settings(db_path=tmp_path / "x.db", demo=True, rate_limit_enabled=False)
    assert off.refused_rate_limit() is None
