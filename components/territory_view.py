"""Service-territory candidates: the table behind the page and the counties to draw.

Confidence here is a source-authority heuristic, never accuracy; every label says so.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components.tables import records_frame
from gridclient import ServiceTerritoryCandidate

HEURISTIC_LABEL = "source-authority heuristic, not accuracy"
NO_TERRITORY = "No service territory found for this point."

CANDIDATE_COLUMNS = {
    "utility": "Utility",
    "utility_id": "Utility id",
    "company_type": "Company type",
    "ccn_number": "CCN",
    "iso_rto": "ISO/RTO",
    "resolution_method": "Resolution method",
    "confidence": f"Confidence ({HEURISTIC_LABEL})",
    "confidence_basis": "Confidence basis",
    "evidence": "Evidence",
}


def evidence_text(evidence: Any) -> str:
    """Return an opaque evidence object as short `key: value` text (shown as text, not HTML)."""
    if not isinstance(evidence, dict):
        return "" if evidence is None else str(evidence)
    parts = []
    for key, value in evidence.items():
        if isinstance(value, dict | list):
            value = ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)
        parts.append(f"{key}: {value}")
    return "; ".join(parts)


def candidates_frame(candidates: list[ServiceTerritoryCandidate]) -> pd.DataFrame:
    """Return one row per candidate with the columns the page shows."""
    columns: dict[str, Any] = {label: name for name, label in CANDIDATE_COLUMNS.items()}
    columns[CANDIDATE_COLUMNS["evidence"]] = lambda c: evidence_text(c.evidence)
    return records_frame(candidates, columns)


def territory_county_fips(candidates: list[ServiceTerritoryCandidate]) -> list[str]:
    """Return the county FIPS codes the candidates' evidence names (the point's county first)."""
    found: list[str] = []
    for candidate in candidates:
        evidence = candidate.evidence or {}
        if not isinstance(evidence, dict):
            continue
        values = [evidence.get("matchedCountyFips")]
        for key in ("countyFips", "counties", "territoryCountyFips"):
            listed = evidence.get(key)
            if isinstance(listed, list):
                values.extend(listed)
        for value in values:
            fips = str(value).zfill(5) if isinstance(value, str | int) else ""
            if fips.isdigit() and len(fips) == 5 and fips not in found:
                found.append(fips)
    return found


def point_county(location: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return the county object of a resolution's `location`, when the service gave one."""
    if not isinstance(location, dict):
        return None
    county = location.get("county")
    return county if isinstance(county, dict) else None


# At 1280 px a table of every field is cut off (the heuristic confidence went off-screen), so
# the table holds what tells the candidates apart; how each was found is text below it.
SUMMARY_COLUMNS = ["utility", "confidence", "ccn_number", "iso_rto"]


def candidate_column_config() -> dict[str, Any]:
    return {
        CANDIDATE_COLUMNS["confidence"]: st.column_config.NumberColumn(
            format="%.2f", help="A source-authority heuristic, not benchmark accuracy."
        ),
        CANDIDATE_COLUMNS["evidence"]: st.column_config.TextColumn(width="large"),
    }


def candidate_provenance(candidate: ServiceTerritoryCandidate) -> str:
    """Return how a candidate was found, as one plain-text paragraph."""
    return (
        f"{candidate.utility} (utility id {candidate.utility_id}, "
        f"{candidate.company_type}): found by {candidate.resolution_method}; "
        f"confidence basis {candidate.confidence_basis}. "
        f"Evidence: {evidence_text(candidate.evidence)}"
    )


def draw_candidates(candidates: list[ServiceTerritoryCandidate]) -> None:
    """Draw the candidate table and how each was found, or say no territory was found."""
    if not candidates:
        st.warning(NO_TERRITORY)
        return
    if len(candidates) > 1:
        st.info(
            f"{len(candidates)} territories overlap here; the data cannot say which one serves "
            "the point."
        )
    summary = [CANDIDATE_COLUMNS[c] for c in SUMMARY_COLUMNS]
    st.dataframe(
        candidates_frame(candidates)[summary],
        hide_index=True,
        column_config=candidate_column_config(),
        width="stretch",
    )
    st.caption(f"Confidence is a {HEURISTIC_LABEL}.")
    st.markdown("**How each candidate was found**")
    for candidate in candidates:
        st.text(candidate_provenance(candidate))
