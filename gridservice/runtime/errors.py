"""Problem details (RFC 9457): the one place every error body of the service is built."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import sys
from collections.abc import Mapping, Sequence
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from gridservice.store.backend import unavailable_errors
from gridservice.store.write_room import STORE_FULL_RETRY_SECONDS, is_store_full

PROBLEM_MEDIA_TYPE = "application/problem+json"
# Seconds a client is asked to wait when the database cannot be reached.
STORE_RETRY_AFTER_SECONDS = 5
log = logging.getLogger("gridservice")

# Header and query problems are the client's malformed request (400); body problems are 422.
_REQUEST_LOCATIONS = {"query", "header", "path", "cookie"}


class ApiError(Exception):
    """A failure the client caused or must be told about, rendered as problem+json."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        title: str | None = None,
        errors: Sequence[Mapping[str, str]] | None = None,
        headers: Mapping[str, str] | None = None,
        members: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title or HTTPStatus(status).phrase
        self.errors = list(errors) if errors is not None else None
        self.headers = dict(headers or {})
        # Extension members of the problem (RFC 9457 section 3.2), e.g. the allowed moves.
        self.members = dict(members or {})


def problem_body(
    *,
    status: int,
    code: str,
    detail: str,
    instance: str,
    request_id: str,
    title: str | None = None,
    errors: Sequence[Mapping[str, str]] | None = None,
    members: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Return the problem document; `type` is `/problems/<code with hyphens>`."""
    body: dict[str, Any] = {
        "type": "/problems/" + code.replace("_", "-"),
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "instance": instance,
        "code": code,
        "requestId": request_id,
    }
    if errors is not None:
        body["errors"] = [dict(e) for e in errors]
    # Extension members never replace the standard ones.
    body.update({k: v for k, v in (members or {}).items() if k not in body})
    return body


def problem_response(
    status: int,
    code: str,
    detail: str,
    *,
    instance: str,
    request_id: str,
    title: str | None = None,
    errors: Sequence[Mapping[str, str]] | None = None,
    headers: Mapping[str, str] | None = None,
    members: Mapping[str, Any] | None = None,
) -> Response:
    body = problem_body(
        status=status,
        code=code,
        detail=detail,
        instance=instance,
        request_id=request_id,
        title=title,
        errors=errors,
        members=members,
    )
    all_headers = dict(headers or {})
    if status == 401:
        all_headers.setdefault("WWW-Authenticate", "Bearer")
    if request_id:
        all_headers["X-Request-Id"] = request_id
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return Response(content, status_code=status, headers=all_headers, media_type=PROBLEM_MEDIA_TYPE)


def _from_error(request: Request, error: ApiError) -> Response:
    return problem_response(
        error.status,
        error.code,
        error.detail,
        instance=request.url.path,
        request_id=getattr(request.state, "request_id", ""),
        title=error.title,
        errors=error.errors,
        headers=error.headers,
        members=error.members,
    )


def _field_name(loc: Sequence[Any]) -> str:
    parts = (
        [str(p) for p in loc[1:]]
        if loc and loc[0] in {"query", "header", "path", "body"}
        else [str(p) for p in loc]
    )
    return ".".join(parts) or "body"


def _message(err: Mapping[str, Any]) -> str:
    msg = str(err.get("msg", "invalid value"))
    return re.sub(r"^Value error, ", "", msg)


_PARAM_CODES = {
    "limit": "invalid_limit",
    "period": "invalid_period",
    "idempotency-key": "invalid_idempotency_key",
    "plant_id": "invalid_plant_id",
    "page": "invalid_page",
}


def validation_error(request: Request, exc: RequestValidationError) -> Response:
    """Translate FastAPI's validation errors: malformed JSON and parameters 400, bodies 422."""
    errs = list(exc.errors())
    if any(e.get("type") == "json_invalid" for e in errs):
        return _from_error(
            request, ApiError(400, "malformed_json", "The request body is not valid JSON.")
        )
    request_errs = [e for e in errs if e.get("loc") and e["loc"][0] in _REQUEST_LOCATIONS]
    if request_errs:
        fields = [{"field": _field_name(e["loc"]), "message": _message(e)} for e in request_errs]
        names = {f["field"].lower() for f in fields}
        code = "invalid_parameter"
        if len(names) == 1:
            name = next(iter(names))
            if name == "idempotency-key":
                missing = any(e.get("type") == "missing" for e in request_errs)
                code = "missing_idempotency_key" if missing else "invalid_idempotency_key"
            else:
                code = _PARAM_CODES.get(name, code)
        detail = "; ".join(f"{f['field']}: {f['message']}" for f in fields)
        return _from_error(request, ApiError(400, code, detail, errors=fields))
    fields = [{"field": _field_name(e["loc"]), "message": _message(e)} for e in errs]
    detail = "; ".join(f"{f['field']}: {f['message']}" for f in fields) or "Invalid body."
    code = "validation_failed"
    if any(f["field"].startswith("location.coordinates") for f in fields):
        code = "invalid_coordinates"
    return _from_error(request, ApiError(422, code, detail, errors=fields))


def _allowed_methods(request: Request) -> list[str]:
    """Return every method the OpenAPI document lists for this path."""
    methods: set[str] = set()
    for template, operations in request.app.openapi().get("paths", {}).items():
        pattern = re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template))
        if re.fullmatch(pattern, request.url.path):
            methods |= {m.upper() for m in operations}
    return sorted(methods)


def install_error_handlers(app: FastAPI) -> None:
    """Route every failure, including Starlette's 404/405 and unexpected ones, through here."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return _from_error(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> Response:
        return validation_error(request, exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        codes = {404: "not_found", 405: "method_not_allowed"}
        code = codes.get(
            exc.status_code, HTTPStatus(exc.status_code).phrase.lower().replace(" ", "_")
        )
        detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(exc.status_code).phrase
        headers = dict(exc.headers or {})
        if exc.status_code == 404:
            detail = f"No resource at {request.url.path}."
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(_allowed_methods(request))
            detail = f"{request.method} is not allowed here; allowed: {headers['Allow']}."
        return _from_error(request, ApiError(exc.status_code, code, detail, headers=headers))

    async def _store_unavailable(request: Request, exc: Exception) -> Response:
        log.warning("store unavailable on %s: %s", request.url.path, type(exc).__name__)
        return _from_error(
            request,
            ApiError(
                503,
                "store_unavailable",
                "The database is unavailable; retry after the delay in Retry-After.",
                headers={"Retry-After": str(STORE_RETRY_AFTER_SECONDS)},
            ),
        )

    for unavailable in unavailable_errors():
        app.add_exception_handler(unavailable, _store_unavailable)

    async def _store_error(request: Request, exc: Exception) -> Response:
        """A write with no room (SQLite's SQLITE_FULL, PostgreSQL's 53100): 503
        `storage_full`; any other store error is unexpected."""
        if not is_store_full(exc):
            if isinstance(exc, unavailable_errors()):
                return await _store_unavailable(request, exc)
            return await _unexpected(request, exc)
        log.warning("no room in the store for a write on %s", request.url.path)
        request.app.state.store_space.mark_full()
        return _from_error(
            request,
            ApiError(
                503,
                "storage_full",
                "The store has no room for this write, and nothing of it was kept; retry "
                "after the time given (the same Idempotency-Key is safe to reuse).",
                headers={"Retry-After": str(STORE_FULL_RETRY_SECONDS)},
            ),
        )

    app.add_exception_handler(sqlite3.OperationalError, _store_error)
    if "psycopg" in sys.modules:
        app.add_exception_handler(sys.modules["psycopg"].errors.DiskFull, _store_error)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unhandled error on %s", request.url.path)
        return _from_error(
            request,
            ApiError(500, "internal_error", "The service failed; the request id helps trace it."),
        )
