"""One interconnection request counted once, however many sources list it.

The ERCOT GIS report and LBNL Queued Up both list many ERCOT requests under the same queue
id (`market` + `recordKey`, any case). Counting both doubles their MW. The rule is the
screening's: keep the operator's own report (details authority `official_operator_dataset`),
then the newest `observedAt`, then the smallest id. A source's authority is in a record's
details, so the page asks for one record's details per source that has a duplicate.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping

from components import data, glossary, sources
from components.connection import ConnectionKey
from gridclient import GridAPIError, QueueRecord

OPERATOR_AUTHORITY = "official_operator_dataset"


@dataclasses.dataclass(frozen=True)
class CollapsedQueue:
    """The records to count, those set aside as another source's copy, and who was kept."""

    kept: list[QueueRecord]
    set_aside: list[QueueRecord]
    kept_for: dict[str, str]  # set-aside record id -> id of the record kept in its place

    def kept_sources(self) -> Counter[str]:
        """Return how many duplicated requests each source was kept for."""
        by_id = {str(r.id): r for r in self.kept}
        return Counter(source_of(by_id[k]) for k in set(self.kept_for.values()))

    def set_aside_sources(self) -> Counter[str]:
        """Return how many records of each source were set aside as copies."""
        return Counter(source_of(record) for record in self.set_aside)

    def publishers(self) -> dict[str, str]:
        """Return {source id: its publisher's title} as the records' evidence states it."""
        return {
            source_of(record): record.evidence.publisher
            for record in (*self.kept, *self.set_aside)
            if record.evidence is not None and record.evidence.publisher
        }


def source_of(record: QueueRecord) -> str:
    """Return the record's source id, or "unnamed source"."""
    return str(record.source_id or "unnamed source")


def request_key(record: QueueRecord) -> tuple[str, str] | None:
    """Return (market, queue id) upper-cased, or None when the record has no queue id."""
    queue_id = str(record.record_key or "").strip().upper()
    return (str(record.market or "").strip().upper(), queue_id) if queue_id else None


def _shared(records: list[QueueRecord]) -> tuple[list[tuple[str, str] | None], list[QueueRecord]]:
    """Return each record's queue id (`request_key`), worked out once (150,000 records at
    scale 100), and the records whose queue id another record has too, in their order."""
    keys = [request_key(record) for record in records]
    listed = Counter(key for key in keys if key is not None)
    shared = [
        record
        for record, key in zip(records, keys, strict=True)
        if key is not None and listed[key] > 1
    ]
    return keys, shared


def duplicated_sources(records: Iterable[QueueRecord]) -> dict[str, str]:
    """Return {source id: one of its record ids} for the sources that share a queue id."""
    groups: dict[tuple[str, str], list[QueueRecord]] = {}
    for record in _shared(list(records))[1]:
        groups.setdefault(request_key(record), []).append(record)
    samples: dict[str, str] = {}
    for group in groups.values():
        for record in group:
            samples.setdefault(source_of(record), str(record.id))
    return dict(sorted(samples.items()))


def by_preference(
    records: Iterable[QueueRecord], authorities: Mapping[str, str | None]
) -> list[QueueRecord]:
    """Return the records best first: the operator's report, then newest observed, then id."""
    ordered = sorted(records, key=lambda r: str(r.id))
    ordered.sort(key=lambda r: str(r.observed_at or ""), reverse=True)
    ordered.sort(key=lambda r: authorities.get(source_of(r)) != OPERATOR_AUTHORITY)
    return ordered


def one_per_request(
    records: Iterable[QueueRecord], authorities: Mapping[str, str | None]
) -> CollapsedQueue:
    """Return the records with each queue id kept once, in their original order.

    `authorities` maps a source id to its details' evidence authority (None when unknown).
    Records without a queue id are always kept: nothing says they repeat another.
    """
    records = list(records)
    keys, shared = _shared(records)
    chosen: dict[tuple[str, str], QueueRecord] = {}
    for record in by_preference(shared, authorities):  # only those that share a queue id
        chosen.setdefault(request_key(record), record)
    kept, set_aside, kept_for = [], [], {}
    for record, key in zip(records, keys, strict=True):
        winner = chosen.get(key) if key is not None else None
        if winner is None or winner is record:
            kept.append(record)
        else:
            set_aside.append(record)
            kept_for[str(record.id)] = str(winner.id)
    return CollapsedQueue(kept, set_aside, kept_for)


def collapse_note(collapsed: CollapsedQueue, authorities: Mapping[str, str | None]) -> str | None:
    """Return the sentence saying how many copies were set aside and which source was kept."""
    if not collapsed.set_aside:
        return None
    publishers = collapsed.publishers()

    def named(source: str) -> str:
        """The source as its publisher names it, its authority in words."""
        authority = authorities.get(source)
        name = sources.source_name(source, publishers.get(source))
        if not authority:
            return name
        return f"{name} ({glossary.in_sentence(glossary.label('authority', authority))})"

    kept = ", ".join(
        f"{named(source)} for {count:,}"
        for source, count in sorted(collapsed.kept_sources().items())
    )
    aside = ", ".join(
        f"{count:,} of {sources.source_name(source, publishers.get(source))}"
        for source, count in sorted(collapsed.set_aside_sources().items())
    )
    requests = len(set(collapsed.kept_for.values()))
    return (
        f"{len(collapsed.set_aside):,} duplicate records collapsed: {requests:,} requests are "
        f"listed by more than one source under the same queue id and are counted once, kept "
        f"from {kept} (the operator's own report first, then the newest); set aside: {aside}."
    )


def source_authorities(conn: ConnectionKey, samples: Mapping[str, str]) -> dict[str, str | None]:
    """Return each source's authority from one of its records' details (None when unknown)."""
    authorities: dict[str, str | None] = {}
    for source, record_id in samples.items():
        try:
            details = data.queue_details(conn, record_id)
        except GridAPIError:
            # Without details the rule still holds: newest observed first, then id.
            authorities[source] = None
            continue
        authorities[source] = details.evidence.authority if details.evidence else None
    return authorities
