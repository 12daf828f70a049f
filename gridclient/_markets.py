"""The market region of a point and how two territory methods agree (service extensions).

`Market` is the `market` of a territory answer, a site and an assessment, and the
`marketRegion` of a site's surroundings: the HIFLD ISO/RTO boundary holding the point, or
the region outside any ISO. `MethodAgreement` says whether a territory candidate's utility
is named by the other resolution method too.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from gridclient._base import GridModel


class Market(GridModel):
    """The market region a point is in: `code` (`PJM`, or `West` outside any ISO), its name,
    a `label` to show (`no ISO: West`), and where the boundary comes from."""

    code: str | None = None
    name: str | None = None
    label: str | None = None
    is_iso: bool | None = None
    # Other regions whose boundary holds the point too (boundaries overlap in places).
    also_in: list[str] = Field(default_factory=list)
    method: str | None = None
    source: str | None = None
    # What the boundaries' licence (ODbL 1.0) asks to be shown beside them.
    attribution: str | None = None
    evidence: dict[str, Any] | None = None


class MethodAgreement(GridModel):
    """Whether the other territory method names a candidate's utility: `agrees` False is a
    disagreement, explained in `note`."""

    agrees: bool | None = None
    other_method: str | None = None
    note: str | None = None


class Abstention(GridModel):
    """A dataset an answer leaves out (the surroundings' ``abstentions``, the assessment's
    ``dataset_abstentions``): it covers other markets only, as of ``as_of``."""

    dataset: str | None = None
    title: str | None = None
    covers_markets: list[str] = Field(default_factory=list)
    missing_for_markets: list[str] = Field(default_factory=list)
    county_fips: list[str] = Field(default_factory=list)
    as_of: str | None = None
    statement: str | None = None


__all__ = ["Abstention", "Market", "MethodAgreement"]
