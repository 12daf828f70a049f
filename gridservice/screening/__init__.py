"""Screening: assessments, territory resolution, the expert-review packet, the CSV export."""

from gridservice.screening.assessment import screen_site
from gridservice.screening.export import assessment_csv
from gridservice.screening.packet import build_expert_review_packet
from gridservice.screening.territory import resolve_service_territory

__all__ = [
    "assessment_csv",
    "build_expert_review_packet",
    "resolve_service_territory",
    "screen_site",
]
