"""The published records: generation, grid operations, transmission, queue, facts, dockets.

Whole collections (`all_*`) load under a status counting their records and are kept per
connection while the release's data snapshot is the same (a harvest changes it); filtered
lists and single records are cached fetches. Empty filters are never sent.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from components.connection import ConnectionKey
from components.data._cache import (
    PAGE_SIZE,
    cached,
    client,
    preload,
    shared,
    traverse,
    with_progress,
)
from components.data.service import release
from gridclient import (
    BalancingAuthorityOperation,
    DocketFiling,
    Fact,
    GenerationPlant,
    Generator,
    GeneratorOperation,
    QueueCompletion,
    QueueProjectTimeline,
    QueueRecord,
    QueueRecordDetails,
    QueueRecordEvidence,
    TransmissionProject,
)

FACT_COLLECTIONS = ("load_forecasts", "resource_adequacy")
# How far from today the search for an authority's latest hour reaches, in days.
SEARCH_REACH_DAYS = 1 << 15


def _sent(filters: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in filters.items() if value not in (None, "", [])}


# The whole public collections the pages draw on, each with how to page through it, in the
# order they are preloaded: the plants first (an assessment draws its nearest plants), then
# the queue (the queue page, a pin's surroundings), the generators, the transmission projects.
WHOLE_COLLECTIONS: dict[str, Callable[..., Any]] = {
    "generation plants": lambda c, **paging: c.generation_plants.list(**paging),
    "queue records": lambda c, **paging: c.queue_records.list(**paging),
    "generators": lambda c, **paging: c.generators.list(**paging),
    "transmission projects": lambda c, **paging: c.transmission_projects.list(**paging),
}


def _whole(conn: ConnectionKey, label: str) -> list[Any]:
    """Return the whole public collection, loaded again when the data snapshot changes."""
    version = release(conn).data_snapshot_sha256
    return traverse(conn, label, WHOLE_COLLECTIONS[label], version=version)


def preload_collections(conn: ConnectionKey) -> None:
    """Start loading the whole collections not loaded yet, one after another in the
    background (after a page has run), so the queue, Generation and an assessment's plants
    find them there."""
    preload(conn, WHOLE_COLLECTIONS, version=release(conn).data_snapshot_sha256)


def all_generators(conn: ConnectionKey) -> list[Generator]:
    """Return every generator (each one's current version)."""
    return _whole(conn, "generators")


def all_generation_plants(conn: ConnectionKey) -> list[GenerationPlant]:
    """Return every generation plant."""
    return _whole(conn, "generation plants")


def all_queue_records(conn: ConnectionKey) -> list[QueueRecord]:
    """Return every interconnection queue record."""
    return _whole(conn, "queue records")


def queue_states(conn: ConnectionKey) -> list[str]:
    """Return the states the queue records name, sorted: where the county-based data lies."""
    return sorted({r.state.strip().upper() for r in all_queue_records(conn) if r.state})


def all_transmission_projects(conn: ConnectionKey) -> list[TransmissionProject]:
    """Return every transmission project."""
    return _whole(conn, "transmission projects")


# The most records a filtered list asked of the service is read to (`generators`).
FILTERED_MAX = 5_000


@cached(spinner="Loading…", max_entries=500)
def generators(conn: ConnectionKey, **filters: Any) -> list[Generator]:
    """Return the generators that pass the interface's filters: the first `FILTERED_MAX`, and
    one more when there are more, so a caller can say the list was cut."""
    pager = client(conn).generators.list(
        **_sent(filters), limit=PAGE_SIZE, max_items=FILTERED_MAX + 1
    )
    return pager.to_list()


@cached(spinner="Loading…", max_entries=500)
def generator_operations(conn: ConnectionKey, plant_id: int) -> list[GeneratorOperation]:
    """Return a plant's monthly generator operations (up to 5,000)."""
    pager = client(conn).generator_operations.list(
        plant_id=plant_id, limit=PAGE_SIZE, max_items=5000
    )
    return pager.to_list()


@cached(spinner="Loading…", max_entries=500)
def facts(conn: ConnectionKey, collection: str, **filters: Any) -> list[Fact]:
    """Return the facts of `load_forecasts` or `resource_adequacy` that pass the filters."""
    if collection not in FACT_COLLECTIONS:
        raise ValueError(f"no fact collection {collection!r}")
    resource = client(conn).load_forecasts
    if collection == "resource_adequacy":
        resource = client(conn).resource_adequacy
    return resource.list(**_sent(filters), limit=PAGE_SIZE, max_items=5000).to_list()


# A window's list holds every hour of the authority and its subregions (up to about 20,000
# records): a few dozen windows are kept, not hundreds.
@shared(spinner="Loading…", max_entries=64)
def balancing_authority_operations(
    conn: ConnectionKey,
    *,
    ba_code: str | None = None,
    start: str | None = None,
    end: str | None = None,
    max_items: int | None = 5000,
) -> list[BalancingAuthorityOperation]:
    """Return hourly operations of an authority in [start, end) (any of them None: all): the
    first `max_items` of them, every one when None."""
    filters = _sent({"ba_code": ba_code, "start": start, "end": end})
    pager = client(conn).balancing_authority_operations.list(
        **filters, limit=PAGE_SIZE, max_items=max_items
    )
    return pager.to_list()


@cached(max_entries=2000)
def operations_from(
    conn: ConnectionKey, ba_code: str, start: str | None, count: int = 1
) -> list[BalancingAuthorityOperation]:
    """Return the authority's first `count` hourly operations at or after `start` (one page)."""
    pager = client(conn).balancing_authority_operations.list(
        **_sent({"ba_code": ba_code, "start": start}), limit=count, max_items=count
    )
    return pager.to_list()


def has_operations_from(conn: ConnectionKey, ba_code: str, start: str | None) -> bool:
    """Return whether the authority has any hourly operation at or after `start` (one record)."""
    return bool(operations_from(conn, ba_code, start))


# Records read to tell whether demand goes on from a day: a source's odd missing hour (the
# real demand file starts with one) must not hide the rest; weather-zone rows share an hour.
DEMAND_PROBE = 48


@cached(spinner="Finding the latest week with demand…", max_entries=200)
def latest_demand_day(conn: ConnectionKey, ba_code: str, last_day: dt.date) -> dt.date | None:
    """Return the last UTC day, up to `last_day`, whose hours carry a demand figure, or None.

    Sources cover different years (on the real data EIA-930 demand ends in 2024 and the fuel
    mix runs from late 2025), so the newest week can hold no demand at all. Asks about the first
    records at or after a day, bisecting between the first day of data and `last_day`.
    """
    first = operations_from(conn, ba_code, None)
    if not first or not first[0].utc_time:
        return None
    first_day = dt.date.fromisoformat(first[0].utc_time[:10])

    def demand_from(day: dt.date) -> bool:
        start = f"{day.isoformat()}T00:00:00Z"
        found = operations_from(conn, ba_code, start, DEMAND_PROBE)
        return any(operation.demand_mw is not None for operation in found)

    return last_day_where(demand_from, first_day, last_day)


def last_day_where(
    holds: Callable[[dt.date], bool], first: dt.date, last: dt.date
) -> dt.date | None:
    """Return the last day in [first, last] where `holds` (true up to some day, then false), by
    bisection; None when it does not hold on the first day."""
    if not holds(first):
        return None
    if holds(last):
        return last
    return _bisect(holds, first, last)


@cached(spinner="Finding the latest operations…", max_entries=200)
def latest_operations_day(conn: ConnectionKey, ba_code: str) -> dt.date | None:
    """Return the last UTC day with an hourly operation of the authority, or None."""

    def has_data_from(day: dt.date) -> bool:
        return has_operations_from(conn, ba_code, f"{day.isoformat()}T00:00:00Z")

    return latest_day(has_data_from, dt.datetime.now(dt.UTC).date())


def latest_day(has_data_from: Callable[[dt.date], bool], today: dt.date) -> dt.date | None:
    """Return the last UTC day with data, given `has_data_from(day)`: any hour at or after it.

    Galloping from `today` then bisecting asks O(log distance) small questions, each near the
    end of the series, instead of walking every hour; None when not even the reach has data.
    """
    step = 1
    if has_data_from(today):
        low = today
        while step <= SEARCH_REACH_DAYS and has_data_from(today + dt.timedelta(days=step)):
            low, step = today + dt.timedelta(days=step), step * 2
        high = today + dt.timedelta(days=step)
    else:
        high = today
        while step <= SEARCH_REACH_DAYS and not has_data_from(today - dt.timedelta(days=step)):
            high, step = today - dt.timedelta(days=step), step * 2
        if step > SEARCH_REACH_DAYS:
            return None
        low = today - dt.timedelta(days=step)
    return _bisect(has_data_from, low, high)


def _bisect(holds: Callable[[dt.date], bool], low: dt.date, high: dt.date) -> dt.date:
    """Return the last day where `holds`, given that it holds on `low` and not on `high`."""
    while (high - low).days > 1:
        middle = low + (high - low) // 2
        if holds(middle):
            low = middle
        else:
            high = middle
    return low


@cached(max_entries=5000)
def queue_details(conn: ConnectionKey, record_id: str) -> QueueRecordDetails:
    """Return one queue record's details."""
    return client(conn).queue_records.details(record_id)


def queue_details_of(conn: ConnectionKey, record_ids: list[str]) -> dict[str, QueueRecordDetails]:
    """Return the details of every record, drawing a progress bar while they load."""
    return with_progress("record details", record_ids, lambda rid: queue_details(conn, rid))


@cached(max_entries=1000)
def queue_evidence(conn: ConnectionKey, record_id: str) -> QueueRecordEvidence:
    """Return one queue record's source evidence."""
    return client(conn).queue_records.evidence(record_id)


@cached(spinner="Loading filings…", max_entries=200)
def docket_filings(conn: ConnectionKey, control_number: str) -> list[DocketFiling]:
    """Return every filing of one docket."""
    return client(conn).dockets.filings(control_number, limit=PAGE_SIZE).to_list()


@cached(spinner="Loading the queue's history…", max_entries=200)
def queue_completion(
    conn: ConnectionKey,
    latitude: float,
    longitude: float,
    radius_km: float,
    fuel: str | None = None,
) -> QueueCompletion:
    """Return how the projects the harvested monthly reports queued in the counties within
    `radius_km` of a point ended and how long operation took, narrowed to one fuel when
    asked (an extension operation); a place no report covers raises the service's problem."""
    return client(conn).queue_history.completion(
        latitude=latitude, longitude=longitude, radius_km=radius_km, fuel=fuel
    )


@cached(max_entries=1000)
def queue_project_timeline(conn: ConnectionKey, project_id: str) -> QueueProjectTimeline:
    """Return one project across every harvested monthly report: its rows, what changed and
    how it ended (an extension operation); a project no report lists raises NotFoundError."""
    return client(conn).queue_history.project_timeline(project_id)
