"""Every client method against the reference service over loopback HTTP (one demo service)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import httpx
import pytest
from demo_store import demo_store_copy

import gridclient as gc
from gridservice.demo import DEMO_POINTS
from gridservice.demo.projects import DOCKETS
from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings

ALPHA, BETA = "gds_demo_alpha", "gds_demo_beta"


@pytest.fixture(scope="module")
def db_path(tmp_path_factory):
    return demo_store_copy(tmp_path_factory.mktemp("gridservice") / "demo.db")


@pytest.fixture(scope="module")
def live(db_path):
    # A generous rate limit: these tests are about the data, the 429 test has its own server.
    server = start_in_thread(
        Settings(db_path=db_path, demo=True, rate_limit_per_second=1e6, rate_limit_burst=10**6)
    )
    yield server
    server.stop()


@pytest.fixture(scope="module")
def client(live):
    with gc.GridDataClient(base_url=live.base_url, token=ALPHA) as alpha:
        yield alpha


@pytest.fixture(scope="module")
def beta(live):
    with gc.GridDataClient(base_url=live.base_url, token=BETA) as other:
        yield other


@pytest.fixture(scope="module")
def site(client):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    definition = gc.SiteDefinition(
        requested_peak_load_mw=120,
        location=gc.SiteLocation(latitude=latitude, longitude=longitude),
        target_in_service_date=date(2029, 6, 1),
        load_profile="flat",
        customer_reference="client-live-test",
        metadata={"suite": "client"},
    )
    return client.sites.create(definition)


@pytest.fixture(scope="module")
def assessment(client, site):
    return client.assessments.create(site.id)


def _ids(pager):
    return [record.id for record in pager]


# --- release, quality, capabilities -------------------------------------------------


def test_release_needs_no_token_and_is_typed(live):
    with gc.GridDataClient(base_url=live.base_url, token=None) as anonymous:
        release = anonymous.release()
    assert isinstance(release, gc.Release)
    assert release.release_id and "demo" in release.release_id
    assert isinstance(release.production_revision, int)
    assert release.raw.json()["data"]["releaseId"] == release.release_id


def test_quality_counts_match_what_the_collections_serve(client):
    report = client.quality()
    assert isinstance(report.quality.generated_at, datetime)
    assert report.quality.queue.rows == len(client.queue_records.list(limit=500).to_list())
    assert "not independent field-accuracy validation" in report.methodology.note
    assert all(isinstance(run, gc.models.HarvestRun) for run in report.data)


def test_the_peak_load_bound_a_form_checks_is_the_services(live):
    document = httpx.get(f"{live.base_url}/v1/openapi.json").json()
    peak = document["components"]["schemas"]["SiteDefinition"]["properties"]["requestedPeakLoadMw"]
    assert peak["maximum"] == gc.MAX_PEAK_LOAD_MW


def test_capabilities_find_every_extension(client):
    capabilities = client.capabilities()
    assert capabilities.openapi_available
    assert capabilities.extensions == {
        "list_sites": True,
        "create_assessment": True,
        "list_assessments": True,
        "create_export": True,
        "update_site": True,
        "site_changes": True,
        "list_sites_latest_assessment": True,
        "list_sites_assessment_summary": True,
        "site_surroundings": True,
    }


def test_service_version_is_sent_and_echoed(live):
    with gc.GridDataClient(base_url=live.base_url, token=ALPHA, service_version="2025-06-01") as c:
        assert c.release().raw.headers["service-version"] == "2025-06-01"


# --- collections: paging with real cursors, filters kept ----------------------------

COLLECTIONS = [
    ("load_forecasts", {}),
    ("resource_adequacy", {}),
    ("generators", {"state": "TX"}),
    ("generation_plants", {"state": "tx"}),
    ("generator_operations", {"period": "2024-10"}),
    ("balancing_authority_operations", {"ba_code": "ERCO"}),
    ("transmission_projects", {}),
    ("queue_records", {}),
]


@pytest.mark.parametrize(("namespace", "filters"), COLLECTIONS)
def test_small_pages_traverse_the_same_records_as_one_large_page(client, namespace, filters):
    resource = getattr(client, namespace)
    everything = _ids(resource.list(limit=500, **filters))
    pages_seen = []
    small = _ids(resource.list(limit=97, on_progress=lambda n, p: pages_seen.append(p), **filters))
    assert everything, f"the demo data has {namespace}"
    assert small == everything
    assert everything == sorted(everything) and len(set(everything)) == len(everything)
    assert pages_seen[-1] >= len(everything) // 97


def test_generator_filters_are_applied(client):
    generators = client.generators.list(
        state="tx", min_capacity_mw=50, max_capacity_mw=400, limit=50
    ).to_list()
    assert generators
    assert all(g.state == "TX" for g in generators)
    assert all(50 <= g.nameplate_capacity_mw <= 400 for g in generators)
    plant_id = generators[0].agency_plant_id
    same_plant = client.generators.list(plant_id=plant_id).to_list()
    assert same_plant and {g.agency_plant_id for g in same_plant} == {plant_id}


def test_generator_operations_filters(client):
    operation = client.generator_operations.list(max_items=1).first()
    chosen = client.generator_operations.list(
        plant_id=operation.agency_plant_id, period=operation.period
    ).to_list()
    assert operation.id in {o.id for o in chosen}
    assert {(o.agency_plant_id, o.period) for o in chosen} == {
        (operation.agency_plant_id, operation.period)
    }


def test_balancing_authority_window_takes_datetimes(client):
    first = client.balancing_authority_operations.list(ba_code="ERCO", max_items=1).first()
    start = datetime.fromisoformat(first.utc_time.replace("Z", "+00:00"))
    window = client.balancing_authority_operations.list(
        ba_code="ERCO", start=start, end=start.replace(hour=(start.hour + 3) % 24)
    ).to_list()
    assert [o.utc_time for o in window][0] == first.utc_time
    assert all(o.balancing_authority_code == "ERCO" for o in window)
    assert len(window) in (1, 2, 3)


def test_fact_time_selection(client):
    facts = client.load_forecasts.list().to_list()
    fact = facts[0]
    valid = client.load_forecasts.list(market=fact.market, valid_at=fact.valid_from).to_list()
    assert fact.id in {f.id for f in valid}
    assert all(f.valid_from <= fact.valid_from <= f.valid_to for f in valid)
    before = client.load_forecasts.list(known_at=datetime(1990, 1, 1, tzinfo=UTC)).to_list()
    assert before == []


def test_transmission_projects_by_county(client):
    project = client.transmission_projects.list(max_items=1).first()
    county = project.counties[0]
    in_county = client.transmission_projects.list(county=county).to_list()
    assert project.id in {p.id for p in in_county}
    assert all(county.lower() in [c.lower() for c in p.counties] for p in in_county)


def test_docket_filings(client):
    control_number = DOCKETS[0][0]
    filings = client.dockets.filings(control_number, limit=4).to_list()
    assert filings
    assert {f.control_number for f in filings} == {control_number}
    assert all(isinstance(f.filed_at, date) for f in filings)
    assert client.dockets.filings("no-such-docket").to_list() == []


def test_evidence_search_is_ranked_and_filtered(client):
    chunks = client.evidence.search("interconnection", limit=20, max_items=60).to_list()
    assert chunks
    ranks = [c.rank for c in chunks]
    assert ranks == sorted(ranks, reverse=True)
    tables = client.evidence.search("interconnection", kind="table", max_items=20).to_list()
    assert all(c.kind == "table" for c in tables)


def test_queue_record_details_and_evidence(client):
    queue_record = client.queue_records.list(max_items=1).first()
    details = client.queue_records.details(queue_record.id)
    evidence = client.queue_records.evidence(queue_record.id)
    assert details.record_id == queue_record.id
    assert evidence.record_id == queue_record.id
    assert evidence.locator.type == "spreadsheet_row" and evidence.locator.row >= 1
    assert evidence.raw.json()["data"]["recordId"] == queue_record.id


def test_to_pandas_keeps_provenance_and_flags(client):
    generators = client.generators.list(max_items=200).to_pandas()
    assert len(generators) == 200
    assert generators["evidence.sourceId"].notna().all()
    assert generators["evidence.sourceLocator"].notna().all()
    queue = client.queue_records.list(limit=500).to_pandas()
    flagged = queue["qualityFlags"].map(len) > 0
    assert flagged.any() and (~flagged).any()
    assert (queue.loc[flagged, "qualityFlagsText"] != "").all()
    assert (queue.loc[~flagged, "qualityFlagsText"] == "").all()
    assert queue["sourceId"].notna().all()


# --- territories, sites, assessments, exports ----------------------------------------


def test_territory_resolution_at_the_named_points(client):
    latitude, longitude = DEMO_POINTS["dual_certified"]
    dual = client.service_territories.resolve(latitude=latitude, longitude=longitude)
    assert len(dual.candidates) >= 2
    assert all(0 <= c.confidence <= 1 for c in dual.candidates)
    latitude, longitude = DEMO_POINTS["outside_coverage"]
    assert (
        client.service_territories.resolve(latitude=latitude, longitude=longitude).candidates == []
    )


def test_site_round_trip_and_listing(client, site):
    assert site.tenant_id == "demo-alpha"
    assert site.target_in_service_date == date(2029, 6, 1)
    assert client.sites.get(site.id).model_dump() == site.model_dump()
    assert site.id in _ids(client.sites.list())


def test_a_retried_creation_with_one_key_makes_one_site(client):
    before = len(_ids(client.sites.list()))
    definition = {"requestedPeakLoadMw": 10, "location": {"latitude": 30.0, "longitude": -97.0}}
    first = client.sites.create(definition, idempotency_key="client-live-key-0001")
    again = client.sites.create(definition, idempotency_key="client-live-key-0001")
    assert first.id == again.id
    assert again.raw.headers.get("idempotent-replayed") == "true"
    assert len(_ids(client.sites.list())) == before + 1


def test_an_invalid_site_is_unprocessable_with_the_field_named(client):
    with pytest.raises(gc.UnprocessableEntityError) as caught:
        client.sites.create(
            {"requestedPeakLoadMw": -5, "location": {"latitude": 1, "longitude": 2}}
        )
    assert any("requestedPeakLoadMw" in str(e.get("field")) for e in caught.value.errors)
    assert caught.value.request_id


def test_site_surroundings_are_typed_and_cite_their_cells(client, site):
    surroundings = client.sites.surroundings(site.id, radius_km=25, from_month="2025-01")
    assert isinstance(surroundings, gc.SiteSurroundings)
    assert surroundings.radius_km == 25
    assert surroundings.changes.from_report.report_month == "2025-01"
    assert surroundings.changes.to.report_month == surroundings.reports[-1].report_month
    county = surroundings.counties[0]
    assert isinstance(county, gc.SurroundingCounty) and county.is_site_county
    assert county.queue.location_basis == "county"
    assert county.plants.location_basis == "coordinates"
    listed = county.queue.lists["projects"]
    assert isinstance(listed, gc.ListPage)
    assert county.queue.active_projects == listed.total >= len(county.queue.projects) > 0
    change = next(c for p in surroundings.changes.changed for c in p.changes)
    assert change.from_cell.file_name != change.to_cell.file_name
    assert change.from_value != change.to
    wire = surroundings.raw.json()["data"]
    assert wire["changes"]["changed"][0]["changes"][0]["from"] is not None
    point = county.interconnection_points.by_kv[0].points[0]
    assert isinstance(point, gc.InterconnectionPoint) and point.raw_text


def test_every_project_of_a_bounded_list_is_read_once_by_its_pager(client, site):
    near = client.sites.surroundings(site.id, radius_km=25, from_month="2025-01")
    months = {"radius_km": 25, "from_month": "2025-01"}
    county = near.counties[0]
    queue = list(
        client.sites.surroundings_projects(
            site.id, "queue", county_fips=county.county_fips, limit=7, **months
        )
    )
    assert len({p.project_id for p in queue}) == len(queue) == county.queue.active_projects
    assert [p.project_id for p in queue[: len(county.queue.projects)]] == [
        p.project_id for p in county.queue.projects
    ]
    for name in ("entered", "left", "changed"):
        every = list(client.sites.surroundings_projects(site.id, name, limit=10, **months))
        assert len({p.project_id for p in every}) == len(every) == near.changes.counts[name]
    assert all(p.changes for p in every)  # each changed project says what changed
    with pytest.raises(gc.InvalidArgumentError):
        client.sites.surroundings_projects(site.id, "nearby")


def test_site_surroundings_refuse_bad_input_before_or_at_the_service(client, site):
    with pytest.raises(gc.InvalidArgumentError):
        client.sites.surroundings(site.id, from_month="January")
    with pytest.raises(gc.UnprocessableEntityError) as caught:
        client.sites.surroundings(site.id, radius_km=151)
    assert caught.value.code == "radius_out_of_range"
    with pytest.raises(gc.UnprocessableEntityError) as caught:
        client.sites.surroundings(site.id, to_month="2019-01")
    assert caught.value.code == "month_not_harvested"


def test_other_tenants_see_nothing(beta, site, assessment):
    with pytest.raises(gc.NotFoundError):
        beta.sites.get(site.id)
    with pytest.raises(gc.NotFoundError):
        beta.assessments.get(assessment.id)
    with pytest.raises(gc.NotFoundError):
        beta.sites.surroundings(site.id)
    assert site.id not in _ids(beta.sites.list())


def test_assessment_create_list_get(client, site, assessment):
    assert assessment.site_id == site.id
    assert assessment.readiness and "level" in assessment.readiness
    assert assessment.disclaimer
    assert client.assessments.get(assessment.id).id == assessment.id
    assert assessment.id in _ids(client.assessments.list(site.id))


def test_sites_come_with_their_latest_assessment_in_one_request(client, site, assessment):
    newer = client.assessments.create(site.id)
    listed = {s.id: s for s in client.sites.list(include_latest_assessment=True)}
    assert listed[site.id].latest_assessment.id == newer.id != assessment.id
    assert isinstance(listed[site.id].latest_assessment, gc.Assessment)
    assert all(s.latest_assessment is None for s in client.sites.list())


def test_expert_review_bytes_are_the_services_bytes(live, client, assessment):
    packet = client.assessments.expert_review(assessment.id)
    direct = httpx.get(
        f"{live.base_url}/v1/assessments/{assessment.id}/expert-review.json",
        headers={"Authorization": f"Bearer {ALPHA}"},
    )
    assert packet.raw_bytes == direct.content
    assert packet.review_status == "unreviewed"
    assert b"demo-alpha" not in packet.raw_bytes
    assert b"client-live-test" not in packet.raw_bytes


def test_export_create_and_get(client, assessment):
    export = client.exports.create(assessment.id, format="csv")
    assert export.assessment_id == assessment.id
    assert export.content_type.startswith("text/csv")
    assert assessment.id in export.content
    fetched = client.exports.get(export.id)
    assert fetched.content_bytes == export.content_bytes


# --- errors from the real service -------------------------------------------------------


def test_unknown_token_is_an_authentication_error(live):
    stranger = gc.GridDataClient(base_url=live.base_url, token="not-a-token")
    with stranger, pytest.raises(gc.AuthenticationError) as caught:
        stranger.generators.list().first()
    assert caught.value.code == "invalid_token"
    assert caught.value.request_id and caught.value.request_id in str(caught.value)


def test_unsupported_service_version_is_a_bad_request(live):
    old = gc.GridDataClient(base_url=live.base_url, token=ALPHA, service_version="1999-01-01")
    with old, pytest.raises(gc.BadRequestError) as caught:
        old.generators.list().first()
    assert "2025-06-01" in caught.value.detail


def test_unknown_ids_are_not_found(client):
    for call in (
        lambda: client.assessments.get("asm_missing"),
        lambda: client.exports.get("exp_missing"),
        lambda: client.queue_records.details("missing"),
        lambda: client.assessments.expert_review("asm_missing"),
    ):
        with pytest.raises(gc.NotFoundError):
            call()


def test_rate_limit_is_retried_with_the_services_retry_after(live, db_path):
    limited = start_in_thread(
        Settings(db_path=db_path, demo=True, rate_limit_per_second=0.5, rate_limit_burst=1)
    )
    waits: list[float] = []
    try:
        with gc.GridDataClient(
            base_url=limited.base_url, token=ALPHA, max_retries=2, sleep=waits.append
        ) as hurried:
            hurried.generators.list(max_items=1).first()
            with pytest.raises(gc.RateLimitError) as caught:
                hurried.generators.list(max_items=1).first()
    finally:
        limited.stop()
    assert caught.value.retry_after >= 1
    assert len(waits) == 2
    assert all(1 <= w <= 2 for w in waits)


def test_a_site_is_renamed_archived_and_its_revisions_read_back(client, beta):
    latitude, longitude = DEMO_POINTS["single_territory"]
    created = client.sites.create(
        gc.SiteDefinition(
            requested_peak_load_mw=40,
            location=gc.SiteLocation(latitude=latitude, longitude=longitude),
        )
    )
    renamed = client.sites.update(created.id, customer_reference="West yard", archived=True)
    assert renamed.customer_reference == "West yard" and renamed.archived_at is not None
    assert created.id not in {s.id for s in client.sites.list(limit=500)}
    assert created.id in {s.id for s in client.sites.list(archived="only", limit=500)}
    revisions = client.sites.revisions(created.id)
    assert [sorted(c["field"] for c in r.changes) for r in revisions] == [
        ["archivedAt", "customerReference"]
    ]
    with pytest.raises(gc.NotFoundError):
        beta.sites.update(created.id, archived=False)
    assert client.sites.get(created.id).archived_at is not None


def test_an_update_with_a_stale_etag_raises_precondition_failed(client):
    latitude, longitude = DEMO_POINTS["single_territory"]
    created = client.sites.create(
        gc.SiteDefinition(
            requested_peak_load_mw=40,
            location=gc.SiteLocation(latitude=latitude, longitude=longitude),
        )
    )
    read = client.sites.get(created.id)
    renamed = client.sites.update(created.id, customer_reference="North", if_match=read.etag)
    assert renamed.customer_reference == "North" and renamed.etag not in (None, read.etag)
    with pytest.raises(gc.PreconditionFailedError) as caught:
        client.sites.update(created.id, customer_reference="South", if_match=read.etag)
    assert caught.value.status == 412 and caught.value.code == "precondition_failed"
    assert client.sites.get(created.id).customer_reference == "North"


def test_changes_since_the_seeded_sites_assessment_are_typed(client, beta):
    from gridservice.demo.portfolio import SCREENED_ON_MONTH, SEEDED_SITE_ID

    changes = client.sites.changes(SEEDED_SITE_ID)
    assert isinstance(changes, gc.SiteChanges) and changes.changed_since_assessment
    assert changes.since.report.report_month == SCREENED_ON_MONTH
    moved = changes.queue.left + changes.queue.changed
    assert moved and all(p.source.source_locator for p in moved)
    listed = {s.id: s for s in client.sites.list(include_latest_assessment=True, limit=500)}
    assert listed[SEEDED_SITE_ID].newer_data_since_assessment["changed"] is True
    assert listed[SEEDED_SITE_ID].latest_assessment.key_figures.nearest_plant.plant_name
    with pytest.raises(gc.NotFoundError) as refused:
        client.sites.changes(SEEDED_SITE_ID, since="asm_not_there")
    assert refused.value.code == "since_not_found"
    with pytest.raises(gc.NotFoundError):
        beta.sites.changes(SEEDED_SITE_ID)


def test_the_portfolio_listing_carries_each_sites_summary(client, beta, assessment):
    from gridservice.demo.portfolio import SEEDED_SITE_ID

    listed = list(client.sites.list(include_latest_assessment_summary=True, limit=500))
    screened = [s for s in listed if s.latest_assessment_summary]
    assert {SEEDED_SITE_ID, assessment.site_id} <= {s.id for s in screened}
    for site in screened:
        whole = client.assessments.get(site.latest_assessment_summary.assessment_id)
        assert site.latest_assessment_summary == gc.AssessmentSummary.from_assessment(whole)
        assert site.latest_assessment is None
    seeded = next(s for s in listed if s.id == SEEDED_SITE_ID)
    assert seeded.newer_data_since_assessment["changed"] is True
    queue = seeded.latest_assessment_summary.queue
    assert queue.active_mw > 0 and 0 <= queue.firm_share <= 1
    beta_listed = {s.id for s in beta.sites.list(include_latest_assessment_summary=True)}
    assert not beta_listed & {s.id for s in listed}
    with pytest.raises(gc.InvalidArgumentError):
        client.sites.list(include_latest_assessment=True, include_latest_assessment_summary=True)
