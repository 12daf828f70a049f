"""The `Service-Version` header: which dated versions exist and which one a request gets."""

from __future__ import annotations

import datetime as dt

from gridservice.runtime.errors import ApiError

SUPPORTED_VERSIONS = ("2025-06-01",)
NEWEST_VERSION = SUPPORTED_VERSIONS[-1]


def resolve_version(header: str | None) -> str:
    """Return the version a request is served with: the newest on or before the date asked."""
    if header is None or not header.strip():
        return NEWEST_VERSION
    text = header.strip()
    try:
        asked = dt.date.fromisoformat(text)
        if len(text) != 10:
            raise ValueError(text)
    except ValueError:
        raise ApiError(
            400,
            "invalid_service_version",
            f"Service-Version must be a date in YYYY-MM-DD form; got {text[:40]!r}.",
        ) from None
    usable = [v for v in SUPPORTED_VERSIONS if dt.date.fromisoformat(v) <= asked]
    if not usable:
        raise ApiError(
            400,
            "unsupported_service_version",
            f"Service-Version {text} predates this service. Supported versions: "
            + ", ".join(SUPPORTED_VERSIONS)
            + ".",
        )
    return usable[-1]
