"""Argument checks made before anything is sent, and query-value serialisation."""

from __future__ import annotations

import math
import re
from datetime import UTC, date, datetime
from typing import Any
from urllib.parse import quote

from gridclient._errors import InvalidArgumentError

MAX_INT32 = 2147483647
COLLECTION_LIMIT = (1, 500)
EVIDENCE_LIMIT = (1, 100)
_PERIOD = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
_SERVICE_VERSION = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def check_int_range(name: str, value: Any, low: int, high: int) -> int | None:
    """``value`` unchanged if it is an integer in ``[low, high]`` (or None)."""
    if value is None:
        return None
    if not _is_int(value):
        raise InvalidArgumentError(name, f"must be an integer, got {value!r}")
    if not low <= value <= high:
        raise InvalidArgumentError(name, f"must be between {low} and {high}, got {value}")
    return value


def check_limit(value: Any, bounds: tuple[int, int] = COLLECTION_LIMIT) -> int | None:
    return check_int_range("limit", value, *bounds)


def check_period(value: Any, name: str = "period") -> str | None:
    """A ``YYYY-MM`` month (four-digit year, month 01 to 12); a date gives its month."""
    if value is None:
        return None
    if isinstance(value, date):
        return f"{value.year:04d}-{value.month:02d}"
    if not isinstance(value, str) or not _PERIOD.match(value):
        raise InvalidArgumentError(name, f"must be a YYYY-MM month, got {value!r}")
    return value


def check_number(name: str, value: Any) -> float | None:
    """``value`` unchanged if it is a finite number (or None)."""
    if value is None:
        return None
    if not _is_number(value):
        raise InvalidArgumentError(name, f"must be a finite number, got {value!r}")
    return value


def check_capacity(min_mw: Any, max_mw: Any) -> None:
    """Capacity bounds: numbers, at least 0, min not above max."""
    for name, value in (("min_capacity_mw", min_mw), ("max_capacity_mw", max_mw)):
        if value is None:
            continue
        if not _is_number(value):
            raise InvalidArgumentError(name, f"must be a finite number, got {value!r}")
        if value < 0:
            raise InvalidArgumentError(name, f"must be at least 0, got {value}")
    if min_mw is not None and max_mw is not None and min_mw > max_mw:
        raise InvalidArgumentError(
            "min_capacity_mw", f"must not exceed max_capacity_mw ({min_mw} > {max_mw})"
        )


def check_coordinate(name: str, value: Any, bound: float) -> float:
    if not _is_number(value):
        raise InvalidArgumentError(name, f"must be a finite number, got {value!r}")
    if not -bound <= value <= bound:
        raise InvalidArgumentError(name, f"must be between {-bound:g} and {bound:g}, got {value}")
    return float(value)


def check_idempotency_key(value: Any) -> str:
    if not isinstance(value, str) or not 8 <= len(value) <= 255:
        shown = f"{len(value)} characters" if isinstance(value, str) else repr(value)
        raise InvalidArgumentError(
            "idempotency_key", f"must be a string of 8 to 255 characters, got {shown}"
        )
    return value


def check_text(name: str, value: Any, *, required: bool = False) -> str | None:
    """A non-empty string (or None when not required)."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgumentError(name, f"must be a non-empty string, got {value!r}")
    return value


def path_segment(name: str, value: Any) -> str:
    """An id checked and escaped for use as one path segment."""
    return quote(check_text(name, value, required=True) or "", safe="")


def check_service_version(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        return value.isoformat()
    if not isinstance(value, str) or not _SERVICE_VERSION.match(value):
        raise InvalidArgumentError("service_version", f"must be a YYYY-MM-DD date, got {value!r}")
    return value


def iso_value(name: str, value: Any) -> str | None:
    """A date or date-time filter as ISO 8601; date-times in UTC with ``Z``.

    Naive datetimes are taken to be UTC already. Strings go out unchanged.
    """
    if value is None:
        return None
    if isinstance(value, datetime):
        moment = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
        text = moment.replace(tzinfo=None).isoformat()
        return text + "Z"
    if isinstance(value, date):
        return value.isoformat()
    return check_text(name, value)


def query(**params: Any) -> dict[str, Any]:
    """Query parameters without the ones left as None."""
    return {key: value for key, value in params.items() if value is not None}
