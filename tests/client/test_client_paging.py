"""Paging: records across every page without a cursor in user code."""

from __future__ import annotations

import threading
import time

import httpx
import pytest
from client_fakes import page, problem

import gridclient as gc

CURSOR_1 = "eyJwIjpbImIiXX0.c2lnbmF0dXJl+/="  # opaque, with characters that need escaping
CURSOR_2 = "cursor-two"


def _ids(records):
    return [r.id for r in records]


def test_iteration_yields_every_record_in_order_and_stops_when_has_more_is_false(service):
    service.script(
        [
            page([{"id": "a"}, {"id": "b"}], has_more=True, cursor=CURSOR_1),
            page([{"id": "c"}, {"id": "d"}], has_more=True, cursor=CURSOR_2),
            page([{"id": "e"}], has_more=False, cursor=None),
        ]
    )
    records = list(service.client().generators.list(state="TX"))
    assert _ids(records) == ["a", "b", "c", "d", "e"]
    assert all(isinstance(r, gc.Generator) for r in records)
    assert len(service.requests) == 3


def test_the_cursor_goes_back_unchanged_with_the_same_filters(service):
    service.script(
        [
            page([{"id": "a"}], has_more=True, cursor=CURSOR_1),
            page([{"id": "b"}], has_more=True, cursor=CURSOR_2),
            page([{"id": "c"}], has_more=False, cursor=None),
        ]
    )
    pager = service.client().generators.list(
        state="TX", plant_id=7, min_capacity_mw=10, max_capacity_mw=250.5, limit=2
    )
    list(pager)
    sent = [dict(r.url.params) for r in service.requests]
    filters = {
        "state": "TX",
        "plant_id": "7",
        "min_capacity_mw": "10",
        "max_capacity_mw": "250.5",
        "limit": "2",
    }
    assert sent[0] == filters
    assert sent[1] == {**filters, "cursor": CURSOR_1}
    assert sent[2] == {**filters, "cursor": CURSOR_2}
    assert all(r.url.path == "/v1/generators" for r in service.requests)


def test_an_empty_last_page_ends_the_traversal_cleanly(service):
    service.script(
        [
            page([{"id": "a"}, {"id": "b"}], has_more=True, cursor=CURSOR_1),
            page([], has_more=False, cursor=None),
        ]
    )
    assert _ids(service.client().queue_records.list()) == ["a", "b"]


def test_an_empty_collection_yields_nothing(service):
    service.script([page([], has_more=False, cursor=None)])
    assert list(service.client().transmission_projects.list(county="Travis")) == []


def test_has_more_without_a_next_cursor_is_an_error_not_an_endless_loop(service):
    service.handle(lambda request: page([{"id": "a"}], has_more=True, cursor=None))
    with pytest.raises(gc.ResponseValidationError) as caught:
        list(service.client().generators.list())
    assert caught.value.field == "meta.nextCursor"
    assert len(service.requests) == 1


def test_a_cursor_sent_back_unchanged_by_the_service_stops_the_traversal(service):
    service.handle(lambda request: page([{"id": "a"}], has_more=True, cursor=CURSOR_1))
    with pytest.raises(gc.ResponseValidationError):
        list(service.client().generators.list())
    assert len(service.requests) == 2


def test_constructing_a_pager_sends_nothing(service):
    client = service.client()
    client.generators.list(state="TX")
    client.evidence.search("interconnection")
    client.dockets.filings("ER24-1234")
    assert service.requests == []


def test_max_items_bounds_the_traversal_and_the_requests(service):
    service.handle(
        lambda request: page(
            [{"id": "a"}, {"id": "b"}],
            has_more=True,
            cursor=CURSOR_1 + request.url.params.get("cursor", ""),
        )
    )
    records = list(service.client().generators.list(limit=2, max_items=3))
    assert len(records) == 3
    assert len(service.requests) == 2


def test_max_items_without_limit_asks_for_a_page_that_size(service):
    service.script([page([{"id": "a"}, {"id": "b"}], has_more=True, cursor=CURSOR_1)])
    records = list(service.client().generators.list(max_items=2))
    assert _ids(records) == ["a", "b"]
    assert service.requests[0].url.params["limit"] == "2"


def test_max_items_zero_sends_nothing(service):
    assert list(service.client().generators.list(max_items=0)) == []
    assert service.requests == []


def test_on_progress_reports_records_and_pages_so_far(service):
    service.script(
        [
            page([{"id": "a"}, {"id": "b"}], has_more=True, cursor=CURSOR_1),
            page([{"id": "c"}], has_more=True, cursor=CURSOR_2),
            page([], has_more=False, cursor=None),
        ]
    )
    progress = []
    list(service.client().load_forecasts.list(on_progress=lambda n, p: progress.append((n, p))))
    assert progress == [(2, 1), (3, 2), (3, 3)]


def test_pages_yields_pages_with_their_meta(service):
    service.script(
        [
            page([{"id": "a"}, {"id": "b"}], has_more=True, cursor=CURSOR_1),
            page([{"id": "c"}], has_more=False, cursor=None),
        ]
    )
    pages = list(service.client().generation_plants.list().pages())
    assert [len(p) for p in pages] == [2, 1]
    assert pages[0].meta.has_more is True
    assert pages[0].next_cursor == CURSOR_1
    assert pages[0].meta.order == "id_asc"
    assert pages[1].has_more is False
    assert pages[0].raw.json()["meta"]["nextCursor"] == CURSOR_1


def test_iterating_again_starts_from_the_first_page(service):
    service.handle(lambda request: page([{"id": "a"}], has_more=False, cursor=None))
    pager = service.client().generators.list()
    assert _ids(pager) == ["a"]
    assert _ids(pager) == ["a"]
    assert "cursor" not in service.requests[1].url.params


def test_first_reads_one_page_at_most(service):
    service.handle(lambda request: page([{"id": "a"}, {"id": "b"}], has_more=True, cursor=CURSOR_1))
    assert service.client().generators.list().first().id == "a"
    assert len(service.requests) == 1


def test_evidence_search_sends_q_and_its_filters(service):
    service.script(
        [
            page(
                [{"chunkId": "c1", "rank": 2.5, "sectionPath": ["1", "1.2"]}],
                has_more=False,
                cursor=None,
            )
        ]
    )
    chunks = list(
        service.client().evidence.search(
            "queue withdrawal", kind="table", page=3, authority="official_filing", limit=100
        )
    )
    assert chunks[0].chunk_id == "c1" and chunks[0].section_path == ["1", "1.2"]
    params = dict(service.requests[0].url.params)
    assert params == {
        "q": "queue withdrawal",
        "kind": "table",
        "page": "3",
        "authority": "official_filing",
        "limit": "100",
    }


def test_to_pandas_flattens_evidence_and_keeps_quality_flags(service):
    generator = {
        "id": "g1",
        "plantName": "Lone Star",
        "nameplateCapacityMw": 120.5,
        "evidence": {
            "sourceId": "eia860",
            "assetHash": "h1",
            "sourceLocator": "row 4",
            "observedAt": "2026-01-01",
        },
        "qualityFlags": [
            {
                "code": "preliminary_data",
                "severity": "info",
                "field": "status",
                "message": "early release",
            }
        ],
        "futureField": "kept",
    }
    service.script(
        [page([generator, {"id": "g2", "qualityFlags": []}], has_more=False, cursor=None)]
    )
    frame = service.client().generators.list().to_pandas()
    assert list(frame["id"]) == ["g1", "g2"]
    assert frame.loc[0, "evidence.sourceId"] == "eia860"
    assert frame.loc[0, "evidence.sourceLocator"] == "row 4"
    assert frame.loc[0, "qualityFlagsText"] == "preliminary_data (status): early release"
    assert frame.loc[1, "qualityFlagsText"] == ""
    assert frame.loc[0, "qualityFlags"][0]["code"] == "preliminary_data"
    assert frame.loc[0, "futureField"] == "kept"


def test_to_pandas_of_an_empty_collection_still_has_the_columns(service):
    service.script([page([], has_more=False, cursor=None)])
    frame = service.client().queue_records.list().to_pandas()
    assert len(frame) == 0
    assert {"id", "projectName", "qualityFlags", "qualityFlagsText"} <= set(frame.columns)


def test_pager_is_typed_by_resource(service):
    service.handle(lambda request: page([{"id": "x"}], has_more=False, cursor=None))
    client = service.client()
    assert isinstance(next(iter(client.load_forecasts.list())), gc.Fact)
    assert isinstance(next(iter(client.dockets.filings("ER1"))), gc.DocketFiling)
    assert isinstance(next(iter(client.sites.list())), gc.Site)
    assert isinstance(next(iter(client.assessments.list("s1"))), gc.Assessment)
    paths = [r.url.path for r in service.requests]
    assert paths == [
        "/v1/load-forecasts",
        "/v1/dockets/ER1/filings",
        "/v1/sites",
        "/v1/sites/s1/assessments",
    ]


def test_a_limit_of_500_is_allowed_for_collections(service):
    service.handle(
        lambda request: httpx.Response(200, json={"data": [], "meta": {"hasMore": False}})
    )
    list(service.client().generators.list(limit=500))
    assert service.requests[0].url.params["limit"] == "500"


def test_the_garbage_collector_is_left_as_the_caller_had_it(service):
    # Pages are validated with the collector held off; it must come back on afterwards,
    # also when a page does not fit the model, and stay off for a caller who turned it off.
    import gc as collector

    service.script(
        [
            page([{"id": "a"}], has_more=True, cursor=CURSOR_1),
            httpx.Response(200, json={"data": {"id": "b"}, "meta": {}}),  # not a page
        ]
    )
    assert collector.isenabled()
    with pytest.raises(gc.ResponseValidationError):
        list(service.client().generators.list())
    assert collector.isenabled()

    service.script([page([{"id": "a"}], has_more=False, cursor=None)])
    collector.disable()
    try:
        assert _ids(service.client().generators.list()) == ["a"]
        assert not collector.isenabled()
    finally:
        collector.enable()


def test_the_next_page_is_asked_for_while_this_one_becomes_models(service, monkeypatch):
    # The service works out page 2 while the client validates page 1: at scale 100 the
    # whole queue (150,000 records) took 7.6 to 8.1 s one page after the other, 5.7 to 6.6 s so.
    second_asked = threading.Event()

    def handler(request):
        if "cursor" not in request.url.params:
            return page([{"id": "a"}, {"id": "b"}], has_more=True, cursor=CURSOR_1)
        assert request.url.params["cursor"] == CURSOR_1
        second_asked.set()
        return page([{"id": "c"}], has_more=False, cursor=None)

    service.handle(handler)
    from gridclient._transport import Transport

    validate = Transport.parse_page
    asked_during_first = []

    def parse_page(self, response, model):
        if "cursor" not in response.request.url.params:
            asked_during_first.append(second_asked.wait(5))
        return validate(self, response, model)

    monkeypatch.setattr(Transport, "parse_page", parse_page)
    assert _ids(service.client().queue_records.list()) == ["a", "b", "c"]
    assert asked_during_first == [True]
    assert len(service.requests) == 2  # no request more than the pages


def test_a_next_cursor_guessed_wrong_from_the_body_is_not_used(service):
    # meta first, and a record's own "meta" member last: the guess reads the record's
    def handler(request):
        cursor = request.url.params.get("cursor")
        if cursor is None:
            body = {
                "meta": {"hasMore": True, "limit": 2, "nextCursor": CURSOR_1, "order": "id_asc"},
                "data": [{"id": "a", "meta": {"hasMore": True, "nextCursor": "misleading"}}],
            }
            return httpx.Response(200, json=body)
        if cursor == "misleading":
            return problem(400, "invalid_cursor", "not a cursor of this collection")
        return page([{"id": "b"}], has_more=False, cursor=None)

    service.handle(handler)
    assert _ids(service.client().generators.list()) == ["a", "b"]
    sent = [r.url.params.get("cursor") for r in service.requests]
    assert CURSOR_1 in sent and sent[0] is None  # the page asked again with the true cursor


def test_a_page_read_ahead_that_fails_raises_when_the_traversal_reaches_it(service):
    service.script(
        [
            page([{"id": "a"}, {"id": "b"}], has_more=True, cursor=CURSOR_1),
            problem(404, "not_found", "the collection went away"),
        ]
    )
    got = []
    with pytest.raises(gc.NotFoundError, match="went away"):
        for generator in service.client().generators.list():
            got.append(generator.id)
    assert got == ["a", "b"]  # the records before it came first, as without reading ahead


class BodyStream(httpx.SyncByteStream):
    """A page's body as the network hands it over: it can fail midway, and it says when it
    was closed."""

    def __init__(self, body: bytes, *, fail: bool = False) -> None:
        self.body, self.fail = body, fail
        self.closed = threading.Event()

    def __iter__(self):
        if self.fail:
            raise httpx.ReadError("connection reset while reading the page")
        yield self.body

    def close(self) -> None:
        self.closed.set()


def streamed(response: httpx.Response, *, fail: bool = False) -> tuple[httpx.Response, BodyStream]:
    stream = BodyStream(response.content, fail=fail)
    return httpx.Response(response.status_code, headers=response.headers, stream=stream), stream


def test_a_page_read_ahead_whose_body_breaks_is_asked_for_again(service):
    bodies: list[BodyStream] = []

    def handler(request):
        if "cursor" not in request.url.params:
            return page([{"id": "a"}], has_more=True, cursor=CURSOR_1)
        answer, stream = streamed(page([{"id": "b"}], has_more=False, cursor=None), fail=not bodies)
        bodies.append(stream)
        return answer

    service.handle(handler)
    assert _ids(service.client().generators.list()) == ["a", "b"]
    assert len(bodies) == 2  # the broken read ahead, then the page asked for again


def test_a_traversal_stopped_early_lets_the_page_read_ahead_go(service):
    bodies: list[BodyStream] = []

    def handler(request):
        if "cursor" not in request.url.params:
            return page([{"id": "a"}], has_more=True, cursor=CURSOR_1)
        answer, stream = streamed(page([{"id": "b"}], has_more=False, cursor=None))
        bodies.append(stream)
        return answer

    service.handle(handler)
    pages = service.client().generators.list().pages()
    assert [g.id for g in next(pages)] == ["a"]
    pages.close()  # the caller has what it wanted
    deadline = time.monotonic() + 5
    while not bodies and time.monotonic() < deadline:
        time.sleep(0.01)
    assert bodies and bodies[0].closed.wait(5)  # its connection goes back to the pool


def test_a_record_the_model_cannot_read_is_left_out_and_named(service):
    service.script(
        [
            page(
                [{"id": "a"}, {"id": "b", "requestedCapacityMw": "lots"}],
                has_more=True,
                cursor=CURSOR_1,
            ),
            page([{"id": "c"}], has_more=False, cursor=None),
        ]
    )
    pager = service.client().queue_records.list()
    assert _ids(pager) == ["a", "c"]
    [unread] = pager.unreadable
    assert (unread.index, unread.id, unread.field) == (1, "b", "requestedCapacityMw")
    assert "number" in unread.message


def test_a_record_nested_past_the_parsers_limit_costs_only_itself(service):
    deep: object = 1
    for _ in range(300):
        deep = {"x": deep}
    sites = [
        {"id": "site_a", "location": {"latitude": 30.0, "longitude": -97.0}},
        {"id": "site_b", "location": {"latitude": "north", "longitude": -97.0}},
        {"id": "site_c", "location": {"latitude": 31.0, "longitude": -97.0}},
    ]
    sites[0]["energyStorage"] = deep
    service.script([page(sites, has_more=False, cursor=None)])
    pager = service.client().sites.list()
    listed = _ids(pager)
    assert "site_c" in listed and "site_b" not in listed
    assert [r.id for r in pager.unreadable if r.id == "site_b"] == ["site_b"]


def test_a_page_that_is_not_a_page_is_still_an_error(service):
    service.handle(lambda request: httpx.Response(200, json={"data": {"id": "a"}, "meta": {}}))
    with pytest.raises(gc.ResponseValidationError):
        list(service.client().queue_records.list())
