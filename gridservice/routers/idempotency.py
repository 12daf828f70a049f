"""Idempotent creation: claim the key, do the work, store the response with the records.

The claim is its own committed transaction (`in_flight`), so a concurrent duplicate sees it
and gets 409. The work and the completed key commit together; if the work fails, the
claim is released and nothing else is stored. A claim left behind by a process that died
mid-request is taken over once older than `Settings.idempotency_lease_seconds`; the
completion only lands on the claim its own request made, so a taken-over request cannot
also commit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Header, Request
from starlette.responses import Response

from gridservice.routers.common import conn_for
from gridservice.runtime.errors import ApiError
from gridservice.runtime.paging import json_bytes_response
from gridservice.store import tenancy
from gridservice.store.write_room import is_store_full

IdempotencyKey = Annotated[
    str,
    Header(
        alias="Idempotency-Key",
        min_length=8,
        max_length=255,
        description="Unique per intended creation, 8 to 255 characters; kept at least 24 hours.",
    ),
]


def _stamp(instant: dt.datetime) -> str:
    return instant.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def dumps(value: Any) -> str:
    """Serialise a record for storage and response (ASCII-safe for any client text)."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def request_hash(operation: str, body: Any) -> str:
    canonical = json.dumps(
        [operation, body], sort_keys=True, ensure_ascii=True, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def require_json(request: Request) -> None:
    """Refuse a body that is not declared as JSON (415)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    ):
        return
    raise ApiError(
        415,
        "unsupported_media_type",
        f"Send the body as application/json (got {media or 'no Content-Type'}).",
    )


def run_idempotent(
    request: Request,
    *,
    tenant_id: str,
    operation: str,
    key: str,
    body: Any,
    work: Callable[[sqlite3.Connection], str],
    status_code: int = 201,
) -> Response:
    """Return the response of `work` (which inserts, uncommitted, and returns the JSON)."""
    conn = conn_for(request)
    settings = request.app.state.settings
    now = dt.datetime.now(dt.UTC)
    claimed_at = _stamp(now)
    claim = tenancy.claim_idempotency_key(
        conn,
        tenant_id=tenant_id,
        operation=operation,
        key=key,
        request_hash=request_hash(operation, body),
        now=claimed_at,
        expired_before=_stamp(now - dt.timedelta(seconds=settings.idempotency_ttl_seconds)),
        abandoned_before=_stamp(now - dt.timedelta(seconds=settings.idempotency_lease_seconds)),
    )
    if claim.state == "mismatch":
        raise ApiError(
            422,
            "idempotency_key_reused",
            "This Idempotency-Key was used with a different request; use a new key.",
        )
    if claim.state == "in_flight":
        raise ApiError(
            409,
            "idempotency_key_in_flight",
            "A request with this Idempotency-Key is still being processed; retry shortly.",
        )
    if claim.state == "replay":
        return json_bytes_response(
            (claim.response or "").encode("utf-8"),
            claim.status_code or status_code,
            {"Idempotent-Replayed": "true"},
        )
    try:
        response_json = work(conn)
        completed = tenancy.complete_idempotency_key(
            conn,
            tenant_id=tenant_id,
            operation=operation,
            key=key,
            claimed_at=claimed_at,
            status_code=status_code,
            response=response_json,
        )
        if completed:
            conn.commit()
            request.app.state.store_space.mark_written()
        else:
            conn.rollback()
    except BaseException:
        conn.rollback()
        try:
            tenancy.release_idempotency_key(
                conn, tenant_id=tenant_id, operation=operation, key=key, claimed_at=claimed_at
            )
        except Exception as release_error:
            # With no room, even the release may fail: the claim then lapses at its lease.
            if not is_store_full(release_error):
                raise
            conn.rollback()
        raise
    if not completed:
        raise ApiError(
            409,
            "idempotency_key_in_flight",
            "This request outlived its claim on the Idempotency-Key and another request "
            "took it over; retry to get that request's result.",
        )
    return json_bytes_response(response_json.encode("utf-8"), status_code)
