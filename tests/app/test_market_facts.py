"""The market facts page: a restated value, time travel with known_at, uncalibrated evidence."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from components import glossary

PAGE = str(Path(__file__).resolve().parents[2] / "app_pages" / "market_facts.py")


def test_a_restated_value_changes_with_known_at(service_env, alpha_client):
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception and not at.error
    current = alpha_client.load_forecasts.list().to_list()
    restated = next(f for f in current if f.fact_version != "1")
    before = alpha_client.load_forecasts.list(
        market=restated.market, period=restated.period, known_at="2025-06-01T00:00:00Z"
    ).to_list()
    old = next(f for f in before if f.fact_key == restated.fact_key)
    assert old.value != restated.value
    restatement = next(m.value for m in at.markdown if m.value.startswith("Restated:"))
    assert f"{old.value:,.0f}" in restatement and f"{restated.value:,.0f}" in restatement

    at.date_input(key="filter:facts:known_at").set_value(dt.date(2025, 6, 1)).run()
    table = at.dataframe[0].value
    shown = at.dataframe[0].proto.column_order
    assert {"market", "measure", "period", "scenario", "value"} <= set(shown)
    row = table[
        (table["market"] == glossary.label_with_code("market", restated.market))
        & (table["measure"] == glossary.label("predicate", restated.predicate))
        & (table["period"] == restated.period)
        & (table["scenario"] == glossary.label("scenario", restated.scenario))
    ].iloc[0]
    assert row["value"] == old.value
    provenance = at.dataframe[1]
    assert {"row", "sourceId", "sourceLocator", "knownFrom"} <= set(provenance.proto.column_order)
    assert provenance.value.loc[row.name, "sourceLocator"] == old.evidence.source_locator
    captions = [re.sub(r"\\(.)", r"\1", c.value) for c in at.caption]
    flag = old.quality_flags[0]
    assert any(f"#{row['row']} " in c and glossary.words(flag.code) in c for c in captions)
    assert at.query_params["known_at"] in ("2025-06-01", ["2025-06-01"])
    evidence = dict(at.dataframe[-1].value.values.tolist())
    assert evidence["Page"] == str(old.evidence.page)
    assert evidence["Parser confidence (uncalibrated)"].endswith("uncalibrated, not an accuracy")
