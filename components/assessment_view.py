"""An assessment, drawn in full: frames behind its tables and the sections of its page.

Everything takes the assessment as its camelCase wire dict. Abstentions and limitations
are drawn in plain view (never folded away); confidences are labelled as heuristics and
parser confidence as uncalibrated.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components.evidence_view import escape_markdown
from components.tables import flags_text
from components.territory_view import HEURISTIC_LABEL, candidates_frame, evidence_text

READINESS_LABELS = {
    "low_friction": "Low friction",
    "moderate_friction": "Moderate friction",
    "high_friction": "High friction",
    "insufficient_data": "Insufficient data",
}
SEVERITY_ICONS = {"low": "🟢", "medium": "🟠", "high": "🔴"}
UNCALIBRATED = "uncalibrated"


def readiness_label(readiness: dict[str, Any] | None) -> str:
    level = (readiness or {}).get("level")
    return READINESS_LABELS.get(level, str(level or "not given"))


def finding_lines(readiness: dict[str, Any] | None) -> list[dict[str, str]]:
    """Return each friction finding as plain text: heading (factor, severity), finding, cites."""
    lines = []
    for finding in (readiness or {}).get("findings") or []:
        severity = finding.get("severity")
        icon = SEVERITY_ICONS.get(severity, "")
        citations = [str(c) for c in finding.get("citations") or []]
        lines.append(
            {
                "factor": str(finding.get("factor") or "unnamed factor"),
                "severity": f"{icon} {severity} severity".strip(),
                "finding": str(finding.get("finding") or ""),
                "cites": ", ".join(citations) if citations else "no record cited",
            }
        )
    return lines


def draw_findings(readiness: dict[str, Any] | None) -> None:
    """Draw each finding in its own box, its full text wrapped and its citations under it."""
    lines = finding_lines(readiness)
    if not lines:
        st.caption("No friction findings.")
    for line in lines:
        with st.container(border=True):
            st.markdown(
                f"**{escape_markdown(line['factor'])}** · {escape_markdown(line['severity'])}"
            )
            st.markdown(escape_markdown(line["finding"]))
            st.caption(f"Cites: {escape_markdown(line['cites'])}")


def market_signals_frame(signals: list[dict[str, Any]]) -> pd.DataFrame:
    """Return the market signals with value, validity, evidence quote/page and provenance."""
    rows = []
    for fact in signals:
        evidence = fact.get("evidence") or {}
        calibrated = evidence.get("parserConfidenceIsCalibrated")
        rows.append(
            {
                "Market": fact.get("market"),
                "Predicate": fact.get("predicate"),
                "Period": fact.get("period"),
                "Scenario": fact.get("scenario"),
                "Value": fact.get("value"),
                "Unit": fact.get("unit"),
                "Valid from": fact.get("validFrom"),
                "Valid to": fact.get("validTo"),
                "Evidence quote": evidence.get("quote"),
                "Page": evidence.get("page"),
                f"Parser confidence ({UNCALIBRATED})": evidence.get("parserConfidence"),
                "Calibrated": bool(calibrated),
                "Source id": fact.get("sourceId"),
                "Locator": evidence.get("sourceLocator"),
                "Known from": fact.get("knownFrom"),
                "Quality flags": flags_text(fact.get("qualityFlags")),
            }
        )
    return pd.DataFrame(rows)


def queue_records_frame(records: list[dict[str, Any]]) -> pd.DataFrame:
    """Return the relevant queue records joined with their expanded details and evidence."""
    rows = []
    for record in records:
        details = record.get("expandedDetails") or {}
        evidence = record.get("expandedEvidence") or {}
        locator = evidence.get("locator") or {}
        rows.append(
            {
                "Record": record.get("id"),
                "Project": record.get("projectName"),
                "County": record.get("county"),
                "State": record.get("state"),
                "Status": record.get("status"),
                "Requested MW": record.get("requestedCapacityMw"),
                "Technology": details.get("technology"),
                "Queue date": details.get("queueDate"),
                "Proposed date": record.get("proposedDate"),
                "Point of interconnection": record.get("pointOfInterconnection"),
                "Study phase": details.get("studyPhaseNormalized"),
                "Source": evidence.get("sourceName") or record.get("sourceId"),
                "Source link": evidence.get("sourceUrl") or record.get("evidenceUrl"),
                "File": locator.get("fileName"),
                "Worksheet": locator.get("worksheet"),
                "Row": locator.get("row"),
                "Redistribution": evidence.get("redistributionPolicy"),
                "Source id": record.get("sourceId"),
                "Locator": record.get("sourceLocator"),
                "Observed at": record.get("observedAt"),
                "Quality flags": flags_text(record.get("qualityFlags")),
            }
        )
    return pd.DataFrame(rows)


def transmission_frame(projects: list[dict[str, Any]]) -> pd.DataFrame:
    """Return the relevant transmission projects with kV, dates and their evidence."""
    rows = []
    for project in projects:
        evidence = project.get("evidence") or {}
        rows.append(
            {
                "Project": project.get("projectNumber"),
                "Title": project.get("title"),
                "Status": project.get("status"),
                "kV": project.get("serviceLevelKv"),
                "Owner": project.get("transmissionOwner"),
                "Counties": ", ".join(project.get("counties") or []),
                "Projected in service": project.get("projectedInServiceDate"),
                "Actual in service": project.get("actualInServiceDate"),
                "From": project.get("fromLocation"),
                "To": project.get("toLocation"),
                "Source link": evidence.get("sourceUrl"),
                "Authority": evidence.get("authority"),
                "Source id": project.get("sourceId"),
                "Locator": evidence.get("sourceLocator"),
                "Observed at": project.get("observedAt"),
                "Quality flags": flags_text(project.get("qualityFlags")),
            }
        )
    return pd.DataFrame(rows)


def utility_frame(candidates: list[dict[str, Any]]) -> pd.DataFrame:
    rows = [
        {
            "Utility": c.get("utility"),
            "Utility id": c.get("utilityId"),
            "Company type": c.get("companyType"),
            f"Confidence ({HEURISTIC_LABEL})": c.get("confidence"),
            "Confidence basis": c.get("confidenceBasis"),
            "Basis": evidence_text(c.get("basis")),
        }
        for c in candidates
    ]
    return pd.DataFrame(rows)


def tariff_frame(candidates: list[dict[str, Any]]) -> pd.DataFrame:
    rows = [
        {
            "Utility id": c.get("utilityId"),
            "Tariff": c.get("tariffId"),
            "Name": c.get("name"),
            "Applicability": evidence_text(c.get("applicability")),
            "Basis": evidence_text(c.get("basis")),
        }
        for c in candidates
    ]
    return pd.DataFrame(rows)


def jurisdictions_frame(jurisdictions: list[dict[str, Any]]) -> pd.DataFrame:
    rows = [
        {"Level": j.get("level"), "Id": j.get("id"), "Name": j.get("name")} for j in jurisdictions
    ]
    return pd.DataFrame(rows, columns=["Level", "Id", "Name"])


LINK = st.column_config.LinkColumn("Source link", display_text="open source")


def _table(frame: pd.DataFrame, empty: str, **column_config: Any) -> None:
    if frame.empty:
        st.caption(empty)
        return
    st.dataframe(frame, hide_index=True, width="stretch", column_config=column_config or None)


def draw_readiness(assessment: dict[str, Any]) -> None:
    """Draw readiness, findings, and every abstention and limitation in plain view."""
    readiness = assessment.get("readiness") or {}
    confidence = assessment.get("confidence") or {}
    left, right = st.columns([2, 3])
    left.metric("Readiness", readiness_label(readiness))
    if confidence:
        left.metric("Confidence (heuristic, not accuracy)", confidence.get("label") or "")
        left.caption(
            f"Score {confidence.get('score')}: a heuristic, not accuracy. {confidence.get('note') or ''}"
        )
    right.markdown("**Summary**")
    right.text(readiness.get("summary") or "No summary given.")
    st.subheader("Friction findings")
    draw_findings(readiness)
    st.subheader("Abstentions")
    abstentions = readiness.get("abstentions") or []
    if not abstentions:
        st.caption("The assessment abstained on no factor.")
    for abstention in abstentions:
        st.warning(
            f"Abstained on {abstention.get('factor')}: {abstention.get('reason')}", icon="🚫"
        )
    st.subheader("Limitations")
    limitations = readiness.get("limitations") or []
    if not limitations:
        st.caption("No limitations listed.")
    for limitation in limitations:
        st.info(limitation, icon="ℹ️")


def draw_actions(assessment: dict[str, Any]) -> None:
    left, right = st.columns(2)
    left.subheader("Risks")
    for risk in assessment.get("risks") or ["None listed."]:
        left.markdown(f"- {_plain(risk)}")
    right.subheader("Next actions")
    for action in assessment.get("nextActions") or ["None listed."]:
        right.markdown(f"- {_plain(action)}")


def _plain(text: Any) -> str:
    """Return service text safe to put in markdown (markdown syntax characters escaped)."""
    special = "\\`*_{}[]()<>#+-.!|~$"
    return "".join(f"\\{ch}" if ch in special else ch for ch in str(text))


def draw_place(assessment: dict[str, Any]) -> None:
    county = assessment.get("county")
    st.subheader("County and jurisdictions")
    if county:
        st.text(
            f"{county.get('name')}, {county.get('state')} (FIPS {county.get('fips')}) — "
            f"{county.get('method')}, {county.get('source')}"
        )
    else:
        st.warning("The site is in no loaded county; county-based factors abstain.")
    _table(jurisdictions_frame(assessment.get("jurisdictions") or []), "No jurisdictions.")


def draw_candidates(assessment: dict[str, Any]) -> None:
    st.subheader("Utility, territory and tariff candidates")
    st.caption(f"Confidences are a {HEURISTIC_LABEL}.")
    st.markdown("**Utility candidates**")
    _table(utility_frame(assessment.get("utilityCandidates") or []), "No utility candidates.")
    st.markdown("**Service territory candidates**")
    territories = candidates_frame(assessment.get("serviceTerritoryCandidates") or [])
    _table(territories, "No service territory found for this point.")
    st.markdown("**Tariff candidates**")
    _table(tariff_frame(assessment.get("tariffCandidates") or []), "No tariff candidates.")


def draw_records(assessment: dict[str, Any]) -> None:
    st.subheader("Market signals")
    st.caption("Parser confidence is uncalibrated: no independent labels exist to calibrate it.")
    _table(
        market_signals_frame(assessment.get("marketSignals") or []),
        "No market signals.",
        Value=st.column_config.NumberColumn(format="%.0f"),
    )
    st.subheader("Relevant queue records")
    _table(
        queue_records_frame(assessment.get("relevantQueueRecords") or []),
        "No queue records near the site.",
        **{"Requested MW": st.column_config.NumberColumn(format="%.1f MW"), "Source link": LINK},
    )
    st.subheader("Relevant transmission projects")
    _table(
        transmission_frame(assessment.get("relevantTransmissionProjects") or []),
        "No transmission projects near the site.",
        **{"kV": st.column_config.NumberColumn(format="%.0f kV"), "Source link": LINK},
    )


def nearby_county_fips(assessment: dict[str, Any], counties: dict) -> tuple[list[str], list[str]]:
    """Return (the site's county, the counties its queue records and projects name) as FIPS."""
    from components.geography import counties_by_name

    county = assessment.get("county") or {}
    site = [county["fips"]] if county.get("fips") else []
    state = county.get("state")
    names = [
        r.get("county") for r in assessment.get("relevantQueueRecords") or [] if r.get("county")
    ]
    for project in assessment.get("relevantTransmissionProjects") or []:
        names.extend(project.get("counties") or [])
    nearby = [
        c.fips
        for c in counties_by_name(counties, names)
        if c.fips not in site and (state is None or c.state == state)
    ]
    return site, sorted(set(nearby))


def draw_map(assessment: dict[str, Any], site_point: tuple[float, float] | None) -> None:
    """Draw the site's pin, its county, and the counties its nearby records name."""
    from components import maps
    from components.geography import region_counties

    counties = region_counties()
    site, nearby = nearby_county_fips(assessment, counties)
    layers = [
        maps.county_layer(counties.values(), highlight=site, candidates=nearby, pickable=False)
    ]
    view = None
    if site_point is not None:
        layers.append(maps.pin_layer(*site_point))
        view = maps.view(site_point[0], site_point[1], 6.5)
    st.pydeck_chart(maps.deck(layers, view), height=420)
    st.caption(
        "Orange: the site's county. Blue: counties named by nearby queue records and projects."
    )
