"""Collections: traversal, filters, bounds and cursors, on a small known store."""

from __future__ import annotations

import base64
import json

import pytest
import service_records as rec
from service_support import ALPHA

COLLECTIONS = [
    ("/v1/load-forecasts", {}, 2),  # current knowledge: the restated v1 is hidden
    ("/v1/resource-adequacy", {}, 2),
    ("/v1/generators", {}, rec.N_GENERATORS),
    ("/v1/generation-plants", {}, rec.N_PLANTS),
    ("/v1/generator-operations", {}, rec.N_OPERATIONS),
    ("/v1/balancing-authority-operations", {}, rec.N_BA_OPERATIONS),
    ("/v1/transmission-projects", {}, rec.N_PROJECTS),
    ("/v1/dockets/55555/filings", {}, 4),
    ("/v1/queue-records", {}, rec.N_QUEUE),
    ("/v1/evidence-search", {"q": "transmission"}, 4),
]


def traverse(client, path: str, params: dict, limit: int) -> tuple[list[dict], int]:
    records, pages, cursor = [], 0, None
    while True:
        query = {**params, "limit": limit, **({"cursor": cursor} if cursor else {})}
        response = client.get(path, params=query, headers=ALPHA)
        assert response.status_code == 200, response.text
        body = response.json()
        records += body["data"]
        pages += 1
        assert body["meta"]["limit"] == limit
        if not body["meta"]["hasMore"]:
            assert body["meta"]["nextCursor"] is None
            return records, pages
        cursor = body["meta"]["nextCursor"]
        assert len(body["data"]) == limit


def key(record: dict) -> str:
    return record.get("id") or record.get("chunkId")


@pytest.mark.parametrize(("path", "params", "expected"), COLLECTIONS)
@pytest.mark.parametrize("limit", [1, 2, 3])
def test_small_pages_equal_one_large_page(client, path, params, expected, limit):
    big_limit = 100 if path == "/v1/evidence-search" else 500
    whole, _ = traverse(client, path, params, big_limit)
    paged, pages = traverse(client, path, params, limit)
    assert len(whole) == expected
    assert [key(r) for r in paged] == [key(r) for r in whole]
    assert len({key(r) for r in paged}) == len(paged)
    assert pages == max(1, -(-expected // limit))


@pytest.mark.parametrize(
    ("path", "params", "_"), [c for c in COLLECTIONS if "evidence" not in c[0]]
)
def test_collections_are_in_id_order_with_the_envelope(client, path, params, _):
    body = client.get(path, params=params, headers=ALPHA).json()
    ids = [r["id"] for r in body["data"]]
    assert ids == sorted(ids)
    assert body["meta"] == {"hasMore": False, "limit": 100, "nextCursor": None, "order": "id_asc"}


def test_evidence_search_ranks_then_ids_and_prefers_the_exact_phrase(client):
    body = client.get(
        "/v1/evidence-search", params={"q": "transmission congestion"}, headers=ALPHA
    ).json()
    assert body["meta"]["order"] == "rank_desc_id_asc"
    ranks = [(-r["rank"], r["chunkId"]) for r in body["data"]]
    assert ranks == sorted(ranks)
    assert "transmission congestion" in body["data"][0]["content"].lower()
    assert set(body["data"][0]) >= {"chunkId", "sourceId", "kind", "page", "sectionPath", "rank"}


def test_evidence_search_prefix_matches_the_last_term(client):
    body = client.get("/v1/evidence-search", params={"q": "interconn"}, headers=ALPHA).json()
    assert body["data"] and all("interconnection" in r["content"].lower() for r in body["data"])


@pytest.mark.parametrize("q", ['"', "AND OR NOT", "col:umn", "*", 'a"b*(c)', "NEAR(x y)"])
def test_evidence_search_escapes_fts_syntax(client, q):
    response = client.get("/v1/evidence-search", params={"q": q}, headers=ALPHA)
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    ("params", "expected_ids"),
    [
        ({"kind": "table"}, {"chunk-004", "chunk-007"}),
        ({"authority": "official_filing"}, {"chunk-000", "chunk-004", "chunk-006"}),
        ({"redistribution_policy": "public_redistribution"}, {"chunk-007"}),
        ({"source_id": "SRC-FILING"}, {"chunk-000", "chunk-004", "chunk-006"}),
        ({"page": 2}, {"chunk-007"}),
        ({"known_at": "2024-03-01T00:00:00Z"}, {"chunk-007"}),
    ],
)
def test_evidence_search_filters(client, params, expected_ids):
    body = client.get(
        "/v1/evidence-search", params={"q": "transmission", **params}, headers=ALPHA
    ).json()
    assert {r["chunkId"] for r in body["data"]} == expected_ids


@pytest.mark.parametrize(
    ("path", "params", "expected"),
    [
        ("/v1/generators", {"state": "ok"}, {i for i in range(1, 24) if i % 3 == 0}),
        (
            "/v1/generators",
            {"ba_code": "erco", "status": "sb"},
            {i for i in range(1, 24) if i % 4 == 0 and i % 2},
        ),
        ("/v1/generators", {"plant_id": 1003}, {i for i in range(1, 24) if i % 7 == 3}),
        ("/v1/generators", {"min_capacity_mw": 50, "max_capacity_mw": 70}, {5, 6, 7}),
        (
            "/v1/generators",
            {"technology": "SOLAR PHOTOVOLTAIC"},
            {i for i in range(1, 24) if i % 2},
        ),
    ],
)
def test_generator_filters(client, path, params, expected):
    body = client.get(path, params=params, headers=ALPHA).json()
    assert {int(r["id"][4:7]) for r in body["data"]} == expected


def test_generators_source_id_selects_a_release_version(client):
    current = client.get("/v1/generators", params={"plant_id": 1001}, headers=ALPHA).json()
    older = client.get("/v1/generators", params={"source_id": "eia860-2023"}, headers=ALPHA).json()
    assert all(r["id"].endswith("-v2") for r in current["data"])
    assert [r["id"] for r in older["data"]] == ["gen-001-v1", "gen-002-v1", "gen-003-v1"]


def test_facts_known_at_selects_the_restated_version(client):
    now = client.get("/v1/load-forecasts", params={"market": "ercot"}, headers=ALPHA).json()
    then = client.get(
        "/v1/load-forecasts",
        params={"market": "ERCOT", "known_at": "2024-03-01T00:00:00Z"},
        headers=ALPHA,
    ).json()
    assert [f["value"] for f in now["data"]] == [85000.0]
    assert [f["value"] for f in then["data"]] == [80000.0]
    # known_to is exclusive: at the restatement instant only the new value is known
    edge = client.get(
        "/v1/load-forecasts", params={"known_at": "2024-06-01T01:00:00+01:00"}, headers=ALPHA
    ).json()
    assert {f["id"] for f in edge["data"]} == {"lf-ercot-v2", "lf-spp-v1"}


@pytest.mark.parametrize(
    ("valid_at", "count"), [("2026-06-30", 2), ("2026-12-31T23:00:00Z", 2), ("2027-01-01", 0)]
)
def test_facts_valid_at(client, valid_at, count):
    body = client.get("/v1/load-forecasts", params={"valid_at": valid_at}, headers=ALPHA).json()
    assert len(body["data"]) == count


def test_ba_operations_start_is_inclusive_end_exclusive(client):
    body = client.get(
        "/v1/balancing-authority-operations",
        params={"ba_code": "ERCO", "start": "2025-01-01T03:00:00Z", "end": "2025-01-01T07:00:00Z"},
        headers=ALPHA,
    ).json()
    assert [r["utcTime"][11:13] for r in body["data"]] == ["03", "05"]


def test_other_filters(client):
    def ids(path, **params):
        return [r["id"] for r in client.get(path, params=params, headers=ALPHA).json()["data"]]

    assert ids("/v1/generator-operations", period="2024-02") == ["op-001", "op-013"]
    assert (
        ids("/v1/generator-operations", generator_id="g0", plant_id=1000)
        == ["op-000", "op-015"][:1]
    )
    assert ids("/v1/generation-plants", county="BRAVO") == [
        "plant-1000",
        "plant-1002",
        "plant-1004",
        "plant-1006",
    ]
    assert ids("/v1/transmission-projects", county="bravo") == ["tp-000", "tp-002", "tp-004"]
    assert ids("/v1/transmission-projects", status="PLANNED") == ["tp-001", "tp-003"]
    assert ids("/v1/balancing-authority-operations", region="cent")[0] == "ba-SWPP-000"
    assert ids("/v1/dockets/00000/filings") == []


@pytest.mark.parametrize(
    ("path", "params", "code"),
    [
        ("/v1/generators", {"limit": 0}, "invalid_limit"),
        ("/v1/generators", {"limit": 501}, "invalid_limit"),
        ("/v1/generators", {"limit": "ten"}, "invalid_limit"),
        ("/v1/evidence-search", {"q": "x", "limit": 101}, "invalid_limit"),
        ("/v1/evidence-search", {"q": "x", "page": 0}, "invalid_page"),
        ("/v1/evidence-search", {"q": "x", "page": 2147483648}, "invalid_page"),
        ("/v1/evidence-search", {}, "invalid_parameter"),
        ("/v1/evidence-search", {"q": "x", "kind": "video"}, "invalid_parameter"),
        ("/v1/evidence-search", {"q": "x", "authority": "blog"}, "invalid_parameter"),
        ("/v1/evidence-search", {"q": "x", "redistribution_policy": "any"}, "invalid_parameter"),
        ("/v1/generators", {"plant_id": 0}, "invalid_plant_id"),
        ("/v1/generators", {"plant_id": 2147483648}, "invalid_plant_id"),
        ("/v1/generator-operations", {"plant_id": -1}, "invalid_plant_id"),
        ("/v1/generators", {"min_capacity_mw": -0.5}, "invalid_parameter"),
        ("/v1/generators", {"max_capacity_mw": "nan"}, "invalid_parameter"),
        ("/v1/generator-operations", {"period": "2024-13"}, "invalid_period"),
        ("/v1/generator-operations", {"period": "2024-1"}, "invalid_period"),
        ("/v1/generator-operations", {"period": "24-01"}, "invalid_period"),
        ("/v1/generator-operations", {"period": "2024-00"}, "invalid_period"),
        ("/v1/load-forecasts", {"known_at": "yesterday"}, "invalid_parameter"),
        ("/v1/load-forecasts", {"valid_at": "2026-13-01"}, "invalid_parameter"),
        ("/v1/load-forecasts", {"known_at": "2026-01-01T10:61:00Z"}, "invalid_parameter"),
        (
            "/v1/balancing-authority-operations",
            {"start": "2025-01-01T25:00:00Z"},
            "invalid_parameter",
        ),
        ("/v1/generators", {"stat": "TX"}, "unknown_parameter"),
        ("/v1/queue-records", {"state": "TX"}, "unknown_parameter"),
        ("/v1/generators", [("state", "TX"), ("state", "OK")], "repeated_parameter"),
    ],
)
def test_bad_query_values_are_400_problems(client, path, params, code):
    response = client.get(path, params=params, headers=ALPHA)
    assert response.status_code == 400, response.text
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == code


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/v1/generators", {"limit": 1}),
        ("/v1/generators", {"limit": 500}),
        ("/v1/evidence-search", {"q": "x", "limit": 1}),
        ("/v1/evidence-search", {"q": "x", "limit": 100, "page": 2147483647}),
        ("/v1/generators", {"plant_id": 1}),
        ("/v1/generators", {"plant_id": 2147483647, "min_capacity_mw": 0, "max_capacity_mw": 0}),
        ("/v1/generator-operations", {"period": "2024-01", "plant_id": 2147483647}),
        ("/v1/generator-operations", {"period": "2024-12"}),
    ],
)
def test_bounds_at_their_edges_are_accepted(client, path, params):
    assert client.get(path, params=params, headers=ALPHA).status_code == 200


def first_cursor(client, path="/v1/generators", params=None) -> str:
    body = client.get(path, params={"limit": 2, **(params or {})}, headers=ALPHA).json()
    return body["meta"]["nextCursor"]


def test_a_tampered_cursor_is_refused(client):
    cursor = first_cursor(client)
    payload, signature = cursor.split(".")
    raw = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    raw["p"] = ["gen-000"]
    forged = base64.urlsafe_b64encode(json.dumps(raw).encode()).rstrip(b"=").decode()
    response = client.get(
        "/v1/generators", params={"limit": 2, "cursor": f"{forged}.{signature}"}, headers=ALPHA
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_cursor_signature"


@pytest.mark.parametrize("cursor", ["garbage", "a.b.c", "", "%%%"])
def test_a_malformed_cursor_is_refused(client, cursor):
    response = client.get("/v1/generators", params={"cursor": cursor}, headers=ALPHA)
    assert response.status_code == 400
    assert response.json()["code"] in {"malformed_cursor", "invalid_cursor_signature"}


def test_changed_filters_and_foreign_endpoints_are_refused(client):
    cursor = first_cursor(client, params={"state": "TX"})
    changed = client.get("/v1/generators", params={"state": "OK", "cursor": cursor}, headers=ALPHA)
    dropped = client.get("/v1/generators", params={"cursor": cursor}, headers=ALPHA)
    foreign = client.get("/v1/generation-plants", params={"cursor": cursor}, headers=ALPHA)
    for response in (changed, dropped, foreign):
        assert response.status_code == 400
        assert response.json()["code"] == "cursor_filter_mismatch"
    # the limit may change between pages
    ok = client.get(
        "/v1/generators", params={"state": "TX", "cursor": cursor, "limit": 5}, headers=ALPHA
    )
    assert ok.status_code == 200


def test_an_expired_cursor_is_refused(client, monkeypatch):
    cursor = first_cursor(client)
    import gridservice.runtime.paging as paging

    real_time = paging.time.time
    monkeypatch.setattr(paging.time, "time", lambda: real_time() + 7200)
    response = client.get("/v1/generators", params={"cursor": cursor}, headers=ALPHA)
    assert response.status_code == 400
    assert response.json()["code"] == "expired_cursor"


def test_queue_record_details_and_evidence(client):
    details = client.get("/v1/queue-records/q-003/details", headers=ALPHA).json()
    evidence = client.get("/v1/queue-records/q-003/evidence", headers=ALPHA).json()
    assert details["data"]["recordId"] == "q-003"
    assert evidence["data"]["locator"]["row"] == 5
    assert isinstance(evidence["meta"], dict)
    missing = client.get("/v1/queue-records/nope/details", headers=ALPHA)
    assert missing.status_code == 404
    assert missing.json()["code"] == "queue_record_not_found"
