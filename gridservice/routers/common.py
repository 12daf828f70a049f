"""What every router shares: strict query parameters, paging, documented error responses."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import Depends, Query, Request
from starlette.responses import Response

from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import (
    ORDER_ID_ASC,
    CursorCodec,
    json_bytes_response,
    meta_bytes,
    page_data_bytes,
)
from gridservice.store import collections

MAX_ID = 2147483647

Limit = Annotated[int, Query(ge=1, le=500, description="Page size, 1 to 500.")]
Cursor = Annotated[
    str | None,
    Query(max_length=4096, description="`meta.nextCursor` of the previous page, unchanged."),
]
FilterText = Annotated[str | None, Query(max_length=200)]
PlantId = Annotated[int | None, Query(ge=1, le=MAX_ID)]

_PROBLEM_TEXT = {
    400: "Malformed request: bad parameter, unknown parameter, bad cursor or header.",
    401: "Missing or unknown bearer token.",
    403: "The token may not do this.",
    404: "No such resource for this tenant.",
    406: "The Accept header excludes JSON.",
    409: "The same Idempotency-Key is still being processed.",
    412: "If-Match names a version of the resource that is no longer current.",
    413: "The request body is larger than the service accepts.",
    415: "The request body is not JSON.",
    422: "The body fails validation, or an Idempotency-Key is reused with another body.",
    429: "Rate limited; see Retry-After.",
    500: "Unexpected failure.",
    503: "The store is unavailable.",
}
GET_ERRORS = (400, 401, 403, 404, 406, 422, 429, 500, 503)
POST_ERRORS = (400, 401, 403, 404, 406, 409, 413, 415, 422, 429, 500, 503)


def problem_responses(statuses: tuple[int, ...] = GET_ERRORS) -> dict[int | str, dict[str, Any]]:
    """Return FastAPI `responses=` entries for error statuses, as problem+json."""
    schema = {"$ref": "#/components/schemas/Problem"}
    out: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        headers = {}
        if status == 429:
            headers["Retry-After"] = {"schema": {"type": "integer"}, "description": "Seconds."}
        if status == 401:
            headers["WWW-Authenticate"] = {"schema": {"type": "string"}}
        out[status] = {
            "description": _PROBLEM_TEXT[status],
            "content": {"application/problem+json": {"schema": schema}},
            **({"headers": headers} if headers else {}),
        }
    return out


def _declared_query_names(route: Any) -> frozenset[str]:
    cached = getattr(route, "_gds_query_names", None)
    if cached is None:
        names: set[str] = set()
        pending = [route.dependant]
        while pending:
            dependant = pending.pop()
            names.update(p.alias for p in dependant.query_params)
            pending.extend(dependant.dependencies)
        cached = frozenset(names)
        route._gds_query_names = cached
    return cached


def _refuse_parameters(code: str, detail: str, names: list[str], message: str) -> None:
    """Raise the 400 naming each parameter refused, when there is one."""
    if names:
        raise ApiError(
            400, code, detail, errors=[{"field": name, "message": message} for name in names]
        )


def refuse_unknown_query(request: Request) -> None:
    """Refuse query parameters the operation does not declare, or a repeated one (400)."""
    route = request.scope.get("route")
    if route is None or not hasattr(route, "dependant"):
        return
    known = _declared_query_names(route)
    keys = [k for k, _ in request.query_params.multi_items()]
    unknown = sorted({k for k in keys if k not in known})
    allowed = ", ".join(sorted(known)) or "none"
    _refuse_parameters(
        "unknown_parameter",
        f"Unknown query parameter(s): {', '.join(unknown)}. This operation accepts: {allowed}.",
        unknown,
        "unknown query parameter",
    )
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    _refuse_parameters(
        "repeated_parameter",
        f"Query parameter(s) sent more than once: {', '.join(repeated)}.",
        repeated,
        "sent more than once",
    )


def refuse_nul_parameters(request: Request) -> None:
    """Refuse a path or query parameter holding NUL (U+0000) (400): no store keeps it in
    text (PostgreSQL refuses it outright), so it can name nothing."""
    named = [*request.path_params.items(), *request.query_params.multi_items()]
    bad = sorted({name for name, value in named if "\x00" in name or "\x00" in value})
    _refuse_parameters(
        "invalid_parameter",
        f"Parameter(s) holding NUL (U+0000): {', '.join(map(repr, bad))}.",
        bad,
        "contains NUL (U+0000)",
    )


def strict_parameters(request: Request) -> None:
    """Refuse unknown, repeated or NUL-holding parameters; every router declares it once."""
    refuse_nul_parameters(request)
    refuse_unknown_query(request)


StrictQuery = Depends(strict_parameters)


def codec(request: Request) -> CursorCodec:
    return request.app.state.cursor_codec


def conn_for(request: Request):
    """Return this thread's store connection."""
    return request.app.state.connections.get()


def cursor_after(
    request: Request, cursor: str | None, endpoint: str, filters: Mapping[str, Any]
) -> str | None:
    """Return the key a keyset cursor resumes after (None without a cursor), or the 400."""
    if cursor is None:
        return None
    position = codec(request).decode(cursor, endpoint, filters)
    if len(position) != 1 or not isinstance(position[0], str):
        raise ApiError(400, "malformed_cursor", "The cursor cannot be read.")
    return position[0]


def page_response(
    request: Request,
    collection: str,
    filters: Mapping[str, Any],
    cursor: str | None,
    limit: int,
    bodies_of: Callable[[list[tuple[str, str]]], list[str]] | None = None,
) -> Response:
    """Return one keyset page of a collection as the envelope, spliced from stored JSON.

    `bodies_of` turns the page's (id, body) rows into the bodies sent (default: as stored).
    """
    endpoint = request.scope["route"].path
    cursors = codec(request)
    after = cursor_after(request, cursor, endpoint, filters)
    rows = collections.page(conn_for(request), collection, filters, after, limit + 1)
    has_more = len(rows) > limit
    rows = rows[:limit]
    last_id = rows[-1][0] if rows else None
    next_cursor = cursors.encode(endpoint, filters, [last_id]) if has_more else None
    data = page_data_bytes(bodies_of(rows) if bodies_of else [r[1] for r in rows])
    if bodies_of is None:
        # What the page cache keeps of this page (`gridservice.runtime.page_cache`), by its key.
        key = (collection, tuple(sorted((k, v) for k, v in filters.items() if v is not None)))
        request.state.page_parts = ((*key, after, limit), data, has_more, last_id)
    tail = meta_bytes(limit=limit, has_more=has_more, next_cursor=next_cursor, order=ORDER_ID_ASC)
    return json_bytes_response(data + tail)


_DATETIME = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?)?$"
)


def _bad_instant(name: str) -> ApiError:
    return ApiError(
        400,
        "invalid_parameter",
        f"{name} must be an ISO 8601 date or date-time (e.g. 2025-01-31T00:00:00Z).",
        errors=[{"field": name, "message": "not an ISO 8601 date or date-time"}],
    )


def utc_instant(value: str | None, name: str) -> str | None:
    """Return an ISO date or date-time as the store's `YYYY-MM-DDTHH:MM:SSZ`, or raise 400.

    Fields are range-checked but, like the stored ISO strings they are compared with, not
    calendar-checked; an offset is applied to give UTC.
    """
    if value is None:
        return None
    match = _DATETIME.match(value.strip())
    if not match:
        raise _bad_instant(name)
    year, month, day, hour, minute, second, zone = match.groups()
    parts = [int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(second or 0)]
    if not (1 <= parts[1] <= 12 and 1 <= parts[2] <= 31 and parts[3] <= 23 and parts[4] <= 59):
        raise _bad_instant(name)
    if parts[5] > 60:
        raise _bad_instant(name)
    parts[5] = min(parts[5], 59)  # an RFC 3339 leap second counts as :59
    if zone and zone.upper() != "Z":
        digits = zone[1:].replace(":", "")
        offset = dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        last_day = calendar.monthrange(max(parts[0], 1), parts[1])[1]
        try:
            stamp = dt.datetime(max(parts[0], 1), parts[1], min(parts[2], last_day), *parts[3:])
            stamp = stamp - offset if zone[0] == "+" else stamp + offset
        except OverflowError:
            raise _bad_instant(name) from None
        return stamp.strftime("%Y-%m-%dT%H:%M:%SZ").rjust(20, "0")
    return "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}Z".format(*parts)


def as_date(value: str | None, name: str) -> str | None:
    """Return the calendar day (YYYY-MM-DD, as written) of a valid date or date-time."""
    if value is None:
        return None
    utc_instant(value, name)
    return value.strip()[:10]
