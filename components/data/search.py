"""Questions asked of the evidence and of the territories: search, mentions, a point's utilities."""

from __future__ import annotations

from collections.abc import Iterator

from components.connection import ConnectionKey
from components.data._cache import cached, client
from gridclient import EvidenceChunk, Page, TerritoryResolution


def evidence_pages(
    conn: ConnectionKey, query: str, *, page_size: int = 10, **filters: str | int | None
) -> Iterator[Page[EvidenceChunk]]:
    """Return the ranked result pages of an evidence search, fetched as they are read."""
    sent = {name: value for name, value in filters.items() if value not in (None, "")}
    return client(conn).evidence.search(query, limit=page_size, **sent).pages()


@cached(spinner="Looking through the evidence…", max_entries=200)
def evidence_chunks(conn: ConnectionKey, query: str, max_items: int = 300) -> list[EvidenceChunk]:
    """Return up to `max_items` evidence chunks for a query, best first."""
    return client(conn).evidence.search(query, limit=100, max_items=max_items).to_list()


@cached(max_entries=1000)
def territory_resolution(
    conn: ConnectionKey, latitude: float, longitude: float
) -> TerritoryResolution:
    """Return the utilities whose service territories cover the point, with the point's county."""
    return client(conn).service_territories.resolve(latitude=latitude, longitude=longitude)
