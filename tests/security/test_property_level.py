"""Property-level authorization (OWASP API3): clients cannot set server-owned or unknown
fields, and no response carries a field beyond the interface's field tables.

The field tables are those of the client's models (gridclient), read through their
camelCase aliases; opaque objects (`readiness`, `evidence` of a territory candidate, ...) are
not descended into, as the interface leaves their inside open.
"""

from __future__ import annotations

import types
import typing
from typing import Any

import pytest
from pydantic import BaseModel
from security_support import ALPHA, create_assessment, create_export, create_site, key, site_body

from gridclient import (
    FactorAgreement,
    FactorCalibration,
    QueueCompletion,
    QueueProjectTimeline,
    Review,
    ReviewCase,
    SiteChanges,
    SiteSurroundings,
    models,
)
from gridclient._surroundings import ChangedProject
from gridservice.demo import DEMO_POINTS
from gridservice.screening.factors import FACTORS
from gridservice.security.tokens import issue_token
from gridservice.store.db import connect

FORBIDDEN = [
    {"id": "site_chosen_by_client"},
    {"tenantId": "demo-beta"},
    {"createdAt": "2020-01-01T00:00:00Z"},
    {"isAdmin": True},
    {"location": {"latitude": 30.0, "longitude": -97.0, "altitude": 10}},
    {"address": {"locality": "Austin", "tenantId": "demo-beta"}},
]


def site_count(service) -> int:
    return len(service.get("/v1/sites", params={"limit": 500}, headers=ALPHA).json()["data"])


@pytest.mark.parametrize("extra", FORBIDDEN, ids=lambda e: next(iter(e)))
def test_a_site_body_with_server_owned_or_unknown_fields_is_refused(service, extra):
    before = site_count(service)
    response = service.post("/v1/sites", json={**site_body(), **extra}, headers={**ALPHA, **key()})
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "validation_failed"
    assert site_count(service) == before


@pytest.mark.parametrize("body", [{"isAdmin": True}, {"tenantId": "demo-beta"}, [1], "x"])
def test_a_screening_body_with_any_field_is_refused(service, body):
    """Screening takes no body (or `{}`): like every other POST, it refuses unknown fields."""
    site = create_site(service, ALPHA)

    def assessment_count() -> int:
        listed = service.get(f"/v1/sites/{site['id']}/assessments", headers=ALPHA)
        return len(listed.json()["data"])

    response = service.post(
        f"/v1/sites/{site['id']}/assessments", json=body, headers={**ALPHA, **key()}
    )
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "validation_failed"
    assert assessment_count() == 0
    for allowed in ({}, None):
        created = service.post(
            f"/v1/sites/{site['id']}/assessments", json=allowed, headers={**ALPHA, **key()}
        )
        assert created.status_code == 201, created.text
    assert assessment_count() == 2


def test_the_server_owns_tenant_id_and_creation_time(service):
    site = create_site(service, ALPHA)
    assert site["tenantId"] == "demo-alpha"
    assert site["id"].startswith("site_") and site["createdAt"].endswith("Z")


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """Return the record models an annotation may hold (through Optional and list)."""
    if isinstance(annotation, type) and issubclass(annotation, models.GridModel):
        return [annotation]
    origin = typing.get_origin(annotation)
    if origin in (list, typing.Union, types.UnionType):
        return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]
    return []


def extra_fields(value: Any, model: type[BaseModel], where: str) -> list[str]:
    """Return the paths of keys in `value` that `model`'s field table does not list."""
    if isinstance(value, list):
        return [
            e for i, item in enumerate(value) for e in extra_fields(item, model, f"{where}[{i}]")
        ]
    if not isinstance(value, dict):
        return []
    fields = {info.alias or name: info for name, info in model.model_fields.items()}
    found = [f"{where}.{name}" for name in value if name not in fields]
    for name, info in fields.items():
        for inner in _models_in(info.annotation):
            found += extra_fields(value.get(name), inner, f"{where}.{name}")
    return found


PAGE_META = {"hasMore", "limit", "nextCursor", "order"}


def check_collection(body: dict, model: type[BaseModel], where: str) -> list[str]:
    problems = [f"{where}.{k}" for k in body if k not in ("data", "meta")]
    problems += [f"{where}.meta.{k}" for k in body["meta"] if k not in PAGE_META]
    assert body["data"], f"{where}: an empty page proves nothing"
    return problems + extra_fields(body["data"], model, where + ".data")


def check_single(body: dict, model: type[BaseModel], where: str, meta: bool = False) -> list[str]:
    allowed = {"data", "meta"} if meta else {"data"}
    problems = [f"{where}.{k}" for k in body if k not in allowed]
    return problems + extra_fields(body["data"], model, where + ".data")


COLLECTIONS = {
    "/v1/load-forecasts": models.Fact,
    "/v1/resource-adequacy": models.Fact,
    "/v1/generators": models.Generator,
    "/v1/generation-plants": models.GenerationPlant,
    "/v1/generator-operations": models.GeneratorOperation,
    "/v1/balancing-authority-operations": models.BalancingAuthorityOperation,
    "/v1/transmission-projects": models.TransmissionProject,
    "/v1/queue-records": models.QueueRecord,
}


def test_no_response_carries_a_field_beyond_the_interface(service, store_copy):
    called: set[tuple[str, str]] = set()
    problems: list[str] = []

    def get(template: str, path: str | None = None, **params) -> dict:
        response = service.get(path or template, params=params, headers=ALPHA)
        assert response.status_code == 200, (template, response.text)
        called.add(("GET", template))
        return response.json()

    def post(template: str, path: str, body: Any) -> dict:
        response = service.post(path, json=body, headers={**ALPHA, **key()})
        assert response.status_code in (200, 201), (template, response.text)
        called.add(("POST", template))
        return response.json()

    for path, model in COLLECTIONS.items():
        problems += check_collection(get(path, limit=50), model, path)
    problems += check_collection(
        get("/v1/evidence-search", q="interconnection", limit=20), models.EvidenceChunk, "search"
    )
    conn = connect(store_copy)
    control = conn.execute("SELECT control_number FROM docket_filings LIMIT 1").fetchone()[0]
    record = conn.execute("SELECT record_id FROM queue_record_details LIMIT 1").fetchone()[0]
    conn.close()
    problems += check_collection(
        get("/v1/dockets/{controlNumber}/filings", f"/v1/dockets/{control}/filings"),
        models.DocketFiling,
        "filings",
    )
    problems += check_single(
        get("/v1/queue-records/{recordId}/details", f"/v1/queue-records/{record}/details"),
        models.QueueRecordDetails,
        "details",
    )
    problems += check_single(
        get("/v1/queue-records/{recordId}/evidence", f"/v1/queue-records/{record}/evidence"),
        models.QueueRecordEvidence,
        "evidence",
        meta=True,
    )
    latitude, longitude = DEMO_POINTS["dual_certified"]
    problems += check_single(
        get(
            "/v1/queue-history/completion",
            latitude=latitude,
            longitude=longitude,
            radius_km=100,
        ),
        QueueCompletion,
        "completion",
        meta=True,
    )
    territory = post(
        "/v1/service-territory-resolutions",
        "/v1/service-territory-resolutions",
        {"location": {"type": "Point", "coordinates": [longitude, latitude]}},
    )
    problems += check_single(territory, models.TerritoryResolution, "territory", meta=True)

    site = post("/v1/sites", "/v1/sites", site_body(metadata={"k": "v"}))
    site_id = site["data"]["id"]
    problems += check_single(site, models.Site, "site")
    problems += check_single(get("/v1/sites/{siteId}", f"/v1/sites/{site_id}"), models.Site, "read")
    problems += check_collection(get("/v1/sites"), models.Site, "sites")
    problems += check_single(
        get("/v1/sites/{siteId}/surroundings", f"/v1/sites/{site_id}/surroundings"),
        SiteSurroundings,
        "surroundings",
        meta=True,
    )
    changed = get(
        "/v1/sites/{siteId}/surroundings/projects",
        f"/v1/sites/{site_id}/surroundings/projects",
        list="changed",
    )
    problems += check_collection(changed, ChangedProject, "surroundings projects")
    project_id = changed["data"][0]["projectId"]
    problems += check_single(
        get("/v1/queue-history/projects/{projectId}", f"/v1/queue-history/projects/{project_id}"),
        QueueProjectTimeline,
        "project timeline",
        meta=True,
    )
    patched = service.patch(
        f"/v1/sites/{site_id}", json={"customerReference": "renamed"}, headers={**ALPHA, **key()}
    )
    assert patched.status_code == 200, patched.text
    called.add(("PATCH", "/v1/sites/{siteId}"))
    problems += check_single(patched.json(), models.Site, "patched site")
    problems += extra_fields(
        get("/v1/sites/{siteId}/revisions", f"/v1/sites/{site_id}/revisions"),
        models.SiteRevisions,
        "revisions",
    )
    assessment = post("/v1/sites/{siteId}/assessments", f"/v1/sites/{site_id}/assessments", None)
    assessment_id = assessment["data"]["id"]
    problems += check_single(
        get("/v1/sites/{siteId}/changes", f"/v1/sites/{site_id}/changes"),
        SiteChanges,
        "changes",
    )
    problems += check_single(assessment, models.Assessment, "assessment")
    problems += check_collection(
        get("/v1/sites/{siteId}/assessments", f"/v1/sites/{site_id}/assessments"),
        models.Assessment,
        "assessments",
    )
    problems += check_single(
        get("/v1/assessments/{assessmentId}", f"/v1/assessments/{assessment_id}"),
        models.Assessment,
        "read assessment",
    )
    problems += check_single(
        get(
            "/v1/assessments/{assessmentId}/expert-review.json",
            f"/v1/assessments/{assessment_id}/expert-review.json",
        ),
        models.ExpertReviewPacket,
        "packet",
        meta=True,
    )
    export = post(
        "/v1/assessments/{assessmentId}/exports",
        f"/v1/assessments/{assessment_id}/exports",
        {"format": "csv"},
    )
    problems += check_single(export, models.AssessmentExport, "export")
    export_path = f"/v1/assessments/exports/{export['data']['id']}"
    problems += check_single(
        get("/v1/assessments/exports/{exportId}", export_path), models.AssessmentExport, "export"
    )
    problems += review_round_trip(service, store_copy, assessment_id, get, post, called)
    problems += check_single(get("/v1/release"), models.Release, "release")
    quality = get("/v1/quality")
    problems += extra_fields(quality, models.QualityReport, "quality")
    assert get("/v1/health") == {"status": "ok"}

    documented = {
        (method.upper(), path)
        for path, methods in service.get("/v1/openapi.json").json()["paths"].items()
        for method in methods
    }
    assert called == documented, documented ^ called
    assert problems == []


def review_round_trip(service, store, assessment_id: str, get, post, called: set) -> list[str]:
    """Walk every review-case route: an analyst sends the assessment to two reviewers, who
    read the packet and submit (one by form, one by upload), and the analyst adjudicates."""
    reviewers = {
        name: {"Authorization": "Bearer " + issue_token(store, "demo-alpha", reviewer=name)}
        for name in ("walk-ada", "walk-bo")
    }

    def as_reviewer(method: str, template: str, path: str, name: str, body=None) -> dict:
        headers = reviewers[name] if body is None else {**reviewers[name], **key()}
        response = service.request(method, path, json=body, headers=headers)
        assert response.status_code in (200, 201), (template, response.text)
        called.add((method, template))
        return response.json()

    body = {"assessmentId": assessment_id, "reviewers": list(reviewers), "dueDate": "2026-12-01"}
    case = post("/v1/review-cases", "/v1/review-cases", body)
    problems = check_single(case, ReviewCase, "case")
    case_path = f"/v1/review-cases/{case['data']['id']}"
    packet = as_reviewer(
        "GET", "/v1/review-cases/{caseId}/packet", case_path + "/packet", "walk-bo"
    )
    problems += check_single(packet, models.ExpertReviewPacket, "case packet", meta=True)
    answers = [
        {"factor": f, "severity": "low", "evidenceSupports": True, "confidence": "high"}
        for f in FACTORS
    ]
    attested = {"noConflictOfInterest": True, "evidenceChecked": True}
    review = as_reviewer(
        "POST",
        "/v1/review-cases/{caseId}/reviews",
        case_path + "/reviews",
        "walk-ada",
        {"factors": answers, "attestation": attested},
    )
    problems += check_single(review, Review, "review")
    completed = packet["data"]
    for item in completed["rubric"]:
        if item["criterion"] in FACTORS:
            item.update(severity="high", evidenceSupports=True, confidence="low")
    completed["attestation"].update(attested)
    uploaded = as_reviewer(
        "POST",
        "/v1/review-cases/{caseId}/reviews/packet",
        case_path + "/reviews/packet",
        "walk-bo",
        completed,
    )
    problems += check_single(uploaded, Review, "uploaded review")
    mine = as_reviewer("GET", "/v1/review-cases", "/v1/review-cases", "walk-ada")
    problems += check_single(mine, ReviewCase, "reviewer's cases")
    problems += check_single(get("/v1/review-cases"), ReviewCase, "cases")
    decisions = [{"factor": f, "severity": "medium", "reason": "Checked."} for f in FACTORS]
    moved = post(
        "/v1/review-cases/{caseId}/transitions",
        case_path + "/transitions",
        {"to": "adjudicated", "decidedBy": "lead", "decisions": decisions},
    )
    problems += check_single(moved, ReviewCase, "adjudicated case")
    problems += check_single(get("/v1/review-cases/{caseId}", case_path), ReviewCase, "case read")
    problems += check_single(get("/v1/review-cases/agreement"), FactorAgreement, "agreement")
    problems += check_single(get("/v1/review-cases/calibration"), FactorCalibration, "calibration")
    return problems


def test_the_walk_would_notice_an_extra_field():
    record = {"id": "x", "tenantId": "t", "location": {"latitude": 1, "longitude": 2, "z": 3}}
    assert extra_fields({**record, "internalNote": "n"}, models.Site, "s") == [
        "s.internalNote",
        "s.location.z",
    ]


def test_created_records_are_readable_back_unchanged(service):
    site = create_site(service, ALPHA, customerReference="ref-1", metadata={"a": "b"})
    assessment = create_assessment(service, ALPHA, site["id"])
    export = create_export(service, ALPHA, assessment["id"])
    assert service.get(f"/v1/sites/{site['id']}", headers=ALPHA).json()["data"] == site
    read = service.get(f"/v1/assessments/exports/{export['id']}", headers=ALPHA)
    assert read.json()["data"] == export
