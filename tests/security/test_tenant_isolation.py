"""Tenant isolation (OWASP API1): another tenant's ids are 404 everywhere, lists never leak.

The matrix is read from the served OpenAPI document: every operation whose path takes a
tenant-scoped id (`siteId`, `assessmentId`, `exportId`; the expert-review packet is reached
through its assessment) is called with demo-alpha's id and demo-beta's token. Each answer
must be the same 404 a made-up id gets, so the other tenant cannot tell the id exists.
"""

from __future__ import annotations

import re

import pytest
from security_support import (
    ALPHA,
    BETA,
    create_assessment,
    create_export,
    create_site,
    key,
    site_body,
)

SCOPED_PARAMETERS = ("siteId", "assessmentId", "exportId")
NOT_FOUND_CODES = {
    "siteId": "site_not_found",
    "assessmentId": "assessment_not_found",
    "exportId": "export_not_found",
}


@pytest.fixture(scope="module")
def alpha_records(service) -> dict[str, str]:
    site = create_site(service, ALPHA, customerReference="alpha-secret-ref")
    assessment = create_assessment(service, ALPHA, site["id"])
    export = create_export(service, ALPHA, assessment["id"])
    return {"siteId": site["id"], "assessmentId": assessment["id"], "exportId": export["id"]}


def scoped_operations(service) -> list[tuple[str, str, str]]:
    document = service.get("/v1/openapi.json").json()
    found = []
    for path, operations in document["paths"].items():
        parameters = re.findall(r"\{(\w+)\}", path)
        scoped = [p for p in parameters if p in SCOPED_PARAMETERS]
        for method in operations:
            if scoped:
                assert len(scoped) == 1, path
                found.append((method.upper(), path, scoped[0]))
    return found


def call(service, method: str, path: str, headers: dict):
    if method == "GET":
        return service.get(path, headers=headers)
    if method == "PATCH":
        # Sets what alpha's site already holds, so alpha's own call changes nothing.
        body = {"customerReference": "alpha-secret-ref"}
        return service.patch(path, json=body, headers={**headers, **key()})
    body = {"format": "csv"} if path.endswith("/exports") else None
    return service.post(path, json=body, headers={**headers, **key()})


def test_the_matrix_covers_every_operation_taking_a_scoped_id(service):
    operations = {(m, p) for m, p, _ in scoped_operations(service)}
    assert operations == {
        ("GET", "/v1/sites/{siteId}"),
        ("PATCH", "/v1/sites/{siteId}"),
        ("GET", "/v1/sites/{siteId}/revisions"),
        ("GET", "/v1/sites/{siteId}/changes"),
        ("POST", "/v1/sites/{siteId}/assessments"),
        ("GET", "/v1/sites/{siteId}/assessments"),
        ("GET", "/v1/sites/{siteId}/surroundings"),
        ("GET", "/v1/sites/{siteId}/surroundings/projects"),
        ("GET", "/v1/assessments/{assessmentId}"),
        ("GET", "/v1/assessments/{assessmentId}/expert-review.json"),
        ("POST", "/v1/assessments/{assessmentId}/exports"),
        ("GET", "/v1/assessments/exports/{exportId}"),
    }


def test_every_scoped_operation_is_404_for_the_other_tenant(service, alpha_records):
    checked = 0
    for method, template, parameter in scoped_operations(service):
        path = template.replace("{" + parameter + "}", alpha_records[parameter])
        own = call(service, method, path, ALPHA)
        assert own.status_code in (200, 201), (method, path, own.text)

        foreign = call(service, method, path, BETA)
        made_up = call(service, method, template.replace("{" + parameter + "}", "nope_1"), BETA)
        assert foreign.status_code == 404, (method, path, foreign.text)
        assert foreign.headers["content-type"].startswith("application/problem+json")
        problem = foreign.json()
        assert problem["code"] == NOT_FOUND_CODES[parameter]
        # Indistinguishable from an id that never existed (apart from the id and request id).
        assert {
            k: v for k, v in problem.items() if k not in ("detail", "instance", "requestId")
        } == {
            k: v for k, v in made_up.json().items() if k not in ("detail", "instance", "requestId")
        }
        assert "alpha" not in foreign.text.replace(alpha_records[parameter], "")
        checked += 1
    assert checked == 12


def test_a_failed_foreign_write_creates_nothing(service, alpha_records):
    site_path = f"/v1/sites/{alpha_records['siteId']}/assessments"
    before = service.get(site_path, headers=ALPHA).json()["data"]
    assert service.post(site_path, headers={**BETA, **key()}).status_code == 404
    assert service.get(site_path, headers=ALPHA).json()["data"] == before


def list_ids(service, headers: dict, path: str = "/v1/sites", limit: int = 3) -> list[str]:
    ids, cursor = [], None
    while True:
        params = {"limit": limit, **({"cursor": cursor} if cursor else {})}
        body = service.get(path, params=params, headers=headers).json()
        ids += [record["id"] for record in body["data"]]
        if not body["meta"]["hasMore"]:
            return ids
        cursor = body["meta"]["nextCursor"]


def test_site_lists_never_show_another_tenants_sites(service, alpha_records):
    alpha_sites = {create_site(service, ALPHA)["id"] for _ in range(4)} | {alpha_records["siteId"]}
    beta_sites = {create_site(service, BETA)["id"] for _ in range(3)}

    seen_by_alpha = list_ids(service, ALPHA)
    seen_by_beta = list_ids(service, BETA)
    assert alpha_sites <= set(seen_by_alpha)
    assert beta_sites <= set(seen_by_beta)
    assert not set(seen_by_alpha) & set(seen_by_beta)
    for record in service.get("/v1/sites", params={"limit": 500}, headers=BETA).json()["data"]:
        assert record["tenantId"] == "demo-beta"


def test_a_cursor_from_one_tenants_list_does_not_page_anothers(service, alpha_records):
    for _ in range(2):
        create_site(service, ALPHA)
    first = service.get("/v1/sites", params={"limit": 1}, headers=ALPHA).json()
    cursor = first["meta"]["nextCursor"]
    assert cursor
    stolen = service.get("/v1/sites", params={"limit": 1, "cursor": cursor}, headers=BETA)
    assert stolen.status_code == 400
    assert stolen.json()["code"] == "cursor_filter_mismatch"


def test_idempotency_keys_are_scoped_per_tenant(service):
    shared_key = {"Idempotency-Key": "shared-key-across-tenants"}
    body = site_body(customerReference="same body, two tenants")
    alpha = service.post("/v1/sites", json=body, headers={**ALPHA, **shared_key})
    beta = service.post("/v1/sites", json=body, headers={**BETA, **shared_key})
    assert alpha.status_code == beta.status_code == 201
    # Beta gets a new site of its own, never a replay of alpha's stored response.
    assert "idempotent-replayed" not in beta.headers
    assert beta.json()["data"]["id"] != alpha.json()["data"]["id"]
    assert beta.json()["data"]["tenantId"] == "demo-beta"
