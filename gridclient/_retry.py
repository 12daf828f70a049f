"""When to retry, and how long to wait: the policy the transport's one loop applies."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

import httpx

RETRYABLE_STATUSES = frozenset({429, 502, 503, 504})
IN_FLIGHT_CODE = "idempotency_key_in_flight"


@dataclass(frozen=True)
class RetryPolicy:
    """Capped exponential backoff with jitter; ``Retry-After`` obeyed up to a cap."""

    max_retries: int = 2
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_retry_after: float = 60.0

    def backoff(self, retry_number: int, rng: random.Random | None = None) -> float:
        """Seconds to wait before retry ``retry_number`` (1-based) without server advice."""
        base = min(self.max_delay, self.initial_delay * 2 ** (retry_number - 1))
        jitter = (rng or random).uniform(0.75, 1.0)
        return base * jitter

    def delay(self, retry_number: int, retry_after: float | None) -> float:
        """The wait before a retry: the server's ``Retry-After`` (capped), else backoff."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_retry_after)
        return self.backoff(retry_number)


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header: delta-seconds or an HTTP-date; None if unusable."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        seconds = None
    if seconds is not None:
        return seconds if math.isfinite(seconds) and seconds >= 0 else None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def is_in_flight_conflict(response: httpx.Response) -> bool:
    """True for a 409 whose problem says the same idempotency key is still being processed."""
    try:
        body = response.json()
    except ValueError:
        return False
    if not isinstance(body, dict):
        return False
    if body.get("code") == IN_FLIGHT_CODE:
        return True
    problem_type = body.get("type")
    # Problem types are URIs such as /problems/idempotency-key-in-flight.
    return isinstance(problem_type, str) and problem_type.rstrip("/").replace("-", "_").endswith(
        IN_FLIGHT_CODE
    )


def should_retry_response(response: httpx.Response) -> bool:
    """Whether an answered request may be sent again."""
    if response.status_code in RETRYABLE_STATUSES:
        return True
    return response.status_code == 409 and is_in_flight_conflict(response)
