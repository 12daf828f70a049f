"""Pagers: iterate records across every page without ever handling a cursor."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from gridclient._args import check_int_range
from gridclient._errors import ResponseValidationError
from gridclient._response import RawResponse
from gridclient.models import GridModel, PageMeta

if TYPE_CHECKING:
    import pandas

    from gridclient._transport import Transport

ModelT = TypeVar("ModelT", bound=GridModel)
ProgressCallback = Callable[[int, int], None]


class Page(Generic[ModelT]):
    """One page of a collection: its records, its ``meta`` and the raw response."""

    __slots__ = ("data", "meta", "raw")

    def __init__(self, data: list[ModelT], meta: PageMeta, raw: RawResponse) -> None:
        self.data = data
        self.meta = meta
        self.raw = raw

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
    iteration starts again from the first page.
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
        if self._max_items is not None and self._params.get("limit") is None:
            # A small bound needs no more than one small page.
            self._params["limit"] = max(1, min(self._max_items, max_limit))

    @property
    def model(self) -> type[ModelT]:
        return self._model

    def pages(self) -> Iterator[Page[ModelT]]:
        """Yield pages until ``hasMore`` is false (or ``max_items`` records were yielded)."""
        if self._max_items == 0:
            return
        cursor: str | None = None
        records = pages = 0
        while True:
            params = dict(self._params)
            if cursor is not None:
                params["cursor"] = cursor
            response = self._transport.request("GET", self._path, params=params)
            envelope = self._transport.parse_page(response, self._model)
            data, meta = envelope.data, envelope.meta
            if self._max_items is not None and records + len(data) > self._max_items:
                data = data[: self._max_items - records]
            records += len(data)
            pages += 1
            if self._on_progress is not None:
                self._on_progress(records, pages)
            yield Page(data, meta, RawResponse(response))
            if not meta.has_more or (self._max_items is not None and records >= self._max_items):
                return
            cursor = self._next_cursor(meta, cursor, response.headers.get("x-request-id"))

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
        for page in self.pages():
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
