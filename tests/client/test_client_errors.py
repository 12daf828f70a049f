"""Every failure surfaces as a typed error carrying the service's problem members."""

from __future__ import annotations

import httpx
import pytest
from client_fakes import page, problem, record

import gridclient as gc


@pytest.mark.parametrize(
    ("status", "code", "expected"),
    [
        (400, "invalid_cursor", gc.BadRequestError),
        (401, "unauthenticated", gc.AuthenticationError),
        (403, "forbidden", gc.PermissionDeniedError),
        (404, "not_found", gc.NotFoundError),
        (406, "not_acceptable", gc.NotAcceptableError),
        (409, "conflict", gc.ConflictError),
        (415, "unsupported_media_type", gc.UnsupportedMediaTypeError),
        (422, "validation_failed", gc.UnprocessableEntityError),
        (429, "rate_limited", gc.RateLimitError),
        (500, "internal_error", gc.InternalServerError),
        (503, "unavailable", gc.InternalServerError),
        (418, "teapot", gc.APIStatusError),
    ],
)
def test_each_status_family_raises_its_class_with_the_problem_members(
    service, status, code, expected
):
    service.handle(lambda request: problem(status, code, f"detail for {status}"))
    client = service.client(max_retries=0)

    with pytest.raises(expected) as caught:
        client.sites.get("site-1")

    error = caught.value
    assert isinstance(error, gc.APIStatusError)
    assert isinstance(error, gc.GridAPIError)
    assert (error.status, error.code, error.detail) == (status, code, f"detail for {status}")
    assert error.title == httpx.codes.get_reason_phrase(status)
    assert error.request_id == "req-123"
    assert error.type == "/problems/" + code.replace("_", "-")


def test_406_and_415_belong_to_the_bad_request_family(service):
    service.script([problem(406, "not_acceptable", "JSON only"), problem(415, "bad", "JSON only")])
    client = service.client()
    with pytest.raises(gc.BadRequestError):
        client.release()
    with pytest.raises(gc.BadRequestError):
        client.release()


def test_str_of_an_error_is_one_readable_line_with_title_detail_and_request_id(service):
    service.handle(
        lambda request: problem(
            422,
            "validation_failed",
            "The site definition is invalid.",
            errors=[{"field": "requestedPeakLoadMw", "message": "must be > 0"}],
            request_id="req-abc",
        )
    )
    client = service.client()
    with pytest.raises(gc.UnprocessableEntityError) as caught:
        client.sites.create({"requestedPeakLoadMw": 0, "location": {"latitude": 1, "longitude": 2}})

    text = str(caught.value)
    assert "\n" not in text
    assert "Unprocessable" in text
    assert "The site definition is invalid." in text
    assert "requestedPeakLoadMw: must be > 0" in text
    assert "req-abc" in text
    assert caught.value.errors == [{"field": "requestedPeakLoadMw", "message": "must be > 0"}]


def test_an_html_error_page_from_a_proxy_still_gives_a_readable_error(service):
    html = (
        "<html><head><title>502</title><style>body{color:red}</style></head>"
        "<body><h1>Bad Gateway</h1><p>The upstream server is down.</p></body></html>"
    )
    service.handle(
        lambda request: httpx.Response(
            502, content=html.encode(), headers={"content-type": "text/html", "x-request-id": "px"}
        )
    )
    client = service.client(max_retries=0)

    with pytest.raises(gc.InternalServerError) as caught:
        client.quality()

    error = caught.value
    assert error.status == 502
    assert error.code is None
    assert "Bad Gateway The upstream server is down." in error.detail
    assert "<h1>" not in str(error) and "color:red" not in str(error)
    assert "text/html" in str(error)
    assert error.request_id == "px"


def test_a_long_non_problem_body_is_cut_to_a_short_excerpt(service):
    service.handle(lambda request: httpx.Response(500, text="x" * 5000))
    with pytest.raises(gc.InternalServerError) as caught:
        service.client(max_retries=0).release()
    assert len(str(caught.value)) < 300


def test_an_empty_error_body_is_still_readable(service):
    service.handle(lambda request: httpx.Response(404))
    with pytest.raises(gc.NotFoundError) as caught:
        service.client().assessments.get("a-1")
    assert str(caught.value).startswith("404 Not Found")


def test_a_body_that_does_not_fit_the_model_names_the_field(service):
    service.handle(lambda request: record({"id": "g", "productionRevision": "not a number"}))
    with pytest.raises(gc.ResponseValidationError) as caught:
        service.client().release()
    assert caught.value.field == "data.productionRevision"
    assert "productionRevision" in str(caught.value)


def test_a_page_record_that_does_not_fit_names_its_position_and_field(service):
    service.handle(
        lambda request: page(
            [{"id": "a"}, {"id": "b", "agencyPlantId": "x"}], has_more=False, cursor=None
        )
    )
    # left out of the page, not raised: one bad record must not cost the rest of the list
    pager = service.client().generators.list()
    assert [g.id for g in pager] == ["a"]
    [unread] = pager.unreadable
    assert (unread.index, unread.id, unread.field) == (1, "b", "agencyPlantId")


def test_a_success_body_that_is_not_json_is_a_validation_error(service):
    service.handle(lambda request: httpx.Response(200, text="<html>login</html>"))
    with pytest.raises(gc.ResponseValidationError) as caught:
        service.client().sites.get("s")
    assert caught.value.field == "<body>"


def test_connection_failure_and_timeout_are_typed(service):
    service.script([httpx.ConnectError("refused"), httpx.ReadTimeout("slow")])
    client = service.client(max_retries=0)
    with pytest.raises(gc.APIConnectionError) as refused:
        client.release()
    assert not isinstance(refused.value, gc.APITimeoutError)
    assert "grid.test" in str(refused.value)
    assert refused.value.base_url == "http://grid.test"
    with pytest.raises(gc.APITimeoutError):
        client.release()


def test_rate_limit_error_carries_retry_after(service):
    service.handle(
        lambda request: problem(429, "rate_limited", "slow down", headers={"Retry-After": "7"})
    )
    with pytest.raises(gc.RateLimitError) as caught:
        service.client(max_retries=0).release()
    assert caught.value.retry_after == 7.0


def test_argument_errors_are_value_errors_and_client_errors():
    assert issubclass(gc.InvalidArgumentError, ValueError)
    assert issubclass(gc.InvalidArgumentError, gc.GridAPIError)
    assert issubclass(gc.APITimeoutError, gc.APIConnectionError)
