"""The sidebar's release block: id, data snapshot, and how long the release is valid."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import streamlit as st


def expiry_note(valid_until: str | None, now: datetime) -> str | None:
    """Return the plain warning for a release whose `validUntil` has passed, else None.

    A value that is missing or not an ISO 8601 timestamp gets no note (the raw value is
    still shown next to "Valid until").
    """
    if not valid_until:
        return None
    try:
        ends = datetime.fromisoformat(valid_until)
    except ValueError:
        return None
    if ends.tzinfo is None:
        ends = ends.replace(tzinfo=UTC)
    if ends > now:
        return None
    return f"Expired — this release's validity ended on {ends.date().isoformat()}."


def draw_release(release: dict[str, Any], now: datetime | None = None) -> None:
    """Draw the release id, the snapshot hash's first 12 digits and its validity."""
    st.markdown("**Release**")
    st.text(f"Release id: {release.get('releaseId')}")
    snapshot = release.get("dataSnapshotSha256") or ""
    st.text(f"Data snapshot: {snapshot[:12]}")
    valid_until = release.get("validUntil")
    st.text(f"Valid until: {valid_until}")
    note = expiry_note(valid_until, now or datetime.now(UTC))
    if note:
        st.warning(note)
