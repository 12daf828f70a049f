"""The `gridservice` command and the background server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from service_support import seed_small_store

from gridservice import cli
from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings, default_db_path

# What only the harvest and demo-data commands need: each worker of `serve --workers N`
# imports the command's module to start (multiprocessing's spawn), and paid for these.
NOT_FOR_A_WORKER = ("openpyxl", "httpx", "gridservice.harvest.runner", "gridservice.demo.builder")


def test_a_worker_imports_the_command_without_the_readers_or_the_demo_builder():
    program = (
        "import sys\n"
        "import gridservice.__main__\n"
        f"print(sorted(n for n in {NOT_FOR_A_WORKER!r} if n in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_tokens_create_prints_a_token_once_and_stores_only_its_hash(tmp_path: Path, capsys):
    db_path = tmp_path / "tokens.db"
    seed_small_store(db_path)
    assert cli.main(["tokens", "create", "--tenant", "acme", "--db", str(db_path)]) == 0
    token = capsys.readouterr().out.strip()
    assert token.startswith("gds_") and len(token) > 30
    assert token.encode() not in db_path.read_bytes()
    server = start_in_thread(Settings(db_path=db_path))
    try:
        with httpx.Client(base_url=server.base_url) as http:
            sites = http.get("/v1/sites", headers={"Authorization": f"Bearer {token}"})
            assert sites.status_code == 200 and sites.json()["data"] == []
            assert (
                http.get("/v1/sites", headers={"Authorization": "Bearer gds_other"}).status_code
                == 401
            )
    finally:
        server.stop()


def test_start_in_thread_binds_a_free_port_and_stops(tmp_path: Path):
    db_path = tmp_path / "server.db"
    seed_small_store(db_path)
    server = start_in_thread(Settings(db_path=db_path))
    assert server.base_url.startswith("http://127.0.0.1:") and not server.base_url.endswith(":0")
    with httpx.Client(base_url=server.base_url) as http:
        assert http.get("/v1/health").json() == {"status": "ok"}
        release = http.get("/v1/release")
        assert release.headers["Service-Version"] == "2025-06-01"
    server.stop()
    with pytest.raises(httpx.TransportError):
        httpx.get(server.base_url + "/v1/health", timeout=2)


def test_default_store_is_in_the_per_user_data_folder(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_db_path() == tmp_path / "gridservice" / "demo.db"
    args = cli.build_parser().parse_args(["serve", "--demo"])
    assert (args.host, args.port, args.demo) == ("127.0.0.1", 8000, True)


def test_scale_must_be_positive():
    with pytest.raises(SystemExit):
        cli.main(["demo-data", "--scale", "0", "--db", "unused.db"])


def test_the_embedded_app_token_is_only_issued_off_the_demo_and_revoked_quietly(tmp_path: Path):
    from gridservice.demo.builder import DEMO_TOKENS
    from gridservice.security import tokens
    from gridservice.store import tenancy, writer
    from gridservice.store.db import connect, init_schema

    real = tmp_path / "real.db"
    seed_small_store(real)
    token = tokens.issue_local_token(real)
    assert token is not None and token.startswith("gds_local_")
    conn = connect(real)
    assert tenancy.tenant_for_token(conn, token) == tokens.LOCAL_TENANT
    conn.close()
    tokens.revoke_token_quietly(real, token)
    conn = connect(real)
    assert tenancy.tenant_for_token(conn, token) is None
    conn.close()

    demo = tmp_path / "demo.db"
    conn = connect(demo)
    init_schema(conn)
    with conn:
        for demo_token, tenant in DEMO_TOKENS:
            writer.add_token(conn, demo_token, tenant, "2025-01-01T00:00:00Z")
    conn.close()
    assert tokens.issue_local_token(demo) is None

    # At exit the store may be gone: nothing to do, nothing raised.
    tokens.revoke_token_quietly(tmp_path / "removed.db", "gds_local_x")
    assert not (tmp_path / "removed.db").exists()


@pytest.mark.parametrize("tenant", ["", "   ", " acme", "acme\n", "a/b", "x" * 65])
def test_tokens_create_refuses_a_blank_or_malformed_tenant(tmp_path: Path, capsys, tenant):
    from gridservice.store.db import connect

    db_path = tmp_path / "tokens.db"
    seed_small_store(db_path)

    def token_count() -> int:
        conn = connect(db_path)
        try:
            return conn.execute("SELECT count(*) FROM tokens").fetchone()[0]
        finally:
            conn.close()

    before = token_count()
    assert cli.main(["tokens", "create", "--tenant", tenant, "--db", str(db_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--tenant" in captured.err
    assert token_count() == before
