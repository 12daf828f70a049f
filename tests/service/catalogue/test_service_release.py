"""Release identity, quality report, health and the OpenAPI document."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from fastapi.openapi.utils import get_openapi
from fastapi.testclient import TestClient
from service_support import ALPHA, seed_small_store

import gridservice.app
from gridservice.app import create_app
from gridservice.catalogue.release import POLICY_TEXT
from gridservice.settings import Settings
from gridservice.store import writer
from gridservice.store.db import connect

OPERATIONS = {
    ("get", "/v1/load-forecasts"),
    ("get", "/v1/resource-adequacy"),
    ("get", "/v1/generators"),
    ("get", "/v1/generation-plants"),
    ("get", "/v1/generator-operations"),
    ("get", "/v1/balancing-authority-operations"),
    ("get", "/v1/transmission-projects"),
    ("get", "/v1/dockets/{controlNumber}/filings"),
    ("get", "/v1/queue-records"),
    ("get", "/v1/evidence-search"),
    ("get", "/v1/quality"),
    ("get", "/v1/release"),
    ("post", "/v1/sites"),
    ("get", "/v1/sites/{siteId}"),
    ("get", "/v1/assessments/{assessmentId}"),
    ("get", "/v1/assessments/{assessmentId}/expert-review.json"),
    ("get", "/v1/assessments/exports/{exportId}"),
    ("get", "/v1/queue-records/{recordId}/details"),
    ("get", "/v1/queue-records/{recordId}/evidence"),
    ("post", "/v1/service-territory-resolutions"),
}
EXTENSIONS = {
    ("get", "/v1/sites"),
    ("patch", "/v1/sites/{siteId}"),
    ("get", "/v1/sites/{siteId}/revisions"),
    ("get", "/v1/sites/{siteId}/changes"),
    ("post", "/v1/sites/{siteId}/assessments"),
    ("get", "/v1/sites/{siteId}/assessments"),
    ("get", "/v1/sites/{siteId}/surroundings"),
    ("get", "/v1/queue-history/completion"),
    ("get", "/v1/queue-history/projects/{projectId}"),
    ("post", "/v1/assessments/{assessmentId}/exports"),
}


def sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def test_release_hashes_name_what_they_hash(client):
    release = client.get("/v1/release").json()["data"]
    served_openapi = client.get("/v1/openapi.json").content
    assert release["openApiSha256"] == sha(served_openapi)
    assert release["policySha256"] == sha(POLICY_TEXT)
    assert release["releaseId"].startswith("release-")
    assert isinstance(release["productionRevision"], int)
    for name in (
        "dataSnapshotSha256",
        "releaseReportSha256",
        "buildArtifactSha256",
        "contentFingerprint",
    ):
        assert len(release[name]) == 64


def test_a_later_start_of_the_same_build_serves_without_building_its_openapi_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # Every start of the service (each worker, each instance) spent one to several
    # processor-seconds building the document only to hash it into the release.
    db_path = tmp_path / "lazy.db"
    seed_small_store(db_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    settings = Settings(db_path=db_path, secret_key=b"k" * 32)
    with TestClient(create_app(settings)) as c:
        first = c.get("/v1/release").json()["data"]

    def refuse(**_: object) -> dict:
        raise AssertionError("the OpenAPI document was built at start")

    with monkeypatch.context() as patched:
        # Nor copied from the document this test process keeps for every app it builds.
        patched.setattr(gridservice.app, "_openapi_cache", {})
        patched.setattr(gridservice.app, "get_openapi", refuse)
        app = create_app(settings)
        with TestClient(app) as c:
            release = c.get("/v1/release").json()["data"]
            quality = c.get("/v1/quality", headers=ALPHA).json()
    with TestClient(app) as c:
        served_openapi = c.get("/v1/openapi.json").content
    assert release["openApiSha256"] == first["openApiSha256"] == sha(served_openapi)
    assert quality["release"] == release


def test_a_start_after_the_document_was_prepared_builds_it_neither_for_its_release_nor_its_clients(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # The app that embeds the service prepares the document while the demo database is built
    # (or the browser loads the page): a start built it after the database was there, for the
    # release (a first start), and for the app's first question (its capabilities).
    db_path = tmp_path / "prepared.db"
    seed_small_store(db_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    built: list[int] = []
    monkeypatch.setattr(
        gridservice.app, "get_openapi", lambda **kw: built.append(1) or get_openapi(**kw)
    )
    # a first start (nothing kept in the cache folder), then a later one (its hash kept there)
    for start in ("first", "later"):
        monkeypatch.setattr(gridservice.app, "_openapi_cache", {})  # a new process
        built.clear()
        gridservice.app.prepare_openapi()
        assert built == [1], start  # and nothing needed a store
        with TestClient(create_app(Settings(db_path=db_path, secret_key=b"k" * 32))) as c:
            release = c.get("/v1/release").json()["data"]
            served_openapi = c.get("/v1/openapi.json").content
        assert built == [1], start
        assert release["openApiSha256"] == sha(served_openapi)


def test_a_start_that_cannot_keep_the_openapi_hash_builds_it_and_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    db_path = tmp_path / "unkept.db"
    seed_small_store(db_path)
    taken = tmp_path / "a file where the cache folder would be"
    taken.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(taken))
    with TestClient(create_app(Settings(db_path=db_path, secret_key=b"k" * 32))) as c:
        release = c.get("/v1/release").json()["data"]
        assert release["openApiSha256"] == sha(c.get("/v1/openapi.json").content)


def test_the_snapshot_hash_follows_the_data(tmp_path: Path):
    db_path = tmp_path / "snap.db"
    seed_small_store(db_path)

    def release() -> dict:
        with TestClient(create_app(Settings(db_path=db_path))) as c:
            return c.get("/v1/release").json()["data"]

    first, again = release(), release()
    assert first["dataSnapshotSha256"] == again["dataSnapshotSha256"]
    assert first["deploymentId"] == again["deploymentId"]
    conn = connect(db_path)
    with conn:
        writer.insert_docket_filings(conn, [{"id": "df-new", "controlNumber": "1", "x": 1}])
        writer.set_meta(conn, "data_kind", "demo")
    conn.close()
    changed = release()
    assert changed["dataSnapshotSha256"] != first["dataSnapshotSha256"]
    assert changed["contentFingerprint"] != first["contentFingerprint"]
    assert "demo" in changed["releaseId"]


def test_tenant_records_do_not_change_the_snapshot(client):
    before = client.get("/v1/release").json()["data"]["dataSnapshotSha256"]
    client.post(
        "/v1/sites",
        json={"requestedPeakLoadMw": 5, "location": {"latitude": 1, "longitude": 1}},
        headers={**ALPHA, "Idempotency-Key": "release-test-key"},
    )
    assert client.get("/v1/release").json()["data"]["dataSnapshotSha256"] == before


def test_quality_report(client):
    body = client.get("/v1/quality", headers=ALPHA).json()
    assert [run["runId"] for run in body["data"]] == ["run-001"]
    assert body["quality"]["queue"]["rows"] == 9
    assert body["scope"] == "commercial-core"
    assert body["release"] == client.get("/v1/release").json()["data"]
    assert "not independent field-accuracy validation" in body["methodology"]["note"]
    assert set(body["methodology"]) == {"unit", "acceptanceRateDefinition", "note"}


def test_health(client):
    assert client.get("/v1/health").json() == {"status": "ok"}


def test_openapi_declares_every_operation_with_bounds_errors_and_security(client):
    doc = client.get("/v1/openapi.json").json()
    declared = {(m, p) for p, ops in doc["paths"].items() for m in ops}
    assert declared >= OPERATIONS | EXTENSIONS
    assert doc["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    for method, path in OPERATIONS | EXTENSIONS:
        operation = doc["paths"][path][method]
        errors = {s for s in operation["responses"] if s.startswith(("4", "5"))}
        assert len(errors) >= 9, (method, path)
        for status in errors:
            assert "application/problem+json" in operation["responses"][status]["content"]
            assert "application/json" not in operation["responses"][status]["content"]
        success = next(s for s in operation["responses"] if s.startswith("2"))
        assert "application/json" in operation["responses"][success]["content"]
        assert ("security" in operation) == (path != "/v1/release"), (method, path)
        assert (operation.get("x-extension") is True) == ((method, path) in EXTENSIONS)
    params = {p["name"]: p["schema"] for p in doc["paths"]["/v1/generators"]["get"]["parameters"]}
    assert params["limit"]["minimum"] == 1 and params["limit"]["maximum"] == 500
    assert params["plant_id"]["anyOf"][0]["maximum"] == 2147483647
    assert params["min_capacity_mw"]["anyOf"][0]["minimum"] == 0
    search = {
        p["name"]: p["schema"] for p in doc["paths"]["/v1/evidence-search"]["get"]["parameters"]
    }
    assert search["limit"]["maximum"] == 100
    headers = {p["name"]: p for p in doc["paths"]["/v1/sites"]["post"]["parameters"]}
    assert headers["Idempotency-Key"]["required"] is True
    assert headers["Idempotency-Key"]["schema"]["minLength"] == 8
    assert "Problem" in doc["components"]["schemas"]


def test_the_snapshot_hash_is_kept_until_public_data_changes(tmp_path: Path):
    from gridservice.store import meta_reads

    db_path = tmp_path / "kept.db"
    seed_small_store(db_path)
    conn = connect(db_path)
    first = meta_reads.data_snapshot_sha256(conn)
    assert meta_reads.get_meta(conn, meta_reads.SNAPSHOT_KEY) == first
    assert first == meta_reads._compute_data_snapshot_sha256(conn)

    # A tenant write keeps it; an update of a public table forgets it, and the next read
    # is the hash of the changed data.
    with conn:
        conn.execute("INSERT INTO meta(key, value) VALUES ('unrelated', 'x')")
    assert meta_reads.get_meta(conn, meta_reads.SNAPSHOT_KEY) == first
    with conn:
        conn.execute("UPDATE evidence_chunks SET known_to = '2030-01-01T00:00:00Z'")
    assert meta_reads.get_meta(conn, meta_reads.SNAPSHOT_KEY) is None
    changed = meta_reads.data_snapshot_sha256(conn)
    assert changed != first and changed == meta_reads._compute_data_snapshot_sha256(conn)
    with conn:
        conn.execute("DELETE FROM docket_filings WHERE id = (SELECT min(id) FROM docket_filings)")
    assert meta_reads.data_snapshot_sha256(conn) != changed
    conn.close()

    # A read-only connection computes it and keeps nothing.
    writable = connect(db_path)
    with writable:
        writable.execute("DELETE FROM meta WHERE key = ?", (meta_reads.SNAPSHOT_KEY,))
    writable.close()
    readonly = connect(db_path, readonly=True)
    assert len(meta_reads.data_snapshot_sha256(readonly)) == 64
    assert meta_reads.get_meta(readonly, meta_reads.SNAPSHOT_KEY) is None
    readonly.close()


def test_the_quality_served_is_a_recount_and_the_one_the_release_hashes(client, small_db):
    from gridservice.catalogue.quality import compute_quality
    from gridservice.catalogue.release import release_report_sha256

    served = client.get("/v1/quality", headers=ALPHA).json()["quality"]
    release = client.get("/v1/release").json()["data"]
    conn = connect(small_db)
    try:
        recount = compute_quality(conn, generated_at=served["generatedAt"])
        rehashed = release_report_sha256(conn, compute_quality(conn))  # counted again
    finally:
        conn.close()
    # counted once when the service started: the report served is the store's own counts,
    # and the release's report hash is the hash of those counts
    assert served == recount
    assert release["releaseReportSha256"] == rehashed


def test_a_later_start_serves_the_quality_it_counted_until_the_public_data_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The report a start counted is served by the next start over the same data and code
    (the same report, generatedAt included, not counted again); a change to the public data,
    or a report kept by other code, is counted again."""
    from gridservice.catalogue import kept_quality
    from gridservice.store import meta_reads

    counted = []
    real_count = kept_quality.compute_quality
    monkeypatch.setattr(
        kept_quality, "compute_quality", lambda conn: counted.append(1) or real_count(conn)
    )
    db_path = tmp_path / "kept-quality.db"
    seed_small_store(db_path)

    def served() -> dict:
        with TestClient(create_app(Settings(db_path=db_path))) as client:
            return client.get("/v1/quality", headers=ALPHA).json()["quality"]

    first = served()
    assert served() == first and len(counted) == 1

    conn = connect(db_path)
    first_id = conn.execute("SELECT min(id) FROM queue_records").fetchone()[0]
    with conn:
        for table, column in [
            ("queue_record_evidence", "record_id"),
            ("queue_record_details", "record_id"),
            ("queue_records", "id"),
        ]:
            conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (first_id,))
    conn.close()
    after_change = served()
    assert len(counted) == 2
    assert after_change["queue"]["rows"] == first["queue"]["rows"] - 1

    conn = connect(db_path)
    entry = json.loads(meta_reads.get_meta(conn, kept_quality.QUALITY_KEY))
    meta_reads.set_meta(conn, kept_quality.QUALITY_KEY, json.dumps({**entry, "artifact": "0" * 64}))
    conn.close()
    assert served()["queue"] == after_change["queue"] and len(counted) == 3
