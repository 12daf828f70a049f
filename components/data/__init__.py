"""Every call the app makes to the Grid Data Service: named, typed, cached per tenant.

Pages and view components get their data here and nowhere else; they never touch the
client or `st.cache_data`. Each function takes the `ConnectionKey` of the session
(`components.connection.connection_key()`: deployment, token and tenant) first, so every
cache is keyed by tenant, and returns gridclient's models (`Assessment`, `Site`, ...),
which views read by attribute.

One lifetime: every fetch is kept `TTL_SECONDS`; writes (`create_site`, `screen_site`)
forget the tenant's cached lists. The release is fetched in one place, `release()`.

    page -> view component -> components.data -> gridclient -> HTTP -> gridservice
"""

from components.data._cache import PAGE_RUNS, PAGE_SIZE, TTL_SECONDS, derived, progress_text
from components.data.records import (
    FILTERED_MAX,
    all_generation_plants,
    all_generators,
    all_queue_records,
    all_transmission_projects,
    balancing_authority_operations,
    docket_filings,
    facts,
    generator_operations,
    generators,
    has_operations_from,
    last_day_where,
    latest_day,
    latest_demand_day,
    latest_operations_day,
    preload_collections,
    queue_completion,
    queue_details,
    queue_details_of,
    queue_evidence,
    queue_project_timeline,
    queue_states,
)
from components.data.reviews import (
    acting_as_reviewer,
    review_agreement,
    review_calibration,
    review_case,
    review_cases,
    review_packet,
    send_for_review,
    submit_review,
)
from components.data.search import evidence_chunks, evidence_pages, territory_resolution
from components.data.service import capabilities, quality_report, release
from components.data.tenant import (
    LOOKED_UP_SITES,
    assessment,
    create_export,
    create_site,
    export,
    latest_assessments,
    lists_sites_with_assessments,
    packet_bytes,
    portfolio_sites,
    recent_sites,
    screen_site,
    site,
    site_changes,
    site_surroundings,
    surroundings_projects,
    update_site,
)

__all__ = [
    "acting_as_reviewer",
    "review_agreement",
    "review_calibration",
    "review_case",
    "review_cases",
    "review_packet",
    "send_for_review",
    "submit_review",
    "FILTERED_MAX",
    "LOOKED_UP_SITES",
    "PAGE_RUNS",
    "PAGE_SIZE",
    "TTL_SECONDS",
    "all_generation_plants",
    "all_generators",
    "all_queue_records",
    "all_transmission_projects",
    "assessment",
    "balancing_authority_operations",
    "capabilities",
    "create_export",
    "create_site",
    "derived",
    "docket_filings",
    "evidence_chunks",
    "evidence_pages",
    "export",
    "facts",
    "generator_operations",
    "generators",
    "has_operations_from",
    "last_day_where",
    "latest_assessments",
    "lists_sites_with_assessments",
    "latest_day",
    "latest_demand_day",
    "latest_operations_day",
    "preload_collections",
    "packet_bytes",
    "portfolio_sites",
    "progress_text",
    "recent_sites",
    "quality_report",
    "queue_completion",
    "queue_details",
    "queue_details_of",
    "queue_evidence",
    "queue_project_timeline",
    "queue_states",
    "release",
    "screen_site",
    "site",
    "site_changes",
    "site_surroundings",
    "surroundings_projects",
    "territory_resolution",
    "update_site",
]
