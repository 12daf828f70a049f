"""A short table drawn whole as HTML (`components.tables.static_table_html`): every header and
cell shows as its text, whatever the service sent."""

from __future__ import annotations

import math

import pandas as pd
from static_tables import parsed

from components.tables import static_table_html

HOSTILE = '<img src=x onerror="alert(1)"> & <script>alert(2)</script> **bold** [a](javascript:x)'


def test_the_header_and_every_cell_show_their_text_and_no_tag_is_made_of_them():
    frame = pd.DataFrame(
        {"Name": ["Oncor", HOSTILE], "<b>Kind</b>": ["iou & co", "muni"], "MW": [1.5, 2.0]}
    )
    cells = parsed(static_table_html(frame))
    assert cells.rows == [
        ["Name", "<b>Kind</b>", "MW"],
        ["Oncor", "iou & co", "1.5"],
        [HOSTILE, "muni", "2.0"],
    ]
    assert set(cells.tags) == {"style", "div", "table", "thead", "tbody", "tr", "th", "td"}


def test_a_cell_with_no_value_is_empty_and_every_row_is_kept():
    frame = pd.DataFrame({"A": ["x", None, "z"], "B": [1.0, math.nan, None]})
    assert parsed(static_table_html(frame)).rows == [
        ["A", "B"],
        ["x", "1.0"],
        ["", ""],
        ["z", ""],
    ]
