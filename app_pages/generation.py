"""Generation: plants on the map, generators with every filter, a plant's monthly net generation."""

from __future__ import annotations

import streamlit as st

from components import connection, data, generation_view, maps, tables
from components.problems import problem_boundary

st.title("Generation")
st.caption(
    "Plants sized by the nameplate MW of the generators that pass the filters and coloured "
    "by their largest technology. Click a plant, or pick one below, for its monthly output."
)

with problem_boundary():
    conn = connection.connection_key()
    plants_all = data.all_generation_plants(conn)
    every = generation_view.every_generation(conn, data.all_generators(conn), plants_all)
    arguments = generation_view.draw_generator_filters(every)
    shown = every
    if any(value is not None for value in arguments.values()):
        shown = generation_view.generation_frames(data.generators(conn, **arguments), plants_all)
    generators, plants = shown.generators, shown.plants
    st.markdown(
        f"**{len(generators):,}** generators · **{generators['nameplateCapacityMw'].sum():,.0f} "
        f"MW** nameplate · **{len(plants):,}** plants"
    )
    map_column, legend_column = st.columns([2, 1])  # the legend's names whole at 1280 px
    # the map is drawn when the block ends, in its place, even after a problem (see
    # maps.LaterMaps); a click on it is read from its state
    with maps.LaterMaps() as later:
        with map_column:
            later.add(
                shown.deck,
                on_select="rerun",
                selection_mode="single-object",
                key=generation_view.MAP_KEY,
                height=440,
            )
            if note := generation_view.plants_drawn_note(len(shown.drawn_plants), len(plants)):
                st.caption(note)
        with legend_column:
            st.markdown("**Technology** (map colours, by nameplate MW)")
            legend = generation_view.technology_legend(plants)
            if legend.empty:
                st.caption("No plant to colour: widen the filters.")
            else:
                st.html(generation_view.technology_legend_html(legend))
            if maps.basemap_style() is None:
                st.caption("County outlines from the Census; no online basemap configured.")
        st.subheader("Generators")
        st.caption("Largest nameplate MW first.")
        largest_first = generators["nameplateCapacityMw"].sort_values(
            ascending=False, kind="stable"
        )
        tables.show_rows(
            shown.table,
            largest_first.index,
            noun="generators",
            file_name="generators.csv",
            hide_index=True,
        )

        st.subheader("Monthly net generation of a plant")
        drawn = shown.drawn_plants
        names = dict(zip(drawn["agencyPlantId"], drawn["plantName"], strict=True))
        plant_id = generation_view.draw_plant_picker(names)
        if plant_id is not None:
            generation_view.draw_monthly_generation(conn, int(plant_id), str(names[plant_id]))
