"""The data quality page: the methodology word for word, runs, rejections, the release."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "data_quality.py")


def test_quality_report_and_release_are_shown(service_env, alpha_client):
    report = alpha_client.quality()
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    note = re.sub(r"\\(.)", r"\1", at.info[0].value)
    assert note == report.methodology.note
    assert "not independent field-accuracy validation" in note
    runs = at.dataframe[0].value
    assert runs["rejectedRecords"].sum() == sum(run.rejected_records for run in report.data)
    rejections = at.dataframe[1].value
    expected = [
        "; ".join(rejection["reasons"] if isinstance(rejection, dict) else rejection.reasons)
        for run in report.data
        for rejection in run.rejections
    ]
    assert rejections["reasons"].tolist() == expected
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["title"] == "Records per check"
    release = dict(at.dataframe[-1].value.values.tolist())
    assert release["Release id"] == alpha_client.release().release_id
