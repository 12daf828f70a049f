"""The HTTP connection in front of the app: a read deadline, problem+json for malformed
requests, and an access log that never shows a credential.

uvicorn reads a request for as long as the client keeps sending: a client that dribbles its
headers or body a byte at a time holds a connection (and a slot of the server) for ever. The
protocol here gives every request `read_timeout` seconds from its first byte (or from the
connection's opening) to arrive whole; a request still incomplete then is dropped, with a 408
problem when its headers never completed. uvicorn's own answer to a request line it cannot
parse is a `text/plain` 400; here it is a problem like every other error of the service.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import uuid
from urllib.parse import unquote_plus

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gridservice.errors import PROBLEM_MEDIA_TYPE, problem_body

DEFAULT_READ_TIMEOUT_SECONDS = 30.0
_REASONS = {400: b"Bad Request", 408: b"Request Timeout"}


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a per-request read deadline and problem+json 400s."""

    read_timeout: float = DEFAULT_READ_TIMEOUT_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._read_deadline: asyncio.TimerHandle | None = None
        self._arm_read_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_read_deadline()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_read_deadline()

    def on_message_complete(self) -> None:
        self._disarm_read_deadline()
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        self._disarm_read_deadline()
        self._send_problem(
            400, "malformed_request", "The request is not well-formed HTTP/1.1; it was not read."
        )

    def _arm_read_deadline(self) -> None:
        if getattr(self, "_read_deadline", None) is None:
            self._read_deadline = self.loop.call_later(self.read_timeout, self._read_too_slow)

    def _disarm_read_deadline(self) -> None:
        deadline = getattr(self, "_read_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._read_deadline = None

    def _read_too_slow(self) -> None:
        self._read_deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete:
            # Still reading the request line or headers: nothing of the app runs yet.
            self._send_problem(
                408,
                "request_timeout",
                f"The request did not arrive whole within {self.read_timeout:g} s.",
            )
        else:
            # The app is waiting for the rest of the body: it sees the client disconnect.
            self.transport.close()

    def _send_problem(self, status: int, code: str, detail: str) -> None:
        request_id = "req_" + uuid.uuid4().hex
        body = json.dumps(
            problem_body(
                status=status, code=code, detail=detail, instance="", request_id=request_id
            ),
            separators=(",", ":"),
        ).encode()
        head = [b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status])]
        head += [
            name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers
        ]
        head += [
            b"content-type: " + PROBLEM_MEDIA_TYPE.encode() + b"\r\n",
            b"content-length: %d\r\n" % len(body),
            b"x-request-id: " + request_id.encode() + b"\r\n",
            b"connection: close\r\n\r\n",
        ]
        self.transport.write(b"".join(head) + body)
        self.transport.close()


def guarded_protocol(read_timeout: float) -> type[GuardedHttpProtocol]:
    """Return the protocol class with its read deadline set (uvicorn instantiates it)."""
    return type("GuardedHttpProtocol", (GuardedHttpProtocol,), {"read_timeout": read_timeout})


# A parameter name that says it carries a credential, once decoded, case-folded and stripped
# of separators (`api-key`, `API_KEY` and `apikey` alike). `pass` covers password and passwd,
# `sig` signature, `key` api_key.
_CREDENTIAL_WORDS = re.compile(r"token|key|secret|pass|auth|sig|session|bearer|jwt|credential")
_NOT_LETTERS = re.compile(r"[\W_]+")
_PARAMETER_SEPARATORS = re.compile(r"([&;])")
# A name encoded more than once is decoded this many times at most.
_DECODINGS = 3


def names_a_credential(raw_name: str) -> bool:
    """Return whether a query parameter's name, as sent, says it carries a credential."""
    name = raw_name
    for _ in range(_DECODINGS):
        decoded = unquote_plus(name)
        if decoded == name:
            break
        name = decoded
    return _CREDENTIAL_WORDS.search(_NOT_LETTERS.sub("", name.casefold())) is not None


def redact_credentials(path_with_query: str) -> str:
    """Return the path with the value of every credential-like query parameter replaced."""
    path, mark, query = path_with_query.partition("?")
    if not mark:
        return path_with_query
    # `;` is split on too: a framework that reads it as a separator would see a parameter.
    parts = _PARAMETER_SEPARATORS.split(query)
    for index in range(0, len(parts), 2):
        name, equals, _value = parts[index].partition("=")
        if equals and names_a_credential(name):
            parts[index] = name + "=[redacted]"
    return path + mark + "".join(parts)


class RedactCredentials(logging.Filter):
    """Rewrites uvicorn's access-log records so no credential of a query string is kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) >= 3:
            args = list(record.args)
            args[2] = redact_credentials(str(args[2]))
            record.args = tuple(args)
        return True


def redact_access_log() -> None:
    """Put the redaction on uvicorn's access logger (once)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactCredentials) for f in access.filters):
        access.addFilter(RedactCredentials())
