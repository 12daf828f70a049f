"""An answer built from several reads is of one state of the store, even while a harvest
commits in between (`gridservice.store.read_snapshot`), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from demo_store import demo_store_copy
from fastapi.testclient import TestClient

from gridservice.app import create_app
from gridservice.demo import DEMO_POINTS
from gridservice.settings import Settings
from gridservice.store import db, surroundings_reads
from gridservice.store.read_snapshot import read_snapshot

ALPHA = {"Authorization": "Bearer gds_demo_alpha"}


@pytest.fixture(params=["sqlite", "postgresql"])
def demo_store(request, tmp_path) -> str:
    """A demo store of this test's own (it is written to): a SQLite file or a copy of the
    PostgreSQL demo database."""
    if request.param == "postgresql":
        cluster = request.getfixturevalue("postgres_cluster")
        return cluster.new_database(template=request.getfixturevalue("postgres_demo_template"))
    return str(demo_store_copy(tmp_path / "demo.db"))


@pytest.fixture
def client(demo_store) -> Iterator[TestClient]:
    settings = Settings.for_store(demo_store, secret_key=b"k" * 32, rate_limit_burst=10**6)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def _count(conn, table: str) -> int:
    return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


def test_reads_inside_see_the_store_as_it_was_at_the_first(demo_store):
    """A row deleted and committed by another connection meanwhile is still read inside;
    after, it is gone."""
    reader, writer = db.connect(demo_store), db.connect(demo_store)
    try:
        with read_snapshot(reader):
            before = _count(reader, "queue_history")
            writer.execute(
                "DELETE FROM queue_history WHERE report_id = "
                "(SELECT min(report_id) FROM queue_history)"
            )
            writer.commit()
            assert _count(reader, "queue_history") == before
        assert not reader.in_transaction
        assert _count(reader, "queue_history") < before
    finally:
        reader.close()
        writer.close()


def test_a_connection_in_a_transaction_is_left_to_its_owner(demo_store):
    conn = db.connect(demo_store)
    try:
        conn.execute("BEGIN")
        with read_snapshot(conn):
            _count(conn, "queue_history")
        assert conn.in_transaction  # not ended by the snapshot: its owner ends it
        conn.rollback()
    finally:
        conn.close()


def _site(client) -> str:
    latitude, longitude = DEMO_POINTS["dual_certified"]
    body = {
        "requestedPeakLoadMw": 200.0,
        "location": {"latitude": latitude, "longitude": longitude},
    }
    headers = {**ALPHA, "Idempotency-Key": "snapshot-site-0001"}
    response = client.post("/v1/sites", json=body, headers=headers)
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


def _without_cursors(value):
    """Return an answer without its lists' `nextCursor`s: a cursor carries its expiry, to
    the second, so two answers a second apart differ there alone."""
    if isinstance(value, dict):
        return {k: _without_cursors(v) for k, v in value.items() if k != "nextCursor"}
    if isinstance(value, list):
        return [_without_cursors(v) for v in value]
    return value


def test_a_harvest_committing_mid_answer_is_not_half_seen(client, demo_store, monkeypatch):
    """The surroundings read a report's rows, then the names and source cells of the few
    they describe. A harvest that replaces a described row in between (committed on its own
    connection) leaves this answer as it was before it: no error, no blank source cell. The
    next answer sees the harvest."""
    site_id = _site(client)
    path = f"/v1/sites/{site_id}/surroundings"
    before = client.get(path, headers=ALPHA)
    assert before.status_code == 200, before.text
    describe = surroundings_reads.describe_rows
    replaced = []

    def harvest_then_describe(conn, rows):
        rows = list(rows)
        if rows and not replaced:
            row = rows[0]
            writer = db.connect(demo_store)
            try:
                writer.execute(
                    "DELETE FROM queue_history WHERE report_id = ? AND project_id = ? "
                    "AND sheet = ?",
                    (row["report_id"], row["project_id"], row["sheet"]),
                )
                writer.commit()
            finally:
                writer.close()
            replaced.append(row["project_id"])
        return describe(conn, rows)

    monkeypatch.setattr(surroundings_reads, "describe_rows", harvest_then_describe)
    during = client.get(path, headers=ALPHA)
    assert replaced, "the answer described no row: nothing was replaced mid-answer"
    assert during.status_code == 200, during.text
    assert _without_cursors(during.json()["data"]) == _without_cursors(before.json()["data"])
    monkeypatch.setattr(surroundings_reads, "describe_rows", describe)
    after = client.get(path, headers=ALPHA)
    assert after.status_code == 200, after.text
    assert _without_cursors(after.json()["data"]) != _without_cursors(before.json()["data"])
