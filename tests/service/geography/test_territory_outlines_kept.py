"""The territory answer's outlines: simplified once per polygon and store snapshot, not per
answer (overlapping territories in Maricopa County made a resolution four times Hays')."""

from __future__ import annotations

import pytest
from polygon_layers import around, territory_row, write_layer

from gridservice.screening import territory_polygons
from gridservice.screening.territory_polygons import territory_outlines
from gridservice.store import db, meta_reads

POINT = (33.45, -112.07)


@pytest.fixture
def conn(tmp_path):
    """A SQLite store of three overlapping territory boxes around POINT, its snapshot kept."""
    conn = db.connect(tmp_path / "territories.db")
    db.init_schema(conn)
    rows = [
        territory_row(f"eia:test-{half}", f"Utility {half} (test)", around(*POINT, half))
        for half in (0.1, 0.3, 0.6)
    ]
    write_layer(conn, "retail_territory_polygons", rows)
    meta_reads.data_snapshot_sha256(conn)
    yield conn
    conn.close()


def test_a_second_answer_draws_the_kept_outlines_without_simplifying_again(conn, monkeypatch):
    simplified: list[str] = []
    simplify = territory_polygons.simplified_geojson

    def counted(geometry):
        simplified.append(geometry.wkt)
        return simplify(geometry)

    monkeypatch.setattr(territory_polygons, "simplified_geojson", counted)
    first = territory_outlines(conn, *POINT)
    assert len(first) == 3 and len(simplified) == 3
    again = territory_outlines(conn, *POINT)
    assert again == first
    assert len(simplified) == 3, "the second answer simplified the outlines again"
