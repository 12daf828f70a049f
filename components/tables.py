"""Tables built from the client's models: one helper makes every table, flags read as text.

A view names its columns as `{column: getter}`; `records_frame` makes one row per model.
`attribute("evidence.source_id")` is the usual getter: it walks attributes and gives None
where a member is missing, so views never dump models back to wire dicts.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import math
import operator
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

from components import glossary
from components.glossary import column_label, words
from components.sources import source_title
from components.spreadsheets import csv_bytes, formula_safe
from gridclient import QualityFlag
from gridclient.models import GridModel

PROVENANCE_HELP = "Where the record came from: source id, locator inside the source, observed at."

Getter = Callable[[Any], Any]


def attribute(path: str) -> Getter:
    """Return a getter of a dotted attribute path (`"evidence.source_id"`); None when absent."""
    names = path.split(".")

    def get(record: Any) -> Any:
        for name in names:
            record = getattr(record, name, None)
            if record is None:
                return None
        return record

    return get


@dataclasses.dataclass(frozen=True)
class FirstOf:
    """A `records_frame` column: the first of these attribute paths a record has a value at
    (one that is not empty), else the last one's value."""

    paths: tuple[str, ...]


def records_frame(
    records: Iterable[Any], columns: Mapping[str, Getter | str | FirstOf]
) -> pd.DataFrame:
    """Return one row per record and one column per entry of `columns`, in their order.

    A column's getter is a callable of the record, an attribute path for `attribute`, or a
    `FirstOf` paths.
    """
    records = list(records)
    # column by column: pandas builds a frame from lists far faster than from row dicts
    # (the queue's 15,000 rows at scale 10 were the page's largest cost)
    by_path = _attribute_cells(records, [get for get in columns.values() if isinstance(get, str)])
    cells = {
        name: by_path[get] if isinstance(get, str) and get in by_path else _cells(records, get)
        for name, get in columns.items()
    }
    return pd.DataFrame(cells, columns=list(columns))


def _attribute_cells(records: list[Any], paths: list[str]) -> dict[str, list[Any]]:
    """Return the cells of every attribute path, read record by record in one pass in C (all
    of a record's members at once: half the time of a pass per column over 100,000
    generators); {} when a record lacks one of them (each column is then read on its own)."""
    paths = list(dict.fromkeys(paths))
    if len(paths) < 2:
        return {}
    try:
        rows = list(map(operator.attrgetter(*paths), records))
    except AttributeError:
        return {}
    if not rows:
        return {path: [] for path in paths}
    columns = zip(*rows, strict=True)  # each row holds every path
    return {path: list(column) for path, column in zip(paths, columns, strict=True)}


def _cells(records: list[Any], get: Getter | str | FirstOf) -> list[Any]:
    if isinstance(get, FirstOf):
        # path by path, each read in C where every record has it, and a later path only for
        # the records the paths before left empty: a getter per record that tried one path
        # and then the other took a third of the frame of 100,000 generators
        first, *later = get.paths
        cells = _cells(records, first)
        for path in later:
            empty = [row for row, value in enumerate(cells) if not value]
            if not empty:
                break
            for row, value in zip(empty, _cells([records[r] for r in empty], path), strict=True):
                cells[row] = value
        return cells
    if isinstance(get, str):
        try:
            # in C, a third of the time of a getter per record (150,000 queue records)
            return list(map(operator.attrgetter(get), records))
        except AttributeError:  # a member missing somewhere: None there
            get = attribute(get)
    return [get(record) for record in records]


def snake_case(name: str) -> str:
    """Return a wire name as the client's attribute name: `sourceLocator` -> `source_locator`."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def by_attribute(columns: Iterable[str]) -> dict[str, str]:
    """Return `records_frame` columns named by their wire names, each read from its attribute."""
    return {column: snake_case(column) for column in columns}


def sent_fields(model: GridModel | None) -> dict[str, Any]:
    """Return the fields the service sent, in the model's order, then any it does not know."""
    if model is None:
        return {}
    known = {n: getattr(model, n) for n in type(model).model_fields if n in model.model_fields_set}
    return known | dict(model.model_extra or {})


def as_text(value: Any) -> str:
    """Return a value as the service wrote it: instants in ISO 8601 with `Z`, None as empty."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        spec = "milliseconds" if value.microsecond else "seconds"
        return value.isoformat(timespec=spec).replace("+00:00", "Z")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def flag_text(flag: QualityFlag) -> str:
    """Return one quality flag as readable text: `Missing county (county): message`."""
    code = words(flag.code) if flag.code else "Flag"
    text = f"{code} ({column_label(flag.field).lower()})" if flag.field else code
    return f"{text}: {flag.message}" if flag.message else text


def flags_text(flags: Iterable[QualityFlag] | None) -> str:
    """Return a record's quality flags joined as one line; empty when there are none."""
    if not flags:  # most records: 144,000 of the 150,000 queue records at scale 100
        return ""
    return "; ".join(flag_text(flag) for flag in flags)


def flags_frame(flags: Iterable[QualityFlag] | None) -> pd.DataFrame:
    """Return the quality flags as a table in words: the flag, its severity, the field it
    concerns (as its column is labelled) and the message."""
    rows = [
        {
            "flag": words(flag.code) if flag.code else "Flag",
            "severity": flag.severity,
            "field": column_label(flag.field) if flag.field else "",
            "message": flag.message,
        }
        for flag in flags or []
    ]
    return pd.DataFrame(rows, columns=["flag", "severity", "field", "message"])


def mapping_frame(mapping: Mapping[str, Any] | None, *, key: str, value: str) -> pd.DataFrame:
    """Return a string-to-value mapping as a two-column table, in the source's own order."""
    rows = [{key: str(k), value: "" if v is None else str(v)} for k, v in (mapping or {}).items()]
    return pd.DataFrame(rows, columns=[key, value])


def mw_column(label: str, *, help: str | None = None) -> Any:
    """A number column in megawatts."""
    return st.column_config.NumberColumn(label, format="%,.1f MW", help=help)


def kv_column(label: str = "Voltage") -> Any:
    """A number column in kilovolts."""
    return st.column_config.NumberColumn(label, format="%,.0f kV")


def mwh_column(label: str) -> Any:
    """A number column in megawatt-hours."""
    return st.column_config.NumberColumn(label, format="%,.0f MWh")


def link_column(label: str, *, display_text: str | None = "Open source") -> Any:
    """A link column that shows a short text instead of the whole address."""
    return st.column_config.LinkColumn(label, display_text=display_text)


def provenance_config() -> dict[str, Any]:
    """Column configs shared by every provenance table."""
    return {
        "sourceId": st.column_config.TextColumn("Source id", help=PROVENANCE_HELP),
        "sourceLocator": st.column_config.TextColumn("Locator", help=PROVENANCE_HELP),
        "observedAt": st.column_config.TextColumn("Observed at", help=PROVENANCE_HELP),
        "qualityFlags": st.column_config.TextColumn(
            "Quality flags", help="Flags the harvest attached to the record", width="large"
        ),
    }


def _evidence_or_own(name: str) -> FirstOf:
    """Return the column of the record's evidence member `name`, else its own member `name`."""
    return FirstOf((f"evidence.{name}", name))


def record_source_title(record: Any) -> str:
    """Return the record's source as its publisher names it, from the service's fields."""
    evidence = getattr(record, "evidence", None)
    source_id = getattr(evidence, "source_id", None) or getattr(record, "source_id", None)
    return source_title(evidence, source_id)


PROVENANCE_COLUMNS: dict[str, Getter | FirstOf] = {
    "source": record_source_title,
    "sourceId": _evidence_or_own("source_id"),
    "sourceLocator": _evidence_or_own("source_locator"),
    "observedAt": _evidence_or_own("observed_at"),
    "qualityFlags": lambda r: flags_text(r.quality_flags),
}


# What a table shows in a cell with no value. Streamlit's own is the word "None": Python's
# word, which reads as a value ("Status date: None") rather than as nothing stated.
MISSING_CELL = "—"


def show_table(data: pd.DataFrame, **options: Any) -> Any:
    """Draw the frame with `st.dataframe` (returning its selection event, if any).

    Streamlit offers every table as "Download as CSV" with the cells as drawn, so the cells
    are drawn formula-safe: a value from the service or the user beginning with `=`, `+`,
    `-`, `@`, a tab or a carriage return shows (and downloads) with a leading `'`. A cell
    with no value shows `MISSING_CELL`.
    """
    return _dataframe(formula_safe(data), **options)


def _dataframe(data: pd.DataFrame, **options: Any) -> Any:
    """`st.dataframe`, a cell with no value showing `MISSING_CELL` unless told otherwise."""
    return st.dataframe(data, **{"placeholder": MISSING_CELL, **options})


def _static_cell(value: Any) -> str:
    """A cell of a static table as HTML text: empty when there is no value, else escaped."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return html.escape(str(value))


# Streamlit's own static table, as it looks in the app's theme: a rounded frame, the headers
# in the text's colour at 70%, hairlines at 10%, 14 px text; cells wrap, and a table wider than
# its column scrolls sideways in its frame
STATIC_TABLE_STYLE = (
    "<style>"
    ".gss-table{border:1px solid color-mix(in srgb,currentColor 10%,transparent);"
    "border-radius:0.5rem;overflow-x:auto;font-size:0.875rem;line-height:1.5}"
    ".gss-table table{border-collapse:separate;border-spacing:0;width:100%;margin:0}"
    ".gss-table th,.gss-table td{padding:0.25rem 0.375rem;text-align:left;"
    "vertical-align:middle;border:0 solid color-mix(in srgb,currentColor 10%,transparent);"
    "border-width:0 1px 1px 0;overflow-wrap:break-word}"
    ".gss-table th{font-weight:400;color:color-mix(in srgb,currentColor 70%,transparent)}"
    ".gss-table tr>:last-child{border-right-width:0}"
    ".gss-table tbody tr:last-child>*{border-bottom-width:0}"
    "</style>"
)


def static_table_html(data: pd.DataFrame) -> str:
    """Return a short frame as an HTML table (`show_static_table`): its column names as the
    header, every cell as text (HTML-escaped), a cell with no value empty."""
    head = "".join(f"<th>{html.escape(str(name))}</th>" for name in data.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{_static_cell(value)}</td>" for value in row) + "</tr>"
        for row in data.itertuples(index=False, name=None)
    )
    return (
        f'{STATIC_TABLE_STYLE}<div class="gss-table"><table><thead><tr>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def show_static_table(data: pd.DataFrame) -> None:
    """Draw a short frame whole, every cell in full and wrapped rather than cut off
    (`static_table_html`, through `st.html`).

    Meant for a few rows read at a glance (a county's jurisdictions, a site's candidates).
    A static table costs the browser far less than a data grid. Written as HTML rather than
    with `st.table`, whose every cell and header the browser reads as Markdown and whose code
    loads apart. Every cell and header is escaped here, so the service's text shows as text,
    never as markup (the browser also sanitizes what `st.html` draws).
    """
    st.html(static_table_html(data))


@st.fragment
def show_tabbed(key: str, tabs: Mapping[str, Callable[[], None]]) -> None:
    """Draw one tab per label, the first chosen at first, and only the chosen tab's content
    (its callable): tabs are lazy (`on_change="rerun"`, each tab's `.open`), and choosing
    another reruns only this fragment. `key` keeps the chosen label in the session.

    Every table drawn, seen or not, costs the browser time: a tab not chosen is neither
    built nor sent.
    """
    drawn = st.tabs(list(tabs), key=key, on_change="rerun")
    for tab, draw in zip(drawn, tabs.values(), strict=True):
        if tab.open:
            with tab:
                draw()


@st.fragment
def show_folded(label: str, key: str, draw: Callable[[], None], *, expanded: bool = False) -> None:
    """Draw `draw()` in an expander, built and sent only while it is open: the expander is
    lazy (`on_change="rerun"`, its `.open`, kept in the session under `key`), and opening or
    folding it reruns only this fragment.

    Streamlit mounts what a closed expander holds: a folded table would cost the browser as
    much as an open one.
    """
    folded = st.expander(label, expanded=expanded, key=key, on_change="rerun")
    if folded.open:
        with folded:
            draw()


@dataclasses.dataclass(frozen=True)
class ShownTable:
    """A frame as `show_table` draws it (the analyst's words, formula-safe cells), with the
    frame's own index: made once, any selection of its rows is drawn without redoing it."""

    data: pd.DataFrame
    column_config: dict[str, Any]


def shown_table(frame: pd.DataFrame, config: Mapping[str, Any] | None = None) -> ShownTable:
    """Return the frame relabelled by `glossary.table` and made formula-safe, once."""
    shown = glossary.table(frame, config)
    return ShownTable(formula_safe(shown["data"]), shown["column_config"])


# The rows a table sends to the browser at most. Every row goes over the websocket and
# through the browser's decoding on every visit: the 10,000 generators of a scale-10 store
# were 6 MB and about 4 s of the page's 5 s in headless Chromium. The rest is a CSV away.
# 2,000 rows were still 0.12 s of a new tab of Generation and 0.04 s of the queue's against
# 1,000 (28 Nov 2026); a thousand rows, largest first on Generation, are more than a
# reader scrolls, and the filters reach every row.
ROWS_SENT = 1_000


def rows_in_order(
    data: pd.DataFrame, index: pd.Index | None = None, *, limit: int | None = None
) -> pd.DataFrame:
    """Return the rows of `data` at `index` (every row when None), in that order, numbered
    from 0: the first `limit` of them when given."""
    if index is None or index.equals(data.index):
        rows = data if limit is None else data.iloc[:limit]
    else:
        rows = data.loc[index if limit is None else index[:limit]]
    return rows.reset_index(drop=True)


def show_rows(
    table: ShownTable,
    index: pd.Index | None = None,
    *,
    noun: str = "rows",
    file_name: str = "rows.csv",
    **options: Any,
) -> Any:
    """Draw the rows of `table` at `index` (every row when None, in that order), numbered
    from 0, with `st.dataframe`: the same table `show_table` draws for those rows.

    Past `ROWS_SENT` rows only the first are drawn (a selection's row numbers still count
    from the first), with a line that says so and a download of every row as CSV.
    """
    total = len(table.data) if index is None else len(index)
    # only the drawn rows are put in order on each run: all 100,000 generators at scale 100
    # took 0.9 s of every run of Generation, to draw the first 2,000 of them
    drawn = rows_in_order(table.data, index, limit=ROWS_SENT)
    event = _dataframe(drawn, column_config=table.column_config, **options)
    if total > len(drawn):
        st.caption(
            f"The first {len(drawn):,} of {total:,} {noun} in this order are drawn: sorting "
            "a column sorts these only. Narrow the filters to reach the others, or download "
            f"all {total:,}."
        )
        st.download_button(
            f"Download all {total:,} {noun} (CSV)",
            lambda: csv_bytes(rows_in_order(table.data, index)),  # when clicked, not every run
            file_name,
            "text/csv",
            key=f"{file_name}.all_rows",
            icon=":material/download:",
        )
    return event
