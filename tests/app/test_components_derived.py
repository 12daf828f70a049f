"""What pages derive once from whole collections: made again whenever a collection is
loaded again, never handed to another tenant, and drawn as `show_table` would draw it."""

from __future__ import annotations

import gc
import threading
import time
import weakref

import pandas as pd
import pytest
from conftest import ALPHA_TOKEN, app_path
from streamlit.testing.v1 import AppTest
from test_components_data_shaping import queue_record

from components import data, glossary, queue_view
from components.connection import ConnectionKey
from components.data import _cache
from components.data import records as records_module
from components.data._cache import _holder, preload, traverse
from components.tables import formula_safe, shown_table
from gridclient import APIConnectionError

ALPHA = ConnectionKey("http://127.0.0.1:1", "token-a", "demo-alpha")
BETA = ConnectionKey("http://127.0.0.1:1", "token-b", "demo-beta")


class Builds:
    def __init__(self) -> None:
        self.made: list[str] = []

    def __call__(self, label: str):
        def build():
            self.made.append(label)
            return {"label": label}

        return build


def test_a_frame_is_made_once_for_the_same_list_and_again_for_a_reloaded_one():
    builds = Builds()
    records = [queue_record("q1")]
    first = data.derived(ALPHA, "derived-test", (records,), builds("first"))
    again = data.derived(ALPHA, "derived-test", (records,), builds("again"))
    assert again is first and builds.made == ["first"]

    reloaded = [queue_record("q1")]  # equal, but loaded again: it may have changed
    third = data.derived(ALPHA, "derived-test", (reloaded,), builds("reloaded"))
    assert third["label"] == "reloaded"
    assert builds.made == ["first", "reloaded"]


def test_another_tenant_never_gets_a_frame_made_for_the_first():
    builds = Builds()
    records = [queue_record("q1")]
    data.derived(ALPHA, "derived-tenant-test", (records,), builds("alpha"))
    beta = data.derived(BETA, "derived-tenant-test", (records,), builds("beta"))
    assert beta["label"] == "beta"


def test_rows_of_the_shown_table_are_those_show_table_draws_for_the_same_rows():
    hostile = queue_record("q2")
    hostile = hostile.model_copy(update={"project_name": '=HYPERLINK("http://x")'})
    records = [queue_record("q1"), hostile, queue_record("q3", state="NM", county="Lea")]
    frame = queue_view.queue_frame(records)
    table = shown_table(frame, queue_view.table_config())

    chosen = frame[frame["id"] != "q1"]
    expected = glossary.table(chosen.reset_index(drop=True), queue_view.table_config())
    drawn = table.data.loc[chosen.index].reset_index(drop=True)
    pd.testing.assert_frame_equal(drawn, formula_safe(expected["data"]))
    assert table.column_config == expected["column_config"]
    names = drawn.iloc[:, list(frame.columns).index("projectName")]
    assert names.tolist()[0].startswith("'=")  # a spreadsheet would not run it


class Pager:
    """A collection's pager that counts its traversals."""

    def __init__(self, records: list) -> None:
        self.records = records
        self.traversals = 0

    def __call__(self, client, *, limit: int, on_progress=None):
        self.traversals += 1
        if on_progress:
            on_progress(len(self.records), 1)
        return iter(self.records)


def test_a_whole_collection_is_loaded_again_only_when_the_data_snapshot_changes():
    pager = Pager([queue_record("q1"), queue_record("q2")])
    first = traverse(ALPHA, "traverse-test", pager, version="snapshot-1")
    again = traverse(ALPHA, "traverse-test", pager, version="snapshot-1")
    assert again is first and pager.traversals == 1

    pager.records = [queue_record("q1")]  # a harvest changed the data
    changed = traverse(ALPHA, "traverse-test", pager, version="snapshot-2")
    assert [str(r.id) for r in changed] == ["q1"] and pager.traversals == 2


def test_the_whole_queue_is_keyed_by_the_release_data_snapshot(monkeypatch):
    seen: list = []
    monkeypatch.setattr(
        records_module,
        "release",
        lambda conn: type("Release", (), {"data_snapshot_sha256": "abc"})(),
    )
    monkeypatch.setattr(
        records_module, "traverse", lambda conn, label, pager, version: seen.append(version)
    )
    data.all_queue_records(ALPHA)
    data.all_generators(ALPHA)
    assert seen == ["abc", "abc"]


def own_key(test: str) -> ConnectionKey:
    return ConnectionKey("http://127.0.0.1:1", f"token-{test}", f"tenant-{test}")


class HeldPager(Pager):
    """A pager whose traversal waits until the test lets it go (a slow service)."""

    def __init__(self, records: list) -> None:
        super().__init__(records)
        self.go = threading.Event()

    def __call__(self, client, *, limit: int, on_progress=None):
        self.traversals += 1
        assert self.go.wait(10), "the test never let the traversal go"
        return iter(self.records)


class OrderedPager(HeldPager):
    """A held pager that writes its name in `begun` when its traversal starts."""

    def __init__(self, name: str, records: list, begun: list[str]) -> None:
        super().__init__(records)
        self.name, self.begun = name, begun

    def __call__(self, client, *, limit: int, on_progress=None):
        self.begun.append(self.name)
        return super().__call__(client, limit=limit, on_progress=on_progress)


class CountedRuns(_cache.PageRuns):
    """The process's page runs, counting each check a paused load makes of them."""

    def __init__(self) -> None:
        super().__init__()
        self.checks = 0

    def wait_while_running(self, unless, check_seconds: float) -> None:
        def counted() -> bool:
            self.checks += 1
            return unless()

        super().wait_while_running(counted, check_seconds)


@pytest.fixture
def page_runs(monkeypatch) -> CountedRuns:
    runs = CountedRuns()
    monkeypatch.setattr(_cache, "PAGE_RUNS", runs)
    return runs


def wait_until(condition) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_sessions_asking_while_a_collection_loads_wait_for_the_one_load():
    pager = HeldPager([queue_record("q1"), queue_record("q2")])
    got: list = []

    def session() -> None:
        got.append(traverse(ALPHA, "shared-load-test", pager, version="v1"))

    sessions = [threading.Thread(target=session) for _ in range(2)]
    for thread in sessions:
        thread.start()
    wait_until(lambda: pager.traversals == 1)
    wait_until(lambda: _holder(ALPHA, "shared-load-test")["load"].waiting == 2)
    pager.go.set()
    for thread in sessions:
        thread.join(10)
    assert pager.traversals == 1
    assert len(got) == 2 and got[0] is got[1] and [str(r.id) for r in got[0]] == ["q1", "q2"]


def test_a_preloaded_collection_is_found_by_the_page_without_a_second_traversal():
    conn = own_key("preloaded")  # its own preloader: another test's may still be ending
    pager = HeldPager([queue_record("q1")])
    preload(conn, {"preload-test": pager}, version="v1")
    wait_until(lambda: pager.traversals == 1)
    pager.go.set()
    assert [str(r.id) for r in traverse(conn, "preload-test", pager, version="v1")] == ["q1"]
    _holder(conn, "preloading")["thread"].join(10)
    preload(conn, {"preload-test": pager}, version="v1")  # loaded: nothing more to do
    assert pager.traversals == 1


def test_preloading_takes_one_collection_at_a_time_and_a_page_need_goes_first():
    conn = own_key("one-at-a-time")  # its own preloader: another test's may still be ending
    begun: list[str] = []
    plants, queue, generators = (
        OrderedPager(name, [queue_record(f"q{n}")], begun)
        for n, name in enumerate(("plants", "queue", "gens"))
    )
    preload(conn, {"plants-test": plants, "queue-test": queue, "gens-test": generators}, "v1")
    wait_until(lambda: plants.traversals == 1)

    got: list = []  # the generators page, opened while the plants load
    page = threading.Thread(
        target=lambda: got.append(traverse(conn, "gens-test", generators, version="v1"))
    )
    page.start()
    wait_until(lambda: generators.traversals == 1)  # begun at once, not after the queue
    generators.go.set()
    page.join(10)
    plants.go.set()  # the plants loaded: only now does the preloader take the queue
    wait_until(lambda: queue.traversals == 1)
    queue.go.set()
    _holder(conn, "preloading")["thread"].join(10)
    assert [str(r.id) for r in got[0]] == ["q2"]
    assert begun == ["plants", "gens", "queue"]  # one at a time, and the page's need first
    assert (plants.traversals, queue.traversals, generators.traversals) == (1, 1, 1)


class FailingOnce(Pager):
    def __call__(self, client, *, limit: int, on_progress=None):
        self.traversals += 1
        if self.traversals == 1:
            raise APIConnectionError("the service went away")
        return iter(self.records)


def test_a_failed_load_is_reported_to_the_page_and_asking_again_tries_again():
    pager = FailingOnce([queue_record("q1")])
    try:
        traverse(ALPHA, "failing-load-test", pager, version="v1")
    except APIConnectionError as exc:
        assert "went away" in str(exc)
    else:
        raise AssertionError("the page must see the load's error")
    assert [str(r.id) for r in traverse(ALPHA, "failing-load-test", pager, version="v1")] == ["q1"]
    assert pager.traversals == 2


def test_the_app_starts_loading_the_whole_collections_after_a_page_runs(service_env, alpha_client):
    _holder.clear()  # nothing loaded: only the app can start the loads
    at = AppTest.from_file(app_path(), default_timeout=60).run()  # Screen a site: no list
    assert not at.exception
    conn = ConnectionKey(service_env.rstrip("/"), ALPHA_TOKEN, "demo-alpha")
    preloading = _holder(conn, "preloading").get("thread")
    assert preloading is not None, "the app started no preloading"
    preloading.join(60)
    for label in records_module.WHOLE_COLLECTIONS:
        load = _holder(conn, label).get("load")
        assert load is not None and load.done.is_set() and load.error is None, label
    queue = _holder(conn, "queue records")["entry"][1]
    assert len(queue) == len(alpha_client.queue_records.list().to_list())


def test_a_load_no_page_waits_for_pauses_while_a_page_runs(page_runs):
    conn = own_key("paused")  # its own preloader: another test's may still be ending
    background = Pager([queue_record("q1")])
    with page_runs.running():  # a page's run, under way
        preload(conn, {"paused-test": background}, version="v1")
        wait_until(lambda: page_runs.checks >= 2)  # paused: it waits on the run, check by check
        assert not _holder(conn, "paused-test")["load"].done.is_set()
        # the page needs another collection: its own load does not pause
        needed = Pager([queue_record("q2")])
        got = traverse(conn, "needed-test", needed, version="v1")
        assert [str(r.id) for r in got] == ["q2"]
    assert _holder(conn, "paused-test")["load"].done.wait(5)  # the run ended: it went on


def test_a_paused_load_goes_on_once_a_page_waits_for_it(page_runs):
    conn = own_key("awaited")  # its own preloader: another test's may still be ending
    background = Pager([queue_record("q1")])
    with page_runs.running():
        preload(conn, {"awaited-test": background}, version="v1")
        wait_until(lambda: page_runs.checks >= 2)  # paused while the page runs
        assert not _holder(conn, "awaited-test")["load"].done.is_set()
        got = traverse(conn, "awaited-test", background, version="v1")  # the queue page
        assert [str(r.id) for r in got] == ["q1"] and background.traversals == 1


def test_a_frame_being_made_says_so_and_one_made_before_does_not(monkeypatch):
    import contextlib

    from components.data import _cache

    said: list[str] = []

    def spinner(text):
        said.append(text)
        return contextlib.nullcontext()

    monkeypatch.setattr(_cache.st, "spinner", spinner)
    builds = Builds()
    records = [queue_record("q1")]
    data.derived(ALPHA, "spinner-test", (records,), builds("first"), spinner="Making it…")
    data.derived(ALPHA, "spinner-test", (records,), builds("again"), spinner="Making it…")
    assert said == ["Making it…"] and builds.made == ["first"]


class PagedPager(Pager):
    """A pager that yields its records a page at a time and reports each page, as the
    client does."""

    def __init__(self, records: list, size: int) -> None:
        super().__init__(records)
        self.size = size
        self.tracked_when_reported: list[bool] = []  # the first record, at each page

    def __call__(self, client, *, limit: int, on_progress=None):
        self.traversals += 1
        for start in range(0, len(self.records), self.size):
            page = self.records[start : start + self.size]
            if on_progress:
                on_progress(start + len(page), start // self.size + 1)
            self.tracked_when_reported.append(scanned(self.records[0]))
            yield from page


def scanned(record) -> bool:
    """Whether a full collection of the garbage collector would scan the record."""
    return any(item is record for generation in (0, 1, 2) for item in gc.get_objects(generation))


@pytest.fixture
def collector():
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_big_load_leaves_its_records_out_of_the_collectors_scans(collector, monkeypatch):
    # At scale 100 a full collection scanned the loaded lists' two million objects, 1.4 to
    # 1.7 s with every thread of the app stopped; here a "big" load is four records or more.
    monkeypatch.setattr(_cache, "FREEZE_EVERY_RECORDS", 4)
    records = [queue_record(f"q{n}") for n in range(10)]
    pager = PagedPager(records, size=2)
    loaded = traverse(own_key("frozen"), "frozen-test", pager, version="v1")
    assert loaded == records
    assert not any(scanned(record) for record in records)
    # frozen as the load went, from the second page (four records) on, not only at its end
    assert pager.tracked_when_reported == [True, False, False, False, False]


class Cycle:
    """Garbage only the collector can free: an object that refers to itself."""

    def __init__(self) -> None:
        self.itself = self


class LitteringPager(PagedPager):
    """A pager during whose pages another part of the app drops cyclic garbage (a session
    that ended, a page's run), as the app's threads do while a list loads."""

    def __init__(self, records: list, size: int) -> None:
        super().__init__(records, size)
        self.litter: list[weakref.ref] = []

    def __call__(self, client, *, limit: int, on_progress=None):
        def dropping(records: int, pages: int) -> None:
            # unreachable at once: only the collector frees it
            self.litter.append(weakref.ref(Cycle()))
            if on_progress:
                on_progress(records, pages)

        yield from super().__call__(client, limit=limit, on_progress=dropping)


def test_a_load_frees_the_cyclic_garbage_made_meanwhile_rather_than_freezing_it(
    collector, monkeypatch
):
    monkeypatch.setattr(_cache, "FREEZE_EVERY_RECORDS", 4)
    gc.disable()  # no collection but the load's own: what it freezes is what it finds
    try:
        records = [queue_record(f"q{n}") for n in range(8)]
        pager = LitteringPager(records, size=2)
        assert traverse(own_key("littered"), "littered-test", pager, version="v1") == records
    finally:
        gc.enable()
    assert len(pager.litter) == 4
    assert all(ref() is None for ref in pager.litter), "garbage frozen with the records"
    assert not any(scanned(record) for record in records)


def test_a_small_load_leaves_the_collector_as_it_is(collector):
    records = [queue_record("q1"), queue_record("q2")]
    traverse(own_key("not-frozen"), "not-frozen-test", Pager(records), version="v1")
    assert all(scanned(record) for record in records)
    assert gc.get_freeze_count() == 0


def test_loading_a_collection_again_hands_its_old_records_back_to_the_collector(
    collector, monkeypatch
):
    monkeypatch.setattr(_cache, "FREEZE_EVERY_RECORDS", 2)
    conn = own_key("refrozen")
    old = [queue_record("q1"), queue_record("q2")]
    traverse(conn, "refrozen-test", Pager(old), version="v1")
    assert not any(scanned(record) for record in old)

    new = [queue_record("q3"), queue_record("q4")]
    harvest = HeldPager(new)  # a harvest changed the data snapshot: the list loads again
    got: list = []
    page = threading.Thread(
        target=lambda: got.append(traverse(conn, "refrozen-test", harvest, "v2"))
    )
    page.start()
    wait_until(lambda: harvest.traversals == 1)
    collectable_again = all(scanned(record) for record in old)  # while the new one loads
    harvest.go.set()
    page.join(10)
    assert collectable_again
    assert got == [new] and not any(scanned(record) for record in new)


def test_a_page_waiting_for_a_load_counts_its_records_and_claims_no_share_done(monkeypatch):
    # The interface tells no collection's size before its last page: a bar drawn as
    # pages / (pages + 1) read 90% done at the 9th page of the queue's 300 at scale 100.
    drawn: list[str] = []

    class Status:
        def update(self, *, label: str) -> None:
            drawn.append(label)

    class Slot:
        def status(self, label: str, *, state: str) -> Status:
            drawn.append(f"{state}: {label}")
            return Status()

        def empty(self) -> None:
            drawn.append("gone")

    monkeypatch.setattr(_cache.st, "empty", Slot)
    monkeypatch.setattr(_cache.st, "progress", lambda *a, **k: pytest.fail("a bar's share"))
    load = _cache.Load("v1")

    def service() -> None:
        for pages in (1, 2, 3):
            load.records, load.pages = 500 * pages, pages
            time.sleep(0.3)
        load.done.set()

    threading.Thread(target=service).start()
    load.wait("queue records")
    assert drawn[0] == "running: Loading queue records…"
    assert "Loading queue records: 1,500 records so far (3 pages)" in drawn
    assert drawn[-1] == "gone" and len(drawn) == len(set(drawn))  # each count said once


class AlwaysFailing(Pager):
    def __call__(self, client, *, limit: int, on_progress=None):
        self.traversals += 1
        raise APIConnectionError("the service answers 500 to this list")


def test_a_list_that_failed_is_not_preloaded_at_every_run_but_a_page_asking_tries_again(
    monkeypatch,
):
    conn = own_key("failed-preload")  # its own preloader: another test's may still be ending
    pager = AlwaysFailing([])

    def preload_and_wait() -> None:
        preload(conn, {"failed-preload-test": pager}, version="v1")
        thread = _holder(conn, "preloading").get("thread")
        if thread is not None:
            thread.join(10)

    preload_and_wait()
    assert pager.traversals == 1
    preload_and_wait()  # the next page run: the failing service is left alone for a while
    assert pager.traversals == 1
    with pytest.raises(APIConnectionError):  # the page that needs it asks again at once
        traverse(conn, "failed-preload-test", pager, version="v1")
    assert pager.traversals == 2
    monkeypatch.setattr(_cache, "PRELOAD_RETRY_SECONDS", 0.0)  # a while later
    preload_and_wait()
    assert pager.traversals == 3
