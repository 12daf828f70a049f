"""The tenant's own records: sites, assessments, expert-review packets and CSV exports."""

from __future__ import annotations

from collections.abc import Callable

from components.connection import ConnectionKey
from components.data._cache import PAGE_SIZE, Model, cached, client, shared
from components.data.service import capabilities
from gridclient import (
    Assessment,
    AssessmentExport,
    AssessmentSummary,
    Capabilities,
    NotFoundError,
    QueueProject,
    Site,
    SiteChanges,
    SiteDefinition,
    SiteSurroundings,
    UnreadableRecord,
)


def _found(fetch: Callable[[], Model]) -> Model | None:
    """Return what `fetch` reads, or None when the tenant has no such record (404)."""
    try:
        return fetch()
    except NotFoundError:
        return None


@cached()
def assessment(conn: ConnectionKey, assessment_id: str) -> Assessment | None:
    """Return the assessment, or None when the tenant has no such assessment."""
    return _found(lambda: client(conn).assessments.get(assessment_id))


@cached()
def site(conn: ConnectionKey, site_id: str) -> Site | None:
    """Return the tenant's site, or None when the tenant has no such site."""
    return _found(lambda: client(conn).sites.get(site_id))


# handed to every run as the one object held (`shared`): unpickling a fresh copy was 24 ms of
# each run of an assessment at scale 10 (28 Nov 2026); its callers only read it
@shared(spinner="Loading the grid around the site…", max_entries=100)
def site_surroundings(
    conn: ConnectionKey,
    site_id: str,
    radius_km: float | None = None,
    from_month: str | None = None,
    to_month: str | None = None,
) -> SiteSurroundings:
    """Return the site's surroundings within `radius_km`, its changes between two harvested
    report months (None: the service's defaults, the newest and twelve months before it).

    An extension operation (`capabilities(conn).site_surroundings`); a radius out of range,
    months not harvested, or a site outside every harvested county raise the service's problem.
    """
    return client(conn).sites.surroundings(
        site_id, radius_km=radius_km, from_month=from_month, to_month=to_month
    )


@cached(spinner="Loading every project of the list…", max_entries=100)
def surroundings_projects(
    conn: ConnectionKey,
    site_id: str,
    list_name: str,
    radius_km: float | None = None,
    from_month: str | None = None,
    to_month: str | None = None,
) -> list[QueueProject]:
    """Return every project of one change list of the surroundings (`entered`, `left`,
    `changed`), by queue id: the surroundings carry only the first of each."""
    pager = client(conn).sites.surroundings_projects(
        site_id,
        list_name,
        radius_km=radius_km,
        from_month=from_month,
        to_month=to_month,
        limit=500,
    )
    return list(pager)


# The sites whose newest assessment is looked up one request each, where the deployment
# lists no site with its assessment: the newest ones.
LOOKED_UP_SITES = 200


def lists_sites_with_assessments(offered: Capabilities) -> bool:
    """Return whether one listing gives each site with its latest assessment or its summary
    (extensions of `GET /v1/sites`)."""
    return offered.list_sites_assessment_summary or offered.list_sites_latest_assessment


class SiteList(list):
    """A tenant's sites as listed, and the listed records that could not be read (left out)."""

    def __init__(self, sites: list[Site], unreadable: list[UnreadableRecord]) -> None:
        super().__init__(sites)
        self.unreadable = unreadable


@cached()
def portfolio_sites(conn: ConnectionKey, *, archived: bool = False) -> SiteList:
    """Return every site of the tenant with its latest assessment's summary.

    Lists the summaries (`list_sites_assessment_summary`, about 1 KiB a site) where the
    deployment offers them; else the whole latest assessments (`list_sites_latest_assessment`),
    each summarised as its page arrives and dropped. `archived=True` lists archived sites too.
    Until 28 Nov 2026 the list stopped at 200 sites, in the service's order (by id: any 200).
    """
    slim = capabilities(conn).list_sites_assessment_summary
    listed = client(conn).sites.list(
        include_latest_assessment=not slim,
        include_latest_assessment_summary=slim,
        archived="include" if archived else "exclude",
        limit=PAGE_SIZE,
    )
    sites = listed.to_list() if slim else [_summarised(s) for s in listed]
    ordered = sorted(sites, key=lambda s: (s.customer_reference or s.id or "").casefold())
    return SiteList(ordered, listed.unreadable)


def newest_first(sites: list[Site]) -> list[Site]:
    """Return the sites newest first (those without a creation time last)."""
    return sorted(
        sites, key=lambda s: s.created_at.isoformat() if s.created_at else "", reverse=True
    )


@cached()
def recent_sites(conn: ConnectionKey) -> SiteList:
    """Return every site of the tenant (not archived), newest first, each with its latest
    assessment's summary: from one listing where the deployment offers it; otherwise one
    listing of sites and, if it lists assessments, one request for each of the newest
    `LOOKED_UP_SITES` (the others come without their assessment)."""
    offered = capabilities(conn)
    if lists_sites_with_assessments(offered):
        listed = portfolio_sites(conn)
        return SiteList(newest_first(listed), listed.unreadable)
    listing = client(conn).sites.list(limit=PAGE_SIZE)
    sites = newest_first(listing.to_list())
    if not offered.list_assessments:
        return SiteList(sites, listing.unreadable)
    looked_up = [
        s.model_copy(update={"latest_assessment": _newest(conn, s)})
        for s in sites[:LOOKED_UP_SITES]
    ]
    return SiteList(
        [_summarised(s) for s in looked_up] + sites[LOOKED_UP_SITES:], listing.unreadable
    )


def _summarised(site: Site) -> Site:
    latest = site.latest_assessment
    summary = AssessmentSummary.from_assessment(latest) if latest else None
    return site.model_copy(update={"latest_assessment_summary": summary, "latest_assessment": None})


def latest_assessments(conn: ConnectionKey, sites: list[Site]) -> dict[str, Assessment | None]:
    """Return {site id: its latest whole assessment, or None} for a few sites (a comparison)."""
    return {
        s.id: assessment(conn, s.latest_assessment_summary.assessment_id)
        if s.latest_assessment_summary
        else None
        for s in sites
    }


@cached()
def site_changes(conn: ConnectionKey, site_id: str, since: str | None = None) -> SiteChanges:
    """Return what changed near the site since an assessment (default: its newest)."""
    return client(conn).sites.changes(site_id, since=since)


def update_site(
    conn: ConnectionKey,
    site_id: str,
    *,
    idempotency_key: str,
    customer_reference: str | None = None,
    archived: bool | None = None,
) -> Site:
    """Rename (a non-empty reference) or archive/unarchive the site (extension `update_site`)."""
    changes: dict = {} if customer_reference is None else {"customer_reference": customer_reference}
    updated = client(conn).sites.update(
        site_id, archived=archived, idempotency_key=idempotency_key, **changes
    )
    forget_tenant_records()
    return updated


def _newest(conn: ConnectionKey, listed: Site) -> Assessment | None:
    assessments = list(client(conn).assessments.list(listed.id))
    return max(
        assessments, key=lambda a: a.created_at.isoformat() if a.created_at else "", default=None
    )


def forget_tenant_records() -> None:
    """Forget the cached lists of the tenant's records (after a write changed them)."""
    recent_sites.clear()
    portfolio_sites.clear()
    site_changes.clear()


def create_site(conn: ConnectionKey, definition: SiteDefinition, idempotency_key: str) -> Site:
    """Create the site; the same key with the same definition replays the one site."""
    created = client(conn).sites.create(definition, idempotency_key=idempotency_key)
    forget_tenant_records()
    return created


def screen_site(conn: ConnectionKey, site_id: str, idempotency_key: str) -> Assessment:
    """Screen the site into a new assessment (extension `create_assessment`)."""
    screened = client(conn).assessments.create(site_id, idempotency_key=idempotency_key)
    forget_tenant_records()
    return screened


@cached()
def packet_bytes(conn: ConnectionKey, assessment_id: str) -> bytes:
    """Return the expert-review packet's response body exactly as served."""
    return client(conn).assessments.expert_review(assessment_id).raw_bytes


@cached()
def export(conn: ConnectionKey, export_id: str) -> AssessmentExport:
    """Return an assessment export."""
    return client(conn).exports.get(export_id)


def create_export(conn: ConnectionKey, assessment_id: str) -> AssessmentExport:
    """Create a CSV export of the assessment (extension `create_export`)."""
    return client(conn).exports.create(assessment_id, format="csv")
