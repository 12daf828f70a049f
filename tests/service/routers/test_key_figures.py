"""An assessment's key figures are the service's one definition of the tightest reserve
margin: the assessment and the portfolio listing give the same MW and share of peak, and both
are what the stored capacity and peak facts work out to."""

from __future__ import annotations

import json

from test_assessment_summaries import DEMO_ALPHA, create_site, listing, screen


def stored_margins(conn, market: str) -> dict[str, tuple[float, float, float]]:
    """Return {period: (capacity less peak, that over peak, need)} of the market's current base
    facts, worked out here from the stored rows."""
    values: dict[tuple[str, str], float] = {}
    for (body,) in conn.execute(
        "SELECT body FROM facts WHERE market = ? AND known_to IS NULL", (market,)
    ):
        fact = json.loads(body)
        if fact.get("scenario") == "base" and fact.get("unit") == "MW":
            values[(fact["predicate"], fact["period"])] = float(fact["value"])
    margins = {}
    for (predicate, period), peak in values.items():
        capacity = values.get(("summer_firm_capacity", period))
        if predicate != "summer_peak_demand_forecast" or capacity is None:
            continue
        need = values.get(("planning_reserve_requirement", period), 0.15 * peak)
        margins[period] = (capacity - peak, (capacity - peak) / peak, need)
    return margins


def test_the_assessment_and_the_portfolio_give_the_same_margin_the_facts_work_out_to(
    demo_with_db,
):
    client, conn = demo_with_db
    site_id = create_site(client, DEMO_ALPHA)
    assessment_id = screen(client, site_id, DEMO_ALPHA)
    response = client.get(f"/v1/assessments/{assessment_id}", headers=DEMO_ALPHA)
    whole = response.json()["data"]["keyFigures"]["tightestReserveMargin"]
    listed = listing(client, DEMO_ALPHA, "latest_assessment_summary")[site_id]
    summary = listed["latestAssessmentSummary"]["tightestReserveMargin"]
    assert (summary["marginMw"], summary["shareOfPeak"]) == (
        whole["marginMw"],
        whole["shareOfPeak"],
    )

    margins = stored_margins(conn, whole["market"])
    assert len(margins) > 1  # a choice between periods was made
    period = min(margins, key=lambda p: (margins[p][0] - margins[p][2], p))
    margin_mw, share, _ = margins[period]
    assert whole["period"] == period
    assert whole["marginMw"] == round(margin_mw, 1)
    assert whole["shareOfPeak"] == round(share, 4)
    # the caption's words come from these: firm capacity against the summer peak forecast
    assert (whole["supplyPredicate"], whole["peakPredicate"]) == (
        "summer_firm_capacity",
        "summer_peak_demand_forecast",
    )


def test_the_queue_history_carries_its_firm_mw(demo_with_db):
    client, _ = demo_with_db
    site_id = create_site(client, DEMO_ALPHA)
    assessment_id = screen(client, site_id, DEMO_ALPHA)
    history = client.get(f"/v1/assessments/{assessment_id}", headers=DEMO_ALPHA).json()["data"][
        "queueHistory"
    ]
    firm = [
        g["mw"] for g in history["byFirmness"] if g["firmness"] in ("security_ntp", "ia_signed")
    ]
    assert firm and history["firmMw"] == sum(firm) > 0
