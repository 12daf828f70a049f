"""The sidebar's release block: id, data snapshot, and how long the release is valid."""

from __future__ import annotations

from datetime import UTC, datetime

import streamlit as st

from components import glossary
from gridclient import Release


def expiry_note(valid_until: datetime | None, now: datetime) -> str | None:
    """Return the plain warning for a release whose `valid_until` has passed, else None.

    A missing value gets no note; an instant without a zone is read as UTC.
    """
    if valid_until is None:
        return None
    ends = valid_until if valid_until.tzinfo else valid_until.replace(tzinfo=UTC)
    if ends > now:
        return None
    return f"Expired — this release's validity ended on {ends.date().isoformat()}."


def draw_release(release: Release, now: datetime | None = None) -> None:
    """Draw the release id, the snapshot hash's first 12 digits and its validity."""
    st.markdown("**Release**")
    st.text(f"Release id: {release.release_id}")
    st.text(f"Data snapshot: {(release.data_snapshot_sha256 or '')[:12]}")
    st.text(f"Valid until: {glossary.when(release.valid_until) or None}")
    note = expiry_note(release.valid_until, now or datetime.now(UTC))
    if note:
        st.warning(note)
