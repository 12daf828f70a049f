"""What an analyst calls a site, and the portfolio table's column of those names.

The Site column is as wide as the longest name shown needs, at most as wide as leaves the other
key columns whole beside the sidebar at 1280 px. A name wider than that is cut by the grid,
which has no tooltip of its own on a cell: the header's tooltip then lists the names cut, in
full.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import streamlit as st

from components.text import escape_markdown
from gridclient import Site

SITE_HELP = "The site's customer reference, else its id."
# The Site column's width, in pixels (the module docstring says why these bounds)
SITE_PX_MIN, SITE_PX_MAX = 140, 260
# a character of the grid's 14 px text, and the cell's padding (pixels, upper bounds)
CHAR_PX, CELL_PADDING_PX = 7.2, 24
NAMES_LISTED = 10


def site_name(site: Site) -> str:
    """Return what an analyst calls the site: its customer reference, else its id."""
    return site.customer_reference or site.id or "unnamed site"


def site_column(names: Iterable[str], label: str | None = None, *, pinned: bool = True) -> Any:
    """Return the Site column's config (headed `label`, else the column's name): wide enough
    for the longest name up to `SITE_PX_MAX`, its header's tooltip naming in full every name
    cut at that width; `pinned` keeps it in view in a table wider than the page (the grid
    then draws its names grey, as an index)."""
    names = [str(name) for name in names]
    longest = max((len(name) for name in names), default=0)
    width = int(min(max(longest * CHAR_PX + CELL_PADDING_PX, SITE_PX_MIN), SITE_PX_MAX))
    fits = int((width - CELL_PADDING_PX) / CHAR_PX)
    cut = sorted({name for name in names if len(name) > fits}, key=str.casefold)
    help_text = SITE_HELP
    if cut:
        listed = "\n".join(f"- {escape_markdown(name)}" for name in cut[:NAMES_LISTED])
        more = f"\n\nand {len(cut) - NAMES_LISTED:,} more" if len(cut) > NAMES_LISTED else ""
        help_text += f" Names cut in this column, in full:\n\n{listed}{more}"
    return st.column_config.TextColumn(label, width=width, pinned=pinned, help=help_text)
