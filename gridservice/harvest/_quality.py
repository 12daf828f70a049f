"""Quality flags for harvested queue records, by the same code the rest of the service uses."""

from __future__ import annotations

from typing import Any

from gridservice.catalogue.quality import queue_quality_flags


def queue_flags(record: dict[str, Any], details: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the queue quality flags of `gridservice.catalogue.quality` for one record."""
    return queue_quality_flags(record, details)
