"""Service territory: which utilities' territories a point falls in, and how sure that is."""

from __future__ import annotations

import streamlit as st

from components import connection, data, state, territory_view
from components.geography import region_counties
from components.maps import county_layer
from components.picker import draw_picker_map, in_bounds, point_inputs, take_click
from components.problems import problem_boundary
from components.text import escape_markdown

PICKER = "territory"

st.title("Service territory")
st.caption(
    "Click the map or type a point to see the utilities whose service territories cover it."
    f" Confidence is a {territory_view.HEURISTIC_LABEL}."
)


@st.fragment
def point_and_territories() -> None:
    """The map, the point's county and its candidates: a map click reruns this part only."""
    # the boundary is inside: a fragment shows its own failures, an outer `with` never sees them
    with problem_boundary():
        draw_point_and_territories()


def draw_point_and_territories() -> None:
    conn = connection.connection_key()
    take_click(PICKER)  # a click since the last run moves the point before it is read
    point = state.picked_point(PICKER)
    # drawn on every run, so the map below keeps its place while the resolution loads (the
    # browser reloads a map whose element moves: components/picker.py)
    with st.container():
        resolution = data.territory_resolution(conn, *point) if in_bounds(point) else None
    candidates = resolution.candidates if resolution else []
    county = territory_view.point_county(resolution.location if resolution else None)
    counties = region_counties()
    point_fips = county.get("fips") if county else None
    shown = territory_view.territory_county_fips(candidates)
    if point_fips and point_fips not in shown:
        shown.insert(0, point_fips)  # an unserved point's county is still drawn
    territory = [counties[fips] for fips in shown if fips in counties]
    outlines = resolution.polygons if resolution else []
    map_column, result_column = st.columns([3, 2])
    with map_column:
        shading = county_layer(
            territory,
            highlight=[point_fips] if point_fips else [],
            candidates=[c.fips for c in territory],
            pickable=False,
            layer_id="territory_counties",
        )
        # the territory's counties named over their shading (in the surroundings view)
        polygons = [territory_view.territory_polygon_layer(outlines)] if outlines else []
        draw_picker_map(
            PICKER, extra_layers=[shading, *polygons], named_counties=territory, height=400
        )
        point_inputs(PICKER)
    with result_column:
        if point is None:
            st.info("No point yet: click the map or type latitude and longitude.")
        else:
            st.markdown(f"**Point:** {point[0]:.5f}, {point[1]:.5f}")
            if county:
                st.text(f"County: {county.get('name')}, {county.get('state')} (FIPS {point_fips})")
            else:
                st.text("The point is in no county the service has loaded.")
            if resolution and resolution.market:
                st.text(f"Market: {resolution.market.name}")
        st.caption("Orange: the point's county. Blue: other counties of the candidate territories.")
        if outlines:
            publisher = territory_view.polygon_publisher(candidates)
            st.caption(territory_view.polygon_legend(outlines, publisher))
        attribution = territory_view.polygon_attribution(candidates) or (
            resolution.attribution if resolution else None
        )
        if attribution:
            # the polygons' licence (ODbL) asks for this beside what is drawn from them
            st.caption(escape_markdown(attribution))
    # below the map, at the page's full width, so every column of the table shows
    if point is not None:
        territory_view.draw_candidates(candidates)


point_and_territories()
