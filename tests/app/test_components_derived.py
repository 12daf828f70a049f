"""What pages derive once from whole collections: made again whenever a collection is
loaded again, never handed to another tenant, and drawn as `show_table` would draw it."""

from __future__ import annotations

import pandas as pd
from test_components_data_shaping import queue_record

from components import data, glossary, queue_view
from components.connection import ConnectionKey
from components.data import records as records_module
from components.data._cache import traverse
from components.tables import formula_safe, shown_table

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
