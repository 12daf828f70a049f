"""SQL for tenant-scoped records (sites, assessments, exports), idempotency keys and tokens."""

from __future__ import annotations

import hashlib
import sqlite3
import weakref
from dataclasses import dataclass
from typing import Literal, Protocol

from gridservice.security.principals import reviewer_principal
from gridservice.store.pg import is_postgres


def tenant_for_token(conn: sqlite3.Connection, token: str) -> str | None:
    return tenant_for_digest(conn, hashlib.sha256(token.encode("utf-8")).hexdigest())


def tenant_for_digest(conn: sqlite3.Connection, digest: str) -> str | None:
    """The principal of the token whose SHA-256 (hex) is `digest`: its tenant id, or for a
    reviewer's token the reviewer's principal (`principals`); None when unknown."""
    row = conn.execute(
        "SELECT tenant_id, role, reviewer FROM tokens WHERE token_sha256 = ?", (digest,)
    ).fetchone()
    if row is None:
        return None
    return reviewer_principal(row[0], row[2]) if row[1] == "reviewer" else row[0]


class ForgetsTokens(Protocol):
    """A cache of token lookups that can drop everything it holds."""

    def forget(self) -> None: ...


# The service's token caches (`gridservice.security.token_cache`) enrol here, so that a token removed
# in this process is refused at once without the store importing the service.
_TOKEN_CACHES: weakref.WeakSet[ForgetsTokens] = weakref.WeakSet()


def enrol_token_cache(cache: ForgetsTokens) -> None:
    """Have `cache.forget()` called whenever a token is removed in this process."""
    _TOKEN_CACHES.add(cache)


def forget_token_caches() -> None:
    """Forget every token cache of this process (a token was removed here)."""
    for cache in list(_TOKEN_CACHES):
        cache.forget()


def revoke_token(conn: sqlite3.Connection, token: str) -> int:
    """Forget one token (by its SHA-256); return how many were removed (0 or 1)."""
    digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
    removed = conn.execute("DELETE FROM tokens WHERE token_sha256 = ?", (digest,)).rowcount
    forget_token_caches()
    return removed


def revoke_tenant_tokens(conn: sqlite3.Connection, tenant_id: str) -> int:
    """Forget every token of a tenant; return how many were removed."""
    removed = conn.execute("DELETE FROM tokens WHERE tenant_id = ?", (tenant_id,)).rowcount
    forget_token_caches()
    return removed


_TABLES = {"site": "sites", "assessment": "assessments", "export": "exports"}


def tenant_record(
    conn: sqlite3.Connection, kind: str, record_id: str, tenant_id: str
) -> str | None:
    """Return the body of a tenant's site/assessment/export; None if absent or not theirs."""
    row = conn.execute(
        f"SELECT body FROM {_TABLES[kind]} WHERE id = ? AND tenant_id = ?", (record_id, tenant_id)
    ).fetchone()
    return row[0] if row else None


def insert_site(
    conn: sqlite3.Connection, site_id: str, tenant_id: str, created_at: str, body: str
) -> None:
    conn.execute(
        "INSERT INTO sites(id, tenant_id, created_at, body) VALUES (?, ?, ?, ?)",
        (site_id, tenant_id, created_at, body),
    )


def begin_for_update(conn: sqlite3.Connection) -> str:
    """Begin a transaction that will read a row to change it; return the clause that locks
    the row read (PostgreSQL: FOR UPDATE; SQLite takes its one write lock at once)."""
    if is_postgres(conn):
        conn.execute("BEGIN")
        return " FOR UPDATE"
    conn.execute("BEGIN IMMEDIATE")
    return ""


def site_for_update(conn: sqlite3.Connection, site_id: str, tenant_id: str) -> str | None:
    """Return the body of a tenant's site, locked until the caller's transaction ends; None if
    absent or not theirs.

    A PATCH reads the body, changes it and writes it back: the lock is taken before the
    read, so a concurrent PATCH (on any instance) waits and then reads what this one wrote,
    instead of writing back a copy without it. PostgreSQL locks the one row (FOR UPDATE);
    SQLite has one writer at a time, so its write lock is taken at once (BEGIN IMMEDIATE).
    """
    lock = begin_for_update(conn)
    row = conn.execute(
        f"SELECT body FROM sites WHERE id = ? AND tenant_id = ?{lock}", (site_id, tenant_id)
    ).fetchone()
    return row[0] if row else None


def update_site(conn: sqlite3.Connection, site_id: str, tenant_id: str, body: str) -> None:
    conn.execute(
        "UPDATE sites SET body = ? WHERE id = ? AND tenant_id = ?", (body, site_id, tenant_id)
    )


def insert_site_change(
    conn: sqlite3.Connection,
    *,
    site_id: str,
    tenant_id: str,
    changed_at: str,
    changed_by: str,
    changes: str,
) -> None:
    conn.execute(
        "INSERT INTO site_changes(site_id, tenant_id, changed_at, changed_by, changes) "
        "VALUES (?, ?, ?, ?, ?)",
        (site_id, tenant_id, changed_at, changed_by, changes),
    )


def site_change_log(conn: sqlite3.Connection, tenant_id: str, site_id: str) -> list[tuple]:
    """Return (changed_at, changed_by, changes JSON) of a tenant's site, oldest first."""
    return conn.execute(
        "SELECT changed_at, changed_by, changes FROM site_changes "
        "WHERE tenant_id = ? AND site_id = ? ORDER BY changed_at, rowid",
        (tenant_id, site_id),
    ).fetchall()


def _newest_assessments(
    conn: sqlite3.Connection, columns: str, joins: str, tenant_id: str, site_ids: list[str]
) -> list[tuple]:
    """Return `columns` of each site's newest assessment `a` (by created_at, then insertion)."""
    if not site_ids:
        return []
    marks = ",".join("?" * len(site_ids))
    return conn.execute(
        f"""
        SELECT {columns} FROM assessments AS a {joins}
        WHERE a.tenant_id = ? AND a.site_id IN ({marks})
          AND a.rowid = (
            SELECT b.rowid FROM assessments AS b
            WHERE b.tenant_id = a.tenant_id AND b.site_id = a.site_id
            ORDER BY b.created_at DESC, b.rowid DESC LIMIT 1
          )
        """,
        (tenant_id, *site_ids),
    ).fetchall()


def latest_assessments(
    conn: sqlite3.Connection, tenant_id: str, site_ids: list[str]
) -> dict[str, str]:
    """Return {site id: body of its newest assessment} for those of the sites that have one."""
    return dict(_newest_assessments(conn, "a.site_id, a.body", "", tenant_id, site_ids))


def latest_assessment_summaries(
    conn: sqlite3.Connection, tenant_id: str, site_ids: list[str]
) -> list[tuple[str, str | None, str | None, str | None]]:
    """Return (site id, summary, change basis, body) of each site's newest assessment.

    The body is read only for an assessment stored without a summary (an older store).
    """
    return _newest_assessments(
        conn,
        "a.site_id, s.summary, s.change_basis, CASE WHEN s.assessment_id IS NULL THEN a.body END",
        "LEFT JOIN assessment_summaries AS s ON s.assessment_id = a.id",
        tenant_id,
        site_ids,
    )


def latest_assessment_id(conn: sqlite3.Connection, tenant_id: str, site_id: str) -> str | None:
    """Return the id of a site's newest assessment (as `latest_assessments` picks it), or None.

    Reads the id alone: an assessment's body runs to megabytes on a large store.
    """
    row = conn.execute(
        "SELECT id FROM assessments WHERE tenant_id = ? AND site_id = ? "
        "ORDER BY created_at DESC, rowid DESC LIMIT 1",
        (tenant_id, site_id),
    ).fetchone()
    return None if row is None else row[0]


def insert_assessment(
    conn: sqlite3.Connection,
    assessment_id: str,
    tenant_id: str,
    site_id: str,
    created_at: str,
    body: str,
) -> None:
    conn.execute(
        "INSERT INTO assessments(id, tenant_id, site_id, created_at, body) VALUES (?, ?, ?, ?, ?)",
        (assessment_id, tenant_id, site_id, created_at, body),
    )


def insert_assessment_summary(
    conn: sqlite3.Connection,
    assessment_id: str,
    tenant_id: str,
    site_id: str,
    summary: str,
    change_basis: str,
) -> None:
    conn.execute(
        "INSERT INTO assessment_summaries(assessment_id, tenant_id, site_id, summary, "
        "change_basis) VALUES (?, ?, ?, ?, ?)",
        (assessment_id, tenant_id, site_id, summary, change_basis),
    )


def insert_export(
    conn: sqlite3.Connection,
    export_id: str,
    tenant_id: str,
    assessment_id: str,
    created_at: str,
    body: str,
) -> None:
    conn.execute(
        "INSERT INTO exports(id, tenant_id, assessment_id, created_at, body) VALUES (?, ?, ?, ?, ?)",
        (export_id, tenant_id, assessment_id, created_at, body),
    )


@dataclass(frozen=True)
class Claim:
    """Outcome of claiming an idempotency key."""

    state: Literal["claimed", "replay", "mismatch", "in_flight"]
    status_code: int | None = None
    response: str | None = None


def claim_idempotency_key(
    conn: sqlite3.Connection,
    *,
    tenant_id: str,
    operation: str,
    key: str,
    request_hash: str,
    now: str,
    expired_before: str,
    abandoned_before: str,
) -> Claim:
    """Claim a key in its own committed transaction, so a concurrent duplicate sees it.

    A completed key older than `expired_before` is forgotten. An `in_flight` claim older than
    `abandoned_before` is taken over: its process died (e.g. killed mid-request) before its
    work committed, so nothing but the claim exists.
    """
    with conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "DELETE FROM idempotency_keys WHERE tenant_id = ? AND operation = ? AND key = ? "
            "AND (created_at < ? OR (state = 'in_flight' AND created_at < ?))",
            (tenant_id, operation, key, expired_before, abandoned_before),
        )
        row = conn.execute(
            "SELECT request_hash, state, status_code, response FROM idempotency_keys "
            "WHERE tenant_id = ? AND operation = ? AND key = ?",
            (tenant_id, operation, key),
        ).fetchone()
        if row is None:
            conn.execute(
                "INSERT INTO idempotency_keys(tenant_id, operation, key, request_hash, state, "
                "created_at) VALUES (?, ?, ?, ?, 'in_flight', ?)",
                (tenant_id, operation, key, request_hash, now),
            )
            return Claim("claimed")
    if row["request_hash"] != request_hash:
        return Claim("mismatch")
    if row["state"] == "in_flight":
        return Claim("in_flight")
    return Claim("replay", row["status_code"], row["response"])


def complete_idempotency_key(
    conn: sqlite3.Connection,
    *,
    tenant_id: str,
    operation: str,
    key: str,
    claimed_at: str,
    status_code: int,
    response: str,
) -> bool:
    """Record the response on our own claim; False if the claim was taken over meanwhile.

    The caller commits it with the records it created (or rolls them back on False).
    """
    cursor = conn.execute(
        "UPDATE idempotency_keys SET state = 'done', status_code = ?, response = ? "
        "WHERE tenant_id = ? AND operation = ? AND key = ? AND state = 'in_flight' "
        "AND created_at = ?",
        (status_code, response, tenant_id, operation, key, claimed_at),
    )
    return cursor.rowcount == 1


def release_idempotency_key(
    conn: sqlite3.Connection, *, tenant_id: str, operation: str, key: str, claimed_at: str
) -> None:
    """Forget our in-flight claim whose work failed, so a retry can run."""
    with conn:
        conn.execute(
            "DELETE FROM idempotency_keys WHERE tenant_id = ? AND operation = ? AND key = ? "
            "AND state = 'in_flight' AND created_at = ?",
            (tenant_id, operation, key, claimed_at),
        )
