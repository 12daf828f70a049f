"""An assessment, drawn in full: frames behind its tables and the sections of its page.

Everything takes the client's `Assessment`; the objects the interface leaves opaque
(readiness, confidence, county, candidates, jurisdictions) are plain dicts. Abstentions and limitations
are drawn in plain view (never folded away); confidences are labelled as heuristics and
parser confidence as uncalibrated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pandas as pd
import streamlit as st

from components import glossary, maps
from components.assessment_summary import ANCHORS
from components.geography import counties_by_name, counties_in_box, region_counties
from components.tables import (
    attribute,
    flags_text,
    record_source_title,
    records_frame,
    show_folded,
    show_static_table,
    show_table,
)
from components.territory_view import HEURISTIC_LABEL, candidates_frame, evidence_text
from components.text import escape_markdown
from components.transmission_view import actual_in_service_text
from gridclient import Assessment, Fact, QueueRecord, ServiceTerritoryCandidate, TransmissionProject

SEVERITY_COLOURS = {"low": "green", "medium": "orange", "high": "red"}
UNCALIBRATED = "uncalibrated"


def readiness_label(readiness: dict[str, Any] | None) -> str:
    level = (readiness or {}).get("level")
    return glossary.label("readiness", level) or "Not given"


def finding_lines(readiness: dict[str, Any] | None) -> list[dict[str, str]]:
    """Return each friction finding as plain text: heading (factor, severity), finding, cites."""
    lines = []
    for finding in (readiness or {}).get("findings") or []:
        severity = finding.get("severity")
        citations = [str(c) for c in finding.get("citations") or []]
        lines.append(
            {
                "factor": glossary.label("factor", finding.get("factor")) or "Unnamed factor",
                "severity": f"{glossary.label('severity', severity) or 'Unstated'} severity",
                "colour": SEVERITY_COLOURS.get(severity, "gray"),
                "finding": glossary.plain(finding.get("finding") or ""),
                "cites": ", ".join(citations) if citations else "no record cited",
            }
        )
    return lines


def citation_link(record_id: str, assessment: Assessment) -> str:
    """Return a cited id as a markdown link to its record: a queue record's own page, else the
    row of the assessment's table that shows that id."""
    text = escape_markdown(record_id)
    if any(r.id == record_id for r in assessment.relevant_queue_records or []):
        return f"[{text}](queue?record={quote(record_id, safe='')})"
    if any(p.id == record_id for p in assessment.relevant_transmission_projects or []):
        return f"[{text}](#{ANCHORS['transmission']})"
    if any(f.id == record_id for f in assessment.market_signals or []):
        return f"[{text}](#{ANCHORS['market']})"
    territories = assessment.service_territory_candidates or []
    if any(record_id in _candidate_ids(c) for c in territories):
        return f"[{text}](#{ANCHORS['candidates']})"
    return text


def _candidate_ids(candidate: dict[str, Any]) -> set[str]:
    evidence = candidate.get("evidence") if isinstance(candidate.get("evidence"), dict) else {}
    return {str(i) for i in (candidate.get("utilityId"), evidence.get("territoryId")) if i}


def draw_findings(assessment: Assessment) -> None:
    """Draw each finding in its own box, its full text wrapped and its cited ids as links."""
    readiness = assessment.readiness or {}
    cited = [[str(c) for c in f.get("citations") or []] for f in readiness.get("findings") or []]
    lines = finding_lines(readiness)
    if not lines:
        st.caption("No friction findings.")
    for line, ids in zip(lines, cited, strict=True):
        with st.container(border=True):
            # heading and finding in one element: the browser's cost grows with the count
            st.markdown(
                f"**{escape_markdown(line['factor'])}** · "
                f":{line['colour']}-badge[{escape_markdown(line['severity'])}]\n\n"
                + escape_markdown(line["finding"])
            )
            links = ", ".join(citation_link(i, assessment) for i in ids)
            st.caption(f"Cites: {links}" if ids else "Cites: no record cited")


def market_signals_frame(signals: list[Fact]) -> pd.DataFrame:
    """Return the market signals with value, validity, evidence quote/page and provenance."""
    return records_frame(
        signals,
        {
            "Market": "market",
            "Predicate": "predicate",
            "Period": "period",
            "Scenario": "scenario",
            "Value": "value",
            "Unit": "unit",
            "Valid from": lambda fact: glossary.when(fact.valid_from) or None,
            "Valid to": lambda fact: glossary.when(fact.valid_to) or None,
            "Evidence quote": "evidence.quote",
            "Page": "evidence.page",
            f"Parser confidence ({UNCALIBRATED})": "evidence.parser_confidence",
            "Calibrated": lambda fact: bool(
                attribute("evidence.parser_confidence_is_calibrated")(fact)
            ),
            "Source": record_source_title,
            "Source id": "source_id",
            "Locator": "evidence.source_locator",
            "Known from": lambda fact: glossary.when(fact.known_from) or None,
            "Quality flags": lambda fact: flags_text(fact.quality_flags),
        },
    )


def queue_records_frame(records: list[QueueRecord]) -> pd.DataFrame:
    """Return the relevant queue records joined with their expanded details and evidence."""
    return records_frame(
        records,
        {
            "Record": "id",
            "Project": "project_name",
            "County": "county",
            "State": "state",
            "Status now": lambda r: attribute("status_now.status")(r) or r.status,
            "Status in its source": "status",
            "Requested MW": "requested_capacity_mw",
            "Technology": "expanded_details.technology",
            "Queue date": "expanded_details.queue_date",
            "Proposed date": "proposed_date",
            "Point of interconnection": "point_of_interconnection",
            "Study phase": "expanded_details.study_phase_normalized",
            "Source": record_source_title,
            "Source link": lambda r: attribute("expanded_evidence.source_url")(r) or r.evidence_url,
            "File": "expanded_evidence.locator.file_name",
            "Worksheet": "expanded_evidence.locator.worksheet",
            "Row": "expanded_evidence.locator.row",
            "Redistribution": "expanded_evidence.redistribution_policy",
            "Source id": "source_id",
            "Locator": "source_locator",
            "Observed at": "observed_at",
            "Quality flags": lambda r: flags_text(r.quality_flags),
        },
    )


def transmission_frame(projects: list[TransmissionProject]) -> pd.DataFrame:
    """Return the relevant transmission projects with kV, dates and their evidence."""
    return records_frame(
        projects,
        {
            "Record": "id",
            "Project": "project_number",
            "Title": "title",
            "Status": "status",
            "kV": "service_level_kv",
            "Owner": "transmission_owner",
            "Counties": lambda p: ", ".join(p.counties or []),
            "Projected in service": "projected_in_service_date",
            "Actual in service": actual_in_service_text,
            "From": "from_location",
            "To": "to_location",
            "Source link": "evidence.source_url",
            "Authority": "evidence.authority",
            "Source": record_source_title,
            "Source id": "source_id",
            "Locator": "evidence.source_locator",
            "Observed at": lambda p: glossary.when(p.observed_at) or None,
            "Quality flags": lambda p: flags_text(p.quality_flags),
        },
    )


def _member(name: str) -> Callable[[dict[str, Any]], Any]:
    return lambda item: item.get(name)


def utility_frame(candidates: list[dict[str, Any]]) -> pd.DataFrame:
    """Return the utility candidates (opaque objects of the interface) as a table."""
    return records_frame(
        candidates,
        {
            "Utility": _member("utility"),
            "Utility id": _member("utilityId"),
            "Company type": lambda c: glossary.words(c.get("companyType") or ""),
            f"Confidence ({HEURISTIC_LABEL})": _member("confidence"),
            "Confidence basis": lambda c: glossary.words(c.get("confidenceBasis") or ""),
            "Basis": lambda c: evidence_text(c.get("basis")),
        },
    )


def tariff_frame(candidates: list[dict[str, Any]]) -> pd.DataFrame:
    """Return the tariff candidates (opaque objects of the interface) as a table."""
    return records_frame(
        candidates,
        {
            "Utility id": _member("utilityId"),
            "Tariff": _member("tariffId"),
            "Name": _member("name"),
            "Applicability": lambda c: evidence_text(c.get("applicability")),
            "Basis": lambda c: evidence_text(c.get("basis")),
        },
    )


def jurisdictions_frame(jurisdictions: list[dict[str, Any]]) -> pd.DataFrame:
    """Return the jurisdictions (opaque objects of the interface) as a table."""
    return records_frame(
        jurisdictions,
        {
            "Level": lambda j: glossary.words(j.get("level") or ""),
            "Name": _member("name"),
            "Id": _member("id"),
        },
    )


LINK = st.column_config.LinkColumn("Source link", display_text="open source")


def _table(frame: pd.DataFrame, empty: str, *, static: bool = False, **column_config: Any) -> None:
    """Draw the frame in the analyst's words, or say it is empty; `static` draws a short
    table whole (`tables.show_static_table`) instead of in a data grid."""
    if frame.empty:
        st.caption(empty)
        return
    shown = glossary.table(frame, column_config or None)
    if static:
        show_static_table(shown["data"])
        return
    show_table(**shown, hide_index=True, width="stretch")


def draw_readiness(assessment: Assessment) -> None:
    """Draw the findings, and every abstention and limitation in plain view."""
    readiness = assessment.readiness or {}
    st.subheader("Friction findings", anchor=ANCHORS["findings"])
    draw_findings(assessment)
    st.subheader("Abstentions")
    abstentions = readiness.get("abstentions") or []
    if not abstentions and not assessment.dataset_abstentions:
        st.caption("The assessment abstained on no factor.")
    for abstention in abstentions:
        factor = glossary.label("factor", abstention.get("factor")).lower()
        st.warning(
            escape_markdown(
                f"Abstained on {factor}: {glossary.plain(abstention.get('reason') or '')}"
            ),
            icon=":material/block:",
        )
    for missing in assessment.dataset_abstentions:
        # a dataset loaded for other markets only: said, never left to read as a zero
        st.info(escape_markdown(missing.statement or missing.title or ""), icon=":material/block:")
    st.subheader("Limitations")
    limitations = readiness.get("limitations") or []
    if not limitations:
        st.caption("No limitations listed.")
    else:
        # one box, a line each: each element drawn costs the browser, boxes or lines alike
        st.info(bullets(limitations), icon=":material/info:")


def bullets(lines: list[str]) -> str:
    """Return the service's lines as one markdown list, each line in words and as text."""
    return "\n".join(f"- {escape_markdown(glossary.plain(line))}" for line in lines)


def draw_actions(assessment: Assessment) -> None:
    left, right = st.columns(2)
    left.subheader("Risks", anchor="risks")
    left.markdown(bullets(assessment.risks or ["None listed."]))
    right.subheader("Next actions")
    right.markdown(bullets(assessment.next_actions or ["None listed."]))


def draw_place(assessment: Assessment) -> None:
    county = assessment.county
    st.subheader("County and jurisdictions")
    if county:
        st.text(
            f"{county.get('name')}, {county.get('state')} (FIPS {county.get('fips')}), "
            f"found by {glossary.plain(county.get('method') or 'an unstated method')} "
            "in US Census county boundaries",
            help=f"Source id: {county.get('source')}",
        )
    else:
        st.warning("The site is in no loaded county; county-based factors abstain.")
    _table(jurisdictions_frame(assessment.jurisdictions or []), "No jurisdictions.", static=True)


def draw_candidates(assessment: Assessment) -> None:
    st.subheader("Utility, territory and tariff candidates", anchor=ANCHORS["candidates"])
    st.caption(f"Confidences are a {HEURISTIC_LABEL}.")
    st.markdown("**Utility candidates**")
    utilities = utility_frame(assessment.utility_candidates or [])
    _table(utilities, "No utility candidates.", static=True)
    st.markdown("**Service territory candidates**")
    territories = candidates_frame(
        [
            ServiceTerritoryCandidate.model_validate(candidate)
            for candidate in assessment.service_territory_candidates or []
        ]
    )
    _table(territories, "No service territory found for this point.")
    st.markdown("**Tariff candidates**")
    tariffs = tariff_frame(assessment.tariff_candidates or [])
    _table(tariffs, "No tariff candidates.", static=True)


def _count_line(shown: int, noun: str, cited: int) -> str:
    return f"{shown} {noun} listed; {cited} of them cited by a finding (column Cited)."


def _cited_ids(assessment: Assessment) -> set[str]:
    findings = (assessment.readiness or {}).get("findings") or []
    return {str(c) for f in findings for c in f.get("citations") or []}


def draw_records(assessment: Assessment) -> None:
    """Draw market signals, queue records and transmission projects, each table folded in an
    expander under its heading (`draw_record_table`), with how many rows it has and how many
    a finding cites."""
    cited = _cited_ids(assessment)
    signals = sorted(assessment.market_signals or [], key=lambda f: glossary.season_key(f.period))
    records = assessment.relevant_queue_records or []
    projects = assessment.relevant_transmission_projects or []
    sections = [
        ("Market signals", "market", signals, market_signals_frame, "market signals",
         {"Value": st.column_config.NumberColumn(format="%,.0f")}),
        ("Relevant queue records", "queue", records, queue_records_frame, "queue records",
         {"Requested MW": st.column_config.NumberColumn(format="%,.1f MW"), "Source link": LINK}),
        ("Relevant transmission projects", "transmission", projects, transmission_frame,
         "transmission projects",
         {"kV": st.column_config.NumberColumn(format="%,.0f kV"), "Source link": LINK}),
    ]  # fmt: skip
    for title, anchor, items, frame_of, noun, config in sections:
        st.subheader(title, anchor=ANCHORS[anchor])
        if anchor == "market":
            st.caption(
                "Parser confidence is uncalibrated: no independent labels exist to calibrate it."
            )
        if not items:
            st.caption(f"No {noun} near the site.")
            continue
        in_findings = sum(1 for item in items if item.id in cited)
        st.caption(_count_line(len(items), noun, in_findings))
        draw_record_table(assessment.id, anchor, items, cited, frame_of, noun, config)


def record_table_key(assessment_id: str, anchor: str) -> str:
    """The session-state key holding whether a records expander of an assessment is open."""
    return f"assessment.{assessment_id}.{anchor}.open"


def draw_record_table(
    assessment_id: str,
    anchor: str,
    items: list[Any],
    cited: set[str],
    frame_of: Callable[[list[Any]], pd.DataFrame],
    noun: str,
    config: dict[str, Any],
) -> None:
    """Draw the records' table folded (`tables.show_folded`: built only while open), open at
    first when there are 10 or fewer."""

    def draw() -> None:
        frame = frame_of(items)
        frame.insert(1, "Cited", [item.id in cited for item in items])
        _table(frame, f"No {noun}.", **config)

    show_folded(
        f"Show the {len(items)} {noun}",
        record_table_key(assessment_id, anchor),
        draw,
        expanded=len(items) <= 10,
    )


# The site's map opens at this zoom on the site; the county outlines drawn reach this far
# from it (degrees of latitude, longitude): the whole first view on a 2,560-px-wide screen.
SITE_MAP_ZOOM = 6.5
SITE_MAP_REACH = (3.0, 8.0)


# The site's map waits folded under its heading, built only when opened; the label never
# changes (an expander's identity includes it).
SITE_MAP_LABEL = "Show the map of the site, its county and the counties its records name"
SITE_MAP_OPEN_KEY = "assessment.site_map.open"


def draw_site_map(assessment: Assessment, site_point: tuple[float, float] | None) -> None:
    """Draw the site's map (`draw_map`) folded at first (`tables.show_folded`: built and sent
    only while open): drawn at once, it was the largest single part of the assessment's new
    tab, for a map at the foot of the page. It is drawn last in its fold (`maps.LaterMaps`)."""

    def draw() -> None:
        with maps.LaterMaps() as later:
            draw_map(assessment, site_point, later)

    show_folded(SITE_MAP_LABEL, SITE_MAP_OPEN_KEY, draw)


def nearby_county_fips(assessment: Assessment, counties: dict) -> tuple[list[str], list[str]]:
    """Return (the site's county, the counties its queue records and projects name) as FIPS."""
    county = assessment.county or {}
    site = [county["fips"]] if county.get("fips") else []
    state = county.get("state")
    names = [r.county for r in assessment.relevant_queue_records or [] if r.county]
    for project in assessment.relevant_transmission_projects or []:
        names.extend(project.counties or [])
    nearby = [
        c.fips
        for c in counties_by_name(counties, names)
        if c.fips not in site and (state is None or c.state == state)
    ]
    return site, sorted(set(nearby))


def draw_map(
    assessment: Assessment, site_point: tuple[float, float] | None, later: maps.LaterMaps
) -> None:
    """Keep the place of the map of the site's pin, its county and the counties its nearby
    records name, drawn by `later`.

    Around a site, only the outlines of the counties within reach of its first view are
    drawn (`SITE_MAP_REACH`), with the shaded counties in a layer of their own: every county
    of the region, each a filled polygon, was the page's largest message and held its content
    back. The outlines are lines
    (`maps.outline_layer`), the shaded counties' too: the fills are drawn unstroked.
    """
    counties = region_counties()
    site, nearby = nearby_county_fips(assessment, counties)
    outlines = list(counties.values())
    view = None
    if site_point is not None:
        latitude, longitude = site_point
        reach_lat, reach_lng = SITE_MAP_REACH
        outlines = counties_in_box(
            counties,
            latitude - reach_lat,
            longitude - reach_lng,
            latitude + reach_lat,
            longitude + reach_lng,
        )
        view = maps.view(latitude, longitude, SITE_MAP_ZOOM)
    shaded = [counties[fips] for fips in [*site, *nearby]]
    outlined = {county.fips: county for county in [*outlines, *shaded]}
    layers = [
        maps.county_layer(
            shaded,
            highlight=site,
            candidates=nearby,
            pickable=False,
            stroked=False,
            layer_id="shaded-counties",
        ),
        maps.outline_layer(outlined.values()),
    ]
    if site_point is not None:
        layers.append(maps.pin_layer(*site_point))
    later.add(maps.deck(layers, view), height=420)
    st.caption(
        "Orange: the site's county. Blue: counties named by nearby queue records and projects."
    )
