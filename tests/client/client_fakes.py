"""A scripted service behind httpx.MockTransport, and response builders, for unit tests."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

import httpx

from gridclient import GridDataClient

Handler = Callable[[httpx.Request], httpx.Response]


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    headers: dict[str, str] | None = None,
    request_id: str = "req-123",
    **members: Any,
) -> httpx.Response:
    """A problem+json response as the reference service shapes it."""
    body = {
        "type": "/problems/" + code.replace("_", "-"),
        "title": httpx.codes.get_reason_phrase(status),
        "status": status,
        "detail": detail,
        "instance": "/v1/x",
        "code": code,
        "requestId": request_id,
        **members,
    }
    return httpx.Response(
        status,
        content=json.dumps(body).encode(),
        headers={"content-type": "application/problem+json", **(headers or {})},
    )


def page(records: list[dict[str, Any]], *, has_more: bool, cursor: str | None) -> httpx.Response:
    body = {
        "data": records,
        "meta": {"hasMore": has_more, "limit": 2, "nextCursor": cursor, "order": "id_asc"},
    }
    return httpx.Response(200, json=body, headers={"x-request-id": "req-page"})


def record(body: dict[str, Any], **meta: Any) -> httpx.Response:
    payload: dict[str, Any] = {"data": body}
    if meta:
        payload["meta"] = meta
    return httpx.Response(200, json=payload, headers={"x-request-id": "req-one"})


class ScriptedService:
    """Answers from a script (a list of responses, or a handler) and records every request."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.sleeps: list[float] = []
        self._script: list[httpx.Response | Exception] = []
        self._handler: Handler | None = None

    def script(self, responses: Iterable[httpx.Response | Exception]) -> None:
        self._script = list(responses)

    def handle(self, handler: Handler) -> None:
        self._handler = handler

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self._handler is not None:
            return self._handler(request)
        if not self._script:
            raise AssertionError(f"unexpected request {request.method} {request.url}")
        item = self._script.pop(0)
        if isinstance(item, Exception):
            raise item
        return item

    def client(self, **settings: Any) -> GridDataClient:
        settings.setdefault("base_url", "http://grid.test")
        settings.setdefault("token", "tok_test")
        return GridDataClient(
            http_client=httpx.Client(transport=httpx.MockTransport(self)),
            sleep=self.sleeps.append,
            **settings,
        )
