"""One request per queue id on the queue page: the shaping behind its count, MW and note."""

from __future__ import annotations

from components.queue_requests import (
    collapse_note,
    duplicated_sources,
    one_per_request,
)
from gridclient import QueueRecord, SourceFields

AUTHORITIES = {
    "ercot_gis_report": "official_operator_dataset",
    "lbnl_queued_up": "officially_sponsored_synthesis",
}
# What the service sends as each record's `evidence.publisher`
PUBLISHERS = {"ercot_gis_report": "ERCOT GIS report", "lbnl_queued_up": "LBNL Queued Up"}


def record(record_id: str, source: str, key: str | None, mw: float, observed: str) -> QueueRecord:
    return QueueRecord(
        id=record_id,
        source_id=source,
        record_key=key,
        market="ERCOT",
        requested_capacity_mw=mw,
        observed_at=observed,
        evidence=SourceFields(publisher=PUBLISHERS.get(source)),
    )


def harvested_like() -> list[QueueRecord]:
    # The national synthesis is observed later and sorts first by id: neither may win.
    return [
        record("a-lbnl-1", "lbnl_queued_up", "23INR0001", 300.0, "2026-02-01T00:00:00Z"),
        record("b-ercot-1", "ercot_gis_report", "23inr0001 ", 310.0, "2025-11-30T00:00:00Z"),
        record("a-lbnl-2", "lbnl_queued_up", "24INR0002", 150.0, "2026-02-01T00:00:00Z"),
        record("b-ercot-2", "ercot_gis_report", "24INR0002", 150.0, "2025-11-30T00:00:00Z"),
        record("a-lbnl-3", "lbnl_queued_up", "19INR0003", 90.0, "2026-02-01T00:00:00Z"),
        record("b-ercot-4", "ercot_gis_report", "25INR0004", 40.0, "2025-11-30T00:00:00Z"),
        record("c-none-1", "lbnl_queued_up", None, 10.0, "2026-02-01T00:00:00Z"),
        record("c-none-2", "lbnl_queued_up", "", 10.0, "2026-02-01T00:00:00Z"),
    ]


def test_a_request_in_both_sources_counts_once_from_the_operators_report():
    collapsed = one_per_request(harvested_like(), AUTHORITIES)
    kept = [r.id for r in collapsed.kept]
    assert kept == ["b-ercot-1", "b-ercot-2", "a-lbnl-3", "b-ercot-4", "c-none-1", "c-none-2"]
    assert sum(r.requested_capacity_mw for r in collapsed.kept) == 310 + 150 + 90 + 40 + 20
    assert collapsed.kept_for == {"a-lbnl-1": "b-ercot-1", "a-lbnl-2": "b-ercot-2"}
    assert collapsed.kept_sources() == {"ercot_gis_report": 2}
    assert collapsed.set_aside_sources() == {"lbnl_queued_up": 2}


def test_the_same_queue_id_in_two_markets_is_two_requests():
    records = harvested_like()[:2]
    records[1].market = "SPP"
    assert len(one_per_request(records, AUTHORITIES).kept) == 2


def test_without_known_authorities_the_newest_observed_is_kept():
    collapsed = one_per_request(harvested_like(), {})
    assert collapsed.kept_for == {"b-ercot-1": "a-lbnl-1", "b-ercot-2": "a-lbnl-2"}


def test_only_sources_with_a_shared_queue_id_are_asked_for_their_authority():
    records = harvested_like() + [
        record("d-other-1", "other_source", "99INR0009", 5.0, "2026-01-01T00:00:00Z")
    ]
    assert duplicated_sources(records) == {
        "ercot_gis_report": "b-ercot-1",
        "lbnl_queued_up": "a-lbnl-1",
    }
    assert duplicated_sources(records[4:]) == {}


def test_the_note_names_the_collapsed_count_and_the_source_kept():
    collapsed = one_per_request(harvested_like(), AUTHORITIES)
    note = collapse_note(collapsed, AUTHORITIES)
    assert note.startswith("2 duplicate records collapsed: 2 requests are listed by more")
    # sources named as the records' evidence names them, the authority in words; no raw id
    kept, aside = PUBLISHERS["ercot_gis_report"], PUBLISHERS["lbnl_queued_up"]
    assert f"kept from {kept} (official operator dataset) for 2" in note
    assert f"set aside: 2 of {aside}" in note
    assert not any(source_id in note for source_id in PUBLISHERS)
    assert collapse_note(one_per_request(harvested_like()[4:], AUTHORITIES), AUTHORITIES) is None
