"""The portfolio listing `GET /v1/sites?include=latest_assessment_summary`: each site's summary
holds the figures its whole assessment gives, the "changed since" mark is the full listing's,
another tenant's sites never appear, and an assessment stored without a summary still lists."""

from __future__ import annotations

import service_calls
from service_calls import create_assessment
from service_support import ALPHA, BETA
from test_service_sites import SITE

from gridservice.demo.portfolio import SEEDED_SITE_ID

DEMO_ALPHA = {"Authorization": "Bearer gds_demo_alpha"}


def listing(client, headers, include: str) -> dict[str, dict]:
    response = client.get("/v1/sites", params={"include": include, "limit": 500}, headers=headers)
    assert response.status_code == 200, response.text
    return {s["id"]: s for s in response.json()["data"]}


def figures_of(assessment: dict) -> dict:
    """The summary's figures, read from the whole assessment as an analyst would."""
    history = assessment.get("queueHistory")
    key_figures = assessment.get("keyFigures") or {}
    margin, plant = key_figures.get("tightestReserveMargin"), key_figures.get("nearestPlant")
    firm_groups = [g for g in (history or {}).get("byFirmness", []) if g["firmness"] != "neither"]
    return {
        "assessmentId": assessment["id"],
        "createdAt": assessment["createdAt"],
        "readiness": assessment["readiness"]["level"],
        "territoryCandidates": len(assessment["serviceTerritoryCandidates"] or []),
        "queue": history
        and {
            "reportMonth": history["report"]["reportMonth"] if history.get("report") else None,
            "countyFips": history["countyFips"],
            "activeProjects": history["activeProjects"],
            "activeMw": history["activeMw"],
            "firmMw": sum(g["mw"] for g in firm_groups),
        },
        "tightestReserveMargin": margin
        and {k: margin[k] for k in ("market", "period", "marginMw", "shareOfPeak")},
        "nearestPlant": plant and {k: plant[k] for k in ("plantName", "distanceKm", "capacityMw")},
    }


def assert_summaries_match_whole_assessments(client, headers) -> dict[str, dict]:
    slim = listing(client, headers, "latest_assessment_summary")
    whole = listing(client, headers, "latest_assessment")
    assert slim.keys() == whole.keys()
    for site_id, site in slim.items():
        full = whole[site_id]
        assert site["newerDataSinceAssessment"] == full["newerDataSinceAssessment"]
        assert "latestAssessment" not in site
        if full["latestAssessment"] is None:
            assert site["latestAssessmentSummary"] is None
        else:
            assert site["latestAssessmentSummary"] == figures_of(full["latestAssessment"])
        members = ("latestAssessmentSummary", "newerDataSinceAssessment")
        assert {k: v for k, v in site.items() if k not in members} == {
            k: v for k, v in full.items() if k not in ("latestAssessment", *members)
        }
    return slim


def create_site(client, headers) -> str:
    return service_calls.create_site(client, headers, SITE)["id"]


def screen(client, site_id: str, headers) -> str:
    return create_assessment(client, headers, site_id)["id"]


def test_each_summary_holds_its_whole_assessments_figures_and_no_other_tenants(client):
    unscreened, screened = create_site(client, BETA), create_site(client, BETA)
    screen(client, screened, BETA)
    newest = screen(client, screened, BETA)
    alpha_site = create_site(client, ALPHA)
    screen(client, alpha_site, ALPHA)
    beta = assert_summaries_match_whole_assessments(client, BETA)
    assert beta[screened]["latestAssessmentSummary"]["assessmentId"] == newest
    assert beta[unscreened]["latestAssessmentSummary"] is None
    assert beta[unscreened]["newerDataSinceAssessment"] is None
    assert alpha_site not in beta
    alpha = assert_summaries_match_whole_assessments(client, ALPHA)
    assert screened not in alpha and unscreened not in alpha
    for site in alpha.values():
        summary = site["latestAssessmentSummary"]
        if summary:  # every listed summary is one of the tenant's own assessments
            own = client.get(f"/v1/assessments/{summary['assessmentId']}", headers=ALPHA)
            assert own.status_code == 200


def test_the_summary_listing_is_declared_an_extension(client):
    document = client.get("/v1/openapi.json").json()
    parameter = next(
        p for p in document["paths"]["/v1/sites"]["get"]["parameters"] if p["name"] == "include"
    )
    assert parameter["schema"]["x-extension"] is True
    values = {v for option in parameter["schema"]["anyOf"] for v in option.get("enum", [])}
    assert values == {"latest_assessment", "latest_assessment_summary"}
    assert "SiteWithAssessmentSummary" in document["components"]["schemas"]
    assert "latest_assessment_summary" in parameter["description"]


def test_the_demo_portfolio_lists_slim_and_marks_the_seeded_site(demo_with_db):
    client, _ = demo_with_db
    slim = assert_summaries_match_whole_assessments(client, DEMO_ALPHA)
    assert slim[SEEDED_SITE_ID]["newerDataSinceAssessment"]["changed"] is True
    whole_size = len(
        client.get("/v1/sites", params={"include": "latest_assessment"}, headers=DEMO_ALPHA).content
    )
    slim_size = len(
        client.get(
            "/v1/sites", params={"include": "latest_assessment_summary"}, headers=DEMO_ALPHA
        ).content
    )
    assert slim_size * 20 < whole_size


def test_an_assessment_stored_without_a_summary_is_summarised_when_listed(demo_with_db):
    # A store written before summaries were kept holds assessments without one.
    client, conn = demo_with_db
    site_id = create_site(client, DEMO_ALPHA)
    screen(client, site_id, DEMO_ALPHA)
    before = listing(client, DEMO_ALPHA, "latest_assessment_summary")
    with conn:
        removed = conn.execute("DELETE FROM assessment_summaries WHERE site_id = ?", (site_id,))
    assert removed.rowcount == 1
    after = assert_summaries_match_whole_assessments(client, DEMO_ALPHA)
    assert after[site_id] == before[site_id]
