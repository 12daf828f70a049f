"""`harvest --download` against a loopback HTTP server serving the shared data folder."""

from __future__ import annotations

import argparse
import functools
import http.server
import threading

import pytest
from harvest_support import DATA, data_file

from gridservice.harvest.cli import add_subcommands
from gridservice.store import db


@pytest.fixture(scope="module")
def server():
    data_file("ercot_gis_queue/GIS_Report_November2025.xlsx")  # skips when the folder is absent
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(DATA))
    handler.log_message = lambda *a: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _run(argv):
    parser = argparse.ArgumentParser(prog="gridservice")
    add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.run(args)


def test_download_then_harvest(server, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(
        "GRIDSERVICE_URL_LBNL_QUEUED_UP",
        f"{server}/lbnl_queued_up/lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv",
    )
    store = tmp_path / "d.db"
    code = _run(["harvest", "lbnl-queued-up", "--download", "--download-dir", str(tmp_path), "--db", str(store)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and "368 accepted" in out
    assert (tmp_path / "lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv").read_bytes() == data_file(
        "lbnl_queued_up/lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv"
    ).read_bytes()
    conn = db.connect(store, readonly=True)
    assert conn.execute("SELECT count(*) FROM queue_records").fetchone()[0] == 368
    conn.close()


def test_missing_file_on_the_server_is_a_clear_error(server, tmp_path, capsys):
    url = f"{server}/ercot_gis_queue/GIS_Report_December2025.xlsx"
    code = _run(["harvest", "ercot-gis", "--download", "--url", url, "--download-dir", str(tmp_path), "--db", str(tmp_path / "d.db")])  # fmt: skip
    assert code == 1
    assert "download failed" in capsys.readouterr().err
    assert not (tmp_path / "GIS_Report_December2025.xlsx").exists()
