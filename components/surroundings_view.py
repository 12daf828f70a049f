"""The grid around a site: counties in a radius, their queue, plants, points, changes, dropout.

Drawn from the `/v1/sites/{siteId}/surroundings` extension (`data.site_surroundings`). Queue
figures are placed by county (the operator publishes no coordinates for queued projects);
plants by their own coordinates; each table says which. The change tables are drawn by
`components.surroundings_changes`.
"""

from __future__ import annotations

import functools
from typing import Any

import pandas as pd
import streamlit as st

from components import data, glossary, maps
from components.connection import ConnectionKey
from components.problems import show_problem
from components.surroundings_changes import MONTH_KEYS, MONTHS_PICKED_KEY, cell_text, draw_changes
from components.surroundings_coverage import (
    county_label,
    draw_coverage,
    draw_records,
    figures_source,
)
from components.surroundings_map import DEFAULT_RADIUS_KM, plants, surroundings_deck
from components.tables import records_frame, show_folded, show_tabbed, show_table
from components.text import escape_markdown
from gridclient import APIStatusError, QueueProject, SiteSurroundings

MAX_RADIUS_KM = 150
# the session-state key of the radius chosen (the queue history below reads it too)
RADIUS_KEY = "surroundings.radius"
FIRMNESS = {
    "ia_signed": "IA signed MW",
    "security_ntp": "Security and NTP MW",
    "neither": "Neither MW",
}
# the session-state key of the dropout table shown (its tab's label)
DROPOUT_TAB_KEY = "surroundings.dropout.tab"
# the session-state key holding whether the dropout tables' expander is open
DROPOUT_OPEN_KEY = "surroundings.dropout.open"


def draw_surroundings(conn: ConnectionKey, site_id: str | None) -> None:
    """Draw the "Grid around the site" section, or say why it cannot be drawn: its figures
    and limitations in plain view, its map and tables folded under them (`draw_near`)."""
    st.subheader("Grid around the site")
    if not site_id:
        st.info("This assessment names no site, so its surroundings cannot be shown.")
        return
    if not data.capabilities(conn).site_surroundings:
        st.info(
            "This deployment does not offer site surroundings (the "
            "`/v1/sites/{siteId}/surroundings` extension), so the counties, queue changes "
            "and dropout rates around the site cannot be shown here."
        )
        return
    radius = st.slider(
        "Radius (km)",
        1,
        MAX_RADIUS_KM,
        DEFAULT_RADIUS_KM,
        key=RADIUS_KEY,
        help="Counties whose Census boundary lies within this distance of the site.",
    )
    # The report months of the change table: its own selectboxes, drawn with the table below,
    # keep the reader's choice; until then the service's defaults apply. This run fetches the
    # section for them, so a month just picked asks for no further run.
    st.session_state.pop(MONTHS_PICKED_KEY, None)
    months = [st.session_state.get(key) for key in MONTH_KEYS]
    try:
        near = data.site_surroundings(conn, site_id, float(radius), *months)
    except APIStatusError as exc:
        show_problem(exc)
        if any(months) and st.button("Back to the default report months"):
            for key in MONTH_KEYS:
                st.session_state.pop(key, None)
            st.rerun()
        return
    draw_totals(near)
    draw_coverage(near)
    draw_near(near)

    def every_project(name: str) -> list[QueueProject]:
        return data.surroundings_projects(conn, site_id, name, float(radius), *months)

    draw_changes(near, every_project)
    draw_dropout(near)
    for limitation in near.limitations:
        st.caption(escape_markdown(limitation))


def chosen_radius() -> float:
    """Return the radius the section's slider holds, in km (its default until it is drawn)."""
    return float(st.session_state.get(RADIUS_KEY, DEFAULT_RADIUS_KM))


def mw_by_firmness(totals: Any) -> dict[str, float | None]:
    """Return MW by firmness label; each None when the figures state no firmness (queue
    records) or there are none."""
    if totals is None or totals.by_firmness is None:
        return dict.fromkeys(FIRMNESS.values())
    by = {f.firmness: f.mw or 0.0 for f in totals.by_firmness}
    return {label: by.get(key, 0.0) for key, label in FIRMNESS.items()}


def fuel_text(totals: Any) -> str:
    fuels = (totals.by_fuel if totals else None) or []
    return ", ".join(
        f"{glossary.label('fuel', f.fuel)} {f.mw or 0:,.0f} MW ({f.projects})" for f in fuels
    )


def counties_frame(near: SiteSurroundings) -> pd.DataFrame:
    """Return one row per county: distance, active MW by firmness and by fuel, where the
    figures come from, or why there are none (blank figures, never 0)."""
    return records_frame(
        near.counties,
        {
            "County": county_label,
            "Distance km": "distance_km",
            "Active projects": lambda c: c.queue.active_projects if c.queue else None,
            "Active MW": lambda c: c.queue.active_mw if c.queue else None,
            **{
                label: (lambda c, label=label: mw_by_firmness(c.queue)[label])
                for label in FIRMNESS.values()
            },
            "By fuel": lambda c: fuel_text(c.queue),
            "Figures from": lambda c: figures_source(c.queue),
            "Why no figures": lambda c: (c.queue.unavailable if c.queue else None) or "",
            "Location basis": lambda c: c.queue.location_basis if c.queue else "county",
        },
    )


def draw_map(near: SiteSurroundings, later: maps.LaterMaps) -> None:
    """The map of the surroundings (`surroundings_map.surroundings_deck`) in its place, drawn
    by `later`, with its legend."""
    later.add(surroundings_deck(near), height=420)
    report = near.queue_now.report if near.queue_now else None
    month = report.report_month if report else "the loaded queue records"
    st.caption(
        f"Legend: counties within {near.radius_km:g} km are shaded orange, darker for more "
        f"active queue MW in {month} (placed by county: the operator publishes no "
        "coordinates for queued projects); blue dots are existing plants at their own "
        "coordinates, larger for more capacity; the red dot is the site, the grey rings are "
        "at the distances they are labelled with."
    )


def draw_totals(near: SiteSurroundings) -> None:
    """Draw the active queue in the radius's counties, by firmness, and how the tables below
    measure distance."""
    totals = near.queue_now
    if totals and totals.report is None:
        st.markdown(
            f"**No monthly queue report names a county within {near.radius_km or 0:g} km**; "
            "what the loaded queues say of each county follows."
        )
    elif totals:
        firm = mw_by_firmness(totals)
        counties = len(near.counties)
        st.markdown(
            f"**{totals.active_projects or 0:,} active queue projects, "
            f"{totals.active_mw or 0:,.1f} MW** in the {counties:,} "
            f"{'county' if counties == 1 else 'counties'} within {near.radius_km or 0:g} km: "
            + ", ".join(f"{label} {mw:,.1f}" for label, mw in firm.items())
            + f". Location basis: {totals.location_basis or 'county'}."
        )
    if near.distance_basis:
        st.caption(escape_markdown(near.distance_basis))


# the tabs of the surroundings' tables, and the session-state key of the one shown
NEAR_TABS = ("Counties", "Nearest plants", "Interconnection points", "Queue records")
NEAR_TAB_KEY = "surroundings.tables.tab"
# the session-state key holding whether the map and those tables are shown
NEAR_OPEN_KEY = "surroundings.near.open"


# The expander's label never changes with the radius: a label that changed (counting the
# counties in the radius) gave it another identity, and it folded again at each new radius.
NEAR_LABEL = (
    "Show the map, and the tables of the counties, nearest plants and interconnection points"
)


def draw_near(near: SiteSurroundings) -> None:
    """Draw the map of the counties in the radius and the tables of their counties, plants and
    points, folded at first (`tables.show_folded`: built only while open) under the figures
    they add up to (`draw_totals`): drawn at once, they held the assessment's content back
    in a new tab. The map is drawn last, in its place (`maps.LaterMaps`)."""

    def draw() -> None:
        with maps.LaterMaps() as later:
            draw_map(near, later)
            draw_near_tables(near)

    show_folded(NEAR_LABEL, NEAR_OPEN_KEY, draw)


def draw_near_tables(near: SiteSurroundings) -> None:
    """Draw the counties, the nearest plants and the interconnection points in tabs, the
    counties first; only the chosen tab's table is built and sent (`tables.show_tabbed`)."""
    draws = (draw_counties, draw_plants, draw_points, draw_records)
    show_tabbed(
        NEAR_TAB_KEY,
        {
            label: functools.partial(draw, near)
            for label, draw in zip(NEAR_TABS, draws, strict=True)
        },
    )


def draw_counties(near: SiteSurroundings) -> None:
    show_table(
        counties_frame(near),
        hide_index=True,
        width="stretch",
        column_config={
            "Distance km": st.column_config.NumberColumn(format="%,.1f km"),
            **{
                name: st.column_config.NumberColumn(format="%,.1f MW")
                for name in ["Active MW", *FIRMNESS.values()]
            },
        },
    )


def draw_plants(near: SiteSurroundings) -> None:
    st.caption(
        "Existing plants at their own coordinates, nearest first (location basis: coordinates)."
    )
    frame = records_frame(
        plants(near),
        {
            "Plant": "plant_name",
            "Distance km": "distance_km",
            "Capacity MW": "capacity_mw",
            "Technology": lambda p: ", ".join(p.technologies),
            "Location basis": lambda p: "coordinates",
            "Source cell": "evidence.source_locator",
        },
    )
    if frame.empty:
        st.caption("No plant with coordinates in these counties.")
    else:
        show_table(frame, hide_index=True, width="stretch")


def draw_points(near: SiteSurroundings) -> None:
    st.caption(
        "Interconnection points named by the queue, highest kV first (location basis: county)."
    )
    rows, unparsed = [], []
    for county in near.counties:
        points = county.interconnection_points
        if points is None:
            continue
        for level in points.by_kv:
            for point in level.points:
                rows.append((county, level.kv, point))
        unparsed.extend((county, point) for point in points.unparsed)
    rows.sort(key=lambda row: -(row[1] or 0.0))
    frame = pd.DataFrame(
        [
            {
                "kV": kv,
                "Point": point.name or point.raw_text,
                "Kind": point.kind,
                "Bus": point.bus_number,
                "County": county.name,
                "Projects": ", ".join(point.project_ids),
                "Source cell": cell_text(point.source),
            }
            for county, kv, point in rows
        ]
    )
    if frame.empty:
        st.caption("No interconnection point is named in these counties.")
    else:
        show_table(
            frame,
            hide_index=True,
            width="stretch",
            column_config={"kV": st.column_config.NumberColumn(format="%,.0f kV")},
        )
    if unparsed:
        st.caption(
            f"{len(unparsed)} point text(s) did not parse and are kept as published: "
            + "; ".join(escape_markdown(p.raw_text or "") for _, p in unparsed)
        )


def dropout_frame(rows: list[Any], key: str) -> pd.DataFrame:
    return records_frame(
        rows,
        {
            key.title(): (
                (lambda r: glossary.label_with_code("fuel", r.fuel)) if key == "fuel" else key
            ),
            "Projects": "projects",
            "Went inactive": "went_inactive",
            "Cancelled": "cancelled",
            "Dropped out": "dropped_out",
            "Commissioned": "commissioned",
            "Rate": lambda r: f"{(r.rate or 0) * 100:.1f}%",
        },
    )


def draw_dropout(near: SiteSurroundings) -> None:
    dropout = near.dropout
    if dropout is None:
        return
    window = dropout.window or {}
    overall = dropout.all
    headline = "**How often projects here drop out**"
    if overall:
        headline += (
            f": {overall.dropped_out or 0} of {overall.projects or 0} projects "
            f"({(overall.rate or 0) * 100:.1f}%) went inactive ({overall.went_inactive or 0}) "
            f"or were cancelled ({overall.cancelled or 0}) between "
            f"{window.get('firstMonth', '?')} and {window.get('lastMonth', '?')} "
            f"({window.get('reports', '?')} reports; location basis: "
            f"{dropout.location_basis or 'county'})."
        )
    st.markdown(headline)
    if dropout.statement:
        st.caption(escape_markdown(dropout.statement))
    draw_dropout_tables(dropout.by_fuel, dropout.by_county)


def draw_dropout_tables(by_fuel: list[Any], by_county: list[Any]) -> None:
    """Draw the dropout rates by fuel and by county in tabs, folded at first
    (`tables.show_folded`); only the chosen tab is built and sent (`tables.show_tabbed`)."""

    def draw(rows: list[Any], key: str) -> None:
        show_table(dropout_frame(rows, key), hide_index=True, width="stretch")

    show_folded(
        "Show the dropout rates by fuel and by county",
        DROPOUT_OPEN_KEY,
        lambda: show_tabbed(
            DROPOUT_TAB_KEY,
            {
                "By fuel": functools.partial(draw, by_fuel, "fuel"),
                "By county": functools.partial(draw, by_county, "county"),
            },
        ),
    )
