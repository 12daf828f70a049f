"""SQL for rate-limit buckets kept in the database, shared by every service instance.

One row per bucket (a token's digest); one statement refills it for the time since its last
request, takes a request if a whole one is there, and says whether it did. The row is locked
for that statement, so concurrent requests on any instance draw from the same bucket. Time is
the database's clock, the one clock every instance shares. PostgreSQL only: the SQLite store
serves one machine, whose processes keep their buckets in memory (`auth.RateLimiter`).
"""

from __future__ import annotations

import math
from typing import Any

_TAKE = """
INSERT INTO rate_limit_buckets AS b (bucket, tokens, updated_at, allowed)
VALUES (%(bucket)s, %(burst)s - 1, extract(epoch FROM clock_timestamp()), true)
ON CONFLICT (bucket) DO UPDATE SET
    tokens = least(%(burst)s, b.tokens + (EXCLUDED.updated_at - b.updated_at) * %(rate)s)
        - CASE WHEN least(%(burst)s, b.tokens + (EXCLUDED.updated_at - b.updated_at)
            * %(rate)s) >= 1 THEN 1 ELSE 0 END,
    allowed = least(%(burst)s, b.tokens + (EXCLUDED.updated_at - b.updated_at) * %(rate)s) >= 1,
    updated_at = EXCLUDED.updated_at
RETURNING tokens, allowed
"""


def take(conn: Any, bucket: str, *, rate: float, burst: int) -> int:
    """Take one request from `bucket`; return 0 when allowed, else whole seconds to wait."""
    row = conn.raw.execute(
        _TAKE, {"bucket": bucket, "rate": float(rate), "burst": float(burst)}
    ).fetchone()
    tokens, allowed = row[0], row[1]
    if allowed:
        return 0
    return max(1, math.ceil((1.0 - tokens) / rate))
