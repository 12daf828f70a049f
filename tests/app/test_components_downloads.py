"""The two downloads hand over the service's bytes unchanged, under the right file names."""

from __future__ import annotations

import json

import pandas as pd

from components.downloads import csv_download, packet_download
from gridclient import AssessmentExport


def test_packet_keeps_the_served_bytes_and_is_named_by_case_id():
    # Odd spacing and key order: re-serialising would change these bytes.
    raw = b'{"data": {"caseId": "case-7f3a", "reviewStatus":"unreviewed"},\n "meta": {}}'
    download = packet_download(raw)
    assert download.data is raw
    assert download.file_name == "case-7f3a.json"
    assert download.mime == "application/json"


def test_packet_name_is_made_safe_for_a_file_system():
    raw = json.dumps({"data": {"caseId": "../etc/pass wd"}}).encode()
    assert packet_download(raw).file_name == "etc_pass_wd.json"


def test_csv_is_the_content_encoded_utf8_unchanged():
    content = "field,value\r\nutility,Énergie du Sud\r\nnote,'=SUM(A1)\r\n"
    export = AssessmentExport.model_validate(
        {"id": "exp_1", "assessmentId": "asm_9", "content": content}
    )
    download = csv_download(export)
    assert download.data == content.encode("utf-8")
    assert download.file_name == "assessment-asm_9.csv"
    assert download.mime == "text/csv"


def test_a_drawn_table_neutralises_every_formula_cell_as_the_service_export_does():
    from components.tables import formula_safe

    hostile = ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx"]
    frame = pd.DataFrame(
        {
            "text": [*hostile, "plain"],
            "=name": ["a"] * 7,
            "mw": [-1.5, 2, 3, 4, 5, 6, 7],
            "typed": pd.Series(["plain"] * 6 + ["=HYPERLINK(1)"], dtype="string"),
            "mixed": [None, 1, ["=x"], "ok", "-3", 2.5, "fine"],
        }
    )
    safe = formula_safe(frame)
    assert safe["text"].tolist() == ["'" + cell for cell in hostile] + ["plain"]
    assert safe["typed"].tolist() == ["plain"] * 6 + ["'=HYPERLINK(1)"]
    assert safe["mixed"].tolist() == [None, 1, ["=x"], "ok", "'-3", 2.5, "fine"]
    assert list(safe.columns) == ["text", "'=name", "mw", "typed", "mixed"]
    assert safe["mw"].tolist() == frame["mw"].tolist()  # numbers are numbers, not text
    assert frame["text"].tolist()[0] == "=1+1"  # the caller's frame is left as it was
