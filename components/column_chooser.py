"""Wide tables show their key columns first: the columns an analyst decides on (name,
readiness, MW, status) always, every other column when asked for, through a "Columns"
chooser above the table whose choice the session remembers.

At 1280 px the main area beside the sidebar is about 820 px wide: a table of every column
scrolled sideways there and hid the requested MW of the queue and the readiness of the sites.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from components import state
from components.glossary import column_label


def header(column: str, config: Mapping[str, Any]) -> str:
    """Return the header a table shows for `column`: its configured label, else the glossary's."""
    given = config.get(column)
    label = given.get("label") if isinstance(given, Mapping) else None
    return label or column_label(column)


def shown_columns(
    key_columns: Sequence[str], columns: Sequence[str], chosen: Sequence[str]
) -> list[str]:
    """Return the columns to draw, in order: the key columns, then the chosen others in the
    table's own order (a chosen name the table lacks is left out)."""
    wanted = set(chosen)
    return [*key_columns, *(c for c in columns if c in wanted and c not in key_columns)]


def draw_column_chooser(
    table: str,
    key_columns: Sequence[str],
    columns: Sequence[str],
    config: Mapping[str, Any] | None = None,
) -> list[str]:
    """Return the `column_order` of a wide table: its key columns, then the others the analyst
    picked in a "Columns" popover (remembered for the session under `table`)."""
    config = config or {}
    extras = [c for c in columns if c not in key_columns]
    widget = f"{state.extra_columns_key(table)}.widget"
    if widget not in st.session_state:
        st.session_state[widget] = [c for c in state.extra_columns(table) if c in extras]
    with st.popover("Columns", icon=":material/view_column:"):
        chosen = st.multiselect(
            "More columns",
            extras,
            format_func=lambda column: header(column, config),
            key=widget,
            placeholder="Add columns",
            help="The table shows its key columns; add any of the others here.",
        )
    state.set_extra_columns(table, chosen)
    return shown_columns(key_columns, columns, chosen)
