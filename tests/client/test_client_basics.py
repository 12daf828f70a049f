"""Construction, headers, single-record calls, models, raw bytes and capabilities."""

from __future__ import annotations

import json
from datetime import date, datetime

import httpx
import pytest
from client_fakes import problem, record

import gridclient as gc


def test_headers_carry_token_version_user_agent_and_accept(service):
    service.handle(lambda request: record({"releaseId": "r"}))
    service.client(service_version="2025-06-01").release()
    headers = service.requests[0].headers
    assert headers["Authorization"] == "Bearer tok_test"
    assert headers["Service-Version"] == "2025-06-01"
    assert headers["User-Agent"] == f"gridclient/{gc.__version__}"
    assert headers["Accept"] == "application/json"
    assert "Idempotency-Key" not in headers


def test_no_service_version_header_unless_set(service):
    service.handle(lambda request: record({}))
    service.client(service_version=date(2025, 6, 1)).release()
    service.client().release()
    assert service.requests[0].headers["Service-Version"] == "2025-06-01"
    assert "Service-Version" not in service.requests[1].headers


def test_environment_fallbacks(monkeypatch, service):
    monkeypatch.setenv("GRID_API_BASE_URL", "http://env.test/v1/")
    monkeypatch.setenv("GRID_API_TOKEN", "tok_env")
    service.handle(lambda request: record({}))
    client = gc.GridDataClient(http_client=httpx.Client(transport=httpx.MockTransport(service)))
    client.release()
    assert client.base_url == "http://env.test"
    assert str(service.requests[0].url) == "http://env.test/v1/release"
    assert service.requests[0].headers["Authorization"] == "Bearer tok_env"


def test_explicit_settings_win_over_the_environment(monkeypatch, service):
    monkeypatch.setenv("GRID_API_BASE_URL", "http://env.test")
    monkeypatch.setenv("GRID_API_TOKEN", "tok_env")
    client = service.client(base_url="http://mine.test", token="tok_mine")
    service.handle(lambda request: record({}))
    client.release()
    assert service.requests[0].url.host == "mine.test"
    assert service.requests[0].headers["Authorization"] == "Bearer tok_mine"


def test_a_missing_base_url_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("GRID_API_BASE_URL", raising=False)
    with pytest.raises(gc.InvalidArgumentError) as caught:
        gc.GridDataClient(token="t")
    assert caught.value.argument == "base_url"
    assert "GRID_API_BASE_URL" in str(caught.value)


def test_no_token_sends_no_authorization(monkeypatch, service):
    monkeypatch.delenv("GRID_API_TOKEN", raising=False)
    service.handle(lambda request: record({}))
    service.client(token=None).release()
    assert "Authorization" not in service.requests[0].headers


def test_context_manager_closes_its_own_pool_but_not_a_borrowed_one():
    with gc.GridDataClient(base_url="http://grid.test") as client:
        own = client._transport.http
    assert own.is_closed
    borrowed = httpx.Client()
    with gc.GridDataClient(base_url="http://grid.test", http_client=borrowed):
        pass
    assert not borrowed.is_closed
    borrowed.close()


def test_unknown_fields_are_kept_and_known_ones_parsed(service):
    body = {
        "id": "s1",
        "createdAt": "2026-01-02T03:04:05Z",
        "targetInServiceDate": "2029-06-30",
        "location": {"latitude": 30.1, "longitude": -97.2, "datum": "WGS84"},
        "energyStorage": {"mw": 10, "hours": 4},
        "newTopLevel": {"nested": [1, 2]},
    }
    service.handle(lambda request: record(body))
    site = service.client().sites.get("s1")
    assert site.created_at == datetime.fromisoformat("2026-01-02T03:04:05+00:00")
    assert site.target_in_service_date == date(2029, 6, 30)
    assert site.location.latitude == 30.1
    assert site.location.model_extra == {"datum": "WGS84"}
    assert site.energy_storage == {"mw": 10, "hours": 4}
    assert site.model_extra["newTopLevel"] == {"nested": [1, 2]}
    assert site.to_wire()["newTopLevel"] == {"nested": [1, 2]}


def test_every_single_record_keeps_its_raw_response(service):
    body = {"data": {"recordId": "q1", "sourceRow": {"A": "1"}}, "meta": {"licence": "x"}}
    raw = json.dumps(body, indent=3).encode()
    service.handle(
        lambda request: httpx.Response(200, content=raw, headers={"x-request-id": "rid-7"})
    )
    evidence = service.client().queue_records.evidence("q1")
    assert evidence.source_row == {"A": "1"}
    assert evidence.raw.raw_bytes == raw
    assert evidence.raw.json() == body
    assert evidence.raw.meta == {"licence": "x"}
    assert evidence.raw.request_id == "rid-7"


def test_single_records_pickle_with_their_raw_response(service):
    import pickle

    service.handle(lambda request: record({"id": "s1", "requestedPeakLoadMw": 5, "extra": [1]}))
    site = service.client().sites.get("s1")
    copy = pickle.loads(pickle.dumps(site))
    assert isinstance(copy, gc.Site)
    assert copy.model_dump() == site.model_dump()
    assert copy.raw.raw_bytes == site.raw.raw_bytes
    assert repr(copy).startswith("Site(")


def test_expert_review_hands_over_the_services_bytes_unchanged(service):
    packet = {
        "data": {
            "protocolVersion": "1.2",
            "reviewStatus": "unreviewed",
            "caseId": "case-9",
            "site": {"requestedPeakLoadMw": 75},
            "serviceAssessment": {"risks": ["queue congestion"]},
            "rubric": [{"criterion": "a"}],
        },
        "meta": {"blinded": True},
    }
    raw = b'{"data": ' + json.dumps(packet["data"]).encode() + b', "meta":{"blinded":true}}\n'
    service.handle(lambda request: httpx.Response(200, content=raw))
    review = service.client().assessments.expert_review("assess-1")
    assert service.requests[0].url.path == "/v1/assessments/assess-1/expert-review.json"
    assert review.raw_bytes == raw
    assert review.raw.json() == packet
    assert review.meta == {"blinded": True}
    assert review.review_status == "unreviewed"
    assert review.service_assessment.risks == ["queue congestion"]
    assert review.site.requested_peak_load_mw == 75


def test_export_content_is_handed_over_as_text_and_bytes(service):
    csv_text = "field,value\r\nrisk,'=cmd\r\nname,Zoë\r\n"
    service.handle(
        lambda request: record(
            {
                "id": "e1",
                "content": csv_text,
                "contentType": "text/csv; charset=utf-8",
                "format": "csv",
            }
        )
    )
    export = service.client().exports.get("e1")
    assert export.content == csv_text
    assert export.content_bytes == csv_text.encode("utf-8")


def test_site_definition_model_is_sent_by_alias_without_none_fields(service):
    service.handle(lambda request: record({"id": "s1", "requestedPeakLoadMw": 80}))
    definition = gc.SiteDefinition(
        requested_peak_load_mw=80,
        location=gc.SiteLocation(latitude=31.0, longitude=-97.0),
        target_in_service_date=date(2030, 1, 1),
        metadata={"team": "north"},
    )
    site = service.client().sites.create(definition)
    assert site.requested_peak_load_mw == 80
    assert json.loads(service.requests[0].content) == {
        "requestedPeakLoadMw": 80.0,
        "location": {"latitude": 31.0, "longitude": -97.0},
        "targetInServiceDate": "2030-01-01",
        "metadata": {"team": "north"},
    }
    assert service.requests[0].headers["Content-Type"] == "application/json"


def test_a_dict_definition_is_sent_as_given(service):
    service.handle(lambda request: record({"id": "s1"}))
    definition = {"requestedPeakLoadMw": 5, "location": {"latitude": 1, "longitude": 2}, "x": None}
    service.client().sites.create(definition)
    assert json.loads(service.requests[0].content) == definition


def test_exports_create_sends_the_format(service):
    service.handle(lambda request: record({"id": "e1", "format": "csv"}))
    export = service.client().exports.create("assess-1")
    assert service.requests[0].url.path == "/v1/assessments/assess-1/exports"
    assert json.loads(service.requests[0].content) == {"format": "csv"}
    assert export.format == "csv"


def test_release_and_quality_are_typed(service):
    quality_body = {
        "data": [
            {
                "runId": "r1",
                "inputRecords": 10,
                "acceptedRecords": 9,
                "rejectedRecords": 1,
                "rejections": [{"sourceLocator": "row 3", "reasons": ["no county"]}],
            }
        ],
        "quality": {
            "generatedAt": "2026-01-01T00:00:00Z",
            "scope": "commercial-core",
            "queue": {"rows": 12, "missingCounty": 1},
            "balancingAuthorityOperations": {"rows": 5, "quarantinedExtremeForecasts": 0},
            "joins": {
                "generatorRows": 3,
                "generatorPlantCoverage": 0.5,
                "operationPlantCoverage": 9876,
            },
        },
        "scope": "commercial-core",
        "release": {"releaseId": "demo"},
        "methodology": {
            "unit": "record",
            "acceptanceRateDefinition": "a/i",
            "note": "not validation",
        },
    }
    service.script(
        [
            record(
                {
                    "releaseId": "demo-1",
                    "productionRevision": 3,
                    "validUntil": "2027-01-01T00:00:00Z",
                }
            ),
            httpx.Response(200, json=quality_body),
        ]
    )
    client = service.client()
    release = client.release()
    assert isinstance(release, gc.Release)
    assert (release.release_id, release.production_revision) == ("demo-1", 3)
    assert release.valid_until.year == 2027
    quality = client.quality()
    assert isinstance(quality, gc.QualityReport)
    assert quality.data[0].rejections[0].reasons == ["no county"]
    assert quality.quality.queue.missing_county == 1
    assert quality.quality.joins.generator_plant_coverage == 0.5
    assert repr(quality.quality.joins.operation_plant_coverage) == "9876"
    assert quality.methodology.note == "not validation"
    assert quality.raw.json() == quality_body


def test_resolution_has_candidates(service):
    service.handle(
        lambda request: record(
            {
                "location": {"type": "Point", "coordinates": [-97, 30]},
                "candidates": [
                    {"utilityId": "u1", "confidence": 0.8, "resolutionMethod": "regulator_polygon"}
                ],
            },
            note="heuristic",
        )
    )
    resolution = service.client().service_territories.resolve(latitude=30, longitude=-97)
    assert resolution.candidates[0].utility_id == "u1"
    assert resolution.candidates[0].confidence == 0.8
    assert resolution.raw.meta == {"note": "heuristic"}


OPENAPI = {
    "openapi": "3.1.0",
    "info": {"title": "Grid Data Service", "version": "1.0.0"},
    "paths": {
        "/v1/sites": {"get": {}, "post": {}},
        "/v1/sites/{site_id}/assessments": {"post": {}},
        "/v1/release": {"get": {}},
    },
}


def test_capabilities_read_the_openapi_document_once(service):
    service.handle(lambda request: httpx.Response(200, json=OPENAPI))
    client = service.client()
    capabilities = client.capabilities()
    assert capabilities.openapi_available
    assert capabilities.list_sites and capabilities.create_assessment
    assert not capabilities.list_assessments and not capabilities.create_export
    assert capabilities.supports("GET", "/v1/release")
    assert client.capabilities() is capabilities
    assert [r.url.path for r in service.requests] == ["/v1/openapi.json"]


def test_capabilities_without_an_openapi_document_mean_no_extensions(service):
    service.handle(lambda request: problem(404, "not_found", "no such path"))
    capabilities = service.client().capabilities()
    assert not capabilities.openapi_available
    assert capabilities.extensions == {
        "list_sites": False,
        "create_assessment": False,
        "list_assessments": False,
        "create_export": False,
        "update_site": False,
        "site_changes": False,
        "list_sites_latest_assessment": False,
        "list_sites_assessment_summary": False,
        "site_surroundings": False,
    }


def test_the_latest_assessment_extension_is_read_from_the_sites_query_parameters(service):
    with_include = {
        "paths": {
            "/v1/sites": {"get": {"parameters": [{"name": "include", "in": "query"}]}},
        }
    }
    service.handle(lambda request: httpx.Response(200, json=with_include))
    offered = service.client().capabilities()
    assert offered.list_sites_latest_assessment and not offered.list_sites_assessment_summary
    include = with_include["paths"]["/v1/sites"]["get"]["parameters"][0]
    include["schema"] = {
        "anyOf": [{"enum": ["latest_assessment", "latest_assessment_summary"]}, {"type": "null"}]
    }
    assert service.client().capabilities().list_sites_assessment_summary
    service.handle(lambda request: httpx.Response(200, json=OPENAPI))
    plain = service.client().capabilities()
    assert plain.list_sites and not plain.list_sites_latest_assessment


def test_capabilities_surface_other_failures(service):
    service.handle(lambda request: problem(401, "unauthenticated", "token?"))
    with pytest.raises(gc.AuthenticationError):
        service.client().capabilities()
