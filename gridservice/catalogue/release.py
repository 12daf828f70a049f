"""Release identity: hashes computed from what they name, once per service start."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3
import threading
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from gridservice.store import meta_reads, migrations
from gridservice.store.pg import is_postgres

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
RELEASE_VALIDITY = dt.timedelta(days=365)

# The rules of the shared DECISIONS this service applies, as it applies them. The policy hash
# is taken over this text, so a change of behaviour must change the text (and the hash).
POLICY_TEXT = """\
gridservice policy v1 (Grid Data Service v1, service version 2025-06-01)
errors: application/problem+json; members type=/problems/<code>, title, status, detail,
  instance, code, requestId, errors[] for validation; X-Request-Id on every response.
statuses: 400 malformed input, unknown query parameter, bad/expired/foreign cursor,
  filters changed under a cursor, missing or malformed Idempotency-Key, malformed JSON,
  bad Service-Version; 401 missing or unknown bearer token (WWW-Authenticate: Bearer);
  404 unknown id or another tenant's id; 406 Accept excludes JSON; 409 Idempotency-Key in
  flight; 415 body not JSON; 422 body validation, key reused with another body, invalid
  coordinates; 429 rate limited with Retry-After; 500 without trace.
auth: bearer token stored as SHA-256, tenant per token; open: /v1/release, /v1/health,
  /v1/openapi.json, /v1/docs.
paging: keyset on id ascending (evidence search: rank descending then chunk id); cursor
  base64url(position, sha256(endpoint+filters), expiry) + HMAC-SHA256; limit may change
  between pages, filters may not.
filters: text filters exact and case-insensitive; facts period exact; valid_at inside
  [validFrom, validTo]; known_at: knownFrom <= t < knownTo (null knownTo = still known),
  default current knowledge; BA operations start <= utcTime < end; generators current view
  unless source_id selects a release.
geometry: coordinates [longitude, latitude]; out of range 422, swapped pairs named.
idempotency: per tenant and operation, kept 24 hours; same body replays with
  Idempotent-Replayed: true; other body 422; in flight 409.
versioning: Service-Version YYYY-MM-DD optional; newest version on or before the date;
  earlier than 2025-06-01 or not a date 400; the used version is echoed.
packets: blinded, caseId keyed hash of the assessment; CSV RFC 4180 with formulas neutralised.
"""


def sha256_text(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def build_artifact_sha256() -> str:
    """Return the SHA-256 over the service package's source files (path and content)."""
    digest = hashlib.sha256()
    files = sorted(
        p for p in PACKAGE_ROOT.rglob("*") if p.is_file() and p.suffix in {".py", ".sql"}
    )
    for path in files:
        digest.update(path.relative_to(PACKAGE_ROOT).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _package_version() -> str:
    try:
        return metadata.version("grid-site-screener")
    except metadata.PackageNotFoundError:
        return "0.0.0"


def release_report_sha256(conn: sqlite3.Connection, quality: dict[str, Any]) -> str:
    """Return the SHA-256 of the harvest runs and the quality counts (`quality`, the report
    `compute_quality` made of this store), without their timestamp."""
    quality = {**quality, "generatedAt": ""}
    runs = meta_reads.harvest_run_bodies(conn)
    return sha256_text(json.dumps({"runs": runs, "quality": quality}, sort_keys=True))


def _migration_head(conn: sqlite3.Connection, schema_sha: str) -> str:
    """Return the store's schema head: PostgreSQL's last applied migration, or SQLite's
    schema version and the hash of the schema file that created it."""
    if is_postgres(conn):
        return f"postgresql-{migrations.database_head(conn)}"
    return f"schema-v{meta_reads.get_meta(conn, 'schema_version') or '1'}-{schema_sha[:12]}"


def _start_identity(
    conn: sqlite3.Connection,
    *,
    deployment_id: str,
    started_at: dt.datetime,
    quality: dict[str, Any],
) -> dict[str, Any]:
    """Return every member of /v1/release but the two that hash the OpenAPI document, read
    from the store behind `conn` and its quality report (`compute_quality`)."""
    snapshot = meta_reads.data_snapshot_sha256(conn)
    artifact = build_artifact_sha256()
    report = release_report_sha256(conn, quality)
    schema_sha = sha256_text((PACKAGE_ROOT / "store" / "schema.sql").read_bytes())
    data_kind = meta_reads.get_meta(conn, "data_kind")
    stored_id = meta_reads.get_meta(conn, "release_id")
    if data_kind == "demo":
        release_id = stored_id if stored_id and "demo" in stored_id else f"demo-{snapshot[:12]}"
    else:
        release_id = stored_id or f"release-{snapshot[:12]}"
    # Fictional demo data has no real-world shelf life: its validity runs from the start of
    # the service serving it, so a demo never shows itself expired. Harvested data ages from
    # when it was built.
    built_at = None if data_kind == "demo" else meta_reads.get_meta(conn, "built_at")
    try:
        valid_from = (
            dt.datetime.fromisoformat(built_at.replace("Z", "+00:00")) if built_at else started_at
        )
    except ValueError:
        valid_from = started_at
    return {
        "releaseId": release_id,
        "dataSnapshotSha256": snapshot,
        "releaseReportSha256": report,
        "buildReference": f"gridservice {_package_version()}+{artifact[:12]}",
        "buildArtifactSha256": artifact,
        "migrationHead": _migration_head(conn, schema_sha),
        "policySha256": sha256_text(POLICY_TEXT),
        "productionRevision": int(meta_reads.get_meta(conn, "production_revision") or 1),
        "validUntil": (valid_from + RELEASE_VALIDITY)
        .astimezone(dt.UTC)
        .strftime("%Y-%m-%dT%H:%M:%SZ"),
        "deploymentId": deployment_id,
    }


def _with_openapi(start: dict[str, Any], openapi_bytes: bytes) -> dict[str, Any]:
    """Return the whole /v1/release identity: `start` with the hash of the served OpenAPI
    document and the fingerprint over it, members in the order the service always sent."""
    openapi_sha = sha256_text(openapi_bytes)
    fingerprint = sha256_text(
        "\n".join(
            (
                start["dataSnapshotSha256"],
                start["releaseReportSha256"],
                start["buildArtifactSha256"],
                openapi_sha,
                start["policySha256"],
            )
        )
    )
    order = (
        "releaseId",
        "dataSnapshotSha256",
        "releaseReportSha256",
        "buildReference",
        "buildArtifactSha256",
        "migrationHead",
        "openApiSha256",
        "policySha256",
        "contentFingerprint",
        "productionRevision",
        "validUntil",
        "deploymentId",
    )
    whole = {**start, "openApiSha256": openapi_sha, "contentFingerprint": fingerprint}
    return {key: whole[key] for key in order}


class ServedRelease:
    """The release identity one service process serves (/v1/release, /v1/quality).

    What the store says is read when the service starts. The OpenAPI document's hash is taken
    at the first ask: building the document costs one to several processor-seconds, and most
    processes (each worker, each instance behind a balancer) are never asked for it.
    """

    def __init__(
        self,
        conn: sqlite3.Connection,
        *,
        openapi_bytes: Callable[[], bytes],
        deployment_id: str,
        started_at: dt.datetime,
        quality: dict[str, Any],
    ) -> None:
        self._start = _start_identity(
            conn, deployment_id=deployment_id, started_at=started_at, quality=quality
        )
        self._openapi_bytes = openapi_bytes
        # Request threads may ask at once: the document is built and hashed once.
        self._lock = threading.Lock()
        self._identity: dict[str, Any] | None = None
        self._body: bytes | None = None

    def identity(self) -> dict[str, Any]:
        """Return the `data` of /v1/release."""
        with self._lock:
            if self._identity is None:
                self._identity = _with_openapi(self._start, self._openapi_bytes())
                self._body = json.dumps({"data": self._identity}, separators=(",", ":")).encode()
            return self._identity

    def body(self) -> bytes:
        """Return the whole /v1/release body, encoded once."""
        self.identity()
        assert self._body is not None  # set with the identity
        return self._body
