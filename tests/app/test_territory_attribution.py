"""The Service territory page shows the polygons' licence attribution the service gave."""

from __future__ import annotations

from components.territory_view import polygon_attribution
from gridclient import ServiceTerritoryCandidate

ATTRIBUTION = "Contains HIFLD Electric Retail Service Territories and ISO boundaries via CommonGrid"


def candidate(method: str, evidence: dict) -> ServiceTerritoryCandidate:
    return ServiceTerritoryCandidate.model_validate(
        {"utilityId": "eia:1", "utility": "U", "resolutionMethod": method, "evidence": evidence}
    )


def test_the_attribution_of_a_polygon_candidate_is_shown_and_none_without_one():
    listed = candidate("eia861_county_listing", {"sourceId": "eia861_service_territory"})
    polygon = candidate("retail_territory_polygon", {"attribution": ATTRIBUTION})
    assert polygon_attribution([listed, polygon]) == ATTRIBUTION
    assert polygon_attribution([listed]) is None
