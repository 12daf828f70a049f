"""Turning any failure into a readable message: title, detail, request id, and how to fix it.

Pages wrap their body in `problem_boundary()`, so no traceback ever reaches the screen:

    with problem_boundary():
        ...draw the page...
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import streamlit as st

log = logging.getLogger(__name__)

# Streamlit's own control-flow exceptions (rerun, stop, switch_page) must pass through.
_CONTROL_FLOW = ("RerunException", "StopException", "SwitchPageException")


@dataclass(frozen=True)
class Problem:
    """A failure put in words a user can act on."""

    title: str
    detail: str
    request_id: str | None = None
    hint: str | None = None
    field_errors: list[str] = field(default_factory=list)
    status: int | None = None

    def text(self) -> str:
        """Return the whole message as plain text (what `show_problem` displays)."""
        lines = [f"**{self.title}**", self.detail]
        lines.extend(f"- {message}" for message in self.field_errors)
        if self.hint:
            lines.append(self.hint)
        if self.request_id:
            lines.append(f"Request id: `{self.request_id}`")
        return "\n\n".join(line for line in lines if line)


def _names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def _field_errors(errors) -> list[str]:
    messages = []
    for error in errors or []:
        if isinstance(error, dict):
            name, message = error.get("field"), error.get("message")
        else:
            name, message = getattr(error, "field", None), getattr(error, "message", None)
        messages.append(f"{name}: {message}" if name else str(message or error))
    return messages


def _request_origin(exc: BaseException) -> str | None:
    request = getattr(exc, "request", None)
    url = getattr(request, "url", None)
    if url is None:
        return None
    return f"{url.scheme}://{url.netloc.decode()}" if hasattr(url, "netloc") else str(url)


def describe_problem(exc: BaseException, base_url: str | None = None) -> Problem:
    """Return the readable form of a client (or any) exception."""
    names = _names(exc)
    where = base_url or _request_origin(exc) or "the configured URL"
    if "APITimeoutError" in names:
        return Problem(
            "The service took too long to answer",
            f"The service at {where} did not answer in time.",
            hint="Try again in a moment; if it keeps happening, check the service's health.",
        )
    if "APIConnectionError" in names:
        return Problem(
            "The service is unreachable",
            f"The service at {where} is unreachable — is it running, and is "
            "GRID_API_BASE_URL (or `grid_api_base_url` in secrets) right?",
            hint="Unset GRID_API_BASE_URL to use the embedded demo service instead.",
        )
    status = getattr(exc, "status", None) or getattr(exc, "status_code", None)
    if status is not None and "APIStatusError" in names:
        return _status_problem(exc, int(status))
    if "ResponseValidationError" in names:
        return Problem(
            "The service sent a response the app does not understand",
            str(exc),
            request_id=getattr(exc, "request_id", None),
            hint="The deployment may run a different interface version than this app expects.",
        )
    if isinstance(exc, ValueError):
        return Problem("That input cannot be sent", str(exc))
    return Problem(
        "Something went wrong",
        f"{type(exc).__name__}: {exc}",
        hint="This is a bug in the app; the details are in the server log.",
    )


def _status_problem(exc: BaseException, status: int) -> Problem:
    title = getattr(exc, "title", None) or f"The service answered {status}"
    detail = getattr(exc, "detail", None) or str(exc)
    request_id = getattr(exc, "request_id", None)
    fields = _field_errors(getattr(exc, "errors", None))
    hints = {
        401: "The token was refused — set GRID_API_TOKEN (or `grid_api_token` in secrets) "
        "to a token this deployment issued.",
        403: "The token is valid but not allowed to do this; ask for a token with access.",
        404: "Nothing with that id exists for your tenant (another tenant's records are "
        "reported as not found).",
        429: "The service is rate limiting; wait a moment and try again.",
    }
    hint = hints.get(status)
    if hint is None and status >= 500:
        hint = "The service failed; try again later, and quote the request id if it persists."
    return Problem(title, detail, request_id, hint, fields, status)


def show_problem(exc: BaseException, base_url: str | None = None) -> Problem:
    """Draw the failure as an st.error and return what was drawn."""
    problem = describe_problem(exc, base_url)
    st.error(problem.text(), icon="⚠️")
    return problem


def _current_base_url() -> str | None:
    try:
        from components.connection import connection_key

        return connection_key().base_url
    except Exception:
        return None


@contextmanager
def problem_boundary() -> Iterator[None]:
    """Run a page body; any exception becomes a readable message instead of a traceback."""
    try:
        yield
    except Exception as exc:
        if _names(exc) & set(_CONTROL_FLOW):
            raise
        log.exception("page failed")
        show_problem(exc, getattr(exc, "base_url", None) or _safe_base_url(exc))


def _safe_base_url(exc: BaseException) -> str | None:
    if "APIConnectionError" in _names(exc) or "APITimeoutError" in _names(exc):
        return _current_base_url()
    return None
