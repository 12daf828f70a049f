"""Bearer tokens on a store file: issue, revoke, and the embedded app's token for itself.

Only a token's SHA-256 is stored; the token itself is returned once, to whoever issued it.
The `gridservice tokens` commands and the app's embedded service both come through here.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import secrets
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from gridservice.demo import DEMO_TOKENS
from gridservice.store import tenancy, writer
from gridservice.store.db import connect, init_schema

LOCAL_TENANT = "local"
# A tenant id is a name an operator types: a letter or digit first, then letters, digits,
# '.', '_' or '-'; never blank, never padded, never a path or a control character.
_TENANT_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def check_tenant(tenant: str) -> str:
    """Return `tenant` if it is a well-formed tenant id, else raise ValueError saying why."""
    if not _TENANT_PATTERN.fullmatch(tenant):
        raise ValueError(
            f"tenant {tenant!r} is not 1 to 64 letters, digits, '.', '_' or '-' "
            "(starting with a letter or digit)"
        )
    return tenant


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@contextlib.contextmanager
def _store(db_path: str | Path) -> Iterator[sqlite3.Connection]:
    """A connection to the store (schema ensured), closed afterwards."""
    conn = connect(db_path)
    try:
        init_schema(conn)
        yield conn
    finally:
        conn.close()


def issue_token(
    db_path: str | Path, tenant: str, *, prefix: str = "gds_", reviewer: str | None = None
) -> str:
    """Store a new token of `tenant` (hashed), or of its reviewer `reviewer` (a name spelled
    like a tenant id), and return the token."""
    check_tenant(tenant)
    if reviewer is not None:
        check_tenant(reviewer)
    token = prefix + secrets.token_urlsafe(32)
    with _store(db_path) as conn, conn:
        writer.add_token(conn, token, tenant, _now(), reviewer=reviewer)
    return token


def revoke_token(db_path: str | Path, token: str) -> int:
    """Revoke one token; return how many were revoked (0 or 1). A service in this process
    refuses it at once; other processes on PostgreSQL within their token cache's time."""
    with _store(db_path) as conn, conn:
        removed = tenancy.revoke_token(conn, token)
    tenancy.forget_token_caches()  # again once committed: nothing read before is kept
    return removed


def revoke_tenant(db_path: str | Path, tenant: str) -> int:
    """Revoke every token of `tenant`; return how many."""
    with _store(db_path) as conn, conn:
        removed = tenancy.revoke_tenant_tokens(conn, tenant)
    tenancy.forget_token_caches()
    return removed


def has_demo_tokens(db_path: str | Path) -> bool:
    """True for a demo store (its fixed demo tokens are there)."""
    conn = connect(db_path)
    try:
        return tenancy.tenant_for_token(conn, DEMO_TOKENS[0][0]) is not None
    finally:
        conn.close()


def issue_local_token(db_path: str | Path) -> str | None:
    """Return None on a demo store; else a new token of tenant `local`.

    The app's embedded service gives itself this token on a store without the demo tokens
    (a harvested one), and revokes it when its process exits (`revoke_token_quietly`).
    """
    if has_demo_tokens(db_path):
        return None
    return issue_token(db_path, LOCAL_TENANT, prefix="gds_local_")


def revoke_token_quietly(db_path: str | Path, token: str) -> None:
    """Revoke `token` at process exit: a store removed meanwhile, or a store error, is left
    alone (a token left behind stays revocable by tenant)."""
    if not Path(db_path).is_file():
        return
    with contextlib.suppress(sqlite3.Error):
        revoke_token(db_path, token)
