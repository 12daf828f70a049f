"""Release identity: hashes computed from what they name, once per service start."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import os
import re
import sqlite3
import sys
import tempfile
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


@functools.cache
def build_artifact_sha256() -> str:
    """Return the SHA-256 over the service package's source files (path and content), as
    they were when this process first asked: the code it runs was loaded from them."""
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


# What the OpenAPI document is made from besides this package's sources.
_DOCUMENT_LIBRARIES = ("fastapi", "starlette", "pydantic", "pydantic-core")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _cache_folder() -> Path:
    """Return the per-user cache folder of the service (`$XDG_CACHE_HOME/gridservice`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gridservice"


def openapi_sha256(artifact: str, document: Callable[[], bytes]) -> str:
    """Return the SHA-256 of the served OpenAPI document (`document()` builds it), remembered
    in the user's cache folder for this build (`artifact`) and these libraries.

    Building the document took each start of the service one to several processor-seconds,
    and every start of one build on one set of libraries builds the same document. What
    cannot be read or written there is built and hashed at each start, as before.
    """
    versions = [f"{name}={metadata.version(name)}" for name in _DOCUMENT_LIBRARIES]
    key = sha256_text("\n".join((artifact, sys.version.split()[0], *versions)))
    path = _cache_folder() / f"openapi-{key[:32]}.sha256"
    try:
        kept = path.read_text().strip()
    except OSError:
        kept = ""
    if _SHA256.fullmatch(kept):
        return kept
    sha = sha256_text(document())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written aside and renamed: processes starting together never read half a hash.
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as aside:
            aside.write(sha)
        os.replace(aside.name, path)
    except OSError:
        pass
    return sha


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


def release_identity(
    conn: sqlite3.Connection,
    *,
    openapi_sha: str,
    deployment_id: str,
    started_at: dt.datetime,
    quality: dict[str, Any],
) -> dict[str, Any]:
    """Return the `data` of /v1/release for the store behind `conn`, the served OpenAPI
    document's hash (`openapi_sha256`) and the store's quality report (`compute_quality`)."""
    snapshot = meta_reads.data_snapshot_sha256(conn)
    artifact = build_artifact_sha256()
    report = release_report_sha256(conn, quality)
    policy_sha = sha256_text(POLICY_TEXT)
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
    fingerprint = sha256_text("\n".join((snapshot, report, artifact, openapi_sha, policy_sha)))
    return {
        "releaseId": release_id,
        "dataSnapshotSha256": snapshot,
        "releaseReportSha256": report,
        "buildReference": f"gridservice {_package_version()}+{artifact[:12]}",
        "buildArtifactSha256": artifact,
        "migrationHead": _migration_head(conn, schema_sha),
        "openApiSha256": openapi_sha,
        "policySha256": policy_sha,
        "contentFingerprint": fingerprint,
        "productionRevision": int(meta_reads.get_meta(conn, "production_revision") or 1),
        "validUntil": (valid_from + RELEASE_VALIDITY)
        .astimezone(dt.UTC)
        .strftime("%Y-%m-%dT%H:%M:%SZ"),
        "deploymentId": deployment_id,
    }
