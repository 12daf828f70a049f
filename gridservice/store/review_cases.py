"""SQL for expert review cases: cases, their reviewers, reviews (by revision), adjudications.

Every read names the tenant, and a reviewer's reads name the reviewer too: a case is
reached through its assignment, so a reviewer never reads a case not assigned to them.
"""

from __future__ import annotations

import sqlite3

from gridservice.store.tenancy import begin_for_update


def insert_case(
    conn: sqlite3.Connection,
    *,
    case_id: str,
    tenant_id: str,
    assessment_id: str,
    state: str,
    created_at: str,
    body: str,
    reviewers: list[str],
) -> None:
    conn.execute(
        "INSERT INTO review_cases(id, tenant_id, assessment_id, state, created_at, updated_at, "
        "body) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (case_id, tenant_id, assessment_id, state, created_at, created_at, body),
    )
    conn.executemany(
        "INSERT INTO review_assignments(case_id, tenant_id, reviewer) VALUES (?, ?, ?)",
        [(case_id, tenant_id, name) for name in reviewers],
    )


def tenant_case(conn: sqlite3.Connection, case_id: str, tenant_id: str) -> tuple[str, str] | None:
    """Return (state, body) of a tenant's case; None if absent or not theirs."""
    row = conn.execute(
        "SELECT state, body FROM review_cases WHERE id = ? AND tenant_id = ?", (case_id, tenant_id)
    ).fetchone()
    return (row[0], row[1]) if row else None


def reviewer_case(
    conn: sqlite3.Connection, case_id: str, tenant_id: str, reviewer: str
) -> tuple[str, str] | None:
    """Return (state, body) of a case assigned to `reviewer`; None otherwise."""
    row = conn.execute(
        "SELECT c.state, c.body FROM review_cases AS c JOIN review_assignments AS a "
        "ON a.case_id = c.id AND a.tenant_id = c.tenant_id "
        "WHERE c.id = ? AND c.tenant_id = ? AND a.reviewer = ?",
        (case_id, tenant_id, reviewer),
    ).fetchone()
    return (row[0], row[1]) if row else None


def case_for_update(conn: sqlite3.Connection, case_id: str, tenant_id: str) -> str | None:
    """Return a case's state, its row locked until the caller's transaction ends (two last
    reviews committing at once both see the other's); None if absent."""
    lock = begin_for_update(conn)
    row = conn.execute(
        f"SELECT state FROM review_cases WHERE id = ? AND tenant_id = ?{lock}",
        (case_id, tenant_id),
    ).fetchone()
    return row[0] if row else None


def set_state(conn: sqlite3.Connection, case_id: str, state: str, updated_at: str) -> None:
    conn.execute(
        "UPDATE review_cases SET state = ?, updated_at = ? WHERE id = ?",
        (state, updated_at, case_id),
    )


def tenant_cases(conn: sqlite3.Connection, tenant_id: str) -> list[tuple[str, str]]:
    """Return (state, body) of every case of a tenant, by id."""
    return [
        (r[0], r[1])
        for r in conn.execute(
            "SELECT state, body FROM review_cases WHERE tenant_id = ? ORDER BY id", (tenant_id,)
        )
    ]


def reviewer_cases(
    conn: sqlite3.Connection, tenant_id: str, reviewer: str
) -> list[tuple[str, str]]:
    """Return (state, body) of every case assigned to a reviewer, by id."""
    return [
        (r[0], r[1])
        for r in conn.execute(
            "SELECT c.state, c.body FROM review_cases AS c JOIN review_assignments AS a "
            "ON a.case_id = c.id AND a.tenant_id = c.tenant_id "
            "WHERE a.tenant_id = ? AND a.reviewer = ? ORDER BY c.id",
            (tenant_id, reviewer),
        )
    ]


def next_revision(conn: sqlite3.Connection, case_id: str, reviewer: str) -> int:
    """Return the revision a reviewer's next review of a case gets (1 for the first)."""
    row = conn.execute(
        "SELECT COALESCE(MAX(revision), 0) FROM reviews WHERE case_id = ? AND reviewer = ?",
        (case_id, reviewer),
    ).fetchone()
    return int(row[0]) + 1


def insert_review(
    conn: sqlite3.Connection,
    *,
    review_id: str,
    case_id: str,
    tenant_id: str,
    reviewer: str,
    revision: int,
    submitted_at: str,
    body: str,
) -> None:
    conn.execute(
        "INSERT INTO reviews(id, case_id, tenant_id, reviewer, revision, submitted_at, body) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (review_id, case_id, tenant_id, reviewer, revision, submitted_at, body),
    )


def latest_reviews(conn: sqlite3.Connection, case_ids: list[str]) -> dict[str, dict[str, str]]:
    """Return {case id: {reviewer: body of their latest revision}} of the cases."""
    if not case_ids:
        return {}
    marks = ",".join("?" * len(case_ids))
    found: dict[str, dict[str, str]] = {case_id: {} for case_id in case_ids}
    for case_id, reviewer, body in conn.execute(
        f"SELECT r.case_id, r.reviewer, r.body FROM reviews AS r WHERE r.case_id IN ({marks}) "
        "AND r.revision = (SELECT MAX(revision) FROM reviews AS n "
        "WHERE n.case_id = r.case_id AND n.reviewer = r.reviewer)",
        case_ids,
    ):
        found[case_id][reviewer] = body
    return found


def insert_adjudication(
    conn: sqlite3.Connection, case_id: str, tenant_id: str, factor: str, body: str
) -> None:
    conn.execute(
        "INSERT INTO review_adjudications(case_id, tenant_id, factor, body) VALUES (?, ?, ?, ?)",
        (case_id, tenant_id, factor, body),
    )


def adjudications(conn: sqlite3.Connection, case_ids: list[str]) -> dict[str, dict[str, str]]:
    """Return {case id: {factor: body of its adjudicated answer}} of the cases."""
    if not case_ids:
        return {}
    marks = ",".join("?" * len(case_ids))
    found: dict[str, dict[str, str]] = {case_id: {} for case_id in case_ids}
    for case_id, factor, body in conn.execute(
        f"SELECT case_id, factor, body FROM review_adjudications WHERE case_id IN ({marks})",
        case_ids,
    ):
        found[case_id][factor] = body
    return found


def assessment_bodies(conn: sqlite3.Connection, tenant_id: str, ids: list[str]) -> dict[str, str]:
    """Return {assessment id: body} of a tenant's assessments among `ids`."""
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return dict(
        conn.execute(
            f"SELECT id, body FROM assessments WHERE tenant_id = ? AND id IN ({marks})",
            (tenant_id, *ids),
        ).fetchall()
    )
