"""Keyset paging: signed opaque cursors and the collection envelope, built as bytes.

A cursor is `base64url(payload) + "." + base64url(HMAC-SHA256(payload))`; the payload is
JSON holding the position after the last record sent, a SHA-256 binding the endpoint and its
filters, and an expiry. Records are spliced into the envelope as the JSON text the store
keeps, so a page of 500 records is never parsed and re-serialised.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response

from gridservice.runtime.errors import ApiError

ORDER_ID_ASC = "id_asc"
ORDER_RANK_DESC_ID_ASC = "rank_desc_id_asc"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def filters_digest(endpoint: str, filters: Mapping[str, Any]) -> str:
    """Return the SHA-256 that binds a cursor to its endpoint and filter values."""
    canonical = json.dumps(
        {"endpoint": endpoint, "filters": {k: v for k, v in filters.items() if v is not None}},
        sort_keys=True,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CursorCodec:
    """Signs and checks cursors with one secret and lifetime."""

    secret: bytes
    ttl_seconds: int

    def encode(
        self,
        endpoint: str,
        filters: Mapping[str, Any],
        position: Sequence[Any],
        *,
        digest: str | None = None,
    ) -> str:
        """Sign a cursor; `digest`, when given, is `filters_digest(endpoint, filters)`."""
        payload = {
            "p": list(position),
            "f": digest or filters_digest(endpoint, filters),
            "e": int(time.time()) + self.ttl_seconds,
        }
        raw = json.dumps(payload, separators=(",", ":")).encode("utf-8")
        signature = hmac.new(self.secret, raw, hashlib.sha256).digest()
        return f"{_b64(raw)}.{_b64(signature)}"

    def decode(self, cursor: str, endpoint: str, filters: Mapping[str, Any]) -> list[Any]:
        """Return the position a cursor holds, or raise the 400 that says what is wrong."""
        try:
            raw_b64, sig_b64 = cursor.split(".")
            raw, signature = _unb64(raw_b64), _unb64(sig_b64)
        except (ValueError, binascii.Error):
            raise ApiError(
                400, "malformed_cursor", "The cursor is not one this service issued."
            ) from None
        expected = hmac.new(self.secret, raw, hashlib.sha256).digest()
        if not hmac.compare_digest(signature, expected):
            raise ApiError(
                400, "invalid_cursor_signature", "The cursor was altered or not issued here."
            )
        try:
            payload = json.loads(raw)
            position, digest, expiry = payload["p"], payload["f"], payload["e"]
        except (ValueError, KeyError, TypeError):
            raise ApiError(400, "malformed_cursor", "The cursor cannot be read.") from None
        if int(expiry) < time.time():
            raise ApiError(400, "expired_cursor", "The cursor has expired; start from page one.")
        if digest != filters_digest(endpoint, filters):
            raise ApiError(
                400,
                "cursor_filter_mismatch",
                "The cursor belongs to another endpoint or other filters; "
                "send the same filters, or start again without a cursor.",
            )
        return list(position)


def page_data_bytes(bodies: Sequence[str]) -> bytes:
    """Return `{"data":[...]` with the records' stored JSON spliced in (the envelope's head)."""
    return b'{"data":[' + ",".join(bodies).encode("utf-8") + b"]"


def meta_bytes(*, limit: int, has_more: bool, next_cursor: str | None, order: str) -> bytes:
    """Return `,"meta":{...}}`, the envelope's tail after `page_data_bytes`."""
    meta = json.dumps(
        {"hasMore": has_more, "limit": limit, "nextCursor": next_cursor, "order": order},
        separators=(",", ":"),
    )
    return b',"meta":' + meta.encode() + b"}"


def envelope_bytes(
    bodies: Sequence[str], *, limit: int, has_more: bool, next_cursor: str | None, order: str
) -> bytes:
    """Return `{"data": [...], "meta": {...}}` with the records' stored JSON spliced in."""
    return page_data_bytes(bodies) + meta_bytes(
        limit=limit, has_more=has_more, next_cursor=next_cursor, order=order
    )


def json_bytes_response(
    content: bytes, status_code: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    return Response(
        content, status_code=status_code, headers=dict(headers or {}), media_type="application/json"
    )


def data_response(
    body_json: str,
    *,
    meta: Mapping[str, Any] | None = None,
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """Return `{"data": <stored JSON>}` (and `meta`) without re-parsing the record."""
    parts = ['{"data":', body_json]
    if meta is not None:
        parts += [',"meta":', json.dumps(meta, separators=(",", ":"), ensure_ascii=False)]
    parts.append("}")
    return json_bytes_response("".join(parts).encode("utf-8"), status_code, headers)
