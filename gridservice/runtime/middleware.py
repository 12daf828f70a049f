"""Per-request work done before routing: request id, size caps, content negotiation, version."""

from __future__ import annotations

import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gridservice.runtime.errors import ApiError, problem_response
from gridservice.runtime.versioning import resolve_version

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


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, "body_too_large", f"The request body is larger than {limit} bytes.")


async def read_capped_body(receive: Receive, limit: int) -> list[Message]:
    """Read the whole body (chunked uploads) or raise `BodyTooLarge` once past `limit`."""
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            return messages
        size += len(message.get("body", b""))
        if size > limit:
            raise BodyTooLarge(limit)
        if not message.get("more_body", False):
            return messages


class RequestContextMiddleware:
    """Gives every response an `X-Request-Id` and a `Service-Version`; refuses early what
    it can: 406, an unsupported version, a query string past `max_query_bytes` (400) and a
    body past `max_body_bytes` (413, whether declared by Content-Length or streamed)."""

    def __init__(
        self, app: ASGIApp, *, max_body_bytes: int = 256 * 1024, max_query_bytes: int = 8192
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_query_bytes = max_query_bytes

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
            query = scope.get("query_string", b"")
            if len(query) > self.max_query_bytes:
                raise ApiError(
                    400,
                    "query_too_long",
                    f"The query string is longer than {self.max_query_bytes} bytes.",
                )
            receive = await self._capped_receive(headers, receive)
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

    async def _capped_receive(self, headers: dict[str, str], receive: Receive) -> Receive:
        """Return a `receive` that never yields more than the body cap."""
        declared = headers.get("content-length")
        if declared is not None:
            if declared.strip().isdigit() and int(declared) > self.max_body_bytes:
                raise BodyTooLarge(self.max_body_bytes)
            return receive
        if "chunked" not in headers.get("transfer-encoding", "").lower():
            return receive
        buffered = await read_capped_body(receive, self.max_body_bytes)

        async def replay() -> Message:
            return buffered.pop(0) if buffered else await receive()

        return replay


class PooledConnectionMiddleware:
    """Lend each request one pooled database connection, given back when it is answered
    (`store.backend.PooledConnections`; the SQLite store keeps one per thread instead)."""

    def __init__(self, app: ASGIApp, connections) -> None:
        self.app = app
        self.connections = connections

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with self.connections.scope():
            await self.app(scope, receive, send)
