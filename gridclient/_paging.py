"""Pagers: iterate records across every page without ever handling a cursor."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import httpx

from gridclient._args import check_int_range
from gridclient._errors import ResponseValidationError
from gridclient._response import RawResponse
from gridclient.models import GridModel, PageMeta, UnreadableRecord

if TYPE_CHECKING:
    import pandas

    from gridclient._transport import Transport

ModelT = TypeVar("ModelT", bound=GridModel)
ProgressCallback = Callable[[int, int], None]

_META_KEY = re.compile(rb'"meta"\s*:\s*')
_DECODER = json.JSONDecoder()


def peek_next_cursor(body: bytes) -> str | None:
    """Return the ``nextCursor`` of a page's JSON body, read from its ``meta`` alone, or None
    when there is no next page or it cannot be told without reading the whole body.

    A guess, checked against the validated page: ``meta`` is looked for from the end (the
    reference service writes it after ``data``), so a record's own member of that name can
    mislead it, and then the page read ahead is not used.
    """
    at = body.rfind(b'"meta"')
    found = _META_KEY.match(body, at) if at >= 0 else None
    if found is None:
        return None
    try:
        meta, _ = _DECODER.raw_decode(body[found.end() :].decode("utf-8"))
    except ValueError:  # not JSON from there on (UnicodeDecodeError is one too)
        return None
    if not isinstance(meta, dict) or meta.get("hasMore") is not True:
        return None
    cursor = meta.get("nextCursor")
    return cursor if isinstance(cursor, str) and cursor else None


class _ReadAhead:
    """The next page's request, sent from a thread of its own while the page before it
    becomes models: the service works out one page while the client validates the other.

    Only the request and the response's headers are handled in that thread; the body is
    read by the traversal when it needs the page, so reading it never competes with the
    validation for the interpreter.
    """

    def __init__(self, transport: Transport, path: str, params: dict[str, Any]) -> None:
        self.cursor = params["cursor"]
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._dropped = False
        self._response: httpx.Response | None = None
        self._error: BaseException | None = None
        threading.Thread(
            target=self._send, args=(transport, path, params), name="gridclient page", daemon=True
        ).start()

    def _send(self, transport: Transport, path: str, params: dict[str, Any]) -> None:
        try:
            response = transport.request("GET", path, params=params, stream=True)
        except BaseException as exc:  # raised to the traversal when it needs this page
            self._error = exc
        else:
            with self._lock:
                if self._dropped:
                    response.close()
                else:
                    self._response = response
        finally:
            self._done.set()

    def take(self, cursor: str | None) -> httpx.Response | None:
        """The page's response, its body read, when it is the page asked for (`cursor`);
        raises what its request raised. None, the page let go, when it is not, or when its
        body broke while read: it is then asked for again the ordinary way, with retries."""
        if cursor != self.cursor:
            self.drop()
            return None
        self._done.wait()
        if self._error is not None:
            raise self._error
        response = self._response
        assert response is not None  # sent without an error
        try:
            response.read()
        except httpx.TransportError:
            self.drop()
            return None
        return response

    def drop(self) -> None:
        """Let the page go unread (a wrong guess, or a traversal stopped early)."""
        with self._lock:
            self._dropped = True
            if self._response is not None:
                self._response.close()


class Page(Generic[ModelT]):
    """One page of a collection: its records, its ``meta`` and the raw response."""

    __slots__ = ("data", "meta", "raw", "unreadable")

    def __init__(
        self,
        data: list[ModelT],
        meta: PageMeta,
        raw: RawResponse,
        unreadable: list[UnreadableRecord] | None = None,
    ) -> None:
        self.data = data
        self.meta = meta
        self.raw = raw
        self.unreadable = unreadable or []

    @property
    def has_more(self) -> bool:
        return self.meta.has_more

    @property
    def next_cursor(self) -> str | None:
        return self.meta.next_cursor

    def __iter__(self) -> Iterator[ModelT]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"<Page {len(self.data)} records has_more={self.meta.has_more}>"


class Pager(Generic[ModelT]):
    """A lazy traversal of one collection with fixed filters; nothing is sent until iterated.

    Iterating yields every record of every page; ``pages()`` yields the pages. Each new
    iteration starts again from the first page. A record the model cannot read is left out
    and named in ``unreadable`` (of the last traversal), so one bad record never costs the
    rest of the list.
    """

    def __init__(
        self,
        transport: Transport,
        path: str,
        params: dict[str, Any],
        model: type[ModelT],
        *,
        max_limit: int,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> None:
        self._transport = transport
        self._path = path
        self._params = dict(params)
        self._model = model
        self._max_items = check_int_range("max_items", max_items, 0, 2**63 - 1)
        if on_progress is not None and not callable(on_progress):
            raise TypeError("on_progress must be callable(records_so_far, pages_so_far)")
        self._on_progress = on_progress
        self.unreadable: list[UnreadableRecord] = []
        if self._max_items is not None and self._params.get("limit") is None:
            # A small bound needs no more than one small page.
            self._params["limit"] = max(1, min(self._max_items, max_limit))

    @property
    def model(self) -> type[ModelT]:
        return self._model

    def pages(self) -> Iterator[Page[ModelT]]:
        """Yield pages until ``hasMore`` is false (or ``max_items`` records were yielded).

        Without ``max_items``, the next page is asked for while this one is validated (its
        cursor read from the body's ``meta``), one request at a time as before: a traversal
        stopped early has sent one request more than it used.
        """
        return self._pages(read_ahead=self._max_items is None)

    def _pages(self, *, read_ahead: bool) -> Iterator[Page[ModelT]]:
        if self._max_items == 0:
            return
        cursor: str | None = None
        records = pages = 0
        ahead: _ReadAhead | None = None
        self.unreadable = []
        try:
            while True:
                params = dict(self._params)
                if cursor is not None:
                    params["cursor"] = cursor
                response = ahead.take(cursor) if ahead is not None else None
                ahead = None
                if response is None:  # the first page, or a guess the page did not confirm
                    response = self._transport.request("GET", self._path, params=params)
                guess = peek_next_cursor(response.content) if read_ahead else None
                if guess is not None and guess != cursor:
                    ahead = _ReadAhead(
                        self._transport, self._path, {**self._params, "cursor": guess}
                    )
                envelope = self._transport.parse_page(response, self._model)
                data, meta = envelope.data, envelope.meta
                self.unreadable.extend(envelope.unreadable)
                if self._max_items is not None and records + len(data) > self._max_items:
                    data = data[: self._max_items - records]
                records += len(data)
                pages += 1
                if self._on_progress is not None:
                    self._on_progress(records, pages)
                yield Page(data, meta, RawResponse(response), envelope.unreadable)
                if not meta.has_more or (
                    self._max_items is not None and records >= self._max_items
                ):
                    return
                cursor = self._next_cursor(meta, cursor, response.headers.get("x-request-id"))
        finally:
            if ahead is not None:
                ahead.drop()

    @staticmethod
    def _next_cursor(meta: PageMeta, sent: str | None, request_id: str | None) -> str:
        if not meta.next_cursor:
            raise ResponseValidationError(
                "meta.nextCursor",
                "hasMore is true but no nextCursor was sent, so the next page cannot be asked for",
                request_id=request_id,
            )
        if meta.next_cursor == sent:
            raise ResponseValidationError(
                "meta.nextCursor",
                "the service sent back the cursor it was given; stopping instead of looping",
                request_id=request_id,
            )
        return meta.next_cursor

    def __iter__(self) -> Iterator[ModelT]:
        for page in self.pages():
            yield from page.data

    def to_list(self) -> list[ModelT]:
        """Every record, in order, as a list."""
        return list(self)

    def first(self) -> ModelT | None:
        """The first record, or None for an empty collection (one request at most)."""
        for page in self._pages(read_ahead=False):
            if page.data:
                return page.data[0]
            if not page.has_more:
                break
        return None

    def to_pandas(self) -> pandas.DataFrame:
        """Every record as one flat DataFrame with camelCase wire-name columns.

        Nested objects become dotted columns (``evidence.sourceId``, ``evidence.observedAt``),
        so provenance stays beside each row. ``qualityFlags`` keeps the list of flags and
        ``qualityFlagsText`` renders them as one readable string (``code (field): message``).
        """
        import pandas as pd

        rows = [record.model_dump(by_alias=True) for record in self]
        if rows:
            frame = pd.json_normalize(rows, sep=".")
        else:
            frame = pd.DataFrame(
                columns=[f.alias or n for n, f in self._model.model_fields.items()]
            )
        if "qualityFlags" in frame.columns:
            frame["qualityFlagsText"] = frame["qualityFlags"].map(quality_flags_text)
        return frame

    def __repr__(self) -> str:
        return f"<Pager {self._path} {self._params}>"


def quality_flags_text(flags: Any) -> str:
    """Quality flags as one line: ``code (field): message; ...``; empty when there are none."""
    if not isinstance(flags, list):
        return ""
    parts = []
    for flag in flags:
        if not isinstance(flag, dict):
            continue
        text = str(flag.get("code") or "flag")
        if flag.get("field"):
            text += f" ({flag['field']})"
        if flag.get("message"):
            text += f": {flag['message']}"
        parts.append(text)
    return "; ".join(parts)
