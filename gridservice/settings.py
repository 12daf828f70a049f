"""The service's settings: one frozen value built by the CLI, the app or a test."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

DEFAULT_RATE_PER_SECOND = 50.0
DEFAULT_RATE_BURST = 100
DEFAULT_REFUSED_RATE_PER_SECOND = 20.0
DEFAULT_REFUSED_RATE_BURST = 100


def add_database_url_option(parser: argparse.ArgumentParser) -> None:
    """Add `--database-url` to a command that opens a store (it overrides `--db`)."""
    parser.add_argument(
        "--database-url",
        default=None,
        metavar="URL",
        help="PostgreSQL store, postgresql://user:password@host:port/database "
        "(default $GRIDSERVICE_DATABASE_URL; either one overrides --db)",
    )


def default_db_path() -> Path:
    """Return the per-user data file used when no `--db` is given."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gridservice" / "demo.db"


@dataclass(frozen=True)
class Settings:
    """How one service instance runs.

    `secret_key` signs cursors and derives the review-packet secret; when None, a random key
    is created once and kept in the store's `meta` table, so cursors survive a restart.
    `rate_limit_per_second` and `rate_limit_burst` form a token bucket per bearer token. Left
    unset (None), the limit is 50/s with bursts of 100 on a real store and off on a demo
    store (`demo=True`, e.g. the app's embedded service); setting either turns it on.
    `rate_limit_enabled=False` turns it off whatever the numbers.
    `refused_rate_per_second` and `refused_rate_burst` form a bucket per client address for
    requests refused with 401 (no token, a malformed or an unknown one), on every store, demo
    included, unless `rate_limit_enabled` is False or the rate is None.
    `read_timeout_seconds`: a request must arrive whole this long after its first byte
    (`http_protocol`); a slower client is dropped.
    `idempotency_lease_seconds`: an in-flight Idempotency-Key claim older than this is
    treated as abandoned (its process died mid-request) and may be taken over.
    `max_body_bytes` (413 past it) and `max_query_bytes` (400 past it) bound what one request
    may make the service read.
    `mmap_bytes`: SQLite's memory-mapped window per connection, 0 (off) by default: faster
    large pages for more resident memory (`store.connections.ConnectionPerThread`).
    `max_store_bytes`: a SQLite store file may not grow past this (None: as far as the disk
    allows); a write past it is refused as on a full disk (503 `storage_full`).
    `started_at`: when the service started serving (a demo release is valid from then);
    None means when the app is created. The worker processes of one `serve --workers N`
    share the parent's, so every worker publishes the same release.
    `database_url`: a `postgresql://` URL; when set the store is that database, not the
    file at `db_path` (`store.backend`), with up to `pool_size` pooled connections; a request
    waits at most `pool_timeout_seconds` for one before it is answered 503.
    `page_cache_bytes`: memory for encoded pages of public collections
    (`gridservice.runtime.page_cache`), valid while the public data is unchanged; 0 turns it off.
    `token_cache_seconds`: on PostgreSQL, how long an instance remembers a token's tenant
    (`gridservice.security.token_cache`), so also the longest a token revoked by another process is
    still accepted by it; 0 asks the database on every request. SQLite always asks.
    `data_check_seconds`: on PostgreSQL, how often an instance reads the data snapshot hash
    again for its page cache, so also the longest it may answer a cached page of public data
    that a harvest on another instance has changed; 0 reads it on every request. SQLite
    always reads it (a few microseconds in the process).
    """

    db_path: Path
    demo: bool = False
    secret_key: bytes | None = None
    demo_scale: int = 1
    cursor_ttl_seconds: int = 3600
    idempotency_ttl_seconds: int = 24 * 3600
    idempotency_lease_seconds: float = 30.0
    rate_limit_per_second: float | None = None
    rate_limit_burst: int | None = None
    rate_limit_enabled: bool = True
    refused_rate_per_second: float | None = DEFAULT_REFUSED_RATE_PER_SECOND
    refused_rate_burst: int = DEFAULT_REFUSED_RATE_BURST
    read_timeout_seconds: float = 30.0
    max_body_bytes: int = 256 * 1024
    max_query_bytes: int = 8192
    started_at: dt.datetime | None = None
    mmap_bytes: int = 0
    max_store_bytes: int | None = None
    database_url: str | None = None
    pool_size: int = 10
    pool_timeout_seconds: float = 5.0
    page_cache_bytes: int = 64 * 2**20
    token_cache_seconds: float = 2.0
    data_check_seconds: float = 1.0

    @classmethod
    def for_store(cls, location: str | Path, **fields) -> Settings:
        """Settings over a store location: a `postgresql://` URL or a SQLite file."""
        if str(location).startswith(("postgresql://", "postgres://")):
            return cls(
                db_path=Path("unused-with-database-url"), database_url=str(location), **fields
            )
        return cls(db_path=Path(location), **fields)

    @property
    def store_location(self) -> str | Path:
        """The store: the database URL when one is set, else the SQLite file."""
        return self.database_url or self.db_path

    def to_json(self) -> str:
        """These settings as JSON (handed to worker processes through the environment)."""
        fields = asdict(self)
        fields["db_path"] = str(self.db_path)
        fields["secret_key"] = self.secret_key.hex() if self.secret_key is not None else None
        fields["started_at"] = self.started_at.isoformat() if self.started_at else None
        return json.dumps(fields)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        fields = json.loads(text)
        fields["db_path"] = Path(fields["db_path"])
        if fields.get("secret_key") is not None:
            fields["secret_key"] = bytes.fromhex(fields["secret_key"])
        if fields.get("started_at") is not None:
            fields["started_at"] = dt.datetime.fromisoformat(fields["started_at"])
        return cls(**fields)

    def refused_rate_limit(self) -> tuple[float, int] | None:
        """Return the (refill per second, burst) of the per-address limit on refused
        credentials, or None when off."""
        if not self.rate_limit_enabled or self.refused_rate_per_second is None:
            return None
        return float(self.refused_rate_per_second), int(self.refused_rate_burst)

    def rate_limit(self) -> tuple[float, int] | None:
        """Return the (refill per second, burst) of the per-token limit, or None when off."""
        if not self.rate_limit_enabled:
            return None
        unset = self.rate_limit_per_second is None and self.rate_limit_burst is None
        if unset and self.demo:
            return None
        rate = self.rate_limit_per_second
        burst = self.rate_limit_burst
        return (
            DEFAULT_RATE_PER_SECOND if rate is None else float(rate),
            DEFAULT_RATE_BURST if burst is None else int(burst),
        )
