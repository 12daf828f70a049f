"""Resource namespaces: one method per operation of the interface and its extensions."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from gridclient import _args as a
from gridclient._errors import InvalidArgumentError
from gridclient._paging import Pager, ProgressCallback
from gridclient._site_changes import SiteChanges
from gridclient._surroundings import (
    ChangedProject,
    EnteredProject,
    LeftProject,
    QueueProject,
    SiteSurroundings,
)
from gridclient._transport import Transport
from gridclient.models import (
    Assessment,
    AssessmentExport,
    BalancingAuthorityOperation,
    DocketFiling,
    EvidenceChunk,
    ExpertReviewPacket,
    Fact,
    GenerationPlant,
    Generator,
    GeneratorOperation,
    GridModel,
    QueueRecord,
    QueueRecordDetails,
    QueueRecordEvidence,
    Site,
    SiteDefinition,
    SiteRevision,
    SiteRevisions,
    TerritoryResolution,
    TransmissionProject,
)

When = date | datetime | str
ARCHIVED_CHOICES = ("exclude", "include", "only")
SURROUNDINGS_LISTS: dict[str, type[GridModel]] = {
    "queue": QueueProject,
    "entered": EnteredProject,
    "left": LeftProject,
    "changed": ChangedProject,
}


class _Unset:
    """Marks an argument not passed (None means "clear it")."""


UNSET = _Unset()


class _Resource:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def _pager(
        self,
        path: str,
        model: type[Any],
        params: dict[str, Any],
        *,
        limit: int | None,
        max_items: int | None,
        on_progress: ProgressCallback | None,
        limit_bounds: tuple[int, int] = a.COLLECTION_LIMIT,
    ) -> Pager[Any]:
        params = a.query(**params, limit=a.check_limit(limit, limit_bounds))
        return Pager(
            self._transport,
            path,
            params,
            model,
            max_limit=limit_bounds[1],
            max_items=max_items,
            on_progress=on_progress,
        )

    def _get(self, path: str, model: type[Any]) -> Any:
        return self._transport.parse_record(self._transport.request("GET", path), model)

    def _post(self, path: str, body: Any, model: type[Any], idempotency_key: str | None) -> Any:
        if idempotency_key is not None:
            a.check_idempotency_key(idempotency_key)
        response = self._transport.request(
            "POST", path, json_body=body, idempotency_key=idempotency_key
        )
        return self._transport.parse_record(response, model)


class _FactCollection(_Resource):
    _path = ""

    def list(
        self,
        *,
        market: str | None = None,
        period: str | None = None,
        valid_at: When | None = None,
        known_at: When | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[Fact]:
        """A pager over facts; ``valid_at``/``known_at`` select by validity/knowledge time."""
        params = {
            "market": a.check_text("market", market),
            "period": a.check_text("period", period),
            "valid_at": a.iso_value("valid_at", valid_at),
            "known_at": a.iso_value("known_at", known_at),
        }
        return self._pager(
            self._path, Fact, params, limit=limit, max_items=max_items, on_progress=on_progress
        )


class LoadForecasts(_FactCollection):
    _path = "/v1/load-forecasts"


class ResourceAdequacy(_FactCollection):
    _path = "/v1/resource-adequacy"


class Generators(_Resource):
    def list(
        self,
        *,
        state: str | None = None,
        status: str | None = None,
        ba_code: str | None = None,
        source_id: str | None = None,
        technology: str | None = None,
        plant_id: int | None = None,
        min_capacity_mw: float | None = None,
        max_capacity_mw: float | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[Generator]:
        """A pager over generators (current view; ``source_id`` selects a release's version)."""
        a.check_capacity(min_capacity_mw, max_capacity_mw)
        params = {
            "state": a.check_text("state", state),
            "status": a.check_text("status", status),
            "ba_code": a.check_text("ba_code", ba_code),
            "source_id": a.check_text("source_id", source_id),
            "technology": a.check_text("technology", technology),
            "plant_id": a.check_int_range("plant_id", plant_id, 1, a.MAX_INT32),
            "min_capacity_mw": min_capacity_mw,
            "max_capacity_mw": max_capacity_mw,
        }
        return self._pager(
            "/v1/generators",
            Generator,
            params,
            limit=limit,
            max_items=max_items,
            on_progress=on_progress,
        )


class GenerationPlants(_Resource):
    def list(
        self,
        *,
        state: str | None = None,
        county: str | None = None,
        ba_code: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[GenerationPlant]:
        """A pager over current generation plants."""
        params = {
            "state": a.check_text("state", state),
            "county": a.check_text("county", county),
            "ba_code": a.check_text("ba_code", ba_code),
        }
        return self._pager(
            "/v1/generation-plants",
            GenerationPlant,
            params,
            limit=limit,
            max_items=max_items,
            on_progress=on_progress,
        )


class GeneratorOperations(_Resource):
    def list(
        self,
        *,
        plant_id: int | None = None,
        generator_id: str | None = None,
        ba_code: str | None = None,
        state: str | None = None,
        period: str | date | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[GeneratorOperation]:
        """A pager over monthly generator operations; ``period`` is ``YYYY-MM``."""
        params = {
            "plant_id": a.check_int_range("plant_id", plant_id, 1, a.MAX_INT32),
            "generator_id": a.check_text("generator_id", generator_id),
            "ba_code": a.check_text("ba_code", ba_code),
            "state": a.check_text("state", state),
            "period": a.check_period(period),
        }
        return self._pager(
            "/v1/generator-operations",
            GeneratorOperation,
            params,
            limit=limit,
            max_items=max_items,
            on_progress=on_progress,
        )


class BalancingAuthorityOperations(_Resource):
    def list(
        self,
        *,
        ba_code: str | None = None,
        region: str | None = None,
        start: When | None = None,
        end: When | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[BalancingAuthorityOperation]:
        """A pager over hourly operations with ``start <= utcTime < end``."""
        if (
            isinstance(start, datetime)
            and isinstance(end, datetime)
            and (start.tzinfo is None) == (end.tzinfo is None)
            and start > end
        ):
            raise InvalidArgumentError("start", f"must not be after end ({start} > {end})")
        params = {
            "ba_code": a.check_text("ba_code", ba_code),
            "region": a.check_text("region", region),
            "start": a.iso_value("start", start),
            "end": a.iso_value("end", end),
        }
        return self._pager(
            "/v1/balancing-authority-operations",
            BalancingAuthorityOperation,
            params,
            limit=limit,
            max_items=max_items,
            on_progress=on_progress,
        )


class TransmissionProjects(_Resource):
    def list(
        self,
        *,
        county: str | None = None,
        status: str | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[TransmissionProject]:
        """A pager over transmission projects."""
        params = {
            "county": a.check_text("county", county),
            "status": a.check_text("status", status),
        }
        return self._pager(
            "/v1/transmission-projects",
            TransmissionProject,
            params,
            limit=limit,
            max_items=max_items,
            on_progress=on_progress,
        )


class Dockets(_Resource):
    def filings(
        self,
        control_number: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[DocketFiling]:
        """A pager over the filings of one docket."""
        path = f"/v1/dockets/{a.path_segment('control_number', control_number)}/filings"
        return self._pager(
            path, DocketFiling, {}, limit=limit, max_items=max_items, on_progress=on_progress
        )


class QueueRecords(_Resource):
    def list(
        self,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[QueueRecord]:
        """A pager over every queue record (the interface has no filters; filter after)."""
        return self._pager(
            "/v1/queue-records",
            QueueRecord,
            {},
            limit=limit,
            max_items=max_items,
            on_progress=on_progress,
        )

    def details(self, record_id: str) -> QueueRecordDetails:
        """The details of one queue record."""
        segment = a.path_segment("record_id", record_id)
        return self._get(f"/v1/queue-records/{segment}/details", QueueRecordDetails)

    def evidence(self, record_id: str) -> QueueRecordEvidence:
        """The source evidence of one queue record (``.raw.meta`` holds the response meta)."""
        segment = a.path_segment("record_id", record_id)
        return self._get(f"/v1/queue-records/{segment}/evidence", QueueRecordEvidence)


class Evidence(_Resource):
    def search(
        self,
        q: str,
        *,
        source_id: str | None = None,
        authority: str | None = None,
        redistribution_policy: str | None = None,
        kind: str | None = None,
        page: int | None = None,
        known_at: When | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[EvidenceChunk]:
        """A pager over evidence chunks ranked for ``q`` (best first)."""
        params = {
            "q": a.check_text("q", q, required=True),
            "source_id": a.check_text("source_id", source_id),
            "authority": a.check_text("authority", authority),
            "redistribution_policy": a.check_text("redistribution_policy", redistribution_policy),
            "kind": a.check_text("kind", kind),
            "page": a.check_int_range("page", page, 1, a.MAX_INT32),
            "known_at": a.iso_value("known_at", known_at),
        }
        return self._pager(
            "/v1/evidence-search",
            EvidenceChunk,
            params,
            limit=limit,
            max_items=max_items,
            on_progress=on_progress,
            limit_bounds=a.EVIDENCE_LIMIT,
        )


def _site_body(definition: SiteDefinition | dict[str, Any]) -> dict[str, Any]:
    if isinstance(definition, GridModel):
        return definition.model_dump(by_alias=True, exclude_none=True, mode="json")
    if isinstance(definition, dict):
        return definition
    raise InvalidArgumentError(
        "definition", f"must be a SiteDefinition or a dict, got {type(definition).__name__}"
    )


class Sites(_Resource):
    def create(
        self, definition: SiteDefinition | dict[str, Any], *, idempotency_key: str | None = None
    ) -> Site:
        """Create a site for the calling tenant; a retry with the same key never makes two."""
        return self._post("/v1/sites", _site_body(definition), Site, idempotency_key)

    def get(self, site_id: str) -> Site:
        """One site of the calling tenant."""
        return self._get(f"/v1/sites/{a.path_segment('site_id', site_id)}", Site)

    def list(
        self,
        *,
        include_latest_assessment: bool = False,
        include_latest_assessment_summary: bool = False,
        archived: str = "exclude",
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[Site]:
        """A pager over the calling tenant's sites (extension operation).

        ``include_latest_assessment=True`` asks for each site's newest assessment in the same
        request (``site.latest_assessment``, None when it has none); a deployment without
        that extension refuses the parameter (``capabilities().list_sites_latest_assessment``).
        ``include_latest_assessment_summary=True`` asks for its summary instead
        (``site.latest_assessment_summary``: readiness, territory candidates, the county's
        queue and firm MW, tightest reserve margin, nearest plant; about 1 KiB a site), where
        ``capabilities().list_sites_assessment_summary``. Either adds
        ``site.newer_data_since_assessment``.
        ``archived``: ``"exclude"`` (default) leaves archived sites out, ``"include"`` lists
        them too, ``"only"`` lists just them.
        """
        if archived not in ARCHIVED_CHOICES:
            raise InvalidArgumentError("archived", f"must be one of {', '.join(ARCHIVED_CHOICES)}")
        if include_latest_assessment and include_latest_assessment_summary:
            raise InvalidArgumentError(
                "include_latest_assessment_summary",
                "ask for the latest assessment or its summary, not both",
            )
        params: dict[str, Any] = {}
        if include_latest_assessment:
            params["include"] = "latest_assessment"
        elif include_latest_assessment_summary:
            params["include"] = "latest_assessment_summary"
        if archived != "exclude":
            params["archived"] = archived
        return self._pager(
            "/v1/sites", Site, params, limit=limit, max_items=max_items, on_progress=on_progress
        )

    def surroundings(
        self,
        site_id: str,
        *,
        radius_km: float | None = None,
        from_month: str | date | None = None,
        to_month: str | date | None = None,
    ) -> SiteSurroundings:
        """The counties within ``radius_km`` of a site, their queue, grid and plants, and how
        the queue moved between two harvested report months (extension operation).

        Months are ``YYYY-MM`` (a date gives its month); the service's defaults are 40 km,
        the newest report and the one twelve months before it.
        """
        params = a.query(
            radius_km=a.check_number("radius_km", radius_km),
            **{
                "from": a.check_period(from_month, "from_month"),
                "to": a.check_period(to_month, "to_month"),
            },
        )
        path = f"/v1/sites/{a.path_segment('site_id', site_id)}/surroundings"
        response = self._transport.request("GET", path, params=params)
        return self._transport.parse_record(response, SiteSurroundings)

    def surroundings_projects(
        self,
        site_id: str,
        list_name: str,
        *,
        county_fips: str | None = None,
        radius_km: float | None = None,
        from_month: str | date | None = None,
        to_month: str | date | None = None,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[Any]:
        """A pager over every project of one list of a site's surroundings (extension
        operation): ``"queue"`` (one county's active projects: ``county_fips``, default the
        site's county),
        ``"entered"``, ``"left"`` or ``"changed"``, by queue id.

        The surroundings carry the first few of each list (``lists`` says how many there
        are); this reads them all, with the same radius and months as the surroundings asked.
        """
        if list_name not in SURROUNDINGS_LISTS:
            raise InvalidArgumentError(
                "list_name", f"must be one of {', '.join(SURROUNDINGS_LISTS)}"
            )
        params = {
            "list": list_name,
            "county": county_fips,
            "radius_km": a.check_number("radius_km", radius_km),
            "from": a.check_period(from_month, "from_month"),
            "to": a.check_period(to_month, "to_month"),
        }
        path = f"/v1/sites/{a.path_segment('site_id', site_id)}/surroundings/projects"
        return self._pager(
            path,
            SURROUNDINGS_LISTS[list_name],
            params,
            limit=limit,
            max_items=max_items,
            on_progress=on_progress,
        )

    def update(
        self,
        site_id: str,
        *,
        customer_reference: str | None | _Unset = UNSET,
        metadata: dict[str, str] | None | _Unset = UNSET,
        archived: bool | None = None,
        idempotency_key: str | None = None,
        if_match: str | None = None,
    ) -> Site:
        """Rename or archive a site (extension operation); what is not passed stays as it is.

        ``customer_reference=None`` or ``metadata=None`` clears it; ``metadata`` replaces the
        whole object. ``archived=True`` takes the site out of the default list (it stays
        readable); ``False`` brings it back. A retry with the same key changes nothing twice.
        ``if_match``: a site's ``etag`` (from ``get`` or an earlier ``update``): the change
        is applied only if the site is still that version, else ``PreconditionFailedError``.
        """
        body: dict[str, Any] = {}
        if not isinstance(customer_reference, _Unset):
            body["customerReference"] = a.check_text("customer_reference", customer_reference)
        if not isinstance(metadata, _Unset):
            body["metadata"] = metadata
        if archived is not None:
            body["archived"] = bool(archived)
        if not body:
            raise InvalidArgumentError("update", "pass customer_reference, metadata or archived")
        if idempotency_key is not None:
            a.check_idempotency_key(idempotency_key)
        path = f"/v1/sites/{a.path_segment('site_id', site_id)}"
        response = self._transport.request(
            "PATCH",
            path,
            json_body=body,
            idempotency_key=idempotency_key,
            extra_headers=None
            if if_match is None
            else {"If-Match": a.check_text("if_match", if_match, required=True)},
        )
        return self._transport.parse_record(response, Site)

    def changes(self, site_id: str, *, since: str | None = None) -> SiteChanges:
        """What changed near a site since one of its assessments (default: its newest).

        Queue projects near the site that entered, left or changed since the queue report the
        assessment was made on, and market facts first known since (extension operation).
        An unknown ``since`` raises ``NotFoundError``; one the service can no longer compare
        with raises ``ConflictError``; each error's ``code`` says why.
        """
        path = f"/v1/sites/{a.path_segment('site_id', site_id)}/changes"
        params = a.query(since=a.check_text("since", since))
        return self._transport.parse_record(
            self._transport.request("GET", path, params=params), SiteChanges
        )

    def revisions(self, site_id: str) -> list[SiteRevision]:
        """Who changed a site's reference, metadata or archive state and when, oldest first."""
        path = f"/v1/sites/{a.path_segment('site_id', site_id)}/revisions"
        response = self._transport.request("GET", path)
        return self._transport.parse_record(response, SiteRevisions, member=None).data


class Assessments(_Resource):
    def create(self, site_id: str, *, idempotency_key: str | None = None) -> Assessment:
        """Screen a site now and return the assessment (extension operation)."""
        path = f"/v1/sites/{a.path_segment('site_id', site_id)}/assessments"
        return self._post(path, {}, Assessment, idempotency_key)

    def list(
        self,
        site_id: str,
        *,
        limit: int | None = None,
        max_items: int | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Pager[Assessment]:
        """A pager over one site's assessments (extension operation)."""
        path = f"/v1/sites/{a.path_segment('site_id', site_id)}/assessments"
        return self._pager(
            path, Assessment, {}, limit=limit, max_items=max_items, on_progress=on_progress
        )

    def get(self, assessment_id: str) -> Assessment:
        """One assessment of the calling tenant."""
        segment = a.path_segment("assessment_id", assessment_id)
        return self._get(f"/v1/assessments/{segment}", Assessment)

    def expert_review(self, assessment_id: str) -> ExpertReviewPacket:
        """The blinded expert-review packet; ``.raw_bytes`` is the body exactly as served."""
        segment = a.path_segment("assessment_id", assessment_id)
        return self._get(f"/v1/assessments/{segment}/expert-review.json", ExpertReviewPacket)


class Exports(_Resource):
    def create(
        self, assessment_id: str, format: str = "csv", *, idempotency_key: str | None = None
    ) -> AssessmentExport:
        """Export an assessment (extension operation); the text is in ``.content``."""
        segment = a.path_segment("assessment_id", assessment_id)
        body = {"format": a.check_text("format", format, required=True)}
        return self._post(
            f"/v1/assessments/{segment}/exports", body, AssessmentExport, idempotency_key
        )

    def get(self, export_id: str) -> AssessmentExport:
        """One completed export."""
        segment = a.path_segment("export_id", export_id)
        return self._get(f"/v1/assessments/exports/{segment}", AssessmentExport)


class ServiceTerritories(_Resource):
    def resolve(
        self, *, latitude: float, longitude: float, idempotency_key: str | None = None
    ) -> TerritoryResolution:
        """Candidate service territories at a point (sent as GeoJSON ``[longitude, latitude]``)."""
        lat = a.check_coordinate("latitude", latitude, 90)
        lon = a.check_coordinate("longitude", longitude, 180)
        body = {"location": {"type": "Point", "coordinates": [lon, lat]}}
        return self._post(
            "/v1/service-territory-resolutions", body, TerritoryResolution, idempotency_key
        )
