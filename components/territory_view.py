"""Service-territory candidates: the table behind the page and the counties to draw.

Confidence here is a source-authority heuristic, never accuracy; every label says so.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

HEURISTIC_LABEL = "source-authority heuristic, not accuracy"
NO_TERRITORY = "No service territory found for this point."

CANDIDATE_COLUMNS = {
    "utility": "Utility",
    "utilityId": "Utility id",
    "companyType": "Company type",
    "ccnNumber": "CCN",
    "isoRto": "ISO/RTO",
    "resolutionMethod": "Resolution method",
    "confidence": f"Confidence ({HEURISTIC_LABEL})",
    "confidenceBasis": "Confidence basis",
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


def candidates_frame(candidates: list[dict[str, Any]]) -> pd.DataFrame:
    """Return one row per candidate with the columns the page shows (wire dicts in)."""
    rows = []
    for candidate in candidates:
        row = {column: candidate.get(column) for column in CANDIDATE_COLUMNS}
        row["evidence"] = evidence_text(candidate.get("evidence"))
        rows.append(row)
    frame = pd.DataFrame(rows, columns=list(CANDIDATE_COLUMNS))
    return frame.rename(columns=CANDIDATE_COLUMNS)


def territory_county_fips(candidates: list[dict[str, Any]]) -> list[str]:
    """Return the county FIPS codes the candidates' evidence names (the point's county first)."""
    found: list[str] = []
    for candidate in candidates:
        evidence = candidate.get("evidence") or {}
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
SUMMARY_COLUMNS = ["utility", "confidence", "ccnNumber", "isoRto"]


def candidate_column_config() -> dict[str, Any]:
    return {
        CANDIDATE_COLUMNS["confidence"]: st.column_config.NumberColumn(
            format="%.2f", help="A source-authority heuristic, not benchmark accuracy."
        ),
        CANDIDATE_COLUMNS["evidence"]: st.column_config.TextColumn(width="large"),
    }


def candidate_provenance(candidate: dict[str, Any]) -> str:
    """Return how a candidate was found, as one plain-text paragraph."""
    return (
        f"{candidate.get('utility')} (utility id {candidate.get('utilityId')}, "
        f"{candidate.get('companyType')}): found by {candidate.get('resolutionMethod')}; "
        f"confidence basis {candidate.get('confidenceBasis')}. "
        f"Evidence: {evidence_text(candidate.get('evidence'))}"
    )


def draw_candidates(candidates: list[dict[str, Any]]) -> None:
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
