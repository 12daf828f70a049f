"""Generation: plants on the map, generators with every filter, a plant's monthly net generation."""

from __future__ import annotations

import streamlit as st

from components import connection, coverage, data, generation_view, maps
from components.problems import problem_boundary

st.title("Generation")
st.caption(
    "Plants sized by the nameplate MW of the generators that pass the filters and coloured "
    "by their largest technology. Click a plant, or pick one below, for its monthly output."
)

with problem_boundary():
    conn = connection.connection_key()
    coverage.draw_notice(conn, "generators", "generation_plants")
    plants_all = data.all_generation_plants(conn)
    every = generation_view.every_generation(conn, data.all_generators(conn), plants_all)
    arguments = generation_view.draw_generator_filters(every)
    shown, cut = every, False
    if arguments["source_id"] is not None:
        # a source release's versions: asked of the service, which cuts the list
        listed = data.generators(conn, **arguments)
        cut = len(listed) > data.FILTERED_MAX
        shown = generation_view.generation_frames(listed[: data.FILTERED_MAX], plants_all)
    elif any(value is not None for value in arguments.values()):
        # the current view: every generator is loaded, so the filters count them all
        shown = generation_view.narrowed(every, arguments)
    generators, plants = shown.generators, shown.plants
    st.markdown(
        f"**{len(generators):,}** generators · **{generators['nameplateCapacityMw'].sum():,.0f} "
        f"MW** nameplate · **{len(plants):,}** plants"
    )
    if cut:
        st.warning(
            f"Only the first {data.FILTERED_MAX:,} generators of this source release that pass "
            "the filters (by id) are counted, drawn and listed: the release holds more. Narrow "
            "the filters to count them all."
        )
    # the map and the table are two views of the generators shown; only the open one is
    # built and sent (generation_view.VIEWS)
    map_tab, table_tab = st.tabs(
        generation_view.VIEWS,
        key=generation_view.VIEW_KEY,
        on_change="rerun",
        bind="query-params",
    )
    # the map is drawn when the block ends, in its place, even after a problem (see
    # maps.LaterMaps); a click on it is read from its state
    with maps.LaterMaps() as later:
        if map_tab.open:
            with map_tab:
                generation_view.draw_plant_map(shown, later)
        if table_tab.open:
            with table_tab:
                generation_view.draw_generators_table(shown)

        st.subheader("Monthly net generation of a plant")
        coverage.draw_notice(conn, "generator_operations")
        drawn = shown.drawn_plants
        names = dict(zip(drawn["agencyPlantId"], drawn["plantName"], strict=True))
        plant_id = generation_view.draw_plant_picker(names)
        if plant_id is not None:
            generation_view.draw_monthly_generation(conn, int(plant_id), str(names[plant_id]))
