"""Per-request work done before routing: request id, content negotiation and version."""

from __future__ import annotations

import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gridservice.errors import ApiError, problem_response
from gridservice.versioning import resolve_version

_JSON_RANGES = {"*/*", "application/*", "application/json", "application/problem+json"}
_HTML_PATHS = ("/v1/docs",)


def accepts_json(accept: str | None) -> bool:
    """True when an Accept header admits a JSON body (absent or empty admits everything)."""
    if accept is None or not accept.strip():
        return True
    for part in accept.split(","):
        media, *params = (p.strip() for p in part.split(";"))
        quality = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if media.lower() in _JSON_RANGES and quality > 0:
            return True
    return False


class RequestContextMiddleware:
    """Gives every response an `X-Request-Id` and a `Service-Version`; refuses 406s early."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        request_id = "req_" + uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        path = scope.get("path", "")
        try:
            if not path.startswith(_HTML_PATHS) and not accepts_json(headers.get("accept")):
                raise ApiError(
                    406,
                    "not_acceptable",
                    "This service answers with application/json (errors: application/problem+json).",
                )
            version = resolve_version(headers.get("service-version"))
        except ApiError as error:
            response = problem_response(
                error.status, error.code, error.detail, instance=path, request_id=request_id
            )
            await response(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"x-request-id", request_id.encode()),
                    (b"service-version", version.encode()),
                ]
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    h for h in extra if h[0] not in names
                ]
            await send(message)

        await self.app(scope, receive, send_with_headers)
