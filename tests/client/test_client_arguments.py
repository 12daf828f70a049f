"""Arguments are checked before anything is sent, and the error names the argument."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from client_fakes import page, record

import gridclient as gc


def _bad(service, call, argument):
    with pytest.raises(gc.InvalidArgumentError) as caught:
        call(service.client())
    assert caught.value.argument == argument
    assert argument in str(caught.value)
    assert service.requests == []


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda c: c.generators.list(limit=0), "limit"),
        (lambda c: c.generators.list(limit=501), "limit"),
        (lambda c: c.generators.list(limit=2.5), "limit"),
        (lambda c: c.generators.list(limit=True), "limit"),
        (lambda c: c.queue_records.list(limit=-1), "limit"),
        (lambda c: c.evidence.search("x", limit=101), "limit"),
        (lambda c: c.evidence.search("x", page=0), "page"),
        (lambda c: c.evidence.search("x", page=2147483648), "page"),
        (lambda c: c.evidence.search("", kind="table"), "q"),
        (lambda c: c.generator_operations.list(period="2024-13"), "period"),
        (lambda c: c.generator_operations.list(period="2024-1"), "period"),
        (lambda c: c.generator_operations.list(period="24-01"), "period"),
        (lambda c: c.generator_operations.list(plant_id=0), "plant_id"),
        (lambda c: c.generators.list(plant_id=2147483648), "plant_id"),
        (lambda c: c.generators.list(plant_id="12"), "plant_id"),
        (lambda c: c.generators.list(min_capacity_mw=-1), "min_capacity_mw"),
        (lambda c: c.generators.list(max_capacity_mw=-0.5), "max_capacity_mw"),
        (lambda c: c.generators.list(max_capacity_mw=float("nan")), "max_capacity_mw"),
        (lambda c: c.generators.list(min_capacity_mw=200, max_capacity_mw=100), "min_capacity_mw"),
        (lambda c: c.generators.list(max_items=-1), "max_items"),
        (lambda c: c.sites.get(""), "site_id"),
        (lambda c: c.queue_records.details(None), "record_id"),
        (lambda c: c.dockets.filings(" "), "control_number"),
        (lambda c: c.service_territories.resolve(latitude=91, longitude=0), "latitude"),
        (lambda c: c.service_territories.resolve(latitude=0, longitude=-180.5), "longitude"),
        (lambda c: c.service_territories.resolve(latitude="30", longitude=0), "latitude"),
        (lambda c: c.sites.create({}, idempotency_key="short"), "idempotency_key"),
        (lambda c: c.sites.create({}, idempotency_key="k" * 256), "idempotency_key"),
        (lambda c: c.assessments.create("s", idempotency_key="1234567"), "idempotency_key"),
        (lambda c: c.sites.create([1, 2]), "definition"),
        (
            lambda c: c.balancing_authority_operations.list(
                start=datetime(2025, 2, 1), end=datetime(2025, 1, 1)
            ),
            "start",
        ),
    ],
)
def test_bad_arguments_are_refused_before_sending(service, call, argument):
    _bad(service, call, argument)


def test_bounds_themselves_are_accepted(service):
    service.handle(lambda request: page([], has_more=False, cursor=None))
    client = service.client()
    list(client.generators.list(limit=1, plant_id=2147483647, min_capacity_mw=0, max_capacity_mw=0))
    list(client.evidence.search("x", limit=100, page=1))
    list(client.generator_operations.list(period="2024-12", plant_id=1))
    assert len(service.requests) == 3


def test_idempotency_key_of_8_and_255_characters_is_accepted(service):
    service.handle(lambda request: record({"id": "s"}))
    client = service.client()
    client.sites.create({"requestedPeakLoadMw": 1}, idempotency_key="k" * 8)
    client.sites.create({"requestedPeakLoadMw": 1}, idempotency_key="k" * 255)
    assert len(service.requests) == 2


def test_coordinates_go_out_in_geojson_order(service):
    service.handle(lambda request: record({"location": {}, "candidates": []}))
    service.client().service_territories.resolve(latitude=30.25, longitude=-97.75)
    import json

    body = json.loads(service.requests[0].content)
    assert body == {"location": {"type": "Point", "coordinates": [-97.75, 30.25]}}


def test_dates_and_datetimes_are_serialised_as_iso_in_utc(service):
    service.handle(lambda request: page([], has_more=False, cursor=None))
    client = service.client()
    central = timezone(timedelta(hours=-6))
    list(
        client.load_forecasts.list(
            valid_at=date(2026, 7, 1), known_at=datetime(2026, 1, 1, 6, 30, tzinfo=central)
        )
    )
    list(
        client.balancing_authority_operations.list(
            ba_code="ERCO", start=datetime(2025, 1, 1), end=datetime(2025, 1, 2, tzinfo=UTC)
        )
    )
    list(client.resource_adequacy.list(known_at="2026-01-01T00:00:00Z"))
    list(client.generator_operations.list(period=date(2024, 3, 9)))
    facts, operations, adequacy, gen_ops = (dict(r.url.params) for r in service.requests)
    assert facts == {"valid_at": "2026-07-01", "known_at": "2026-01-01T12:30:00Z"}
    assert operations == {
        "ba_code": "ERCO",
        "start": "2025-01-01T00:00:00Z",
        "end": "2025-01-02T00:00:00Z",
    }
    assert adequacy == {"known_at": "2026-01-01T00:00:00Z"}
    assert gen_ops == {"period": "2024-03"}


def test_ids_are_escaped_as_one_path_segment(service):
    service.handle(lambda request: record({"id": "x"}))
    client = service.client()
    client.sites.get("a/b?c")
    client.exports.get("exp 1")
    assert service.requests[0].url.raw_path == b"/v1/sites/a%2Fb%3Fc"
    assert service.requests[1].url.raw_path == b"/v1/assessments/exports/exp%201"


def test_service_version_must_be_a_date():
    with pytest.raises(gc.InvalidArgumentError) as caught:
        gc.GridDataClient(base_url="http://grid.test", service_version="latest")
    assert caught.value.argument == "service_version"


def test_max_retries_must_be_a_non_negative_integer():
    with pytest.raises(gc.InvalidArgumentError) as caught:
        gc.GridDataClient(base_url="http://grid.test", max_retries=-1)
    assert caught.value.argument == "max_retries"
