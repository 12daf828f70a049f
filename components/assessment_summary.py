"""The assessment's summary band: readiness, heuristic confidence and the numbers that matter.

Each number is one the service gives (the assessment's `keyFigures` and `queueHistory`) or a
count of what the assessment lists, and links to the section whose table it counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from components import glossary
from components.text import escape_markdown
from gridclient import (
    Abstention,
    Assessment,
    AssessmentSummary,
    KeyFigures,
    NearestPlant,
    QueueRecord,
    ReserveMargin,
    Site,
)

# Anchors of the assessment's sections, which the band's numbers link to
ANCHORS = {
    "findings": "friction-findings",
    "candidates": "utility-territory-and-tariff-candidates",
    "market": "market-signals",
    "queue": "relevant-queue-records",
    "transmission": "relevant-transmission-projects",
    "map": "map",
    "surroundings": "grid-around-the-site",
}


@dataclass(frozen=True)
class Headline:
    """One number of the band: what it is, its value, a line of context, the section it counts."""

    label: str
    value: str
    detail: str
    section: str


def active_queue(records: Iterable[QueueRecord]) -> tuple[list[QueueRecord], float, float]:
    """Return (active records, their requested MW, MW of those with an interconnection
    agreement date: the firmest part of the queue)."""
    active = [r for r in records if str(r.status or "").lower() == "active"]
    total = sum(
        r.requested_capacity_mw or 0.0 for r in active if (r.requested_capacity_mw or 0) > 0
    )
    firm = sum(
        r.requested_capacity_mw or 0.0
        for r in active
        if r.expanded_details and r.expanded_details.interconnection_agreement_date
    )
    return active, total, firm


def county_queue(assessment: Assessment) -> Headline | None:
    """Return the county's whole active queue in the report the assessment read (its
    `queueHistory`, the figures the portfolio lists), or None when the assessment has none
    (a deployment without harvested queue reports): the band then counts the listed records."""
    queue = AssessmentSummary.from_assessment(assessment).queue
    if queue is None or queue.active_mw is None:
        return None
    share = f"{queue.firm_share:.0%}" if queue.firm_share is not None else "none"
    projects = queue.active_projects or 0
    return Headline(
        "Active queue in the site's county",
        glossary.mw(queue.active_mw) or "0 MW",
        f"{projects:,} active project{'s' if projects != 1 else ''} in the "
        f"{queue.report_month or 'newest'} queue report; {glossary.mw(queue.firm_mw) or '0 MW'}"
        f" ({share}) with an interconnection agreement signed or security posted",
        "surroundings",
    )


def dataset_abstention(assessment: Assessment, dataset: str) -> Abstention | None:
    """Return the service's word that `dataset` covers none of the site's markets, or None."""
    return next((a for a in assessment.dataset_abstentions if a.dataset == dataset), None)


def source_date(as_of: str | None, dated: bool | None) -> str:
    """Return "; as of DATE" (saying when it is over a year older than the newest), or ""."""
    if not as_of:
        return ""
    return f"; as of {as_of}" + (", over a year older than the newest data" if dated else "")


def margin_headline(margin: ReserveMargin | None, missing: Abstention | None = None) -> Headline:
    """Return the service's tightest reserve margin in MW and as a share of peak, its caption
    naming the facts it was read from (firm or total capacity, whichever the market gives)
    and their date; with none, the markets the reserve margins are loaded for (`missing`)."""
    label = "Reserve margin, tightest season"
    if (margin is None or margin.margin_mw is None) and missing is not None:
        # "Not in the data" read as a market with no margin, not one whose figures are not loaded
        return Headline(
            label,
            "Not loaded",
            # the value stays short: "Not loaded for PJM" was cut to "Not loaded for…" at 1280
            f"Loaded for {', '.join(missing.covers_markets) or 'no market'} only, not for "
            f"{', '.join(missing.missing_for_markets) or 'this market'}",
            "market",
        )
    if margin is None or margin.margin_mw is None:
        return Headline(
            label,
            "Not in the data",
            "The market signals give no capacity and peak for the same season",
            "market",
        )
    # The share of peak leads the caption: beside the MW in the figure it was cut at 1280 px
    # ("2,801 MW (2.5…"), a third of the band being narrower than the two together.
    share = f"{margin.share_of_peak:.1%} of peak. " if margin.share_of_peak is not None else ""
    where = f"{glossary.label('market', margin.market)} {glossary.season_text(margin.period)}"
    supply = glossary.label("predicate", margin.supply_predicate) or "Capacity"
    peak = glossary.label("predicate", margin.peak_predicate).lower() or "forecast peak"
    return Headline(
        label,
        glossary.mw(margin.margin_mw),
        f"{share}{where}: {supply} less {peak}, the season furthest short of the reserve need"
        + source_date(margin.as_of, margin.dated),
        "market",
    )


def plant_headline(plant: NearestPlant | None) -> Headline:
    """Return the nearest plant the service found for the site (within 300 km)."""
    label = "Nearest power plant"
    if plant is None or plant.distance_km is None:
        return Headline(label, "None in the data", "No plant lies within 300 km", "map")
    capacity = f", {glossary.mw(plant.capacity_mw)}" if plant.capacity_mw is not None else ""
    return Headline(
        label, f"{plant.distance_km:,.0f} km", f"{plant.plant_name or 'Unnamed'}{capacity}", "map"
    )


def abstention_reason(assessment: Assessment, factor: str) -> str | None:
    """Return why the assessment abstained on `factor`, or None when it did not."""
    for abstention in (assessment.readiness or {}).get("abstentions") or []:
        if abstention.get("factor") == factor:
            return str(abstention.get("reason") or "No reason given.")
    return None


def transmission_headline(assessment: Assessment) -> Headline:
    """The projects listed and how many are cancelled; with none, the service's reason for
    abstaining in place of a bare 0 (a store may hold no project list at all)."""
    projects = assessment.relevant_transmission_projects or []
    label = "Transmission projects listed"
    if projects:
        cancelled = sum(1 for p in projects if "cancel" in str(p.status or "").lower())
        return Headline(label, f"{len(projects)}", f"{cancelled} cancelled", "transmission")
    reason = abstention_reason(assessment, "transmission")
    return Headline(
        label, "None listed", reason or "No project lists the site's county.", "transmission"
    )


# The band names this many candidate utilities (the polygons' first, as the service orders
# them); the territory section lists every one.
NAMED_UTILITIES = 4


def territory_headline(territories: list[dict]) -> Headline:
    """Return the utilities whose territory may hold the site, each once with the methods
    that found it: a utility found by its polygon and by its county listing is one utility
    (counted twice, a site in Loudoun read "3" for two utilities)."""
    found: dict[str, tuple[str, list[str]]] = {}
    for candidate in territories:
        key = str(candidate.get("utilityId") or candidate.get("utility") or "")
        if not key:
            continue
        name, methods = found.setdefault(key, (str(candidate.get("utility") or key), []))
        method = glossary.in_sentence(glossary.words(candidate.get("resolutionMethod") or ""))
        if method and method not in methods:
            methods.append(method)
    label = "Candidate utilities"
    if not found:
        return Headline(label, "0", "No service territory found for the site", "candidates")
    named = [
        f"{name} ({' and '.join(methods)})" if methods else name for name, methods in found.values()
    ]
    if len(named) > NAMED_UTILITIES:
        # fourteen names at Phoenix made the band a column of text; the section lists them all
        more = len(named) - NAMED_UTILITIES
        named = [*named[:NAMED_UTILITIES], f"and {more} more in the section"]
    return Headline(label, f"{len(found)}", "; ".join(named), "candidates")


def headlines(assessment: Assessment) -> list[Headline]:
    """Return the band's numbers, in the order an analyst reads them."""
    active, active_mw, firm_mw = active_queue(assessment.relevant_queue_records or [])
    share = f"{firm_mw / active_mw:.0%}" if active_mw else "none"
    firm_text = f"{glossary.mw(firm_mw) or '0 MW'} ({share}) with an interconnection agreement"
    if not firm_mw and dataset_abstention(assessment, "queue_history"):
        # the ISO's records state no agreement: 0 MW would read as a queue without one
        firm_text = "firmness not stated (it comes from ERCOT's monthly reports only)"
    figures = assessment.key_figures or KeyFigures()
    return [
        territory_headline(assessment.service_territory_candidates or []),
        county_queue(assessment)
        or Headline(
            "Active queue near the site",
            glossary.mw(active_mw),
            f"{len(active)} active of the {len(assessment.relevant_queue_records or [])} "
            f"relevant requests listed; {firm_text}",
            "queue",
        ),
        margin_headline(
            figures.tightest_reserve_margin, dataset_abstention(assessment, "reserve_margins")
        ),
        transmission_headline(assessment),
        plant_headline(figures.nearest_plant),
    ]


def site_title(assessment: Assessment, site: Site | None) -> str:
    """Return what an analyst calls the assessed site: its customer reference, else its
    county and state, else its id (the service gives a site no other name)."""
    if site is not None and site.customer_reference:
        return site.customer_reference
    county = assessment.county or {}
    if county.get("name"):
        return f"a site in {county['name']}, {county.get('state') or ''}".rstrip(", ")
    return assessment.site_id or "an unknown site"


def site_facts(assessment: Assessment, site: Site | None) -> dict[str, str]:
    """Return the site's inputs an analyst checks first, in words: name, coordinates,
    county, market, requested peak load and service voltage ("" where not given)."""
    location = site.location if site is not None else None
    county = assessment.county or {}
    markets = [
        str(j.get("name") or j.get("id"))
        for j in assessment.jurisdictions or []
        if j.get("level") == "iso_rto"
    ]
    voltage = site.service_voltage_kv if site is not None else None
    peak = site.requested_peak_load_mw if site is not None else None
    return {
        "Site": site_title(assessment, site),
        "Coordinates": (
            f"{location.latitude:.5f}, {location.longitude:.5f}"
            if location is not None and location.latitude is not None
            else ""
        ),
        "County": ", ".join(str(county[k]) for k in ("name", "state") if county.get(k)),
        # the service's market of the point ("no ISO: West" outside every ISO), else the
        # markets it screened the site in
        "Market": (assessment.market.label if assessment.market else None) or ", ".join(markets),
        "Requested peak load": f"{peak:,g} MW" if peak is not None else "",
        "Service voltage": f"{voltage:,g} kV" if voltage is not None else "",
    }


FIGURES_PER_ROW = 3


def draw_band(
    assessment: Assessment, numbers: list[Headline], readiness: str, site: Site | None = None
) -> None:
    """Draw the site's name and inputs, readiness and heuristic confidence, then each number
    linking to its section."""
    confidence: dict[str, Any] = assessment.confidence or {}
    with st.container(border=True):
        facts = site_facts(assessment, site)
        st.markdown(
            " · ".join(
                f"**{escape_markdown(value)}**" if name == "Site" else escape_markdown(value)
                for name, value in facts.items()
                if value
            )
        )
        # Readiness and confidence are words ("Moderate friction"): drawn as headings, which
        # wrap, where a metric would cut them to "Modera…" in a narrow column.
        columns = st.columns([1, 1, 2])
        columns[0].markdown("Readiness")
        columns[0].subheader(readiness, anchor=False)
        columns[0].markdown(f"[Findings](#{ANCHORS['findings']})")
        columns[1].markdown(
            "Evidence confidence",
            help="A heuristic of how complete the evidence is, not a measured accuracy; "
            "not the friction level.",
        )
        # "heuristic confidence: high" so it is not read as the friction level beside it
        label = confidence.get("label")
        columns[1].subheader(
            f"Heuristic confidence: {label}" if label else "Not given", anchor=False
        )
        score = confidence.get("score")
        columns[1].caption(
            f"Score {escape_markdown(score)}: a heuristic, not accuracy"
            if score is not None
            else ""
        )
        columns[2].markdown("**Summary**")
        columns[2].text(
            glossary.plain((assessment.readiness or {}).get("summary") or "No summary given.")
        )
        # Three figures a row: five in one row cut their values ("3,973…") at 1280 px.
        for start in range(0, len(numbers), FIGURES_PER_ROW):
            row = numbers[start : start + FIGURES_PER_ROW]
            for column, number in zip(st.columns(FIGURES_PER_ROW), row, strict=False):
                column.metric(number.label, number.value)
                column.caption(escape_markdown(number.detail))
                column.markdown(f"[See the section](#{ANCHORS[number.section]})")
