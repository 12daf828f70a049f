"""An interconnection point shows the text of the cell it cites, not another row's spelling
of the same point (the demo store, one cited cell respelled as ERCOT respells them)."""

from __future__ import annotations

from demo_store import demo_store_copy

from gridservice.screening.neighbourhood import points_by_county
from gridservice.store import db


def test_a_point_shows_its_cited_cells_own_text(tmp_path):
    conn = db.connect(demo_store_copy(tmp_path / "demo.db"))
    try:
        fips = conn.execute(
            "SELECT county_fips FROM interconnection_point_projects p JOIN "
            "interconnection_points i USING (point_id) WHERE i.kind = 'bus' "
            "GROUP BY county_fips ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()[0]
        point = next(
            p for level in points_by_county(conn, [fips])[fips]["byKv"] for p in level["points"]
        )
        cited = point["source"]
        number = point["busNumber"]
        respelled = f"{number} RESPELLED LONGER NAME {point['kv']:g} KV"
        conn.execute(
            "UPDATE queue_history SET poi_location = ? WHERE report_id = ? AND worksheet = ? "
            "AND row = ?",
            (respelled, cited["reportId"], cited["worksheet"], cited["row"]),
        )
        conn.commit()
        shown = next(
            p
            for level in points_by_county(conn, [fips])[fips]["byKv"]
            for p in level["points"]
            if p["pointId"] == point["pointId"]
        )
    finally:
        conn.close()
    assert shown["source"] == cited
    assert shown["raw"] == respelled
    assert shown["name"] == "RESPELLED LONGER NAME"
