"""Turning any failure into a readable message: title, detail, request id, and how to fix it.

Pages wrap their body in `problem_boundary()`, so no traceback ever reaches the screen:

    with problem_boundary():
        ...draw the page...
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import streamlit as st

from components.connection import connection_key
from components.text import escape_markdown
from gridclient import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    ResponseValidationError,
)

log = logging.getLogger(__name__)

# Streamlit's own control-flow exceptions (rerun, stop, switch_page) must pass through. They
# live in Streamlit's internals, whose module paths change between versions: matched by name.
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
    # field path as the service names it ("address.countryCode"; "" for none) -> its messages
    by_field: dict[str, list[str]] = field(default_factory=dict)

    def messages_for(self, prefix: str) -> list[str]:
        """Return the messages of a field and of its members (`address` gets `address.*`)."""
        return [
            message
            for name, messages in self.by_field.items()
            if name == prefix or name.startswith(prefix + ".")
            for message in messages
        ]

    def markdown(self) -> str:
        """Return the message as markdown in which every piece of text is shown literally.

        Title, detail and field errors come from the service, an exception or the URL (an id
        a shared link carries): escaped, none of them can make a link, an image or emphasis.
        """
        lines = [f"**{escape_markdown(self.title)}**", escape_markdown(self.detail)]
        lines.extend(f"- {escape_markdown(message)}" for message in self.field_errors)
        if self.hint:
            lines.append(escape_markdown(self.hint))
        if self.request_id:
            lines.append(f"Request id: {escape_markdown(self.request_id)}")
        return "\n\n".join(line for line in lines if line)

    def text(self) -> str:
        """Return the whole message as plain text (what `show_problem` displays)."""
        lines = [f"**{self.title}**", self.detail]
        lines.extend(f"- {message}" for message in self.field_errors)
        if self.hint:
            lines.append(self.hint)
        if self.request_id:
            lines.append(f"Request id: `{self.request_id}`")
        return "\n\n".join(line for line in lines if line)


def _is_control_flow(exc: BaseException) -> bool:
    return any(cls.__name__ in _CONTROL_FLOW for cls in type(exc).__mro__)


# The service's field messages are its validator's (pydantic's) sentences; the ones a form
# meets, said in the app's words. Anything else is shown as the service wrote it.
_PLAIN_MESSAGES = [
    (re.compile(r"^String should have at most (\d+) characters?$"),
     r"Too long: at most \1 characters. Shorten it."),
    (re.compile(r"^String should have at least (\d+) characters?$"),
     r"Too short: at least \1 characters."),
    (re.compile(r"^(?:List|Dictionary) should have at most (\d+) items? after validation, "
                r"not (\d+)$"),
     r"Too many entries: at most \1, not \2."),
    (re.compile(r"^Input should be greater than or equal to (\S+)$"), r"Must be at least \1."),
    (re.compile(r"^Input should be greater than (\S+)$"), r"Must be more than \1."),
    (re.compile(r"^Input should be less than or equal to (\S+)$"), r"Must be at most \1."),
    (re.compile(r"^Field required$"), "Required."),
]  # fmt: skip


def plain_message(message: str) -> str:
    """Return a field message of the service in the app's words (unchanged when unknown)."""
    for pattern, words in _PLAIN_MESSAGES:
        if pattern.match(message):
            return pattern.sub(words, message)
    return message


def _field_pairs(errors: list) -> list[tuple[str | None, str]]:
    """Return the problem body's `errors` as (field, message) pairs, in the app's words."""
    pairs = []
    for error in errors:
        if isinstance(error, dict):
            name, message = error.get("field"), error.get("message")
            text = plain_message(str(message)) if message else str(error)
            pairs.append((str(name) if name else None, text))
        else:
            pairs.append((None, str(error)))
    return pairs


def _request_origin(exc: BaseException) -> str | None:
    request = getattr(exc, "request", None)
    url = getattr(request, "url", None)
    if url is None:
        return None
    return f"{url.scheme}://{url.netloc.decode()}" if hasattr(url, "netloc") else str(url)


def describe_problem(exc: BaseException, base_url: str | None = None) -> Problem:
    """Return the readable form of a client (or any) exception."""
    where = base_url or _request_origin(exc) or "the configured URL"
    if isinstance(exc, APITimeoutError):
        return Problem(
            "The service took too long to answer",
            f"The service at {where} did not answer in time.",
            hint="Try again in a moment; if it keeps happening, check the service's health.",
        )
    if isinstance(exc, APIConnectionError):
        return Problem(
            "The service is unreachable",
            f"The service at {where} is unreachable — is it running, and is "
            "GRID_API_BASE_URL (or `grid_api_base_url` in secrets) right?",
            hint="Unset GRID_API_BASE_URL to use the embedded demo service instead.",
        )
    if isinstance(exc, APIStatusError):
        return _status_problem(exc)
    if isinstance(exc, ResponseValidationError):
        return Problem(
            "The service sent a response the app does not understand",
            str(exc),
            request_id=exc.request_id,
            hint="The deployment may run a different interface version than this app expects.",
        )
    if isinstance(exc, ValueError):
        return Problem("That input cannot be sent", str(exc))
    return Problem(
        "Something went wrong",
        f"{type(exc).__name__}: {exc}",
        hint="This is a bug in the app; the details are in the server log.",
    )


def _status_problem(exc: APIStatusError) -> Problem:
    status = exc.status
    title = exc.title or f"The service answered {status}"
    detail = exc.detail or str(exc)
    pairs = _field_pairs(exc.errors)
    fields = [f"{name}: {message}" if name else message for name, message in pairs]
    by_field: dict[str, list[str]] = {}
    for name, message in pairs:
        by_field.setdefault(name or "", []).append(message)
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
    return Problem(title, detail, exc.request_id, hint, fields, status, by_field)


def draw_field_messages(problem: Problem | None, name: str) -> None:
    """Draw, under a form field, the messages `problem` has about it (nothing when none)."""
    # Members refused for one reason (latitude and longitude of a point abroad) say it once.
    for message in dict.fromkeys(problem.messages_for(name) if problem else []):
        st.caption(f":red[{escape_markdown(message)}]")


def show_problem(exc: BaseException, base_url: str | None = None) -> Problem:
    """Draw the failure as an st.error and return what was drawn."""
    problem = describe_problem(exc, base_url)
    draw_problem(problem)
    return problem


def draw_problem(problem: Problem) -> None:
    """Draw a described failure as an st.error."""
    st.error(problem.markdown(), icon=":material/error:")


def _current_base_url() -> str | None:
    try:
        return connection_key().base_url
    except Exception:  # the connection itself may be what failed
        return None


@contextmanager
def problem_boundary() -> Iterator[None]:
    """Run a page body; any exception becomes a readable message instead of a traceback."""
    try:
        yield
    except Exception as exc:
        if _is_control_flow(exc):
            raise
        log.exception("page failed")
        show_problem(exc, getattr(exc, "base_url", None) or _safe_base_url(exc))


def _safe_base_url(exc: BaseException) -> str | None:
    return _current_base_url() if isinstance(exc, APIConnectionError) else None
