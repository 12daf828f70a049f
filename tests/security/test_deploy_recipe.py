"""docs/DEPLOY.md's commands, run as written against a throwaway PostgreSQL server.

The setup block runs line by line (with the test's database URL and a downloads folder of
one real source file); the systemd unit's ExecStart starts two instances, which then serve
one tenant's site from either.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from security_support import site_body, start_instance

from gridservice.store import migrations

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "DEPLOY.md"
LBNL = (
    Path(__file__).resolve().parents[3]
    / "shared/data/lbnl_queued_up/lbnl_queued_up_thru2024_ercot_q2023_ge100mw.csv"
)


def _block_after(marker: str) -> list[str]:
    """The lines of the fenced block that follows an HTML comment starting with `marker`."""
    text = DEPLOY.read_text(encoding="utf-8")
    found = re.search(re.escape(f"<!-- {marker}") + r".*?-->\s*```\w*\n(.*?)```", text, re.S)
    assert found, f"docs/DEPLOY.md has no block marked {marker}"
    return [line for line in found.group(1).splitlines() if line.strip()]


def _gridservice(line: str) -> list[str]:
    """The command of a `uv run gridservice ...` line, comment removed, as this interpreter."""
    words = shlex.split(line, comments=True)
    assert words[:3] == ["uv", "run", "gridservice"], line
    return [sys.executable, "-m", "gridservice", *words[3:]]


def test_the_deploy_recipe_runs_as_written(postgres_url: str, tmp_path: Path):
    if not LBNL.is_file():
        pytest.skip(f"{LBNL} is missing: the shared public data is not installed")
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    (downloads / LBNL.name).symlink_to(LBNL)
    env = {**os.environ}
    printed = []
    for line in _block_after("deploy-setup"):
        if line.startswith("export GRIDSERVICE_DATABASE_URL="):
            env["GRIDSERVICE_DATABASE_URL"] = postgres_url  # the documented variable
            continue
        command = [w.replace("/srv/gds/downloads", str(downloads)) for w in _gridservice(line)]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, (line, result.stderr[-2000:])
        printed.append(result.stdout)
    migrate, build, token = printed
    assert f"at migration head {migrations.code_head()}" in migrate
    assert "harvested lbnl-queued-up" in build
    token = token.strip()
    assert token.startswith("gds_")

    unit = _block_after("deploy-unit")
    exec_start = next(line for line in unit if line.startswith("ExecStart="))
    serve = shlex.split(exec_start.removeprefix("ExecStart="))
    assert serve[0].endswith("/gridservice") and serve[1] == "serve"
    options = [w for w in serve[2:] if w not in ("--port", "%i", "--host", "0.0.0.0")]
    assert options == [] and "%i" in serve  # one instance per port, nothing else to set
    instances = [start_instance(postgres_url, "--host", "127.0.0.1") for _ in range(2)]
    try:
        acme = {"Authorization": f"Bearer {token}", "Idempotency-Key": "deploy-recipe-1"}
        created = httpx.post(instances[0].base_url + "/v1/sites", json=site_body(), headers=acme)
        assert created.status_code == 201, created.text
        site_id = created.json()["data"]["id"]
        read = httpx.get(f"{instances[1].base_url}/v1/sites/{site_id}", headers=acme)
        assert read.status_code == 200
        release = httpx.get(instances[1].base_url + "/v1/release").json()["data"]
        assert release["migrationHead"] == f"postgresql-{migrations.code_head()}"
    finally:
        for instance in instances:
            instance.stop()
