"""The PostgreSQL store: choosing it, its migrations, and the commands that work on it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient
from harvest_support import data_file

from gridservice import cli
from gridservice.app import create_app
from gridservice.settings import Settings
from gridservice.store import backend, migrations
from gridservice.store.backend import DatabaseUrlError, check_database_url, redact_url
from gridservice.store.db import connect
from gridservice.store.migrations import MigrationHeadMismatch

SECRET = "s3cr%21t-pw"
LBNL = "lbnl_queued_up/lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (f"postgresql://gds:{SECRET}@db.example:99999/grid", "port"),
        (f"postgresql://gds:{SECRET}@db.example:5x/grid", "port"),
        (f"postgresql://gds:{SECRET}@db.example:5432/", "names no database"),
        (f"postgresql://gds:{SECRET}@db.example/grid?sslmdoe=require", "sslmdoe"),
        (f"mysql://gds:{SECRET}@db.example/grid", "postgresql://"),
    ],
)
def test_a_malformed_url_is_refused_clearly_without_its_password(url: str, says: str, capsys):
    with pytest.raises(DatabaseUrlError) as refused:
        check_database_url(url) if url.startswith("mysql") else backend.location_from(url, "x")
    message = str(refused.value)
    assert says in message and "***" in message
    assert SECRET not in message and "s3cr!t-pw" not in message

    if url.startswith("postgresql"):
        assert cli.main(["demo-data", "--database-url", url]) == 2
        err = capsys.readouterr().err
        assert says in err and SECRET not in err and "s3cr!t-pw" not in err


def test_the_environment_chooses_postgresql_and_the_option_overrides_it(monkeypatch, tmp_path):
    monkeypatch.setenv(backend.DATABASE_URL_ENV, "postgresql://a@h/envdb")
    assert backend.location_from(None, tmp_path / "x.db") == "postgresql://a@h/envdb"
    assert backend.location_from("postgresql://a@h/opt", "x.db") == "postgresql://a@h/opt"
    monkeypatch.delenv(backend.DATABASE_URL_ENV)
    assert backend.location_from(None, tmp_path / "x.db") == tmp_path / "x.db"
    assert redact_url("postgresql://a:b@h:1/d") == "postgresql://a:***@h:1/d"


def test_an_unreachable_database_is_named_without_its_password(postgres_cluster, capsys):
    url = postgres_cluster.url("postgres").replace(
        f":{postgres_cluster.port}/", f":{_closed_port()}/"
    )
    password = url.split(":")[2].split("@")[0]
    assert cli.main(["tokens", "create", "--tenant", "acme", "--database-url", url]) == 1
    err = capsys.readouterr().err
    assert "cannot connect" in err and redact_url(url) in err and password not in err


def test_a_wrong_password_is_refused_without_printing_it(postgres_cluster, capsys):
    url = postgres_cluster.url("postgres", password="not-the-password")
    assert cli.main(["migrate", "--database-url", url]) == 1
    err = capsys.readouterr().err
    assert "password authentication failed" in err and "not-the-password" not in err


def _closed_port() -> int:
    from postgres_cluster import free_port

    return free_port()


def test_migrate_brings_an_empty_database_to_the_code_head(postgres_url: str, capsys):
    assert cli.main(["migrate", "--database-url", postgres_url]) == 0
    out = capsys.readouterr().out
    head = migrations.code_head()
    assert f"applied {head}" in out and f"at migration head {head}" in out
    assert postgres_url not in out  # the password is not printed
    assert cli.main(["migrate", "--database-url", postgres_url]) == 0
    assert "applied" not in capsys.readouterr().out  # nothing left to apply
    conn = connect(postgres_url)
    try:
        versions = [r[0] for r in conn.execute("SELECT version FROM schema_migrations")]
        assert versions == [m.version for m in migrations.code_migrations()]
    finally:
        conn.close()


def _release(client: TestClient) -> dict:
    return client.get("/v1/release").json()["data"]


def test_the_release_names_the_applied_migration_head(postgres_demo_url: str):
    settings = Settings(db_path=Path("unused.db"), database_url=postgres_demo_url, demo=True)
    with TestClient(create_app(settings)) as client:
        release = _release(client)
        assert release["migrationHead"] == f"postgresql-{migrations.code_head()}"
        assert client.get("/v1/health").json() == {"status": "ok"}


def test_start_up_refuses_a_database_at_another_head_naming_both(postgres_url: str, capsys):
    assert cli.main(["migrate", "--database-url", postgres_url]) == 0
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute(
            "INSERT INTO schema_migrations(version, name, sha256) "
            "VALUES (9999, 'from_a_newer_release', repeat('ab', 32))"
        )
    settings = Settings(db_path=Path("unused.db"), database_url=postgres_url)
    with pytest.raises(MigrationHeadMismatch) as refused:
        create_app(settings)
    message = str(refused.value)
    assert "9999_from_a_newer_release@abababababab" in message
    assert migrations.code_head() in message

    assert cli.main(["serve", "--database-url", postgres_url, "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert "9999_from_a_newer_release" in err and migrations.code_head() in err


def test_start_up_refuses_a_database_whose_applied_migration_was_edited(postgres_url: str):
    assert cli.main(["migrate", "--database-url", postgres_url]) == 0
    with psycopg.connect(postgres_url, autocommit=True) as raw:
        raw.execute("UPDATE schema_migrations SET sha256 = repeat('cd', 32) WHERE version = 1")
    with pytest.raises(MigrationHeadMismatch) as refused:
        create_app(Settings(db_path=Path("unused.db"), database_url=postgres_url))
    assert "migration 0001_initial differs" in str(refused.value)
    assert migrations.code_head() in str(refused.value)


def test_demo_data_tokens_and_serve_work_on_postgresql(postgres_url: str, capsys):
    assert cli.main(["demo-data", "--database-url", postgres_url]) == 0
    assert "written to postgresql://" in capsys.readouterr().out
    assert cli.main(["demo-data", "--database-url", postgres_url]) == 1  # not built twice
    capsys.readouterr()
    assert cli.main(["tokens", "create", "--tenant", "acme", "--database-url", postgres_url]) == 0
    token = capsys.readouterr().out.strip()
    settings = Settings(db_path=Path("unused.db"), database_url=postgres_url)
    with TestClient(create_app(settings)) as client:
        acme = {"Authorization": f"Bearer {token}"}
        assert client.get("/v1/sites", headers=acme).json()["data"] == []
        generators = client.get("/v1/generators", params={"limit": 3}, headers=acme).json()
        assert len(generators["data"]) == 3
        revoke = ["tokens", "revoke", "--token", token, "--database-url", postgres_url]
        assert cli.main(revoke) == 0
        assert client.get("/v1/sites", headers=acme).status_code == 401


def test_build_and_harvest_fill_postgresql_as_they_fill_sqlite(
    postgres_url: str, tmp_path: Path, capsys
):
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / Path(LBNL).name).symlink_to(data_file(LBNL))
    sqlite_store = tmp_path / "b.db"
    harvest_sqlite = ["harvest", "lbnl-queued-up", str(data_file(LBNL)), "--db", str(sqlite_store)]
    assert cli.main(harvest_sqlite) == 0
    assert cli.main(["build", "--from", str(folder), "--database-url", postgres_url]) == 0
    out = capsys.readouterr().out
    assert json.loads(out.splitlines()[-1])["database"] == redact_url(postgres_url)
    harvest = ["harvest", "lbnl-queued-up", str(data_file(LBNL)), "--database-url", postgres_url]
    assert cli.main(harvest) == 0
    assert capsys.readouterr().out.startswith("unchanged lbnl-queued-up")

    def queue_bodies(location) -> list[dict]:
        conn = connect(location)
        try:
            rows = conn.execute("SELECT body FROM queue_records ORDER BY id").fetchall()
        finally:
            conn.close()
        # Each harvest stamps its own observation time; everything else must agree.
        return [{k: v for k, v in json.loads(r[0]).items() if k != "observedAt"} for r in rows]

    expected = queue_bodies(sqlite_store)
    assert expected and queue_bodies(postgres_url) == expected


def test_settings_carry_the_database_url_to_worker_processes(postgres_url: str):
    settings = Settings(db_path=Path("unused.db"), database_url=postgres_url)
    again = Settings.from_json(settings.to_json())
    assert again.database_url == postgres_url and again.store_location == postgres_url
    assert json.loads(settings.to_json())["database_url"] == postgres_url


def test_the_database_down_answers_503_and_the_service_recovers_without_restart(
    postgres_cluster, postgres_demo_url: str
):
    postgres_url = postgres_demo_url
    settings = Settings(
        db_path=Path("unused.db"), database_url=postgres_url, demo=True, pool_timeout_seconds=1
    )
    demo = {"Authorization": "Bearer gds_demo_alpha"}
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        assert client.get("/v1/sites", headers=demo).status_code == 200
        postgres_cluster.stop()
        try:
            for path in ("/v1/sites", "/v1/generators", "/v1/health"):
                down = client.get(path, headers=demo)
                assert down.status_code == 503, (path, down.text)
                assert down.headers["content-type"] == "application/problem+json"
                assert int(down.headers["Retry-After"]) >= 1
                problem = down.json()
                assert problem["code"] == "store_unavailable" and problem["status"] == 503
                assert "database" in problem["detail"]
                assert postgres_url.split("@")[0].split(":")[-1] not in down.text
            created = client.post(
                "/v1/sites",
                json={"requestedPeakLoadMw": 10, "location": {"latitude": 30, "longitude": -97}},
                headers={**demo, "Idempotency-Key": "down-" + "x" * 10},
            )
            assert created.status_code == 503
        finally:
            postgres_cluster.start()
        # The pool reconnects in the background, as a client retrying after Retry-After sees.
        deadline = time.monotonic() + 120
        while client.get("/v1/health").status_code != 200:
            assert time.monotonic() < deadline, "no recovery two minutes after the restart"
            time.sleep(0.5)
        assert client.get("/v1/sites", headers=demo).status_code == 200


def test_after_a_database_restart_no_request_fails(postgres_cluster, postgres_demo_template):
    """Pooled connections are lent without a check (a round trip per request): the ones a
    restart closed fail their first statement, which is sent again on a new connection."""
    url = postgres_cluster.new_database(template=postgres_demo_template)
    settings = Settings(db_path=Path("unused.db"), database_url=url, rate_limit_enabled=False)
    demo = {"Authorization": "Bearer gds_demo_alpha"}
    paths = ("/v1/sites", "/v1/generators?limit=5", "/v1/release")
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        assert [client.get(p, headers=demo).status_code for p in paths] == [200, 200, 200]
        postgres_cluster.stop()
        postgres_cluster.start()
        for _ in range(2):
            answers = [client.get(p, headers=demo) for p in paths]
            assert [a.status_code for a in answers] == [200, 200, 200], answers[0].text


def test_a_database_of_an_older_release_is_refused_until_migrated(
    postgres_url: str, monkeypatch, capsys
):
    shipped = migrations.code_migrations()
    assert len(shipped) >= 2
    with monkeypatch.context() as older_release:
        older_release.setattr(migrations, "code_migrations", lambda: shipped[:-1])
        conn = connect(postgres_url)
        migrations.upgrade(conn)
        conn.execute(
            "INSERT INTO sites(id, tenant_id, created_at, body) VALUES (?, ?, ?, ?)",
            ("site_old", "tenant-a", "2025-01-01T00:00:00Z", "{}"),
        )
        conn.commit()
        conn.close()

    settings = Settings(db_path=Path("unused.db"), database_url=postgres_url)
    with pytest.raises(MigrationHeadMismatch) as refused:
        create_app(settings)
    assert shipped[-2].head in str(refused.value) and shipped[-1].head in str(refused.value)
    assert "gridservice migrate" in str(refused.value)

    assert cli.main(["migrate", "--database-url", postgres_url]) == 0
    assert f"applied {shipped[-1].head}" in capsys.readouterr().out
    with TestClient(create_app(settings)) as client:
        assert _release(client)["migrationHead"] == f"postgresql-{shipped[-1].head}"
    conn = connect(postgres_url)
    try:  # the older release's rows are kept through the migration
        assert conn.execute("SELECT id FROM sites").fetchall() == [("site_old",)]
    finally:
        conn.close()
