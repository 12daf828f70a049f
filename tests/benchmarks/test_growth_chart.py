"""The chart of every target's figure at scales 1, 10 and 100: what it plots and its data."""

from __future__ import annotations

import json
import re

import pytest

from bench import growth_chart as gc

FIGURES = {
    "about": "",
    "scales": [1, 10, 100],
    "note": "a note",
    "figures": [
        {"name": "a time", "target": 300, "target_text": "< 300 ms", "better": "lower",
         "values": {"1": 30, "10": 150, "100": 600}},
        {"name": "a share", "target": 0.25, "target_text": ">= 25%", "better": "higher",
         "values": {"1": 0.5, "10": 0.25, "100": 0.125}},
    ],
}  # fmt: skip


def test_a_figure_is_drawn_as_the_share_of_its_target_it_uses():
    time, share = FIGURES["figures"]
    assert [gc.used(time, v) for v in (30, 300, 600)] == pytest.approx([0.1, 1.0, 2.0])
    # a throughput share: reaching twice the target uses half of it
    assert [gc.used(share, v) for v in (0.5, 0.25, 0.125)] == pytest.approx([0.5, 1.0, 2.0])
    assert gc.used(time, None) is None


def test_the_chart_has_a_line_per_figure_and_the_target_and_names_each_target():
    svg = gc.chart_svg(FIGURES)
    assert svg.count("<polyline") == len(FIGURES["figures"]) + 1
    assert "a time (target &lt; 300 ms)" in svg and "a share (target &gt;= 25%)" in svg
    assert 'stroke-dasharray="6 4"' in svg  # the target's line


def test_the_shipped_data_names_how_each_figure_was_measured():
    data = json.loads(gc.DEFAULT.read_text())
    scales = [str(s) for s in data["scales"]]
    for figure in data["figures"]:
        assert figure["better"] in {"lower", "higher"}
        assert sorted(figure["values"], key=int) == scales, figure["name"]
        assert figure["measured_by"].startswith("uv run python"), figure["name"]
        assert re.fullmatch(r"\d{1,2} \w{3} \d{4}", figure["when"]), figure["name"]
