"""The portfolio: the tenant's sites with their latest assessment's key figures, filtered, charted
and compared factor by factor (with the comparison as CSV and .xlsx bytes).

The table reads each site's latest assessment summary, as the one listing request returns it
(`include_latest_assessment_summary`); a site never screened, or screened before a figure
existed, shows an empty cell. The side-by-side comparison also reads the compared sites'
whole assessments (their findings and the records they cite).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from components import glossary, spreadsheets
from components.charts import altair_module
from components.site_names import SITE_HELP, SITE_PX_MAX, site_column, site_name
from components.tables import attribute, records_frame
from gridclient import (
    Assessment,
    AssessmentSummary,
    Site,
    SummaryMargin,
    SummaryPlant,
    SummaryQueue,
)

if TYPE_CHECKING:
    import altair as alt

MAX_COMPARED = 5
CHARTED_SITES = 25
MIN_COMPARED = 2
READINESS_WORDS = {
    "low_friction": "Low friction",
    "moderate_friction": "Moderate friction",
    "high_friction": "High friction",
    "insufficient_data": "Not enough data",
}
FACTOR_WORDS = {
    "service_territory": "Who serves the site",
    "queue_congestion": "Interconnection queue nearby",
    "transmission": "Transmission projects nearby",
    "market_adequacy": "Market supply margin",
    "load_scale": "Size of the load",
    "timeline": "Time to connect",
}


def _summary(site: Site) -> AssessmentSummary | None:
    return site.latest_assessment_summary


def _queue(site: Site) -> SummaryQueue:
    return (_summary(site) and _summary(site).queue) or SummaryQueue()


def _margin(site: Site) -> SummaryMargin:
    return (_summary(site) and _summary(site).tightest_reserve_margin) or SummaryMargin()


def _plant(site: Site) -> SummaryPlant:
    return (_summary(site) and _summary(site).nearest_plant) or SummaryPlant()


def readiness_words(site: Site) -> str | None:
    level = _summary(site).readiness if _summary(site) else None
    return READINESS_WORDS.get(level, level)


def changed_since_assessment(site: Site) -> bool:
    """Return whether the store holds data newer than the site's latest assessment."""
    return bool((site.newer_data_since_assessment or {}).get("changed"))


def changes_key(site_id: str) -> str:
    """Return the key of a site's "changed since assessment" expander (open: True)."""
    return f"portfolio.changes.{site_id}"


def newer_data_words(site: Site) -> str | None:
    """Return what is newer than the site's latest assessment, in words (None: not screened)."""
    if _summary(site) is None:
        return None
    newer = site.newer_data_since_assessment or {}
    parts = []
    if newer.get("newerQueueReport"):
        parts.append(f"queue report {newer['newerQueueReport']}")
    if newer.get("factsKnownSince"):
        parts.append(f"{newer['factsKnownSince']} market facts")
    return ", ".join(parts) or "nothing newer"


def assessment_link(site: Site) -> str | None:
    summary = _summary(site)
    return f"assessment?assessment={summary.assessment_id}" if summary else None


# The columns a screening decision reads come first, the site's name pinned beside them; the
# ids and bookkeeping follow.
PORTFOLIO_COLUMNS = {
    "Site": site_name,
    "Readiness": readiness_words,
    "Changed since assessment": lambda s: changed_since_assessment(s) if _summary(s) else None,
    "Queued MW in the county": lambda s: _queue(s).active_mw,
    "Share of queued MW that is firm": lambda s: _queue(s).firm_share,
    "Tightest reserve margin (MW)": lambda s: _margin(s).margin_mw,
    "Tightest reserve margin (share of peak)": lambda s: _margin(s).share_of_peak,
    "Tightest margin year": lambda s: _margin(s).period,
    "Possible serving utilities": lambda s: (
        _summary(s).territory_candidates if _summary(s) else None
    ),
    "Nearest plant (km)": lambda s: _plant(s).distance_km,
    "Peak load (MW)": "requested_peak_load_mw",
    "Open": assessment_link,
    "Newer since screening": newer_data_words,
    "Nearest power plant": lambda s: _plant(s).plant_name,
    # to the minute with its zone, which also sorts in time order as text
    "Last screened": lambda s: (
        glossary.when(attribute("latest_assessment_summary.created_at")(s)) or None
    ),
    "Site id": "id",
    "Archived": lambda s: s.archived_at is not None,
}
# What a screening decision reads, shown whole at 1280 px; the rest is a choice away
KEY_PORTFOLIO_COLUMNS = (
    "Site",
    "Readiness",
    "Peak load (MW)",
    "Queued MW in the county",
    "Changed since assessment",
    "Open",
)

# Short headers (the frame keeps the long names; each header's tooltip says the rest), so the
# decision columns fit beside the sidebar at 1280 px.
PORTFOLIO_COLUMN_CONFIG = {
    "Site": st.column_config.TextColumn(width=SITE_PX_MAX, pinned=True, help=SITE_HELP),
    "Changed since assessment": st.column_config.CheckboxColumn(
        "Changed",
        width="small",
        help="Changed since assessment: the store holds a newer queue report or market facts "
        "than the site's latest screening. See below for what changed.",
    ),
    "Queued MW in the county": st.column_config.NumberColumn(
        "Queued MW (county)",
        format="%,.0f MW",
        help="Active interconnection requests in the site's county in the newest harvested "
        "queue report the assessment read. Requests, not built capacity.",
    ),
    "Share of queued MW that is firm": st.column_config.ProgressColumn(
        "Firm share",
        format="percent",
        min_value=0.0,
        max_value=1.0,
        width="small",
        help="Share of queued MW that is firm: its project has signed an interconnection "
        "agreement or posted financial security.",
    ),
    "Tightest reserve margin (MW)": st.column_config.NumberColumn(
        "Tightest margin",
        format="%,.0f MW",
        help="Tightest reserve margin: capacity (firm or total, as the market's data gives "
        "it) less forecast peak, in the forecast year furthest short of the reserve need.",
    ),
    "Tightest reserve margin (share of peak)": st.column_config.NumberColumn(
        "Margin", format="percent", width="small", help="The tightest margin over that peak."
    ),
    "Tightest margin year": st.column_config.TextColumn("Year", width="small"),
    "Possible serving utilities": st.column_config.NumberColumn(
        "Utilities", width="small", help="Possible serving utilities (territory candidates)."
    ),
    "Nearest plant (km)": st.column_config.NumberColumn(
        "Nearest plant", format="%,.1f km", help="Distance to the nearest power plant."
    ),
    "Peak load (MW)": st.column_config.NumberColumn("Peak load", format="%,.0f MW"),
    "Open": st.column_config.LinkColumn("Evidence", display_text="open assessment"),
}


def portfolio_column_config(frame: pd.DataFrame) -> dict[str, Any]:
    """Return the table's column configs, the Site column fitted to the names shown."""
    return {**PORTFOLIO_COLUMN_CONFIG, "Site": site_column(frame["Site"].dropna())}


def portfolio_frame(sites: Iterable[Site]) -> pd.DataFrame:
    """Return one row per site with its latest assessment's key figures."""
    return records_frame(sites, PORTFOLIO_COLUMNS)


@dataclass(frozen=True)
class PortfolioFilter:
    """What the analyst narrowed the table to (every member kept in the URL)."""

    text: str = ""
    readiness: tuple[str, ...] = ()
    min_peak_mw: float | None = None


def filtered(frame: pd.DataFrame, wanted: PortfolioFilter) -> pd.DataFrame:
    """Return the rows that match the filter (text matches the site's name or id)."""
    keep = pd.Series(True, index=frame.index)
    if wanted.text:
        needle = wanted.text.casefold()
        keep &= frame["Site"].str.casefold().str.contains(needle, regex=False) | frame[
            "Site id"
        ].str.casefold().str.contains(needle, regex=False)
    if wanted.readiness:
        keep &= frame["Readiness"].isin(wanted.readiness)
    if wanted.min_peak_mw is not None:
        keep &= frame["Peak load (MW)"] >= wanted.min_peak_mw
    return frame[keep]


def chart_title(frame: pd.DataFrame) -> str:
    """Return the chart's title, saying which sites it leaves out when there are many."""
    charted = int(frame["Queued MW in the county"].notna().sum())
    if charted > CHARTED_SITES:
        return (
            f"Queued MW in each site's county: the {CHARTED_SITES} sites with the most, of "
            f"{charted} (filter the table to chart others)"
        )
    return "Queued MW in each site's county"


def comparison_chart(frame: pd.DataFrame) -> alt.Chart:
    """Return bars of queued MW in each site's county, coloured by readiness (at most
    `CHARTED_SITES` bars: those with the most queued MW; a bar per site of 200 is unreadable)."""
    alt = altair_module()  # imported at the first chart (components.charts)
    queued = pd.to_numeric(frame["Queued MW in the county"], errors="coerce")  # all empty: object
    shown = frame.assign(**{"Queued MW in the county": queued}).dropna(
        subset=["Queued MW in the county"]
    )
    shown = shown.nlargest(CHARTED_SITES, "Queued MW in the county")
    return (
        alt.Chart(shown, title=chart_title(frame))
        .mark_bar()
        .encode(
            y=alt.Y("Site:N", sort="-x", title=None),
            x=alt.X("Queued MW in the county:Q", title="MW"),
            color=alt.Color("Readiness:N", title="Readiness"),
            tooltip=[
                "Site",
                "Readiness",
                alt.Tooltip("Queued MW in the county:Q", format=",.0f"),
                alt.Tooltip("Share of queued MW that is firm:Q", format=".0%"),
                alt.Tooltip("Tightest reserve margin (MW):Q", format=",.0f"),
            ],
        )
    )


def selection_problem(chosen: list[str]) -> str | None:
    """Return why a comparison cannot be drawn for this many sites, or None."""
    if len(chosen) > MAX_COMPARED:
        return (
            f"{len(chosen)} sites are selected; compare at most {MAX_COMPARED} at a time. "
            "Remove some from the selection."
        )
    if len(chosen) < MIN_COMPARED:
        return f"Select {MIN_COMPARED} to {MAX_COMPARED} sites to compare them side by side."
    return None


def _factor_cell(assessment: Assessment | None, factor: str) -> str:
    readiness = (assessment.readiness or {}) if assessment else {}
    for finding in readiness.get("findings") or []:
        if finding.get("factor") == factor:
            cited = ", ".join(finding.get("citations") or [])
            text = f"{str(finding.get('severity')).capitalize()} — {finding.get('finding')}"
            return text + (f" (evidence: {cited})" if cited else "")
    for abstention in readiness.get("abstentions") or []:
        if abstention.get("factor") == factor:
            return f"Not judged — {abstention.get('reason')}"
    return "Not screened" if assessment is None else "Not in this assessment"


COMPARED_FIGURES = {
    "Peak load (MW)": "{:,.0f} MW",
    "Readiness": "{}",
    "Possible serving utilities": "{:.0f}",
    "Queued MW in the county": "{:,.0f} MW",
    "Share of queued MW that is firm": "{:.0%}",
    "Tightest reserve margin (MW)": "{:,.0f} MW",
    "Tightest reserve margin (share of peak)": "{:.1%}",
    "Tightest margin year": "{}",
    "Nearest power plant": "{}",
    "Nearest plant (km)": "{:.1f} km",
    "Last screened": "{}",
}


def _shown(value: Any, pattern: str) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "not known"
    return pattern.format(value)


def comparison_frame(sites: list[Site], assessments: dict[str, Assessment | None]) -> pd.DataFrame:
    """Return the side-by-side comparison: one row per figure or factor, one column per site.

    `assessments` holds each site's latest whole assessment by site id (None: not screened).
    """
    summary = portfolio_frame(sites).set_index("Site id")
    rows: dict[str, list[Any]] = {}
    for column, shown in COMPARED_FIGURES.items():
        rows[column] = [_shown(summary.at[s.id, column], shown) for s in sites]
    for factor, words in FACTOR_WORDS.items():
        rows[words] = [_factor_cell(assessments.get(s.id), factor) for s in sites]
    rows["Evidence"] = [summary.at[s.id, "Open"] for s in sites]
    columns = [f"{site_name(s)} ({s.id})" for s in sites]
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=columns)
    frame.index.name = "Figure or factor"
    return frame.reset_index()


def cited_records(assessment: Assessment | None) -> str:
    """Return the ids of the records an assessment's findings cite, comma-separated."""
    readiness = (assessment.readiness or {}) if assessment else {}
    cited = {c for f in readiness.get("findings") or [] for c in f.get("citations") or []}
    return ", ".join(sorted(cited))


EVIDENCE_COLUMN_CONFIG = {
    "Evidence": st.column_config.LinkColumn("Evidence", display_text="open assessment"),
}


def evidence_frame(sites: list[Site], assessments: dict[str, Assessment | None]) -> pd.DataFrame:
    """Return, per compared site, the link to its assessment and the records its findings cite."""
    return pd.DataFrame(
        {
            "Site": [site_name(s) for s in sites],
            "Evidence": [assessment_link(s) for s in sites],
            "Cited records": [cited_records(assessments.get(s.id)) for s in sites],
        }
    )


def comparison_csv(frame: pd.DataFrame) -> bytes:
    """Return the comparison as UTF-8 CSV bytes, every cell as text or a number."""
    return spreadsheets.csv_bytes(frame)


# The compared sites' figures as numbers, the unit in each header, so a column sums
FIGURE_HEADERS = {
    "Site": "Site",
    "Site id": "Site id",
    "Readiness": "Readiness",
    "Peak load (MW)": "Peak load (MW)",
    "Queued MW in the county": "Queued in the county (MW)",
    "Share of queued MW that is firm": "Firm share of queued MW (0 to 1)",
    "Tightest reserve margin (MW)": "Tightest reserve margin (MW)",
    "Tightest reserve margin (share of peak)": "Tightest reserve margin (share of peak, 0 to 1)",
    "Tightest margin year": "Tightest margin year",
    "Possible serving utilities": "Possible serving utilities (count)",
    "Nearest power plant": "Nearest power plant",
    "Nearest plant (km)": "Nearest plant (km)",
}


def _screened_utc(site: Site) -> dt.datetime | None:
    created = attribute("latest_assessment_summary.created_at")(site)
    if not isinstance(created, dt.datetime):
        return None
    # a workbook holds no time zone: the header says UTC
    return created.astimezone(dt.UTC).replace(tzinfo=None) if created.tzinfo else created


def figures_frame(sites: list[Site]) -> pd.DataFrame:
    """Return one row per site with its figures as numbers (empty where not known), the unit
    in each header, and when it was last screened as a date-time in UTC."""
    frame = portfolio_frame(sites)[list(FIGURE_HEADERS)].rename(columns=FIGURE_HEADERS)
    frame = frame.astype(object).where(frame.notna(), None)
    frame["Last screened (UTC)"] = [_screened_utc(s) for s in sites]
    return frame


def comparison_xlsx(frame: pd.DataFrame, sites: list[Site]) -> bytes:
    """Return the comparison as an .xlsx workbook: the sites' figures as numbers (one row per
    site), then the side-by-side comparison as the page shows it."""
    return spreadsheets.workbook_bytes({"Figures": figures_frame(sites), "Comparison": frame})
