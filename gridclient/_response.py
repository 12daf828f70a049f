"""The untouched HTTP response behind a parsed result."""

from __future__ import annotations

import json
from typing import Any

import httpx


class RawResponse:
    """The bytes, status and headers of one response, exactly as the service sent them."""

    __slots__ = ("headers", "raw_bytes", "request_id", "status_code", "url")

    def __init__(self, response: httpx.Response) -> None:
        self.status_code: int = response.status_code
        self.headers: httpx.Headers = response.headers
        self.raw_bytes: bytes = response.content
        try:
            self.url: str = str(response.request.url)
        except RuntimeError:  # a response built by hand has no request
            self.url = ""
        self.request_id: str | None = response.headers.get("x-request-id")

    def json(self) -> Any:
        """The body decoded as JSON (parsed afresh from the raw bytes)."""
        return json.loads(self.raw_bytes)

    @property
    def text(self) -> str:
        """The body as text (UTF-8)."""
        return self.raw_bytes.decode("utf-8", errors="replace")

    @property
    def meta(self) -> dict[str, Any]:
        """The body's ``meta`` object, or an empty dict."""
        body = self.json()
        meta = body.get("meta") if isinstance(body, dict) else None
        return meta if isinstance(meta, dict) else {}

    def __repr__(self) -> str:
        return f"<RawResponse {self.status_code} {len(self.raw_bytes)} bytes>"
