"""The data quality page: the methodology word for word, runs, rejections, the release."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "data_quality.py")


def test_quality_report_and_release_are_shown(service_env, alpha_client):
    report = alpha_client.quality()
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    note = re.sub(r"\\(.)", r"\1", at.info[0].value)
    assert note == report.methodology.note
    assert "not independent field-accuracy validation" in note
    runs = at.dataframe[0].value
    assert "rejectedRecords" in at.dataframe[0].proto.column_order
    assert runs["rejectedRecords"].sum() == sum(run.rejected_records for run in report.data)
    # Each run names its source as the service's publisher field does; the source id sits
    # with the run ids and nowhere else.
    assert all(run.publisher for run in report.data)
    for shown, run in zip(runs["source"], report.data, strict=True):
        assert shown.startswith(run.publisher.removesuffix(" (demo)")), (shown, run.source_id)
        assert run.source_id not in shown
    identities = at.dataframe[1]
    assert list(identities.proto.column_order) == ["runId", "sourceId", "assetHash"]
    assert identities.value["sourceId"].tolist() == [run.source_id for run in report.data]
    assert identities.value["assetHash"].tolist() == [run.asset_hash for run in report.data]
    # Every rejection's locator is listed under a caption naming its run and its reasons.
    captions = [re.sub(r"\\(.)", r"\1", c.value) for c in at.caption]
    listed = [
        (caption, frame.value["sourceLocator"].tolist())
        for caption, frame in zip(
            [c for c in captions if " rejected: " in c],
            [f for f in at.dataframe if list(f.proto.column_order) == ["sourceLocator"]],
            strict=True,
        )
    ]
    rejections = [(run, rejection) for run in report.data for rejection in run.rejections]
    assert sum(len(locators) for _, locators in listed) == len(rejections)
    for run, rejection in rejections:
        rejection = (
            rejection if isinstance(rejection, dict) else rejection.model_dump(by_alias=True)
        )
        heading = f"{run.publisher.removesuffix(' (demo)')}"
        reasons = "; ".join(rejection["reasons"])
        assert any(
            caption.startswith(heading)
            and f" · run {run.run_id} · " in caption
            and run.source_id not in caption.partition(" · run ")[0]
            and caption.endswith(f" rejected: {reasons}")
            and rejection["sourceLocator"] in locators
            for caption, locators in listed
        ), rejection
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["title"] == "Records per check"
    release = dict(at.dataframe[-1].value.values.tolist())
    assert release["Release id"] == alpha_client.release().release_id


def test_rejections_are_grouped_by_run_and_reasons_in_first_seen_order():
    from components import quality_view
    from gridclient.models import HarvestRun

    runs = [
        {
            "runId": "r1",
            "sourceId": "s1",
            "rejections": [
                {"sourceLocator": "row 3", "reasons": ["bad date"]},
                {"sourceLocator": "row 4", "reasons": ["no county", "bad MW"]},
                {"sourceLocator": "row 9", "reasons": ["bad date"]},
            ],
        },
        {"runId": "r2", "sourceId": "s2", "rejections": []},
    ]
    runs = [HarvestRun.model_validate(run) for run in runs]
    groups = quality_view.rejection_groups(quality_view.rejections_frame(runs))
    assert [
        (run, source, reasons, g["sourceLocator"].tolist())
        for run, source, _name, reasons, g in groups
    ] == [
        ("r1", "s1", "bad date", ["row 3", "row 9"]),
        ("r1", "s1", "no county; bad MW", ["row 4"]),
    ]


def test_datasets_held_and_missing_are_listed(service_env, alpha_client):
    report = alpha_client.quality().model_dump(by_alias=True, mode="json")
    datasets = report["quality"]["datasets"]
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    [table] = [f for f in at.dataframe if list(f.proto.column_order)[:2] == ["label", "status"]]
    shown = dict(zip(table.value["label"], table.value["status"], strict=True))
    assert shown == {d["label"]: d["status"] for d in datasets}
    lacking = [d["label"] for d in datasets if d["status"] != "held"]
    warnings = [re.sub(r"\\(.)", r"\1", w.value) for w in at.warning]
    if lacking:
        assert any(all(label in w for label in lacking) for w in warnings)
    else:
        assert not any("Not in this store" in w for w in warnings)
