"""The interconnection queue: the records as a frame, its filters, its charts' frames, one record.

`GET /v1/queue-records` takes no filters (the interface shows none), so the app traverses
every record once per tenant and filters in memory. Technology and queue date are not in
the list: they live in each record's details, one request per record. The page loads
details only for a filtered set of at most `DETAILS_BUDGET` records, on request, and says so.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
import streamlit as st

from components import charts, data, filters, glossary, queue_markets, queue_requests
from components.column_chooser import draw_column_chooser
from components.connection import ConnectionKey
from components.evidence_view import draw_flags, draw_queue_evidence
from components.queue_requests import CollapsedQueue
from components.tables import (
    ShownTable,
    by_attribute,
    flags_text,
    link_column,
    mw_column,
    provenance_config,
    record_source_title,
    records_frame,
    show_rows,
    show_table,
    shown_table,
)
from components.text import escape_markdown
from gridclient import QueueRecord, QueueRecordDetails
from gridclient.models import QueueDetailsEvidence

DETAILS_BUDGET = 300
# The page's two views of the records that pass the filters, as tabs: the records (a table,
# a selected record's details and evidence under it) and the charts. Only the open one is
# built and sent (a lazy tab, kept in the URL as `queue.view`): the browser mounts a closed
# tab's content too. The page drawing charts and records at once took 1.04 s of a new tab,
# the records' view alone 0.97 s (16 tabs alternated, 28 Nov 2026). The labels stay the same
# whatever is shown: a tab's identity includes them.
VIEWS = ("Records", "Charts")
VIEW_KEY = "queue.view"
# the columns whose distinct values the filters offer
CHOICE_COLUMNS = ("state", "county", "status", "market")

QUEUE_COLUMNS = [
    "id",
    "projectName",
    "market",
    "state",
    "county",
    "status",
    "statusDate",
    "statusSource",
    "sourceStatus",
    "countsAsActive",
    "requestedCapacityMw",
    "proposedDate",
    "pointOfInterconnection",
    "technology",
    "queueDate",
    "source",
    "sourceId",
    "sourceLocator",
    "observedAt",
    "evidenceUrl",
    "qualityFlags",
]
# What an analyst reads a request by, shown whole at 1280 px; the others are a choice away
KEY_QUEUE_COLUMNS = (
    "projectName",
    "status",
    "requestedCapacityMw",
    "market",
    "state",
    "county",
    "proposedDate",
)


@dataclasses.dataclass(frozen=True)
class QueueFilters:
    """What the analyst narrowed the queue to; empty lists and None mean no restriction."""

    states: tuple[str, ...] = ()
    counties: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    markets: tuple[str, ...] = ()
    technologies: tuple[str, ...] = ()
    min_mw: float | None = None
    max_mw: float | None = None
    proposed_from: dt.date | None = None
    proposed_to: dt.date | None = None


def status_now(record: QueueRecord) -> dict[str, Any]:
    """Return the record's status now (the newest source's word, as the service stored it),
    its date and source cell, and the record's own source's status, kept as history."""
    now = record.status_now
    return {
        "status": (now.status if now else None) or record.status,
        "statusDate": now.date if now else None,
        "statusSource": (now.source_locator if now else None) or record.source_locator,
        "sourceStatus": record.status,
        "countsAsActive": bool(
            now.counts_as_active if now else str(record.status or "").strip().lower() == "active"
        ),
    }


STATUS_NOW_COLUMNS = ("status", "statusDate", "statusSource", "sourceStatus", "countsAsActive")


def active_now(frame: pd.DataFrame) -> tuple[int, float]:
    """Return how many records count as active now and their requested MW."""
    active = frame["countsAsActive"].fillna(False).astype(bool)  # two columns, no copy
    return int(active.sum()), float(frame.loc[active, "requestedCapacityMw"].sum())


def queue_frame(records: Iterable[QueueRecord]) -> pd.DataFrame:
    """Return queue records as a flat frame with provenance and flags as text.

    `status` is the status now (the service's `statusNow`), so filters, charts and counts
    follow the newest source's word; `sourceStatus` is what the record's own source said.
    Technology and queue date are in each record's details, not in the list: empty here
    until `with_details` fills them.
    """
    records = list(records)
    now = [status_now(record) for record in records]  # worked out once per record
    computed = {name: [row[name] for row in now] for name in STATUS_NOW_COLUMNS}
    computed["technology"] = computed["queueDate"] = [None] * len(records)
    computed["qualityFlags"] = [flags_text(record.quality_flags) for record in records]
    computed["source"] = [record_source_title(record) for record in records]
    read = records_frame(records, by_attribute(c for c in QUEUE_COLUMNS if c not in computed))
    frame = read.assign(**computed)[QUEUE_COLUMNS]
    frame["requestedCapacityMw"] = pd.to_numeric(frame["requestedCapacityMw"], errors="coerce")
    frame["proposedDate"] = pd.to_datetime(frame["proposedDate"], errors="coerce")
    frame["queueDate"] = pd.to_datetime(frame["queueDate"], errors="coerce")
    return frame


@dataclasses.dataclass(frozen=True)
class QueueList:
    """The queue as the page shows it before any filter: each request once, as a frame, as
    a table, and the filters' choices. Made once per loaded list (`queue_list`)."""

    by_id: dict[str, QueueRecord]
    authorities: dict[str, str | None]
    collapsed: CollapsedQueue
    frame: pd.DataFrame
    table: ShownTable
    choices: dict[str, list[str]]


def queue_list(conn: ConnectionKey, records: list[QueueRecord]) -> QueueList:
    """Return the queue made from every record (`data.all_queue_records`), made once for
    that list: the page's runs only filter it."""
    return data.derived(
        conn,
        "queue records",
        (records,),
        lambda: _queue_list(conn, records),
        spinner=f"Counting each request once and making the table of {len(records):,} records…",
    )


def _queue_list(conn: ConnectionKey, records: list[QueueRecord]) -> QueueList:
    authorities = queue_requests.source_authorities(
        conn, queue_requests.duplicated_sources(records)
    )
    collapsed = queue_requests.one_per_request(records, authorities)
    frame = queue_frame(collapsed.kept)
    return QueueList(
        by_id={str(record.id): record for record in records},
        authorities=authorities,
        collapsed=collapsed,
        frame=frame,
        table=shown_table(frame, table_config()),
        choices={column: options(frame, column) for column in CHOICE_COLUMNS}
        | {"state": queue_markets.state_choices(options(frame, "state"))},
    )


def with_details(frame: pd.DataFrame, details: Mapping[str, QueueRecordDetails]) -> pd.DataFrame:
    """Return the frame with technology and queue date filled from fetched record details."""
    enriched = frame.copy()
    technology = {rid: d.technology for rid, d in details.items()}
    queue_date = {rid: d.queue_date for rid, d in details.items()}
    enriched["technology"] = enriched["id"].map(technology)
    enriched["queueDate"] = pd.to_datetime(enriched["id"].map(queue_date), errors="coerce")
    return enriched


def options(frame: pd.DataFrame, column: str) -> list[str]:
    """Return the distinct non-empty values of a column, sorted, for a filter's choices."""
    values = pd.unique(frame[column].dropna().astype(str)).tolist()
    return sorted((value for value in values if value.strip()), key=str.casefold)


def _in(column: pd.Series, chosen: tuple[str, ...]) -> pd.Series:
    folded = {value.casefold() for value in chosen}
    return column.fillna("").astype(str).str.casefold().isin(folded)


def filter_queue(frame: pd.DataFrame, filters: QueueFilters) -> pd.DataFrame:
    """Return the rows that pass every filter; a row without a value fails a bound on it."""
    keep = pd.Series(True, index=frame.index)
    for column, chosen in (
        ("state", filters.states),
        ("county", filters.counties),
        ("status", filters.statuses),
        ("market", filters.markets),
        ("technology", filters.technologies),
    ):
        if chosen:
            keep &= _in(frame[column], chosen)
    mw = frame["requestedCapacityMw"]
    if filters.min_mw is not None:
        keep &= mw >= filters.min_mw
    if filters.max_mw is not None:
        keep &= mw <= filters.max_mw
    proposed = frame["proposedDate"]
    if filters.proposed_from is not None:
        keep &= proposed >= pd.Timestamp(filters.proposed_from)
    if filters.proposed_to is not None:
        keep &= proposed <= pd.Timestamp(filters.proposed_to)
    return frame[keep]


def mw_by(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    """Return requested MW and record counts grouped by a column (missing values as "unknown")."""
    keys = frame[column].fillna("unknown").astype(str).replace("", "unknown")
    grouped = (
        frame.assign(**{column: keys})
        .groupby(column, dropna=False)
        .agg(mw=("requestedCapacityMw", "sum"), records=("id", "count"))
        .reset_index()
        .sort_values(["mw", column], ascending=[False, True])
    )
    return grouped.reset_index(drop=True)


def entries_by_year(frame: pd.DataFrame, date_column: str) -> pd.DataFrame:
    """Return queue entries and their MW per year of `date_column`, rows without a date left out."""
    # the three columns it counts: a copy of the whole queue (150,000 rows at scale 100) took
    # 0.3 s of every run
    dated = frame[[date_column, "id", "requestedCapacityMw"]].dropna(subset=[date_column])
    years = dated[date_column].dt.year.astype(int)
    grouped = (
        dated.assign(year=years)
        .groupby("year")
        .agg(records=("id", "count"), mw=("requestedCapacityMw", "sum"))
        .reset_index()
    )
    return grouped


def details_rows(details: QueueRecordDetails) -> list[tuple[str, str]]:
    """Return a record's details as labelled pairs, the capacity components joined as MW."""
    labels = {
        "queue_date": "Queue date",
        "online_date": "Online date",
        "withdrawn_date": "Withdrawn date",
        "interconnection_agreement_date": "Interconnection agreement date",
        "study_phase_original": "Study phase (as published)",
        "study_phase_normalized": "Study phase (normalized)",
        "county_fips": "County FIPS",
        "region_original": "Region (as published)",
        "utility_name": "Utility",
        "transmission_entity": "Transmission entity",
        "developer": "Developer",
        "cluster": "Cluster",
        "service_type": "Service type",
        "project_type": "Project type",
        "technology": "Technology",
    }
    pairs = []
    for name, label in labels.items():
        value = getattr(details, name)
        pairs.append((label, "" if value is None else str(value)))
    components = details.capacity_components_mw or []
    pairs.append(("Capacity components", ", ".join(f"{mw:g} MW" for mw in components)))
    return pairs


# Drawing -----------------------------------------------------------------------------------


def draw_filters(queue: QueueList) -> QueueFilters:
    """Draw the list filters (kept in the URL) and return them; technology comes later."""
    frame, choices = queue.frame, queue.choices
    top = st.columns(4)
    with top[0]:
        states = filters.multiselect("State", choices["state"], "state", scope="queue")
    county_choices = choices["county"]
    if states:
        county_choices = options(frame[_in(frame["state"], tuple(states))], "county")
    with top[1]:
        counties = filters.multiselect("County", county_choices, "county", scope="queue")
    with top[2]:
        statuses = filters.multiselect(
            "Status now",
            choices["status"],
            "status",
            scope="queue",
            # the table's words; the address keeps the code (`?status=not_listed`)
            format_func=lambda code: glossary.label("status", code),
        )
    with top[3]:
        markets = filters.multiselect("Market", choices["market"], "market", scope="queue")
    with filters.more_filters(("min_mw", "max_mw", "from", "to"), scope="queue"):
        min_mw = filters.number_input("Min MW", "min_mw", min_value=0.0, step=10.0, scope="queue")
        max_mw = filters.number_input("Max MW", "max_mw", min_value=0.0, step=10.0, scope="queue")
        proposed_from = filters.date_input("Proposed date from", "from", scope="queue")
        proposed_to = filters.date_input("Proposed date to", "to", scope="queue")
    return QueueFilters(
        states=tuple(states),
        counties=tuple(counties),
        statuses=tuple(statuses),
        markets=tuple(markets),
        min_mw=min_mw,
        max_mw=max_mw,
        proposed_from=proposed_from,
        proposed_to=proposed_to,
    )


def draw_technology(conn: ConnectionKey, filtered: pd.DataFrame) -> pd.DataFrame:
    """Offer technology and queue date from the records' details when the set is small enough."""
    count = len(filtered)
    affordable = 0 < count <= DETAILS_BUDGET
    help_text = (
        "Technology and queue date are not in the queue list; they are in each record's "
        f"details, one request per record. Available for at most {DETAILS_BUDGET} records."
    )
    wanted = filters.toggle(
        f"Load technology and queue date for these {count:,} records",
        "details",
        disabled=not affordable,
        help=help_text,
        scope="queue",
    )
    if not affordable:
        st.caption(
            f"Technology and queue date are in each record's details: narrow the filters to "
            f"{DETAILS_BUDGET} records or fewer to load them. "
            "Until then the charts use the list's fields: status, market, MW, proposed date."
        )
        return filtered
    if not wanted:
        return filtered
    ids = filtered["id"].tolist()
    details = data.queue_details_of(conn, ids)
    enriched = with_details(filtered, details)
    chosen = filters.multiselect(
        "Technology", options(enriched, "technology"), "technology", scope="queue"
    )
    return filter_queue(enriched, QueueFilters(technologies=tuple(chosen)))


def _mw_chart(filtered: pd.DataFrame, column: str) -> Any:
    grouped = mw_by(filtered, column)
    grouped[column] = glossary.in_words(grouped[column], column)  # as the table names them
    return charts.bar(
        grouped,
        category=column,
        value="mw",
        title=f"Requested MW by {column}",
        unit="MW",
    )


def draw_charts(filtered: pd.DataFrame) -> None:
    """Draw MW by status and by technology (by market until details are loaded), and
    entries per year."""
    left, middle, right = st.columns(3)
    left.altair_chart(_mw_chart(filtered, "status"), width="stretch")
    has_technology = filtered["technology"].notna().any()
    middle.altair_chart(
        _mw_chart(filtered, "technology" if has_technology else "market"), width="stretch"
    )
    if not has_technology:
        middle.caption("By technology once details are loaded (toggle above).")
    date_column = "queueDate" if filtered["queueDate"].notna().any() else "proposedDate"
    label = "queue date" if date_column == "queueDate" else "proposed date"
    right.altair_chart(
        charts.yearly(
            entries_by_year(filtered, date_column),
            value="records",
            title=f"Entries by year of {label}",
            unit="Records",
        ),
        width="stretch",
    )


def table_config() -> dict[str, Any]:
    """Column configs of the queue table: MW, dates, the evidence link, provenance."""
    return {
        **provenance_config(),
        "id": st.column_config.TextColumn("Record id"),
        "projectName": st.column_config.TextColumn("Project"),
        "pointOfInterconnection": st.column_config.TextColumn("Point of interconnection"),
        "status": st.column_config.TextColumn(
            "Status now", help="The newest source's word on the project"
        ),
        "statusDate": st.column_config.TextColumn("Status date"),
        "statusSource": st.column_config.TextColumn(
            "Status source", help="The file, sheet and row that say the status now"
        ),
        "sourceStatus": st.column_config.TextColumn(
            "Status in its source", help="What this record's own source said (history)"
        ),
        "countsAsActive": st.column_config.CheckboxColumn(
            "Counts as active", help="Active by the newest source's word, counted once"
        ),
        "requestedCapacityMw": mw_column("Requested"),
        "proposedDate": st.column_config.DateColumn("Proposed date"),
        "queueDate": st.column_config.DateColumn("Queue date"),
        "evidenceUrl": link_column("Evidence"),
    }


def draw_table(filtered: pd.DataFrame, table: ShownTable | None = None) -> str | None:
    """Draw the records; return the id of the selected one (kept in the URL as `record`).

    `table` is the whole list's table (`QueueList.table`) when `filtered` is a selection of
    its rows; None when the rows carry more (technology from the details): made here then.
    """
    shown = filtered.reset_index(drop=True)
    table = table or shown_table(filtered, table_config())
    order = draw_column_chooser(
        "queue.table", KEY_QUEUE_COLUMNS, list(table.data.columns), table.column_config
    )
    event = show_rows(
        table,
        filtered.index,
        column_order=order,
        noun="queue records",
        file_name="queue-records.csv",
        hide_index=True,
        on_select="rerun",
        selection_mode="single-row",
        key="queue.table",
    )
    rows = list(getattr(getattr(event, "selection", None), "rows", None) or [])
    if rows and rows[0] < len(shown):
        selected = str(shown.loc[rows[0], "id"])
        if st.query_params.get("record") != selected:
            st.query_params["record"] = selected
        return selected
    return st.query_params.get("record") or None


def draw_record(conn: ConnectionKey, record: QueueRecord) -> None:
    """Draw one record: its details and its source evidence with the row as it was."""
    record_id = str(record.id)
    # Headings and captions are markdown: the source's text is escaped so it stays text.
    st.subheader(escape_markdown(str(record.project_name or record_id)))
    st.caption(
        escape_markdown(
            f"Record {record_id} · {glossary.label('market', record.market)} · "
            f"{record.county or ''}, {record.state or ''} · "
            f"observed {glossary.when(record.observed_at) or 'at an unknown time'}"
        )
    )
    now = status_now(record)
    st.markdown(
        escape_markdown(
            f"Status now: {now['status'] or 'unknown'}"
            f" ({now['statusDate'] or 'date not stated'}, {now['statusSource'] or 'no source'})"
            f" · its source says: {now['sourceStatus'] or 'nothing'}"
        )
    )
    details = data.queue_details(conn, record_id)
    evidence = data.queue_evidence(conn, record_id)
    left, right = st.columns(2)
    with left:
        st.markdown("**Details**")
        show_table(
            **glossary.table(pd.DataFrame(details_rows(details), columns=["", "value"])),
            hide_index=True,
        )
        details_evidence = details.evidence or QueueDetailsEvidence()
        authority = glossary.words(details_evidence.authority or "an unnamed authority")
        assertion = glossary.words(details_evidence.assertion_type or "assertion type not stated")
        st.caption(
            escape_markdown(
                f"Details from {authority.lower()} ({assertion.lower()})"
                f" · {details_evidence.source_locator or ''}"
            )
        )
        draw_flags(record.quality_flags)
    with right:
        st.markdown("**Evidence**")
        draw_queue_evidence(evidence)
