"""Sources named the way their publishers name them, from the fields the service sends."""

from __future__ import annotations

import pandas as pd

from components import glossary
from components.sources import source_name, source_title, source_tooltip
from gridclient import QueueRecord

LOCATOR = "GIS_Report_November2025.xlsx#Project Details - Large Gen!R36"


def queue_record(publisher: str | None, edition: str | None) -> QueueRecord:
    return QueueRecord.model_validate(
        {
            "id": "r1",
            "sourceId": "ercot_gis_report",
            "sourceLocator": LOCATOR,
            "evidence": {"publisher": publisher, "edition": edition, "row": 36},
        }
    )


def test_the_title_is_the_publisher_and_edition_the_service_sent():
    record = queue_record("ERCOT GIS report", "November 2025")
    assert record.evidence.row == 36
    assert source_title(record.evidence, record.source_id) == "ERCOT GIS report, November 2025"


def test_a_demo_title_keeps_demo_after_its_edition():
    evidence = {"publisher": "ERCOT GIS report (demo)", "edition": "September 2025"}
    assert source_title(evidence, "demo-ercot-gis") == "ERCOT GIS report, September 2025 (demo)"


def test_without_the_service_s_fields_the_source_is_named_by_its_id_not_its_locator():
    record = queue_record(None, None)
    assert source_title(record.evidence, record.source_id) == "ercot_gis_report"
    assert source_name(None) == "an unnamed source"


def test_the_tooltip_keeps_the_ids():
    tip = source_tooltip("ercot_gis_report", "GIS_Report_November2025.xlsx#X!R2")
    assert "Source id: ercot_gis_report" in tip and "GIS_Report_November2025.xlsx#X!R2" in tip


def test_tables_put_the_source_title_before_the_source_id():
    frame = pd.DataFrame(
        {
            "id": ["r1"],
            "source": [source_title(queue_record("ERCOT GIS report", "November 2025").evidence)],
            "sourceId": ["ercot_gis_report"],
            "sourceLocator": [LOCATOR],
        }
    )
    shown = glossary.table(frame)
    assert list(shown["data"].columns) == ["id", "source", "sourceId", "sourceLocator"]
    assert shown["data"]["source"].tolist() == ["ERCOT GIS report, November 2025"]
    assert shown["column_config"]["source"]["label"] == "Source"
    assert shown["column_config"]["sourceId"]["label"] == "Source id"
