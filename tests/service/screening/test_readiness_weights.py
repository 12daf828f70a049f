"""Readiness tells sites apart by what is local to them: the market's supply margin, the same
for every site of a market, weighs less than each local factor (on real data it once decided
the level of every ERCOT site alike)."""

from __future__ import annotations

import pytest
from demo_store import demo_store_copy

from gridservice.demo import DEMO_POINTS
from gridservice.screening import screen_site
from gridservice.store.db import connect

SITE = {"requestedPeakLoadMw": 100.0, "serviceVoltageKv": 138.0}


@pytest.fixture(scope="module")
def assessments(tmp_path_factory) -> dict[str, dict]:
    """The demo's two served points screened once: one utility and a long queue in its
    county against two overlapping utilities and a shorter queue in another."""
    conn = connect(demo_store_copy(tmp_path_factory.mktemp("demo") / "demo.db"))
    try:
        return {
            point: screen_site(
                conn,
                {
                    **SITE,
                    "id": f"site_{point}",
                    "location": dict(
                        zip(("latitude", "longitude"), DEMO_POINTS[point], strict=True)
                    ),
                },
                assessment_id=f"asm_{point}",
                tenant_id="demo-alpha",
                created_at="2025-11-01T00:00:00Z",
            )
            for point in ("dual_certified", "single_territory")
        }
    finally:
        conn.close()


def severities(assessment: dict) -> dict[str, str]:
    return {f["factor"]: f["severity"] for f in assessment["readiness"]["findings"]}


def test_sites_with_different_local_findings_get_different_scores(assessments):
    dual, single = (assessments[p] for p in ("dual_certified", "single_territory"))
    # one market, one market-wide finding; the local findings differ
    assert dual["readiness"]["findings"] and single["readiness"]["findings"]
    market = [
        next(f["finding"] for f in a["readiness"]["findings"] if f["factor"] == "market_adequacy")
        for a in (dual, single)
    ]
    assert market[0] == market[1]
    assert "same for every site" in market[0]
    local = {f: s for f, s in severities(dual).items() if f != "market_adequacy"}
    assert local != {f: s for f, s in severities(single).items() if f != "market_adequacy"}
    scores = [a["readiness"]["frictionScore"] for a in (dual, single)]
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores[0] != scores[1]


def test_the_market_wide_factor_weighs_less_than_each_local_one_and_the_summary_says_so(
    assessments,
):
    for assessment in assessments.values():
        weights = {w["factor"]: w for w in assessment["readiness"]["weights"]}
        market = weights.pop("market_adequacy")
        assert market["scope"] == "market_wide"
        assert {w["scope"] for w in weights.values()} == {"local"}
        assert all(market["weight"] < w["weight"] for w in weights.values())
        summary = assessment["readiness"]["summary"]
        assert f"Friction score {assessment['readiness']['frictionScore']:.2f}" in summary
        assert "the same for every site of the market" in summary


def test_a_local_factor_at_high_friction_is_not_averaged_away(assessments):
    single = assessments["single_territory"]
    assert "high" in {s for f, s in severities(single).items() if f != "market_adequacy"}
    assert single["readiness"]["level"] in ("moderate_friction", "high_friction")
