"""The exceptions gridclient raises, as one tree that mirrors HTTP.

::

    GridAPIError                          every error this package raises
    ├── InvalidArgumentError (ValueError) an argument failed a check; nothing was sent
    ├── APIConnectionError                the service could not be reached
    │   └── APITimeoutError               ... or did not answer in time
    ├── ResponseValidationError           a 2xx body does not fit the interface (names the field)
    └── APIStatusError                    the service answered with an error status
        ├── BadRequestError               400
        │   ├── NotAcceptableError        406 (the Accept header excludes JSON)
        │   └── UnsupportedMediaTypeError 415 (the body is not JSON)
        ├── AuthenticationError           401
        ├── PermissionDeniedError         403
        ├── NotFoundError                 404
        ├── ConflictError                 409
        ├── PreconditionFailedError       412 (``If-Match`` names a version no longer current)
        ├── UnprocessableEntityError      422
        ├── RateLimitError                429 (``retry_after`` in seconds, when sent)
        └── InternalServerError           5xx

406 and 415 sit under ``BadRequestError``: like a 400, they mean the request must change
before it can succeed. Any other status is a plain ``APIStatusError``.

An ``APIStatusError`` carries the members of the RFC 9457 problem body (``title``,
``detail``, ``code``, ``errors``, ``type``), the HTTP ``status``, the ``request_id`` and
the decoded ``body``. A body that is not a problem (a proxy's HTML page) still gives a
readable message: the status and a short excerpt of its text.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from gridclient._retry import parse_retry_after

__all__ = [
    "APIConnectionError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "GridAPIError",
    "InternalServerError",
    "InvalidArgumentError",
    "NotAcceptableError",
    "NotFoundError",
    "PermissionDeniedError",
    "PreconditionFailedError",
    "RateLimitError",
    "ResponseValidationError",
    "UnprocessableEntityError",
    "UnsupportedMediaTypeError",
]

_EXCERPT_CHARS = 160


class GridAPIError(Exception):
    """Base of every error raised by gridclient."""


class InvalidArgumentError(GridAPIError, ValueError):
    """An argument failed a check before anything was sent; ``argument`` names it."""

    def __init__(self, argument: str, message: str) -> None:
        self.argument = argument
        self.message = message
        super().__init__(f"{argument}: {message}")


class APIConnectionError(GridAPIError):
    """The request did not get an HTTP answer (DNS, refused, reset, TLS...)."""

    def __init__(
        self,
        message: str,
        *,
        request: httpx.Request | None = None,
        base_url: str | None = None,
    ) -> None:
        self.request = request
        self.base_url = base_url
        super().__init__(message)


class APITimeoutError(APIConnectionError):
    """The service did not answer within the client's timeout."""


class ResponseValidationError(GridAPIError):
    """A successful body does not fit the interface; ``field`` names where."""

    def __init__(
        self,
        field: str,
        message: str,
        *,
        status: int | None = None,
        request_id: str | None = None,
    ) -> None:
        self.field = field
        self.message = message
        self.status = status
        self.request_id = request_id
        suffix = f" (request_id={request_id})" if request_id else ""
        super().__init__(f"response field {field!r}: {message}{suffix}")


class APIStatusError(GridAPIError):
    """The service answered with an error status; members come from the problem body."""

    def __init__(
        self,
        *,
        status: int,
        title: str,
        detail: str | None = None,
        code: str | None = None,
        type: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        request_id: str | None = None,
        body: Any = None,
        response: httpx.Response | None = None,
    ) -> None:
        self.status = status
        self.title = title
        self.detail = detail
        self.code = code
        self.type = type
        self.errors = errors or []
        self.request_id = request_id
        self.body = body
        self.response = response
        super().__init__(self._one_line())

    @property
    def status_code(self) -> int:
        """The HTTP status (an alias of ``status``)."""
        return self.status

    def _one_line(self) -> str:
        text = f"{self.status} {self.title}"
        if self.detail:
            text += f": {self.detail}"
        for item in self.errors[:3]:
            if isinstance(item, dict):
                text += f" [{item.get('field', '?')}: {item.get('message', '')}]"
        tags = [f"code={self.code}"] if self.code else []
        if self.request_id:
            tags.append(f"request_id={self.request_id}")
        return f"{text} ({', '.join(tags)})" if tags else text


class BadRequestError(APIStatusError):
    """400: the request is malformed (bad query value, unknown parameter, bad cursor)."""


class NotAcceptableError(BadRequestError):
    """406: the ``Accept`` header excludes JSON."""


class UnsupportedMediaTypeError(BadRequestError):
    """415: the request body is not JSON."""


class AuthenticationError(APIStatusError):
    """401: missing or unknown bearer token."""


class PermissionDeniedError(APIStatusError):
    """403: the token is valid but not allowed to do this."""


class NotFoundError(APIStatusError):
    """404: unknown id, or an id owned by another tenant."""


class ConflictError(APIStatusError):
    """409: e.g. the same Idempotency-Key is still in flight."""


class PreconditionFailedError(APIStatusError):
    """412: the record changed since the version named in ``if_match``; read it again."""


class UnprocessableEntityError(APIStatusError):
    """422: the body failed validation, or an Idempotency-Key was reused with another body."""


class RateLimitError(APIStatusError):
    """429: rate limited; ``retry_after`` is the service's advice in seconds, if any."""

    retry_after: float | None = None


class InternalServerError(APIStatusError):
    """5xx: the service (or a gateway in front of it) failed."""


_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    406: NotAcceptableError,
    409: ConflictError,
    412: PreconditionFailedError,
    415: UnsupportedMediaTypeError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def error_class_for(status: int) -> type[APIStatusError]:
    """The exception class for an HTTP error status."""
    if status >= 500:
        return InternalServerError
    return _BY_STATUS.get(status, APIStatusError)


def _text_excerpt(response: httpx.Response) -> str:
    text = response.content.decode(response.encoding or "utf-8", errors="replace")
    text = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", text)
    text = re.sub(r"<[^>]+>", " ", text)
    text = " ".join(text.split())
    if len(text) > _EXCERPT_CHARS:
        text = text[: _EXCERPT_CHARS - 1] + "…"
    return text


def status_error_from_response(response: httpx.Response) -> APIStatusError:
    """Build the typed error for an error response, problem body or not."""
    status = response.status_code
    request_id = response.headers.get("x-request-id")
    cls = error_class_for(status)
    try:
        body: Any = json.loads(response.content) if response.content else None
    except ValueError:
        body = None
    if isinstance(body, dict) and ("title" in body or "detail" in body or "code" in body):
        errors = body.get("errors")
        error = cls(
            status=status,
            title=str(body.get("title") or response.reason_phrase or "Error"),
            detail=None if body.get("detail") is None else str(body.get("detail")),
            code=body.get("code") if isinstance(body.get("code"), str) else None,
            type=body.get("type") if isinstance(body.get("type"), str) else None,
            errors=errors if isinstance(errors, list) else None,
            request_id=body.get("requestId") or request_id,
            body=body,
            response=response,
        )
    else:
        media_type = response.headers.get("content-type", "no content type").split(";")[0]
        excerpt = _text_excerpt(response)
        detail = f"non-problem {media_type} body" + (f": {excerpt}" if excerpt else " (empty)")
        error = cls(
            status=status,
            title=response.reason_phrase or "HTTP error",
            detail=detail,
            request_id=request_id,
            body=body if body is not None else response.text,
            response=response,
        )
    if isinstance(error, RateLimitError):
        error.retry_after = parse_retry_after(response.headers.get("retry-after"))
    return error
