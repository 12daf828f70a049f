"""A queue record's status now: the newest source's word on its project.

Two sources can speak of one project (the same `market` + `recordKey`, any case): an
operator's monthly report (ERCOT GIS, authority `official_operator_dataset`) and a
synthesis of the queues (LBNL Queued Up, `officially_sponsored_synthesis`). Each word has
the date its source said it: an operator report's "Time of Report Run", a synthesis's
data-through date (`details.evidence.dataThrough`; unknown sorts oldest). The newest word
settles the status; on the same date the operator's own report wins.

An operator report speaks of every project of its market: a project on its active sheets
is active, one on its Inactive, Cancellation or Commissioning sheet is inactive, cancelled
or commissioned (as of that row's date), and one it no longer lists at all is
`not_listed`. A synthesis is an extract (LBNL's here: 2023 requests of 100 MW and more),
so its silence says nothing.

A record counts as active only when its own word is the newest and that word is
`active`: when a newer report lists the project active, it is the report's record that
counts, so no request is counted twice. The older record stays as published (its
`status` is its source's word, kept as history); `statusNow` says what holds now, with
the date, the source and the cell. `status_now` is the rule; every count of active
queue records (assessments, the quality report, any new count such as a site's
surroundings) goes through `counts_as_active`, and the queue page shows `statusNow`.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from gridservice.store import queue_status_reads

OPERATOR_AUTHORITY = "official_operator_dataset"
NOT_LISTED = "not_listed"
OWN_RECORD = "own_record"
NEWER_SOURCE = "newer_source"
# Within one operator report, its active sheets outrank its other sheets (a project approved
# for energization this month is listed on both), then cancellation, inactive, commissioning.
_RECORD_RANK = 10
_LISTING_RANK = {"cancelled": 3, "inactive": 2, "commissioned": 1}


@dataclass(frozen=True)
class _Word:
    """One source's word on one project, and when the source said it."""

    status: str | None
    said_at: str  # ISO date or date-time the source said it; '' when unknown
    date: str | None  # the date shown with the status (the event's, else said_at's day)
    source_id: str | None
    source_locator: str | None
    record_id: str | None  # the queue record carrying the word (None for a listing)
    operator: bool
    rank: int = 0

    def order(self) -> tuple:
        return (self.said_at, self.operator, self.rank)


@dataclass(frozen=True)
class _Report:
    """An operator's newest report on a market: when it was run and which file it is."""

    source_id: str
    said_at: str
    file_name: str


class _Words:
    """Every stored word, by project (market, KEY), and the newest operator report per market."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.by_project: dict[tuple[str, str], list[_Word]] = defaultdict(list)
        self.own: dict[str, _Word] = {}
        self.reports: dict[str, _Report] = {}
        for row in queue_status_reads.queue_words(conn):
            word = _record_word(row)
            self.own[row["id"]] = word
            key = _project(row.get("market"), row.get("recordKey"))
            if key is not None:
                self.by_project[key].append(word)
            if word.operator and key is not None:
                self._note_report(key[0], word)
        for listing in queue_status_reads.status_listings(conn):
            key = _project(listing.get("market"), listing.get("recordKey"))
            if key is not None:
                word = _listing_word(listing)
                self.by_project[key].append(word)
                self._note_report(key[0], word)

    def _note_report(self, market: str, word: _Word) -> None:
        current = self.reports.get(market)
        if current is None or word.said_at > current.said_at:
            file_name = (word.source_locator or "").split("#", 1)[0]
            self.reports[market] = _Report(word.source_id or "", word.said_at, file_name)

    def newest(self, record: Mapping[str, Any]) -> _Word:
        """Return the newest word on the record's project (its own when nothing is newer)."""
        own = self.own.get(str(record.get("id"))) or _record_word(_word_row(record))
        key = _project(record.get("market"), record.get("recordKey"))
        if key is None:
            return own
        others = [w for w in self.by_project.get(key, []) if w.record_id != own.record_id]
        report = self.reports.get(key[0])
        if report is not None and not any(_in_report(w, report) for w in [own, *others]):
            others.append(_not_listed(report))
        # max() keeps the first of equals, so the record's own word wins a tie.
        return max([own, *others], key=_Word.order)


def _in_report(word: _Word, report: _Report) -> bool:
    return word.operator and word.source_id == report.source_id and word.said_at == report.said_at


def status_now(conn: sqlite3.Connection, records: Iterable[Mapping[str, Any]]) -> dict[str, dict]:
    """Return {record id: statusNow} for queue record bodies: the newest source's word.

    statusNow: `status` (active, inactive, cancelled, commissioned, not_listed, or the
    record's own source's value), `date` (the event's date, else the day it was said),
    `reportedAt` (when the source said it), `sourceId`, `sourceLocator` (the cell; for
    `not_listed` the report file), `recordId` (the queue record carrying the word, null for
    a report's inactive/cancelled/commissioned row or absence), `basis` (`own_record` or
    `newer_source`) and `countsAsActive`.
    """
    words = _Words(conn)
    result = {}
    for record in records:
        record_id = str(record.get("id"))
        word = words.newest(record)
        own = word.record_id == record_id
        result[record_id] = {
            "status": word.status,
            "date": word.date,
            "reportedAt": word.said_at or None,
            "sourceId": word.source_id,
            "sourceLocator": word.source_locator,
            "recordId": word.record_id,
            "basis": OWN_RECORD if own else NEWER_SOURCE,
            "countsAsActive": own and _is_active(word.status),
        }
    return result


def counts_as_active(record: Mapping[str, Any]) -> bool:
    """Return True when a queue record body counts as an active request now.

    Reads the record's `statusNow` (stored with it); a record stored before statusNow
    existed falls back to its own `status`.
    """
    now = record.get("statusNow")
    if isinstance(now, Mapping):
        return bool(now.get("countsAsActive"))
    return _is_active(record.get("status"))


def disagrees(record: Mapping[str, Any]) -> bool:
    """Return True when a newer source and the record's own disagree on whether it is active."""
    now = record.get("statusNow")
    if not isinstance(now, Mapping) or now.get("basis") != NEWER_SOURCE:
        return False
    return _is_active(record.get("status")) != _is_active(now.get("status"))


def describe(now: Mapping[str, Any]) -> str:
    """Return statusNow in words: 'inactive as of 2025-10-03 in SOURCE (FILE#SHEET!R9)'."""
    status = now.get("status") or "unknown"
    what = "not listed at all" if status == NOT_LISTED else status
    text = f"{what} as of {now.get('date') or 'an unknown date'}"
    if now.get("sourceId"):
        text += f" in {now['sourceId']}"
    if now.get("sourceLocator"):
        text += f" ({now['sourceLocator']})"
    return text


def refresh_status_now(conn: sqlite3.Connection) -> int:
    """Recompute and store `statusNow` in every queue record body; return how many changed.

    Called after each harvest of a queue source and by the demo builder, inside their
    transaction, so stored records always carry the rule's answer for the stored data.
    """
    records = queue_status_reads.queue_record_bodies(conn)
    return queue_status_reads.write_status_now(conn, status_now(conn, records))


def _is_active(status: object) -> bool:
    return isinstance(status, str) and status.strip().lower() == "active"


def _project(market: object, record_key: object) -> tuple[str, str] | None:
    key = str(record_key or "").strip().upper()
    return (str(market or "").strip().upper(), key) if key else None


def _word_row(record: Mapping[str, Any]) -> dict[str, Any]:
    return {**record, "authority": None, "dataThrough": None}


def _record_word(row: Mapping[str, Any]) -> _Word:
    operator = row.get("authority") == OPERATOR_AUTHORITY
    said_at = str((row.get("observedAt") if operator else row.get("dataThrough")) or "")
    return _Word(
        status=row.get("status"),
        said_at=said_at,
        date=said_at[:10] or None,
        source_id=row.get("sourceId"),
        source_locator=row.get("sourceLocator"),
        record_id=row.get("id"),
        operator=operator,
        rank=_RECORD_RANK,
    )


def _listing_word(listing: Mapping[str, Any]) -> _Word:
    said_at = str(listing.get("reportedAt") or "")
    return _Word(
        status=listing.get("status"),
        said_at=said_at,
        date=listing.get("statusDate") or said_at[:10] or None,
        source_id=listing.get("sourceId"),
        source_locator=listing.get("sourceLocator"),
        record_id=None,
        operator=True,
        rank=_LISTING_RANK.get(str(listing.get("status")), 0),
    )


def _not_listed(report: _Report) -> _Word:
    return _Word(
        status=NOT_LISTED,
        said_at=report.said_at,
        date=report.said_at[:10] or None,
        source_id=report.source_id,
        source_locator=report.file_name,
        record_id=None,
        operator=True,
    )
