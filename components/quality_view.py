"""The harvest-quality report and the release identity, shaped for tables and charts."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

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
    "sourceId",
    "observedAt",
    "inputRecords",
    "acceptedRecords",
    "rejectedRecords",
    "unchangedAsset",
]
RUN_IDENTITY_TABLE = ["runId", "assetHash"]
REJECTION_TABLE = ["sourceLocator"]
RELEASE_FIELDS = [
    ("releaseId", "Release id"),
    ("dataSnapshotSha256", "Data snapshot (SHA-256)"),
    ("releaseReportSha256", "Release report (SHA-256)"),
    ("buildReference", "Build reference"),
    ("buildArtifactSha256", "Build artifact (SHA-256)"),
    ("migrationHead", "Migration head"),
    ("openApiSha256", "OpenAPI document (SHA-256)"),
    ("policySha256", "Policy (SHA-256)"),
    ("contentFingerprint", "Content fingerprint"),
    ("productionRevision", "Production revision"),
    ("validUntil", "Valid until"),
    ("deploymentId", "Deployment id"),
]


def runs_frame(runs: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return harvest runs with input, accepted and rejected counts."""
    frame = pd.DataFrame(
        [{c: run.get(c) for c in RUN_COLUMNS} for run in runs], columns=RUN_COLUMNS
    )
    return frame


def rejections_frame(runs: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """Return every rejected record of every run: run, source, locator and its reasons."""
    rows = [
        {
            "runId": run.get("runId"),
            "sourceId": run.get("sourceId"),
            "sourceLocator": rejection.get("sourceLocator"),
            "reasons": "; ".join(rejection.get("reasons") or []),
        }
        for run in runs
        for rejection in (run.get("rejections") or [])
    ]
    return pd.DataFrame(rows, columns=["runId", "sourceId", "sourceLocator", "reasons"])


def readable(name: str) -> str:
    """Return a camelCase count name as words: `missingCounty` -> `missing county`."""
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def counts_frame(counts: Mapping[str, Any] | None, *, total_key: str | None = None) -> pd.DataFrame:
    """Return integer counts as (check, count) rows, largest first, leaving out the total."""
    rows = [
        {"check": readable(name), "count": value, "key": name}
        for name, value in (counts or {}).items()
        if name != total_key and isinstance(value, int | float) and not isinstance(value, bool)
    ]
    frame = pd.DataFrame(rows, columns=["check", "count", "key"])
    return frame.sort_values(["count", "check"], ascending=[False, True]).reset_index(drop=True)


def join_coverage(joins: Mapping[str, Any] | None) -> pd.DataFrame:
    """Return the join counts and coverages as (measure, value) rows in the report's order."""
    return pd.DataFrame(
        [{"measure": readable(k), "value": v, "key": k} for k, v in (joins or {}).items()],
        columns=["measure", "value", "key"],
    )


def release_rows(release: Mapping[str, Any] | None) -> pd.DataFrame:
    """Return the release identity as labelled rows, the documented fields first, then any other."""
    release = dict(release or {})
    rows = [(label, release.pop(key, None)) for key, label in RELEASE_FIELDS]
    rows += [(readable(k), v) for k, v in release.items()]
    return pd.DataFrame(
        [{"field": f, "value": "" if v is None else str(v)} for f, v in rows],
        columns=["field", "value"],
    )


def runs_config() -> dict[str, Any]:
    """Column configs of the harvest-run tables: short labels, narrow counts."""
    import streamlit as st

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
    }


def rejection_groups(rejections: pd.DataFrame) -> list[tuple[str, str, str, pd.DataFrame]]:
    """Return (run id, source id, reasons, the locators rejected for them), in first-seen order.

    A harvest rejects many rows for the same reasons; naming the reasons once over their
    locators keeps both whole at 1280 px, where locator and reasons side by side did not fit.
    """
    keys = ["runId", "sourceId", "reasons"]
    return [
        (str(run_id), str(source_id), str(reasons), group.reset_index(drop=True))
        for (run_id, source_id, reasons), group in rejections.groupby(keys, sort=False)
    ]


def table_height(rows: int) -> int:
    """Return a dataframe height in pixels that shows every row without an inner scroll bar."""
    return 35 * (rows + 1) + 3
