"""The screening benchmark times new sites as well as the same three asked again."""

from __future__ import annotations

from demo_store import demo_store_copy

from bench.bench_screening import DEMO_SITES, ENDPOINTS, bench_store, new_site_points
from gridservice.geography.geo import great_circle_km
from gridservice.store import db


def test_new_sites_lie_near_the_stores_sites_and_are_the_same_on_every_run():
    points = new_site_points(DEMO_SITES, 12)
    assert points == new_site_points(DEMO_SITES, 12)
    assert len(set(points)) == 12
    for i, (latitude, longitude) in enumerate(points):
        centre = list(DEMO_SITES.values())[i % len(DEMO_SITES)]
        assert great_circle_km(*centre, latitude, longitude) < 50


def test_each_new_site_is_screened_once_and_counted_apart(tmp_path):
    store = demo_store_copy(tmp_path / "demo.db")
    shipped = conn_sites(store)  # the demo ships a site of its own
    rows = bench_store(store, rounds=1, max_seconds=60, in_process=True, new_sites=4)
    by_endpoint = {row["endpoint"]: row for row in rows}
    for endpoint in ENDPOINTS:
        assert by_endpoint[endpoint]["n"] == len(DEMO_SITES)  # one round over the three
        new = by_endpoint[f"{endpoint}, new site"]
        assert new["n"] == 4, endpoint  # every new point lies in the demo's counties
        assert new["p50"] > 0 and new["kib"] > 0
    assert conn_sites(store) == shipped + len(DEMO_SITES) + 4


def conn_sites(store) -> int:
    conn = db.connect(store)
    try:
        return conn.execute("SELECT count(*) FROM sites").fetchone()[0]
    finally:
        conn.close()
