"""The harvest-quality report and the release identity, shaped for tables and charts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pandas as pd
import streamlit as st

from components.sources import source_title
from components.tables import as_text, by_attribute, records_frame, sent_fields, snake_case
from gridclient.models import HarvestRun, QualitySummary, Release

RUN_COLUMNS = [
    "runId",
    "sourceId",
    "observedAt",
    "inputRecords",
    "acceptedRecords",
    "rejectedRecords",
    "unchangedAsset",
    "assetHash",
]
# What fits beside the sidebar at 1280 px: the counts per source in one table, run ids and
# asset hashes in a second, rejected locators under their run and reasons.
RUN_TABLE = [
    "source",
    "observedAt",
    "inputRecords",
    "acceptedRecords",
    "rejectedRecords",
    "unchangedAsset",
]
RUN_IDENTITY_TABLE = ["runId", "sourceId", "assetHash"]
REJECTION_TABLE = ["sourceLocator"]
RELEASE_FIELDS = [
    ("release_id", "Release id"),
    ("data_snapshot_sha256", "Data snapshot (SHA-256)"),
    ("release_report_sha256", "Release report (SHA-256)"),
    ("build_reference", "Build reference"),
    ("build_artifact_sha256", "Build artifact (SHA-256)"),
    ("migration_head", "Migration head"),
    ("open_api_sha256", "OpenAPI document (SHA-256)"),
    ("policy_sha256", "Policy (SHA-256)"),
    ("content_fingerprint", "Content fingerprint"),
    ("production_revision", "Production revision"),
    ("valid_until", "Valid until"),
    ("deployment_id", "Deployment id"),
]


def runs_frame(runs: Iterable[HarvestRun]) -> pd.DataFrame:
    """Return harvest runs with their source as its publisher names it, input, accepted and
    rejected counts."""
    return records_frame(runs, {"source": _run_source} | by_attribute(RUN_COLUMNS))


def _run_source(run: HarvestRun) -> str:
    return source_title(run, run.source_id)


def rejections_frame(runs: Iterable[HarvestRun]) -> pd.DataFrame:
    """Return every rejected record of every run: run, source, locator and its reasons."""
    rows = [
        {
            "runId": run.run_id,
            "sourceId": run.source_id,
            "source": _run_source(run),
            "sourceLocator": rejection.source_locator,
            "reasons": "; ".join(rejection.reasons or []),
        }
        for run in runs
        for rejection in (run.rejections or [])
    ]
    return pd.DataFrame(rows, columns=["runId", "sourceId", "source", "sourceLocator", "reasons"])


def readable(name: str) -> str:
    """Return a count's name as words: `missing_county` or `missingCounty` -> `missing county`."""
    return snake_case(name).replace("_", " ")


def counts_frame(counts: Any, *, total_key: str | None = None) -> pd.DataFrame:
    """Return a report section's integer counts as (check, count) rows, largest first,
    leaving out the total."""
    rows = [
        {"check": readable(name), "count": value, "key": name}
        for name, value in sent_fields(counts).items()
        if name != total_key and isinstance(value, int | float) and not isinstance(value, bool)
    ]
    frame = pd.DataFrame(rows, columns=["check", "count", "key"])
    return frame.sort_values(["count", "check"], ascending=[False, True]).reset_index(drop=True)


STATUS_DISAGREEMENT_COLUMNS = {
    "Record": "record_id",
    "Project": "project_name",
    "County": "county",
    "Requested MW": "requested_capacity_mw",
    "Its source says": "status",
    "Its source cell": "source_locator",
    "Newer source says": "status_now",
    "As of": "status_now_date",
    "Newer source cell": "status_now_source_locator",
}


def status_disagreements_frame(rows: Any) -> pd.DataFrame:
    """Return the records whose sources disagree on their status, with both locators."""
    frame = records_frame(rows or [], STATUS_DISAGREEMENT_COLUMNS)
    return frame.reindex(columns=list(STATUS_DISAGREEMENT_COLUMNS))


def join_coverage(joins: Any) -> pd.DataFrame:
    """Return the join counts and coverages as (measure, value) rows in the report's order."""
    return pd.DataFrame(
        [{"measure": readable(k), "value": v, "key": k} for k, v in sent_fields(joins).items()],
        columns=["measure", "value", "key"],
    )


def release_rows(release: Release | None) -> pd.DataFrame:
    """Return the release identity as labelled rows, the documented fields first, then any other."""
    rows = [(label, getattr(release, name, None)) for name, label in RELEASE_FIELDS]
    rows += [(readable(k), v) for k, v in ((release and release.model_extra) or {}).items()]
    return pd.DataFrame(
        [{"field": f, "value": as_text(v)} for f, v in rows],
        columns=["field", "value"],
    )


DATASET_TABLE = ["label", "status", "rows"]
HISTORY_TABLE = ["reportMonth", "fileName", "active", "inactive", "cancelled", "commissioned",
                 "missing"]  # fmt: skip


def datasets_frame(quality: QualitySummary) -> pd.DataFrame:
    """Return the datasets the store holds and lacks: missing first, then partial, then held."""
    order = {"missing": 0, "partial": 1, "held": 2}
    rows = sorted(quality.datasets or [], key=lambda d: order.get(d.status or "", 3))
    return pd.DataFrame(
        [
            {"label": d.label, "status": d.status, "rows": d.rows, "note": d.note or ""}
            for d in rows
        ],
        columns=[*DATASET_TABLE, "note"],
    )


def dataset_notes(quality: QualitySummary) -> list[str]:
    """Return 'Label (status): note' for every dataset with a note, missing ones first."""
    frame = datasets_frame(quality)
    return [f"{row.label} ({row.status}): {row.note}" for row in frame.itertuples() if row.note]


def lacking_datasets(quality: QualitySummary) -> str:
    """Return one sentence naming the missing and partial datasets, or '' when none."""
    datasets = quality.datasets or []
    parts = [
        f"{word}: " + ", ".join(str(d.label) for d in datasets if d.status == status)
        for status, word in (("missing", "Not in this store"), ("partial", "only in part"))
        if any(d.status == status for d in datasets)
    ]
    return "; ".join(parts) + (". See the datasets table below." if parts else "")


def history_frame(quality: QualitySummary) -> pd.DataFrame:
    """Return the harvested queue report months, newest first, with what each one lacks."""
    reports = (quality.queue_history or {}).get("reports") or []
    rows = [
        {**{c: r.get(c) for c in HISTORY_TABLE}, "missing": ", ".join(r.get("missing") or [])}
        for r in reversed(reports)
    ]
    return pd.DataFrame(rows, columns=HISTORY_TABLE)


def point_counts(quality: QualitySummary) -> dict[str, int]:
    """Return the interconnection points parsed from the queue's POI texts, by kind."""
    return (quality.queue_history or {}).get("interconnectionPoints") or {}


def runs_config() -> dict[str, Any]:
    """Column configs of the harvest-run tables: short labels, narrow counts."""
    count = {"format": "localized", "width": 76}
    return {
        "sourceId": st.column_config.TextColumn("Source id"),
        "observedAt": st.column_config.TextColumn("Observed at"),
        "inputRecords": st.column_config.NumberColumn("Input", **count),
        "acceptedRecords": st.column_config.NumberColumn("Accepted", **count),
        "rejectedRecords": st.column_config.NumberColumn("Rejected", **count),
        "unchangedAsset": st.column_config.CheckboxColumn("Unchanged asset", width=110),
        "runId": st.column_config.TextColumn("Run id"),
        "assetHash": st.column_config.TextColumn("Asset hash (SHA-256)"),
        "sourceLocator": st.column_config.TextColumn("Rejected record (locator)"),
        "label": st.column_config.TextColumn("Dataset"),
        "status": st.column_config.TextColumn("Status", width=70),
        "rows": st.column_config.NumberColumn("Rows", **count),
        "reportMonth": st.column_config.TextColumn("Month", width=70),
        "fileName": st.column_config.TextColumn("File"),
        "active": st.column_config.NumberColumn("Active", **count),
        "inactive": st.column_config.NumberColumn("Inactive", **count),
        "cancelled": st.column_config.NumberColumn("Cancelled", **count),
        "commissioned": st.column_config.NumberColumn("Commissioning", **count),
        "missing": st.column_config.TextColumn("Not in the source"),
    }


def rejection_groups(rejections: pd.DataFrame) -> list[tuple[str, str, str, str, pd.DataFrame]]:
    """Return (run id, source id, source name, reasons, the locators rejected for them), in
    first-seen order.

    A harvest rejects many rows for the same reasons; naming the reasons once over their
    locators keeps both whole at 1280 px, where locator and reasons side by side did not fit.
    """
    keys = ["runId", "sourceId", "source", "reasons"]
    return [
        (str(run_id), str(source_id), str(source), str(reasons), group.reset_index(drop=True))
        for (run_id, source_id, source, reasons), group in rejections.groupby(keys, sort=False)
    ]


def table_height(rows: int) -> int:
    """Return a dataframe height in pixels that shows every row without an inner scroll bar."""
    return 35 * (rows + 1) + 3
