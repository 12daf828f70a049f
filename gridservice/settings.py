"""The service's settings: one frozen value built by the CLI, the app or a test."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def default_db_path() -> Path:
    """Return the per-user data file used when no `--db` is given."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gridservice" / "demo.db"


@dataclass(frozen=True)
class Settings:
    """How one service instance runs.

    `secret_key` signs cursors and derives the review-packet secret; when None, a random key
    is created once and kept in the store's `meta` table, so cursors survive a restart.
    `rate_limit_per_second` and `rate_limit_burst` form a token bucket per bearer token.
    """

    db_path: Path
    demo: bool = False
    secret_key: bytes | None = None
    demo_scale: int = 1
    cursor_ttl_seconds: int = 3600
    idempotency_ttl_seconds: int = 24 * 3600
    rate_limit_per_second: float = 50.0
    rate_limit_burst: int = 100
