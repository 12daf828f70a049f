"""Retries: which failures are retried, how long the client waits, one key per call."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest
from client_fakes import problem, record

import gridclient as gc
from gridclient._retry import RetryPolicy, parse_retry_after

SITE = {"requestedPeakLoadMw": 50, "location": {"latitude": 30.2, "longitude": -97.7}}
CREATED = record({"id": "site-1", "tenantId": "demo-alpha", "requestedPeakLoadMw": 50})


@pytest.mark.parametrize("status", [429, 502, 503, 504])
def test_retryable_statuses_are_retried_then_succeed(service, status):
    service.script([problem(status, "busy", "try again"), record({"releaseId": "r1"})])
    release = service.client().release()
    assert release.release_id == "r1"
    assert len(service.requests) == 2
    assert len(service.sleeps) == 1


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422, 500])
def test_other_statuses_are_not_retried(service, status):
    service.handle(lambda request: problem(status, "nope", "no"))
    with pytest.raises(gc.APIStatusError):
        service.client(max_retries=5).release()
    assert len(service.requests) == 1
    assert service.sleeps == []


def test_retries_stop_after_max_retries_and_raise_the_last_error(service):
    service.handle(lambda request: problem(503, "unavailable", "down for maintenance"))
    with pytest.raises(gc.InternalServerError) as caught:
        service.client(max_retries=3).release()
    assert len(service.requests) == 4
    assert len(service.sleeps) == 3
    assert caught.value.detail == "down for maintenance"


def test_max_retries_zero_sends_once(service):
    service.handle(lambda request: problem(503, "unavailable", "down"))
    with pytest.raises(gc.InternalServerError):
        service.client(max_retries=0).release()
    assert len(service.requests) == 1


def test_connection_errors_and_timeouts_are_retried(service):
    service.script(
        [httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), record({"releaseId": "r"})]
    )
    assert service.client(max_retries=2).release().release_id == "r"
    assert len(service.requests) == 3


def test_backoff_grows_exponentially_with_jitter_and_is_capped(service):
    service.handle(lambda request: problem(502, "bad_gateway", "upstream"))
    with pytest.raises(gc.InternalServerError):
        service.client(max_retries=8).release()
    policy = RetryPolicy()
    for number, waited in enumerate(service.sleeps, start=1):
        ceiling = min(policy.max_delay, policy.initial_delay * 2 ** (number - 1))
        assert 0.75 * ceiling <= waited <= ceiling
    assert service.sleeps[1] > service.sleeps[0]
    assert max(service.sleeps) <= policy.max_delay


def test_retry_after_seconds_is_obeyed(service):
    service.script([problem(429, "rate_limited", "slow", headers={"Retry-After": "3"}), record({})])
    service.client().release()
    assert service.sleeps == [3.0]


def test_retry_after_http_date_is_obeyed(service):
    when = datetime.now(UTC) + timedelta(seconds=20)
    header = format_datetime(when, usegmt=True)
    service.script([problem(503, "busy", "later", headers={"Retry-After": header}), record({})])
    service.client().release()
    assert 17 <= service.sleeps[0] <= 20


def test_retry_after_is_capped(service):
    service.script(
        [problem(429, "rate_limited", "slow", headers={"Retry-After": "86400"}), record({})]
    )
    service.client().release()
    assert service.sleeps == [RetryPolicy().max_retry_after]


def test_unusable_retry_after_falls_back_to_backoff(service):
    service.script(
        [problem(429, "rate_limited", "slow", headers={"Retry-After": "soon"}), record({})]
    )
    service.client().release()
    assert 0 < service.sleeps[0] <= RetryPolicy().initial_delay


@pytest.mark.parametrize(
    ("value", "expected"),
    [("0", 0.0), ("12", 12.0), ("1.5", 1.5), ("-3", None), ("", None), ("nonsense", None)],
)
def test_parse_retry_after_seconds(value, expected):
    assert parse_retry_after(value) == expected


def test_parse_retry_after_date_in_the_past_is_zero():
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0


def test_every_attempt_of_a_post_carries_the_same_generated_idempotency_key(service):
    service.script([httpx.ConnectError("reset"), problem(503, "busy", "later"), CREATED])
    site = service.client().sites.create(SITE)
    assert site.id == "site-1"
    keys = [request.headers["Idempotency-Key"] for request in service.requests]
    assert len(keys) == 3
    assert len(set(keys)) == 1
    assert 8 <= len(keys[0]) <= 255


def test_each_call_gets_its_own_generated_key(service):
    service.handle(lambda request: CREATED)
    client = service.client()
    client.sites.create(SITE)
    client.sites.create(SITE)
    first, second = (request.headers["Idempotency-Key"] for request in service.requests)
    assert first != second


def test_the_callers_idempotency_key_is_sent_on_every_attempt(service):
    service.script([problem(429, "rate_limited", "slow"), CREATED])
    service.client().sites.create(SITE, idempotency_key="my-key-0001")
    assert [r.headers["Idempotency-Key"] for r in service.requests] == ["my-key-0001"] * 2
    assert [r.content for r in service.requests][0] == service.requests[1].content


def test_409_in_flight_is_retried_with_the_same_key(service):
    service.script(
        [problem(409, "idempotency_key_in_flight", "the first request is still running"), CREATED]
    )
    assert service.client().sites.create(SITE, idempotency_key="key-12345").id == "site-1"
    assert [r.headers["Idempotency-Key"] for r in service.requests] == ["key-12345"] * 2


def test_409_in_flight_recognised_by_problem_type_alone(service):
    in_flight = httpx.Response(
        409,
        json={"type": "https://errors.example/idempotency-key-in-flight", "title": "Conflict"},
        headers={"content-type": "application/problem+json"},
    )
    service.script([in_flight, CREATED])
    assert service.client().sites.create(SITE).id == "site-1"
    assert len(service.requests) == 2


def test_other_409_conflicts_are_not_retried(service):
    service.handle(lambda request: problem(409, "duplicate", "already exists"))
    with pytest.raises(gc.ConflictError):
        service.client().sites.create(SITE)
    assert len(service.requests) == 1


def test_posts_to_every_action_carry_an_idempotency_key(service):
    def answer(request: httpx.Request) -> httpx.Response:
        return record({"id": "x", "candidates": []})

    service.handle(answer)
    client = service.client()
    client.assessments.create("site-1")
    client.exports.create("assess-1")
    client.service_territories.resolve(latitude=30, longitude=-97)
    assert all(len(r.headers["Idempotency-Key"]) >= 8 for r in service.requests)


def test_every_attempt_of_a_patch_carries_the_same_key_and_body(service):
    service.script([problem(503, "busy", "later"), CREATED])
    site = service.client().sites.update("site-1", customer_reference=None, archived=True)
    assert site.id == "site-1"
    assert [r.method for r in service.requests] == ["PATCH", "PATCH"]
    first, second = service.requests
    assert first.headers["Idempotency-Key"] == second.headers["Idempotency-Key"]
    # None clears the reference; metadata, not passed, is not sent.
    assert first.content == second.content == b'{"customerReference":null,"archived":true}'


def test_an_update_with_nothing_to_change_is_refused_before_any_request(service):
    with pytest.raises(gc.InvalidArgumentError):
        service.client().sites.update("site-1")
    with pytest.raises(gc.InvalidArgumentError):
        service.client().sites.list(archived="yes")
    assert service.requests == []
