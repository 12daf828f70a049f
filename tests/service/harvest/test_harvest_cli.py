"""The `harvest` and `build` subcommands as a user runs them."""

from __future__ import annotations

import argparse
import json

from harvest_support import data_file

from gridservice.harvest.cli import add_subcommands
from gridservice.store import db

LBNL = "lbnl_queued_up/lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv"


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gridservice")
    add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.run(args)


def test_harvest_prints_the_run_and_fills_the_database(tmp_path, capsys):
    store = tmp_path / "h.db"
    assert _run(["harvest", "lbnl-queued-up", str(data_file(LBNL)), "--db", str(store)]) == 0
    assert (
        "harvested lbnl-queued-up lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv: 368 read, 368 accepted, 0 rejected"
        in capsys.readouterr().out
    )
    assert _run(["harvest", "lbnl-queued-up", str(data_file(LBNL)), "--db", str(store)]) == 0
    assert capsys.readouterr().out.startswith("unchanged lbnl-queued-up")
    conn = db.connect(store, readonly=True)
    assert conn.execute("SELECT count(*) FROM queue_records").fetchone()[0] == 368
    conn.close()


def test_harvest_of_a_wrong_file_fails_with_a_readable_error(tmp_path, capsys):
    store = tmp_path / "h.db"
    code = _run(["harvest", "eia-plants", str(data_file(LBNL)), "--db", str(store)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(
        "error: lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv: no column 'Plant_Code'"
    )


def test_build_harvests_every_recognised_file_with_county_geometry_first(tmp_path, capsys):
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / "lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv").symlink_to(data_file(LBNL))
    (folder / "notes.txt").write_text("not a source")
    store = tmp_path / "b.db"
    assert _run(["build", "--from", str(folder), "--db", str(store)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("harvested census-counties cb_2016_us_county_500k.shp: 3233 read")
    assert lines[1].startswith("harvested lbnl-queued-up")
    assert json.loads(lines[-1])["runs"] == 2


def test_build_rejects_a_workbook_whose_layout_changed_and_keeps_the_rest(
    tmp_path, capsys, census_counties_store
):
    from harvest_support import counties_store, rewrite_xlsx

    from gridservice.store import harvest_store

    folder = tmp_path / "reports"
    folder.mkdir()
    good = data_file("ercot_gis_queue/GIS_Report_November2024.xlsx")
    (folder / good.name).symlink_to(good)
    changed = rewrite_xlsx(
        data_file("ercot_gis_queue_monthly_2024/GIS_Report_December_2023.xlsx"),
        folder / "GIS_Report_December_2023.xlsx",
        "xl/sharedStrings.xml",
        lambda xml: xml.replace("<t>Inactive Date</t>", "<t>Date Made Inactive</t>"),
    )
    store = tmp_path / "b.db"
    counties_store(census_counties_store, store).close()  # the outlines are already there
    assert _run(["build", "--from", str(folder), "--db", str(store)]) == 0
    captured = capsys.readouterr()
    assert (
        f"REJECTED ercot-gis {changed.name}: {changed.name}: worksheet 'Inactive Projects' has no column 'Inactive Date'"
        in captured.out
    )
    # One progress line per file on a non-terminal stream, the rejected one marked so.
    progress = captured.err.splitlines()
    assert len(progress) == 3 and all("[####################]" in line for line in progress)
    assert "REJECTED" in next(line for line in progress if changed.name in line)

    conn = db.connect(store, readonly=True)
    runs = {
        r["sourceId"] + ":" + str(r.get("rejectedAsset", False)): r
        for r in harvest_store.harvest_runs(conn)
    }
    rejected = runs["ercot_gis_report:True"]
    assert rejected["rejections"][0]["sourceLocator"] == changed.name
    assert "no column 'Inactive Date'" in rejected["rejections"][0]["reasons"][0]
    assert rejected["acceptedRecords"] == 0
    # The good workbook is harvested in full; nothing of the changed one is stored.
    months = [r[0] for r in conn.execute("SELECT report_month FROM queue_reports")]
    assert months == ["2024-11"]
    assert conn.execute("SELECT count(*) FROM queue_records").fetchone()[0] == 1723
    conn.close()
