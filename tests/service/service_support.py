"""Tokens and the small known store the service tests share (imported by name, not through
conftest, so a pytest run that names files of several test folders finds the right ones)."""

from __future__ import annotations

from pathlib import Path

import httpx
import service_records as records

from gridservice.store import writer
from gridservice.store.db import connect, init_schema

ALPHA = {"Authorization": "Bearer tok_alpha_test"}
BETA = {"Authorization": "Bearer tok_beta_test"}


def seed_small_store(db_path: Path | str) -> None:
    """Write a small, known set of records of every kind (and two tenants' tokens)."""
    conn = connect(db_path)
    init_schema(conn)
    with conn:
        writer.add_token(conn, "tok_alpha_test", "tenant-alpha", "2025-01-01T00:00:00Z")
        writer.add_token(conn, "tok_beta_test", "tenant-beta", "2025-01-01T00:00:00Z")
        records.write_all(conn)
    conn.close()


def every_listed(client, listed: list[dict], page: dict, headers: dict) -> list[dict]:
    """Return a bounded list of the surroundings in full: the projects it lists, then every
    page of the rest at its `href` (following `nextCursor`); checks the count it states."""
    found = list(listed)
    assert len(found) == page["listed"]
    cursor = page["nextCursor"]
    while cursor:
        url = httpx.URL(page["href"]).copy_merge_params({"cursor": cursor})
        response = client.get(str(url), headers=headers)
        assert response.status_code == 200, response.text
        found += response.json()["data"]
        cursor = response.json()["meta"]["nextCursor"]
    assert len(found) == page["total"]
    return found
