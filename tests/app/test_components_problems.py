"""Every client failure reads as a message a user can act on (never a traceback)."""

from __future__ import annotations

import re

import httpx
from conftest import CODE_SPAN

from components.problems import describe_problem
from gridclient import (
    APIConnectionError,
    APITimeoutError,
    AuthenticationError,
    InvalidArgumentError,
    NotFoundError,
    ResponseValidationError,
    UnprocessableEntityError,
)
from gridclient._errors import status_error_from_response


def test_wrong_token_says_it_was_refused_and_how_to_fix_it():
    exc = AuthenticationError(
        status=401, title="Unauthorized", detail="Unknown bearer token.", request_id="req-1"
    )
    problem = describe_problem(exc)
    assert problem.title == "Unauthorized"
    assert "Unknown bearer token." in problem.text()
    assert "The token was refused — set GRID_API_TOKEN" in problem.text()
    assert "req-1" in problem.text()


def test_unreachable_service_names_the_url():
    request = httpx.Request("GET", "http://127.0.0.1:9/v1/release")
    problem = describe_problem(APIConnectionError("refused", request=request))
    assert "The service at http://127.0.0.1:9 is unreachable" in problem.text()
    assert "GRID_API_BASE_URL" in problem.text()
    timeout = describe_problem(APITimeoutError("slow"), base_url="http://svc")
    assert "http://svc" in timeout.text() and "too long" in timeout.title


def test_validation_problem_lists_each_field():
    exc = UnprocessableEntityError(
        status=422,
        title="Validation failed",
        detail="The site definition is invalid.",
        errors=[{"field": "requestedPeakLoadMw", "message": "must be at most 5000"}],
        request_id="req-9",
    )
    text = describe_problem(exc).text()
    assert "requestedPeakLoadMw: must be at most 5000" in text
    assert "Request id: `req-9`" in text


def test_not_found_explains_tenant_isolation():
    exc = NotFoundError(status=404, title="Not found", detail="No assessment asm_x.")
    assert "another tenant" in describe_problem(exc).text()


def test_proxy_html_page_still_reads_as_a_message():
    response = httpx.Response(
        502,
        headers={"content-type": "text/html"},
        content=b"<html><body><h1>Bad gateway</h1></body></html>",
        request=httpx.Request("GET", "http://proxy/v1/quality"),
    )
    problem = describe_problem(status_error_from_response(response))
    assert "Bad gateway" in problem.text()
    assert "try again later" in problem.text()
    assert "<h1>" not in problem.text()


def test_argument_and_shape_errors_are_readable():
    assert "latitude" in describe_problem(InvalidArgumentError("latitude", "out of range")).text()
    shape = describe_problem(ResponseValidationError("data.value", "not a number"))
    assert "data.value" in shape.text() and "does not understand" in shape.title


def test_an_unexpected_bug_is_named_without_a_traceback():
    text = describe_problem(KeyError("x")).text()
    assert "KeyError" in text and "Traceback" not in text


def test_an_error_of_another_library_with_a_client_errors_name_is_not_taken_for_it():
    # Errors were once recognised by class name: any library's "APIConnectionError" (an LLM
    # SDK has one) read as "the service is unreachable", and sent the reader to check the URL.
    class APIConnectionError(Exception):
        pass

    problem = describe_problem(APIConnectionError("quota exhausted"))
    assert problem.title == "Something went wrong"
    assert "APIConnectionError: quota exhausted" in problem.detail


def test_a_422s_messages_are_kept_by_field_for_the_form():
    exc = UnprocessableEntityError(
        status=422,
        title="Unprocessable Entity",
        detail="…",
        errors=[
            {"field": "address.countryCode", "message": "String should match pattern"},
            {"field": "requestedPeakLoadMw", "message": "Input should be greater than 0"},
            {"message": "averageLoadMw must not exceed requestedPeakLoadMw"},
        ],
    )
    problem = describe_problem(exc)
    assert problem.messages_for("address") == ["String should match pattern"]
    assert problem.messages_for("address.countryCode") == ["String should match pattern"]
    # the validator's sentence in the app's words
    assert problem.messages_for("requestedPeakLoadMw") == ["Must be more than 0."]
    assert problem.messages_for("") == ["averageLoadMw must not exceed requestedPeakLoadMw"]
    assert problem.messages_for("redundancy") == []


def test_an_address_in_a_problem_is_no_link():
    exc = NotFoundError(
        status=404,
        title="Not found: www.evil.example",
        detail="No assessment 'http://evil.example' (write to jane@evil.example).",
    )
    markdown = describe_problem(exc).markdown()
    outside = CODE_SPAN.sub("", markdown)
    for linkable in ("http", "www.", "evil.example", "jane@"):
        assert linkable not in outside, (linkable, markdown)
    assert "http://evil.example'" in markdown  # shown, inside a code span


def test_a_hostile_problem_is_drawn_as_text():
    """A service (or a proxy) answering with markdown in its problem cannot put a link, an
    image or emphasis in the app's error box: every piece of its text is escaped."""
    exc = NotFoundError(
        status=404,
        title="**Session expired**",
        detail="[Sign in again](http://evil.example/login) ![](http://evil.example/p.png)",
        request_id="req_`x`",
        errors=[{"field": "a", "message": "<img src=x onerror=alert(1)>"}],
    )
    markdown = describe_problem(exc).markdown()
    for markup in ("**Session", "](", "![", "`x`"):
        assert markup not in markdown, markup
    assert re.search(r"(?<!\\)<", markdown) is None  # every < escaped: no HTML
    assert markdown.startswith("**\\*\\*Session expired\\*\\***")
