"""Service-territory candidates: the table behind the page and the counties to draw.

Confidence here is a source-authority heuristic, never accuracy; every label says so.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import pydeck as pdk
import streamlit as st

from components import glossary
from components.maps import fill_layer_from_features
from components.sources import source_title, source_tooltip
from components.tables import records_frame, show_table
from components.text import escape_markdown
from gridclient import ServiceTerritoryCandidate, TerritoryOutline

HEURISTIC_LABEL = "source-authority heuristic, not accuracy"
POLYGON_LAYER_ID = "territory_polygons"
# The territory polygons holding the point, in turn, named in the legend: none is the
# counties' orange or blue, and each is translucent, so where two overlap the fills add up
# and the overlap reads darker than either.
POLYGON_COLOURS = (
    ("purple", (123, 31, 162)),
    ("teal", (0, 121, 107)),
    ("magenta", (194, 24, 91)),
    ("olive", (130, 119, 23)),
    ("brown", (109, 76, 65)),
)
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
    """Return an opaque evidence object as `Label: value` text, its names and codes in words."""
    if not isinstance(evidence, dict):
        return "" if evidence is None else glossary.plain(str(evidence))
    parts = []
    for key, value in evidence.items():
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, dict):
            value = evidence_text(value)
        parts.append(f"{glossary.column_label(str(key))}: {glossary.plain(glossary.when(value))}")
    return "; ".join(parts)


def candidates_frame(candidates: list[ServiceTerritoryCandidate]) -> pd.DataFrame:
    """Return one row per candidate with the columns the page shows."""
    columns: dict[str, Any] = {label: name for name, label in CANDIDATE_COLUMNS.items()}
    columns[CANDIDATE_COLUMNS["evidence"]] = lambda c: evidence_text(c.evidence)
    for name in ("company_type", "resolution_method", "confidence_basis"):
        columns[CANDIDATE_COLUMNS[name]] = lambda c, n=name: glossary.words(getattr(c, n) or "")
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
    evidence = candidate.evidence if isinstance(candidate.evidence, dict) else {}
    kind = glossary.in_sentence(glossary.words(candidate.company_type or "company type not stated"))
    method = glossary.in_sentence(
        glossary.words(candidate.resolution_method or "an unstated method")
    )
    lines = [f"{candidate.utility} ({kind}, utility id {candidate.utility_id}): found by {method}."]
    if evidence.get("matchedCounty"):
        lines.append(
            f"The point is in {evidence['matchedCounty']}, one of the territory's "
            f"{evidence.get('territoryCountyCount', 'listed')} counties "
            f"({', '.join(evidence.get('counties') or [])})."
        )
    if evidence.get("confidenceRule"):
        lines.append(f"Confidence: {evidence['confidenceRule']} ({HEURISTIC_LABEL}).")
    source = ", ".join(
        str(part)
        for part in (
            glossary.in_sentence(glossary.words(evidence.get("authority") or "")),
            evidence.get("sourceId") and source_title(evidence, evidence["sourceId"]),
            evidence.get("sourceLocator"),
            glossary.when(evidence.get("observedAt")),
        )
        if part
    )
    if source:
        lines.append(f"Source: {source}.")
    if evidence.get("note"):
        lines.append(str(evidence["note"]))
    return " ".join(lines)


def _polygon_evidence(candidates: list[ServiceTerritoryCandidate], key: str) -> str | None:
    """Return the first polygon candidate's evidence `key`, or None."""
    for candidate in candidates:
        evidence = candidate.evidence if isinstance(candidate.evidence, dict) else {}
        if evidence.get(key):
            return str(evidence[key])
    return None


def polygon_attribution(candidates: list[ServiceTerritoryCandidate]) -> str | None:
    """Return the licence attribution the service gave with polygon candidates, or None."""
    return _polygon_evidence(candidates, "attribution")


def polygon_publisher(candidates: list[ServiceTerritoryCandidate]) -> str | None:
    """Return who published the territory polygons holding the point, or None."""
    return _polygon_evidence(candidates, "publisher")


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
    show_table(
        **glossary.table(candidates_frame(candidates)[summary], candidate_column_config()),
        hide_index=True,
        width="stretch",
    )
    st.caption(f"Confidence is a {HEURISTIC_LABEL}.")
    st.markdown("**How each candidate was found**")
    for candidate in candidates:
        evidence = candidate.evidence if isinstance(candidate.evidence, dict) else {}
        st.text(
            candidate_provenance(candidate),
            help=source_tooltip(evidence.get("sourceId"), evidence.get("sourceLocator")),
        )


def polygon_colour(position: int) -> tuple[str, tuple[int, int, int]]:
    """Return the (name, RGB) of the `position`-th polygon holding the point."""
    return POLYGON_COLOURS[position % len(POLYGON_COLOURS)]


def territory_polygon_layer(outlines: list[TerritoryOutline]) -> pdk.Layer:
    """Return the territory polygons holding the point, each in its colour, translucent."""
    features = [
        {
            "type": "Feature",
            "geometry": outline.geometry,
            "properties": {"fill": [*rgb, 55], "line": [*rgb, 230]},
        }
        for position, outline in enumerate(outlines)
        for rgb in [polygon_colour(position)[1]]
    ]
    return fill_layer_from_features(features, layer_id=POLYGON_LAYER_ID, stroked=True)


def polygon_legend(outlines: list[TerritoryOutline], publisher: str | None) -> str:
    """Return the legend of the territory polygons drawn: their publisher, each utility by
    its colour, and whether they overlap at the point (as Markdown, names escaped)."""
    named = "; ".join(
        f"{polygon_colour(position)[0]}: {escape_markdown(outline.utility or 'unnamed utility')}"
        for position, outline in enumerate(outlines)
    )
    overlap = (
        f" The point lies in all {len(outlines)}: where they overlap the shading is darker."
        if len(outlines) > 1
        else ""
    )
    source = escape_markdown(publisher or "publisher not stated")
    return f"Territory polygons holding the point ({source}, simplified): {named}.{overlap}"
