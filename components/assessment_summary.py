"""The assessment's summary band: readiness, heuristic confidence and the numbers that matter.

Each number is computed from what the assessment itself lists (and, for the nearest plants,
from the plants the service publishes), and links to the section whose table it counts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from components import glossary
from components.text import escape_markdown
from gridclient import Assessment, AssessmentSummary, Fact, GenerationPlant, QueueRecord

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
CAPACITY_PREDICATES = ("summer_firm_capacity", "total_capacity_mw")
DEMAND_PREDICATES = ("summer_peak_demand_forecast", "firm_peak_load_mw")
BASE_SCENARIOS = ("base", "peak_load_hour", None, "")
NEAR_KM = 50.0


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


def tightest_reserve_margin(signals: Iterable[Fact]) -> tuple[float, str] | None:
    """Return the smallest (capacity / peak demand - 1) over the seasons both are given for,
    with its market and season; None when no season has both."""
    capacity: dict[tuple[str, str], float] = {}
    demand: dict[tuple[str, str], float] = {}
    for fact in signals:
        if fact.scenario not in BASE_SCENARIOS or fact.value is None:
            continue
        key = (str(fact.market or ""), str(fact.period or ""))
        if fact.predicate in CAPACITY_PREDICATES:
            capacity[key] = float(fact.value)
        elif fact.predicate in DEMAND_PREDICATES:
            demand[key] = float(fact.value)
    margins = [
        (capacity[key] / demand[key] - 1, key)
        for key in sorted(capacity.keys() & demand.keys(), key=lambda k: glossary.season_key(k[1]))
        if demand[key] > 0
    ]
    if not margins:
        return None
    margin, (market, period) = min(margins, key=lambda item: item[0])
    return margin, f"{glossary.label('market', market)} {glossary.season_text(period)}"


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Return the great-circle distance between two (latitude, longitude) points in km."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 6371.0 * math.asin(math.sqrt(h))


# a great-circle distance is never shorter than its north-south part: 111.19 km a degree
KM_PER_DEGREE_OF_LATITUDE = 6371.0 * math.pi / 180


def plants_by_distance(
    plants: Iterable[GenerationPlant], point: tuple[float, float], reach_km: float | None = None
) -> list[tuple[GenerationPlant, float]]:
    """Return the located plants with their distance from the point in km, nearest first;
    with `reach_km`, only those within it.

    A plant farther than the reach in latitude alone is passed over without its distance:
    at scale 100 the band measured all 40,000 plants twice, most of the page's run (0.4 s).
    """
    latitude = point[0]
    span = math.inf if reach_km is None else reach_km / KM_PER_DEGREE_OF_LATITUDE + 1e-9
    placed = []
    for plant in plants:
        if plant.latitude is None or plant.longitude is None:
            continue
        if abs(plant.latitude - latitude) > span:
            continue
        km = distance_km(point, (plant.latitude, plant.longitude))
        if reach_km is None or km <= reach_km:
            placed.append((plant, km))
    return sorted(placed, key=lambda item: item[1])


def nearest_plants(
    plants: Iterable[GenerationPlant], point: tuple[float, float], count: int = 3
) -> list[tuple[GenerationPlant, float]]:
    """Return the `count` plants nearest the point, each with its distance in km."""
    return plants_by_distance(plants, point)[:count]


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


def headlines(
    assessment: Assessment,
    plants: Iterable[GenerationPlant] | None,
    point: tuple[float, float] | None,
) -> list[Headline]:
    """Return the band's numbers, in the order an analyst reads them."""
    territories = assessment.service_territory_candidates or []
    utilities = [str(c.get("utility") or "") for c in territories if c.get("utility")]
    active, active_mw, firm_mw = active_queue(assessment.relevant_queue_records or [])
    share = f"{firm_mw / active_mw:.0%}" if active_mw else "none"
    margin = tightest_reserve_margin(assessment.market_signals or [])
    found = [
        Headline(
            "Territory candidates",
            f"{len(territories)}",
            "; ".join(utilities) if utilities else "No service territory found for the site",
            "candidates",
        ),
        county_queue(assessment)
        or Headline(
            "Active queue near the site",
            glossary.mw(active_mw),
            f"{len(active)} active of the {len(assessment.relevant_queue_records or [])} "
            f"relevant requests listed; {glossary.mw(firm_mw) or '0 MW'} ({share}) with an "
            "interconnection agreement",
            "queue",
        ),
        Headline(
            "Reserve margin, tightest season",
            f"{margin[0]:.1%}" if margin else "Not in the data",
            f"{margin[1]}: firm capacity over peak demand forecast"
            if margin
            else "The market signals give no capacity and demand for the same season",
            "market",
        ),
        transmission_headline(assessment),
    ]
    if point is not None and plants is not None:
        plants = list(plants)
        around = plants_by_distance(plants, point, NEAR_KM)
        # the nearest is among those within reach, when any is
        near = around[:1] or nearest_plants(plants, point, 1)
        within = len(around)
        found.append(
            Headline(
                "Nearest power plant",
                f"{near[0][1]:,.0f} km" if near else "None in the data",
                (f"{near[0][0].plant_name}; {within} plants within {NEAR_KM:.0f} km")
                if near
                else "The service lists no plant with a location",
                "map",
            )
        )
    return found


FIGURES_PER_ROW = 3


def draw_band(assessment: Assessment, numbers: list[Headline], readiness: str) -> None:
    """Draw readiness and heuristic confidence, then each number linking to its section."""
    confidence: dict[str, Any] = assessment.confidence or {}
    with st.container(border=True):
        # Readiness and confidence are words ("Moderate friction"): drawn as headings, which
        # wrap, where a metric would cut them to "Modera…" in a narrow column.
        columns = st.columns([1, 1, 2])
        columns[0].markdown("Readiness")
        columns[0].subheader(readiness, anchor=False)
        columns[0].markdown(f"[Findings](#{ANCHORS['findings']})")
        columns[1].markdown(
            "Confidence (heuristic)",
            help="A heuristic of how complete the evidence is, not a measured accuracy.",
        )
        columns[1].subheader(str(confidence.get("label") or "Not given"), anchor=False)
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
