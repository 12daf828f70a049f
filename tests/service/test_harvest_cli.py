"""The `harvest` and `build` subcommands as a user runs them."""

from __future__ import annotations

import argparse
import json

from test_harvest_support import data_file

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
