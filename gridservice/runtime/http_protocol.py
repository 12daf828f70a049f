"""The HTTP connection in front of the app: a read deadline, a cap on the request's head,
problem+json for malformed requests, and an access log that never shows a credential.

uvicorn reads a request for as long as the client keeps sending: a client that dribbles its
headers or body a byte at a time holds a connection (and a slot of the server) for ever. The
protocol here gives every request `read_timeout` seconds from its first byte (or from the
connection's opening) to arrive whole; a request still incomplete then is dropped, with a 408
problem when its headers never completed. uvicorn's own answer to a request line it cannot
parse is a `text/plain` 400; here it is a problem like every other error of the service.

httptools has no limit on a request line or a header: it gathers each by concatenating the
pieces as they arrive, so a header of many megabytes holds the event loop for seconds and its
memory for as long. The head is measured here before the parser sees a byte of it, and one
past its limit is refused at once (`HeadMeter`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import uuid
from http import HTTPStatus
from urllib.parse import unquote_plus

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gridservice.runtime.errors import PROBLEM_MEDIA_TYPE, problem_body

DEFAULT_READ_TIMEOUT_SECONDS = 30.0
# The limits of a request's head: one line (the request line or a header), and all of it.
MAX_HEAD_LINE_BYTES = 16 * 1024
MAX_HEAD_BYTES = 64 * 1024
# HTTP/1.0 is still HTTP/1.x (some health checkers speak it); 0.9 or 2.0 over text is not.
_SERVED_VERSIONS = {"1.0", "1.1"}


class HeadMeter:
    """Counts the bytes of a request's head (its request line and header lines) as they
    arrive, until the blank line that ends it; the body is not counted."""

    def __init__(self, line_limit: int = MAX_HEAD_LINE_BYTES, head_limit: int = MAX_HEAD_BYTES):
        self.line_limit = line_limit
        self.head_limit = head_limit
        self.restart()

    def restart(self) -> None:
        """Start counting the next request's head (the bytes that follow belong to it)."""
        self.reading_head = True
        self._head_bytes = 0
        self._line_bytes = 0
        self._line_start = b""  # the first two bytes of the current line: is it blank?
        self._lines = 0  # complete lines that were not blank

    def measure(self, data: bytes) -> int | None:
        """Return None while the head is within its limits, else the status that refuses it:
        414 for a request line too long, 431 for a header line or the headers in all."""
        start = 0
        while self.reading_head and start < len(data):
            end = data.find(b"\n", start)
            stop = len(data) if end < 0 else end + 1
            self._head_bytes += stop - start
            self._line_bytes += stop - start
            if len(self._line_start) < 2:
                self._line_start += data[start : min(stop, start + 2)]
            if self._line_bytes > self.line_limit:
                return 431 if self._lines else 414
            if self._head_bytes > self.head_limit:
                return 431
            if end >= 0:
                self._end_line()
            start = stop
        return None

    def _end_line(self) -> None:
        if self._line_start[:2] in (b"\n", b"\r\n"):
            # A blank line ends the head; blank lines before the request line are skipped.
            self.reading_head = self._lines == 0
        else:
            self._lines += 1
        self._line_bytes = 0
        self._line_start = b""


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a per-request read deadline, a capped head and
    problem+json 400s."""

    read_timeout: float = DEFAULT_READ_TIMEOUT_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._read_deadline: asyncio.TimerHandle | None = None
        self._head = HeadMeter()
        self._arm_read_deadline()

    def data_received(self, data: bytes) -> None:
        refusal = self._head.measure(data)
        if refusal is None:
            super().data_received(data)
            return
        # Nothing of this head reaches the parser; the connection closes with the answer.
        self._disarm_read_deadline()
        what = "request line" if refusal == 414 else "header line"
        self._send_problem(
            refusal,
            "uri_too_long" if refusal == 414 else "header_fields_too_large",
            f"A {what} is longer than {self._head.line_limit} bytes, or the request line and "
            f"headers are longer than {self._head.head_limit} bytes in all; they were not read.",
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_read_deadline()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_read_deadline()

    def on_headers_complete(self) -> None:
        if self.parser.get_http_version() not in _SERVED_VERSIONS:
            # The parser's error path answers it: `send_400_response` below.
            raise httptools.HttpParserError("not HTTP/1.x")
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm_read_deadline()
        # The bytes after a complete request are the next request's head. (Those of a
        # request pipelined behind a body in the same read are counted from the next read.)
        self._head.restart()
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
        head = [b"HTTP/1.1 %d %s\r\n" % (status, HTTPStatus(status).phrase.encode())]
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
