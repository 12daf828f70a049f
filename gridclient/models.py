"""Typed records of the Grid Data Service (pydantic v2).

Attributes are snake_case; the camelCase wire names are their aliases, and either may be
used to build a model. Every field may be missing or null (a deployment may omit what it
does not know). Unknown fields are kept (``model.model_extra``), so a newer service never
breaks the client. Objects the interface leaves opaque are plain dicts.

A model returned by a single-record call keeps the response it came from: ``model.raw``
(a :class:`RawResponse`: ``raw_bytes``, ``json()``, ``headers``, ``request_id``).
"""

from __future__ import annotations

from datetime import date, datetime
from functools import cache
from typing import Any

from pydantic import Field, PrivateAttr, field_validator

from gridclient._assessment_summary import AssessmentSummary, KeyFigures
from gridclient._base import GridModel
from gridclient._markets import Abstention, Market, MethodAgreement
from gridclient._response import RawResponse
from gridclient._source_fields import SourceFields, SourceName

Opaque = dict[str, Any]


@cache
def with_raw_response(model: type[GridModel]) -> type[GridModel]:
    """``model`` with a slot for its raw response, for records returned on their own.

    Only top-level single records carry it: a private attribute on every model would
    double the cost of validating pages.
    """
    qualname = f"_{model.__name__}WithRawResponse"
    namespace: dict[str, Any] = {
        "__module__": __name__,
        "__qualname__": qualname,
        "__annotations__": {"_raw": RawResponse | None},
        "_raw": PrivateAttr(default=None),
    }
    subclass = type(model.__name__, (model,), namespace)
    # Registered under its qualname so records pickle (caches such as Streamlit's do).
    globals()[qualname] = subclass
    return subclass


class QualityFlag(GridModel):
    code: str | None = None
    severity: str | None = None
    field: str | None = None
    message: str | None = None


class FactEvidence(SourceFields):
    chunk_id: str | None = None
    table_id: str | None = None
    quote: str | None = None
    source_locator: str | None = None
    block_id: str | None = None
    source_text: str | None = None
    page: int | None = None
    bounding_box: list[float] | None = None
    page_width: float | None = None
    page_height: float | None = None
    reading_order: float | None = None
    parser_confidence: float | None = None
    parser_confidence_is_calibrated: bool | None = None
    calibrated_error_probability: float | None = None
    calibration_status: str | None = None
    route: str | None = None


class Fact(GridModel):
    """A load-forecast or resource-adequacy fact (also an assessment's market signal)."""

    id: str | None = None
    fact_key: str | None = None
    fact_version: str | None = None
    source_id: str | None = None
    asset_hash: str | None = None
    subject_id: str | None = None
    market: str | None = None
    predicate: str | None = None
    period: str | None = None
    scenario: str | None = None
    value: float | None = None
    unit: str | None = None
    assertion_type: str | None = None
    valid_from: date | None = None
    valid_to: date | None = None
    known_from: datetime | None = None
    known_to: datetime | None = None
    evidence: FactEvidence | None = None
    quality_flags: list[QualityFlag] | None = None


class SourceEvidence(SourceFields):
    """Provenance of generators, plants and operations."""

    source_id: str | None = None
    asset_hash: str | None = None
    source_locator: str | None = None
    observed_at: str | None = None


class Generator(GridModel):
    id: str | None = None
    generator_id: str | None = None
    plant_name: str | None = None
    utility_name: str | None = None
    state: str | None = None
    county: str | None = None
    balancing_authority_code: str | None = None
    status: str | None = None
    technology: str | None = None
    energy_source_code: str | None = None
    prime_mover_code: str | None = None
    agency_plant_id: int | None = None
    utility_id: int | None = None
    nameplate_capacity_mw: float | None = None
    summer_capacity_mw: float | None = None
    winter_capacity_mw: float | None = None
    operating_date: str | None = None
    planned_operation_date: str | None = None
    retirement_date: str | None = None
    preliminary: bool | None = None
    evidence: SourceEvidence | None = None
    quality_flags: list[QualityFlag] | None = None


class GenerationPlant(GridModel):
    id: str | None = None
    plant_name: str | None = None
    utility_name: str | None = None
    state: str | None = None
    county: str | None = None
    balancing_authority_code: str | None = None
    nerc_region: str | None = None
    sector_name: str | None = None
    agency_plant_id: int | None = None
    utility_id: int | None = None
    latitude: float | None = None
    longitude: float | None = None
    preliminary: bool | None = None
    # Extensions: the plants file's installed and total MW (where it gives them).
    installed_mw: float | None = None
    total_mw: float | None = None
    evidence: SourceEvidence | None = None
    quality_flags: list[QualityFlag] | None = None


class GeneratorOperation(GridModel):
    id: str | None = None
    generator_id: str | None = None
    prime_mover_code: str | None = None
    balancing_authority_code: str | None = None
    state: str | None = None
    agency_plant_id: int | None = None
    period: str | None = None
    net_generation_mwh: float | None = None
    preliminary: bool | None = None
    evidence: SourceEvidence | None = None
    quality_flags: list[QualityFlag] | None = None


class BalancingAuthorityOperation(GridModel):
    id: str | None = None
    balancing_authority_code: str | None = None
    utc_time: str | None = None
    local_time: str | None = None
    region: str | None = None
    demand_forecast_mw: float | None = None
    demand_mw: float | None = None
    demand_adjusted_mw: float | None = None
    net_generation_mw: float | None = None
    net_generation_adjusted_mw: float | None = None
    total_interchange_mw: float | None = None
    total_interchange_adjusted_mw: float | None = None
    generation_by_fuel_mw: dict[str, float | None] | None = None
    evidence: SourceEvidence | None = None
    quality_flags: list[QualityFlag] | None = None


class TransmissionEvidence(SourceFields):
    assertion_type: str | None = None
    authority: str | None = None
    source_url: str | None = None
    source_locator: str | None = None


class TransmissionProject(GridModel):
    id: str | None = None
    source_id: str | None = None
    asset_hash: str | None = None
    project_number: str | None = None
    title: str | None = None
    description: str | None = None
    status: str | None = None
    transmission_owner: str | None = None
    projected_in_service_date: str | None = None
    actual_in_service_date: str | None = None
    from_location: str | None = None
    to_location: str | None = None
    service_level_kv: float | None = None
    counties: list[str] | None = None
    quality_flags: list[QualityFlag] | None = None
    observed_at: datetime | None = None
    evidence: TransmissionEvidence | None = None


class QueueDetailsEvidence(SourceFields):
    assertion_type: str | None = None
    authority: str | None = None
    source_locator: str | None = None
    original_record: dict[str, Any] | None = None


class QueueRecordDetails(GridModel):
    record_id: str | None = None
    queue_date: str | None = None
    online_date: str | None = None
    withdrawn_date: str | None = None
    interconnection_agreement_date: str | None = None
    study_phase_original: str | None = None
    study_phase_normalized: str | None = None
    county_fips: str | None = None
    region_original: str | None = None
    utility_name: str | None = None
    transmission_entity: str | None = None
    developer: str | None = None
    cluster: str | None = None
    service_type: str | None = None
    project_type: str | None = None
    technology: str | None = None
    capacity_components_mw: list[float] | None = None
    evidence: QueueDetailsEvidence | None = None
    quality_flags: list[QualityFlag] | None = None


class EvidenceLocator(GridModel):
    type: str | None = None
    file_name: str | None = None
    worksheet: str | None = None
    row: int | None = None


class QueueRecordEvidence(SourceFields):
    record_id: str | None = None
    source_id: str | None = None
    asset_hash: str | None = None
    source_locator: str | None = None
    source_name: str | None = None
    terms_classification: str | None = None
    source_url: str | None = None
    locator: EvidenceLocator | None = None
    source_row: dict[str, Any] | None = None
    redistribution_policy: str | None = None


class QueueStatusNow(GridModel):
    """Service extension: the newest source's word on a queue record's project."""

    status: str | None = None
    date: str | None = None
    reported_at: str | None = None
    source_id: str | None = None
    source_locator: str | None = None
    record_id: str | None = None
    basis: str | None = None
    counts_as_active: bool | None = None


class QueueRecord(GridModel):
    id: str | None = None
    source_id: str | None = None
    asset_hash: str | None = None
    record_key: str | None = None
    market: str | None = None
    project_name: str | None = None
    point_of_interconnection: str | None = None
    state: str | None = None
    county: str | None = None
    proposed_date: str | None = None
    observed_at: str | None = None
    source_locator: str | None = None
    evidence_url: str | None = None
    status: str | None = None
    requested_capacity_mw: float | None = None
    quality_flags: list[QualityFlag] | None = None
    expanded_details: QueueRecordDetails | None = None
    expanded_evidence: QueueRecordEvidence | None = None
    status_now: QueueStatusNow | None = None  # service extension; `status` is the source's
    evidence: SourceFields | None = None  # service extension: its source in fields


class EvidenceChunk(SourceName):  # service extension: publisher, edition
    chunk_id: str | None = None
    source_id: str | None = None
    asset_hash: str | None = None
    table_id: str | None = None
    content: str | None = None
    source_locator: str | None = None
    kind: str | None = None
    page: int | None = None
    section_path: list[str] | None = None
    rank: float | None = None


class FilingEvidence(SourceFields):
    assertion_type: str | None = None
    authority: str | None = None
    source_locator: str | None = None


class DocketFiling(GridModel):
    id: str | None = None
    source_id: str | None = None
    asset_hash: str | None = None
    control_number: str | None = None
    filing_party: str | None = None
    description: str | None = None
    source_locator: str | None = None
    observed_at: str | None = None
    item_number: int | None = None
    filed_at: date | None = None
    document_url: str | None = None
    evidence: FilingEvidence | None = None
    quality_flags: list[QualityFlag] | None = None


class SiteLocation(GridModel):
    latitude: float | None = None
    longitude: float | None = None


class Address(GridModel):
    address_line1: str | None = None
    address_line2: str | None = None
    locality: str | None = None
    region: str | None = None
    postal_code: str | None = None
    country_code: str | None = None


# The spec bounds a site's requested peak load (and its average and curtailable load) to
# more than 0 and at most this many MW; a form checks it before sending.
MAX_PEAK_LOAD_MW = 5000.0


class SiteDefinition(GridModel):
    """What ``sites.create`` sends; ``None`` fields are left out of the request."""

    requested_peak_load_mw: float
    location: SiteLocation
    customer_reference: str | None = None
    metadata: dict[str, str] | None = None
    average_load_mw: float | None = None
    service_voltage_kv: float | None = None
    curtailable_mw: float | None = None
    target_in_service_date: date | None = None
    load_profile: str | None = None
    redundancy: str | None = None
    ramp_profile: list[Opaque] | None = None
    on_site_generation: list[Opaque] | None = None
    energy_storage: Opaque | None = None
    address: Address | None = None


class Site(GridModel):
    id: str | None = None
    tenant_id: str | None = None
    customer_reference: str | None = None
    created_at: datetime | None = None
    metadata: dict[str, str] | None = None
    requested_peak_load_mw: float | None = None
    average_load_mw: float | None = None
    service_voltage_kv: float | None = None
    curtailable_mw: float | None = None
    target_in_service_date: date | None = None
    load_profile: str | None = None
    redundancy: str | None = None
    ramp_profile: list[Opaque] | None = None
    on_site_generation: list[Opaque] | None = None
    energy_storage: Opaque | None = None
    location: SiteLocation | None = None
    address: Address | None = None
    # The market region of the site's point, found when it was created (an extension).
    market: Market | None = None
    # Set when the site is archived (``sites.update(archived=True)``, an extension).
    archived_at: datetime | None = None
    # Only listed with ``include_latest_assessment=True`` (an extension); None otherwise.
    latest_assessment: Assessment | None = None
    # Only listed with ``include_latest_assessment_summary=True`` (an extension).
    latest_assessment_summary: AssessmentSummary | None = None
    # Listed with the latest assessment or its summary: newerQueueReport, factsKnownSince,
    # changed.
    newer_data_since_assessment: Opaque | None = None
    # Members stored before the service bounded them and served null (an extension).
    degraded_fields: list[str] | None = None

    @property
    def etag(self) -> str | None:
        """The site's version as read (``sites.get``, ``sites.update``), for ``if_match=``;
        None for a site from a list, or from a service without the extension."""
        raw = self.raw
        return raw.headers.get("etag") if raw is not None else None


class SiteRevision(GridModel):
    """One change of a site's reference, metadata or archive state: when, by whom, what."""

    changed_at: datetime | None = None
    changed_by: str | None = None
    # Each member changed: {"field", "from", "to"}.
    changes: list[Opaque] = []


class SiteRevisions(GridModel):
    data: list[SiteRevision] = []


class Assessment(GridModel):
    id: str | None = None
    site_id: str | None = None
    tenant_id: str | None = None
    disclaimer: str | None = None
    created_at: datetime | None = None
    county: Opaque | None = None
    readiness: Opaque | None = None
    confidence: Opaque | None = None
    jurisdictions: list[Opaque] | None = None
    utility_candidates: list[Opaque] | None = None
    tariff_candidates: list[Opaque] | None = None
    service_territory_candidates: list[Opaque] | None = None
    # Extensions: the market region of the site's point, and the attribution the territory
    # polygons' licence asks of an assessment using them.
    market: Market | None = None
    attribution: str | None = None
    market_signals: list[Fact] | None = None
    relevant_queue_records: list[QueueRecord] | None = None
    relevant_transmission_projects: list[TransmissionProject] | None = None
    queue_history: Opaque | None = None
    risks: list[str] | None = None
    next_actions: list[str] | None = None
    # Extension: the tightest reserve margin and the nearest plant, as the service works them out.
    key_figures: KeyFigures | None = None
    dataset_abstentions: list[Abstention] = Field(default_factory=list)


Site.model_rebuild()


class ExpertReviewPacket(GridModel):
    """The blinded packet; ``raw_bytes`` is the service's response body, byte for byte."""

    protocol_version: str | None = None
    review_kind: str | None = None
    submission_id: str | None = None
    submitted_at: str | None = None
    case_id: str | None = None
    instructions: str | None = None
    review_status: str | None = None
    site: Site | None = None
    service_assessment: Assessment | None = None
    rubric: list[Opaque] | None = None
    research_compression: Opaque | None = None
    outcome: Opaque | None = None
    reviewer: Opaque | None = None
    attestation: Opaque | None = None

    @property
    def raw_bytes(self) -> bytes:
        """The whole response body (``data`` and ``meta``) exactly as served."""
        raw = self.raw
        return raw.raw_bytes if raw is not None else b""

    @property
    def meta(self) -> dict[str, Any]:
        """The response's ``meta`` object."""
        raw = self.raw
        return raw.meta if raw is not None else {}


class AssessmentExport(GridModel):
    id: str | None = None
    tenant_id: str | None = None
    assessment_id: str | None = None
    content: str | None = None
    format: str | None = None
    content_type: str | None = None
    created_at: datetime | None = None

    @property
    def content_bytes(self) -> bytes:
        """The export's text encoded as UTF-8, ready to save or download."""
        return (self.content or "").encode("utf-8")


class ServiceTerritoryCandidate(GridModel):
    utility_id: str | None = None
    utility: str | None = None
    company_type: str | None = None
    ccn_number: str | None = None
    iso_rto: str | None = None
    confidence: float | None = None
    confidence_basis: str | None = None
    resolution_method: str | None = None
    evidence: Opaque | None = None
    # Extension: whether the other resolution method names this utility too.
    method_agreement: MethodAgreement | None = None


class TerritoryOutline(GridModel):
    """A territory polygon holding the point, simplified for a map (an extension)."""

    territory_id: str | None = None
    utility_id: str | None = None
    utility: str | None = None
    simplified_to_degrees: float | None = None
    geometry: Opaque | None = None


class TerritoryResolution(GridModel):
    location: Opaque | None = None
    candidates: list[ServiceTerritoryCandidate] = []
    # Extension: the territory polygons holding the point, for drawing them.
    polygons: list[TerritoryOutline] = []
    # Extensions: the point's market region; the attribution the polygons' licence asks for.
    market: Market | None = None
    attribution: str | None = None


class Release(GridModel):
    release_id: str | None = None
    data_snapshot_sha256: str | None = None
    release_report_sha256: str | None = None
    build_reference: str | None = None
    build_artifact_sha256: str | None = None
    migration_head: str | None = None
    open_api_sha256: str | None = None
    policy_sha256: str | None = None
    content_fingerprint: str | None = None
    deployment_id: str | None = None
    production_revision: int | None = None
    valid_until: datetime | None = None


class Rejection(GridModel):
    source_locator: str | None = None
    reasons: list[str] | None = None


class HarvestRun(SourceName):  # service extension: publisher, edition
    run_id: str | None = None
    source_id: str | None = None
    asset_hash: str | None = None
    observed_at: str | None = None
    input_records: int | None = None
    accepted_records: int | None = None
    rejected_records: int | None = None
    unchanged_asset: bool | None = None
    rejections: list[Rejection] | None = None


class QueueQuality(GridModel):
    rows: int | None = None
    missing_county: int | None = None
    missing_proposed_date: int | None = None
    synthesized_project_name: int | None = None
    unresolved_project_name: int | None = None
    missing_point_of_interconnection: int | None = None
    unresolved_point_of_interconnection: int | None = None
    unknown_point_of_interconnection: int | None = None
    missing_state: int | None = None
    unknown_state: int | None = None
    unknown_status: int | None = None
    zero_requested_capacity: int | None = None
    negative_requested_capacity: int | None = None
    suspected_project_name_encoding_damage: int | None = None
    suspected_point_of_interconnection_encoding_damage: int | None = None
    suspected_encoding_damage: int | None = None
    active_with_withdrawn_date: int | None = None
    proposed_date_before_queue_date: int | None = None
    online_date_before_queue_date: int | None = None
    withdrawn_date_before_queue_date: int | None = None
    interconnection_agreement_date_before_queue_date: int | None = None
    # Service extension: records whose own source and a newer one disagree on being active.
    sources_disagree_on_status: int | None = None


class BalancingAuthorityQuality(GridModel):
    rows: int | None = None
    quarantined_extreme_forecasts: int | None = None


class JoinQuality(GridModel):
    # The reference service sends coverage in basis points (integers); another deployment
    # may send a ratio, so an integer stays an integer and a fraction stays a float.
    generator_rows: int | None = None
    generators_without_plant: int | None = None
    generator_plant_coverage: int | float | None = None
    operation_rows: int | None = None
    operations_without_generator: int | None = None
    operation_generator_coverage: int | float | None = None
    operations_without_plant: int | None = None
    operation_plant_coverage: int | float | None = None


class DatasetCoverage(GridModel):
    """Whether the store holds a dataset (`held`, `partial`, `missing`), and what that means."""

    dataset: str | None = None
    label: str | None = None
    status: str | None = None
    rows: int | None = None
    note: str | None = None


class QueueStatusDisagreement(GridModel):
    """Service extension: a queue record's own status and a newer source's, each with its cell."""

    record_id: str | None = None
    market: str | None = None
    record_key: str | None = None
    project_name: str | None = None
    county: str | None = None
    requested_capacity_mw: float | None = None
    status: str | None = None
    source_id: str | None = None
    source_locator: str | None = None
    status_now: str | None = None
    status_now_date: str | None = None
    status_now_source_id: str | None = None
    status_now_source_locator: str | None = None


class QualitySummary(GridModel):
    generated_at: datetime | None = None
    scope: str | None = None
    policy: str | None = None
    queue: QueueQuality | None = None
    balancing_authority_operations: BalancingAuthorityQuality | None = None
    joins: JoinQuality | None = None
    # Extensions: datasets held and missing; the queue's harvested report months.
    datasets: list[DatasetCoverage] | None = None
    queue_history: dict[str, Any] | None = None
    queue_status_disagreements: list[QueueStatusDisagreement] | None = None  # extension
    # Extension: the queue's quality counts per market (each ISO's queue as loaded).
    queue_by_market: dict[str, Any] | None = None


class Methodology(GridModel):
    unit: str | None = None
    acceptance_rate_definition: str | None = None
    note: str | None = None


class QualityReport(GridModel):
    """The harvest-quality report: not independent field-accuracy validation."""

    data: list[HarvestRun] = []
    quality: QualitySummary | None = None
    scope: str | None = None
    release: Opaque | None = None
    methodology: Methodology | None = None

    @field_validator("data", mode="before")
    @classmethod
    def _one_run_is_a_list(cls, value: Any) -> Any:
        if value is None:
            return []
        return [value] if isinstance(value, dict) else value


class UnreadableRecord(GridModel):
    """A record of a page that could not be read as its model, left out of the page: which
    one (its position and ``id``, when it has one) and why (the first failing field)."""

    index: int
    id: str | None = None
    field: str
    message: str


class PageMeta(GridModel):
    """The ``meta`` of a collection page."""

    has_more: bool = False
    limit: int | None = None
    next_cursor: str | None = None
    order: str | None = None


__all__ = [
    "UnreadableRecord",
    "Address",
    "Assessment",
    "AssessmentExport",
    "BalancingAuthorityOperation",
    "BalancingAuthorityQuality",
    "DocketFiling",
    "EvidenceChunk",
    "EvidenceLocator",
    "ExpertReviewPacket",
    "Fact",
    "FactEvidence",
    "FilingEvidence",
    "GenerationPlant",
    "Generator",
    "GeneratorOperation",
    "GridModel",
    "HarvestRun",
    "DatasetCoverage",
    "JoinQuality",
    "Methodology",
    "PageMeta",
    "QualityFlag",
    "QualityReport",
    "QualitySummary",
    "QueueDetailsEvidence",
    "QueueQuality",
    "QueueRecord",
    "QueueRecordDetails",
    "QueueRecordEvidence",
    "Rejection",
    "Release",
    "ServiceTerritoryCandidate",
    "Site",
    "SiteDefinition",
    "SiteLocation",
    "SourceEvidence",
    "TerritoryResolution",
    "TransmissionEvidence",
    "TransmissionProject",
]
