"""What the deployment says about itself: release, capabilities, harvest-quality report."""

from __future__ import annotations

from components.connection import ConnectionKey
from components.data._cache import cached, client
from gridclient import Capabilities, QualityReport, Release


@cached()
def release(conn: ConnectionKey) -> Release:
    """Return the release identity (the one release cache: sidebar and quality page agree)."""
    return client(conn).release()


@cached()
def capabilities(conn: ConnectionKey) -> Capabilities:
    """Return which extension operations the deployment offers."""
    # Asked afresh: this cache's lifetime, not the client's memo, says when to ask again.
    return client(conn).capabilities(refresh=True)


@cached(spinner="Loading the quality report…")
def quality_report(conn: ConnectionKey) -> QualityReport:
    """Return the harvest-quality report."""
    return client(conn).quality()
