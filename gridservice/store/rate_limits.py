"""SQL for rate-limit buckets kept in the database, shared by every service instance.

One row per bucket (a token's digest). One statement refills it for the time since its last
draw, grants up to `wanted` whole requests that are there (never more, never a fraction), and
returns how many it granted and what is left. The row is locked for that statement, so
concurrent draws on any instance take from the same bucket, and nothing is granted twice.
Time is the database's clock, the one clock every instance shares.

An instance may draw several requests at once and spend them locally (a lease:
`auth.SharedRateLimiter`): every request let through was first taken from this bucket, so a
token never gets more than its limit across instances, but up to (instances x batch) requests
may sit leased on other instances while this one answers 429.

PostgreSQL only: the SQLite store serves one machine, whose processes keep their buckets in
memory (`auth.RateLimiter`).
"""

from __future__ import annotations

import math
from typing import Any

# Refill, grant and store in one statement. `old` locks the row (FOR UPDATE waits for any
# concurrent draw and then reads the row it left), so `refilled` and `granted` are computed
# from the newest row; time never runs backwards (a draw whose clock was read before
# another's commit refills nothing). A bucket seen for the first time is inserted full less
# the grant; if two first draws race, the loser inserts nothing and returns no row, and
# `draw` runs the statement again, which then finds the row.
_TAKE = """
WITH now AS (SELECT extract(epoch FROM clock_timestamp()) AS t),
old AS (
    SELECT b.bucket, b.updated_at, now.t,
        least(%(burst)s, b.tokens + greatest(0, now.t - b.updated_at) * %(rate)s) AS refilled
    FROM rate_limit_buckets b, now
    WHERE b.bucket = %(bucket)s
    FOR UPDATE OF b
),
drawn AS (
    UPDATE rate_limit_buckets b SET
        tokens = old.refilled - least(%(wanted)s, floor(old.refilled)),
        allowed = old.refilled >= 1,
        updated_at = greatest(old.t, old.updated_at)
    FROM old
    WHERE b.bucket = old.bucket
    RETURNING least(%(wanted)s, floor(old.refilled)) AS granted, b.tokens
),
created AS (
    INSERT INTO rate_limit_buckets (bucket, tokens, updated_at, allowed)
    SELECT %(bucket)s, %(burst)s - least(%(wanted)s, floor(%(burst)s)), now.t,
        %(burst)s >= 1
    FROM now
    WHERE NOT EXISTS (SELECT 1 FROM old)
    ON CONFLICT (bucket) DO NOTHING
    RETURNING least(%(wanted)s, floor(%(burst)s)) AS granted, tokens
)
SELECT granted, tokens FROM drawn
UNION ALL
SELECT granted, tokens FROM created
"""


def draw(conn: Any, bucket: str, *, rate: float, burst: int, wanted: int = 1) -> tuple[int, int]:
    """Take up to `wanted` requests from `bucket` in one statement.

    Return (granted, wait): `granted` requests were taken (0 when the bucket holds less than
    one whole request), and `wait` is 0 when any were granted, else the whole seconds until
    one is there again."""
    params = {
        "bucket": bucket,
        "rate": float(rate),
        "burst": float(burst),
        "wanted": float(max(1, wanted)),
    }
    for _ in range(3):
        row = conn.raw.execute(_TAKE, params).fetchone()
        if row is not None:
            break
    else:  # a bucket inserted and deleted under us three times: refuse, briefly
        return 0, 1
    granted, tokens = int(row[0]), float(row[1])
    if granted > 0:
        return granted, 0
    return 0, max(1, math.ceil((1.0 - tokens) / rate))
