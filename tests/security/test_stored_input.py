"""Hostile input a store cannot keep or a page cannot serve (OWASP API4), on both stores:
free-form JSON past its nesting or size bound, NUL in any text, numbers that are not finite,
NUL in any path or query parameter, and a site stored before those bounds."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest
from security_support import ALPHA, create_assessment, create_site, key, site_body

from gridservice.routers.bounds import MAX_FREE_FORM_BYTES, MAX_FREE_FORM_DEPTH
from gridservice.store import tenancy
from gridservice.store.db import connect


def nested(depth: int) -> str:
    """Return JSON text of `depth` nested arrays."""
    return "[" * depth + "]" * depth


def post_site(service, extra_members: str) -> httpx.Response:
    """POST a valid site with members appended as raw JSON text (to send NaN or 1e999)."""
    body = json.dumps(site_body())[:-1] + "," + extra_members + "}"
    headers = {**ALPHA, **key(), "Content-Type": "application/json"}
    return service.post("/v1/sites", content=body, headers=headers)


def site_ids(service, **params: str) -> list[str]:
    listed = service.get("/v1/sites", params={"limit": 500, **params}, headers=ALPHA)
    assert listed.status_code == 200, listed.text
    return [site["id"] for site in listed.json()["data"]]


def assert_refused(response: httpx.Response, status: int, field: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert [e["field"] for e in response.json()["errors"]] == [field], response.text


UNSTORABLE = {
    "infinite": ("rampProfile", '[{"x": 1e999}]'),
    "negative-infinite": ("rampProfile", '[{"x": -1e400}]'),
    "nan": ("onSiteGeneration", '[{"x": NaN}]'),
    "infinity-literal": ("energyStorage", '{"x": Infinity}'),
    "too-deep": ("energyStorage", '{"x": ' + nested(MAX_FREE_FORM_DEPTH) + "}"),
    "far-too-deep": ("energyStorage", '{"x": ' + nested(260) + "}"),
    "too-large": ("energyStorage", json.dumps({"x": "y" * MAX_FREE_FORM_BYTES})),
    "nul-key": ("energyStorage", '{"a\\u0000b": 1}'),
    "nul-text": ("rampProfile", '[{"step": "a\\u0000b"}]'),
}


@pytest.mark.parametrize("member,value", UNSTORABLE.values(), ids=UNSTORABLE.keys())
def test_free_form_json_a_store_cannot_keep_is_422_naming_the_member(service, member, value):
    before = site_ids(service)
    assert_refused(post_site(service, f'"{member}": {value}'), 422, member)
    assert site_ids(service) == before


def test_free_form_json_at_the_bounds_is_kept(service):
    deepest = '{"x": ' + nested(MAX_FREE_FORM_DEPTH - 1) + "}"
    response = post_site(service, f'"energyStorage": {deepest}')
    assert response.status_code == 201, response.text
    assert json.dumps(response.json()["data"]["energyStorage"]).count("[") == (
        MAX_FREE_FORM_DEPTH - 1
    )


def _schema(document: dict, schema: dict) -> dict:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def free_text_paths(document: dict, schema: dict, prefix: tuple[str, ...] = ()) -> list:
    """Return the path of every free text in a request body schema (a string with no
    pattern or choice list); `*` stands for a key of a map, `**` for its value."""
    schema = _schema(document, schema)
    found = []
    for option in schema.get("anyOf", [schema]):
        option = _schema(document, option)
        if option.get("type") == "string" and not {"pattern", "enum", "const"} & set(option):
            found.append(prefix)
        for name, member in option.get("properties", {}).items():
            found += free_text_paths(document, member, (*prefix, name))
        values = option.get("additionalProperties")
        if isinstance(values, dict):
            found += [(*prefix, "*")] + free_text_paths(document, values, (*prefix, "**"))
    return found


def with_nul_at(path: tuple[str, ...]) -> dict[str, Any]:
    """Return body members holding NUL at `path` (as key or value of a map at `*`/`**`)."""
    if path[-1] == "*":
        value: Any = {"a\x00b": "x"}
    elif path[-1] == "**":
        value = {"k": "a\x00b"}
    else:
        value = "a\x00b"
    for name in reversed(path[:-1] if path[-1] in ("*", "**") else path):
        value = {name: value}
    return value


def write_cases(document: dict) -> list[tuple[str, str, tuple[str, ...]]]:
    """Return (method, path template, text path) for every free text of every write body."""
    cases = []
    for template, operations in document["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            schema = content.get("application/json", {}).get("schema")
            if schema is not None:
                cases += [(method, template, p) for p in free_text_paths(document, schema)]
    return cases


def test_nul_in_any_text_of_any_write_is_422_naming_it(service):
    document = service.get("/v1/openapi.json").json()
    cases = write_cases(document)
    # The site's texts: its reference, each address line, metadata keys and values.
    assert {c[2][0] for c in cases} >= {"customerReference", "address", "metadata"}
    site_id = create_site(service, ALPHA)["id"]
    # A site's writes, each from a valid site body; review cases are checked below.
    for method, template, path in [c for c in cases if c[1].startswith("/v1/sites")]:
        members = with_nul_at(path)
        body = {**site_body(), **members} if method == "post" else members
        response = service.request(
            method,
            template.replace("{siteId}", site_id),
            json=body,
            headers={**ALPHA, **key()},
        )
        assert response.status_code == 422, (method, template, path, response.text)
        fields = [e["field"] for e in response.json()["errors"]]
        assert fields and all(f.startswith(".".join(path[:1])) for f in fields), fields
    assert "\\u0000" not in service.get(f"/v1/sites/{site_id}", headers=ALPHA).text


def test_nul_in_a_review_case_is_422_naming_it(service):
    valid = {"assessmentId": "asm_x", "reviewers": ["ana", "ben"], "dueDate": "2026-12-31"}
    for member, value in (("assessmentId", "asm\x00x"), ("reviewers", ["ana", "b\x00n"])):
        response = service.post(
            "/v1/review-cases", json={**valid, member: value}, headers={**ALPHA, **key()}
        )
        assert response.status_code == 422, response.text
        assert [e["field"].split(".")[0] for e in response.json()["errors"]] == [member]


def nul_requests(document: dict) -> list[tuple[str, str, dict[str, str]]]:
    """Return one request per parameter of every operation, that parameter holding NUL."""
    requests = []
    for template, operations in document["paths"].items():
        for method, operation in operations.items():
            params = [p for p in operation.get("parameters", []) if p["in"] in ("path", "query")]
            path_names = [p["name"] for p in params if p["in"] == "path"]
            for param in params:
                url = template
                for name in path_names:
                    url = url.replace("{" + name + "}", "%00" if name == param["name"] else "x")
                query = {param["name"]: "a\x00b"} if param["in"] == "query" else {}
                requests.append((method.upper(), url, query))
    return requests


def test_nul_in_any_path_or_query_parameter_is_400_naming_it(service):
    requests = nul_requests(service.get("/v1/openapi.json").json())
    assert len({(m, u) for m, u, _ in requests}) >= 20
    answered = {}
    for method, url, query in requests:
        response = service.request(method, url, params=query, headers={**ALPHA, **key()})
        answered[(method, url, *query)] = (response.status_code, response.json().get("code"))
    refused = {k: v for k, v in answered.items() if v != (400, "invalid_parameter")}
    assert refused == {}


def store_site(store_copy, **members: Any) -> str:
    """Store a site for demo-alpha directly, as one written before the bounds could be."""
    site_id = "site_stored_" + uuid.uuid4().hex[:12]
    record = {**site_body(), "id": site_id, "tenantId": "demo-alpha", "archivedAt": None}
    text = json.dumps({**record, "createdAt": "2026-01-01T00:00:00Z"}, separators=(",", ":"))
    for name, raw in members.items():
        text = text[:-1] + f',"{name}":{raw}' + "}"
    conn = connect(store_copy)
    try:
        tenancy.insert_site(conn, site_id, "demo-alpha", "2026-01-01T00:00:00Z", text)
        conn.commit()
    finally:
        conn.close()
    return site_id


@pytest.mark.parametrize(
    "member,raw",
    [
        ("energyStorage", '{"x":' + nested(260) + "}"),
        ("customerReference", '"a\\u0000b"'),
        ("metadata", '{"k\\u0000":"v"}'),
    ],
    ids=["deep", "nul-text", "nul-key"],
)
def test_a_stored_site_that_breaks_the_bounds_is_listed_degraded(service, store_copy, member, raw):
    good = create_site(service, ALPHA)["id"]
    bad = store_site(store_copy, **{member: raw})
    for include in ("", "latest_assessment", "latest_assessment_summary"):
        listed = service.get(
            "/v1/sites",
            params={"limit": 500, **({"include": include} if include else {})},
            headers=ALPHA,
        )
        assert listed.status_code == 200, listed.text
        sites = {s["id"]: s for s in listed.json()["data"]}
        assert good in sites and sites[good].get("degradedFields") is None
        assert sites[bad]["degradedFields"] == [member] and sites[bad][member] is None
    read = service.get(f"/v1/sites/{bad}", headers=ALPHA).json()["data"]
    assert read["degradedFields"] == [member]


def test_a_degraded_site_can_be_archived_and_leaves_the_list(service, store_copy):
    bad = store_site(store_copy, customerReference='"a\\u0000b"')
    patched = service.patch(f"/v1/sites/{bad}", json={"archived": True}, headers={**ALPHA, **key()})
    assert patched.status_code == 200, patched.text
    assert bad not in site_ids(service)
    assert bad in site_ids(service, archived="only")


def test_the_review_packet_of_a_site_stored_far_too_deep_answers(service, store_copy):
    bad = store_site(store_copy, energyStorage='{"x":' + nested(700) + "}")
    assessment = create_assessment(service, ALPHA, bad)
    packet = service.get(f"/v1/assessments/{assessment['id']}/expert-review.json", headers=ALPHA)
    assert packet.status_code == 200, packet.text
    assert packet.json()["data"]["site"]["energyStorage"] is None
