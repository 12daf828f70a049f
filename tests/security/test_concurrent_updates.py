"""Concurrent updates of one site: every acknowledged PATCH is kept, and `If-Match` detects a
stale read.

Three PATCHes of one site, each changing a different member under its own Idempotency-Key,
are released together by a barrier over real HTTP, trial after trial. Afterwards the site
holds every change that was answered 200, and its revision log, replayed from the created
site, arrives at the site as stored. The PATCHes alternate between two `gridservice serve`
processes on one store (a SQLite file, or a PostgreSQL database where each has its own
connection pool), as two machines behind a load balancer would be.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from security_support import ALPHA, create_site, key, start_instance

from gridservice.routers import site_edits

TRIALS = 10
OTHER_REFERENCE = "written by another instance"
# Each revision names the wire member it changed; `archived` is recorded as `archivedAt`.
MEMBERS = ("customerReference", "metadata", "archivedAt")


@pytest.fixture(scope="module")
def two_instances(store_copy) -> Iterator[tuple[str, str]]:
    """The base URLs of two `gridservice serve` processes on the module's store."""
    instances = [start_instance(store_copy, "--no-rate-limit") for _ in range(2)]
    try:
        yield instances[0].base_url, instances[1].base_url
    finally:
        for instance in instances:
            instance.stop()


def new_site(base_url: str) -> dict[str, Any]:
    with httpx.Client(base_url=base_url, timeout=60) as http:
        return create_site(http, ALPHA)


def patch_together(
    base_urls: tuple[str, str], site_id: str, bodies: list[dict], headers: dict | None = None
) -> list[httpx.Response]:
    """Send every PATCH at once, each from its own thread and connection, alternating
    between the instances."""
    gate = threading.Barrier(len(bodies))

    def one(numbered: tuple[int, dict]) -> httpx.Response:
        number, body = numbered
        with httpx.Client(base_url=base_urls[number % 2], timeout=60) as http:
            gate.wait()
            return http.patch(
                f"/v1/sites/{site_id}", json=body, headers={**ALPHA, **key(), **(headers or {})}
            )

    with ThreadPoolExecutor(max_workers=len(bodies)) as pool:
        return list(pool.map(one, enumerate(bodies)))


def replayed_revisions(created: dict[str, Any], revisions: list[dict]) -> dict[str, Any]:
    """Return the site's members as its revision log says they end, starting from `created`;
    each revision's `from` must be the value the one before it left."""
    state = {member: created[member] for member in MEMBERS}
    for revision in revisions:
        for change in revision["changes"]:
            assert change["from"] == state[change["field"]], (change, state)
            state[change["field"]] = change["to"]
    return state


@pytest.mark.slow
def test_concurrent_patches_of_distinct_members_are_all_kept(two_instances):
    for _ in range(TRIALS):
        site = new_site(two_instances[0])
        reference, label = "ref-" + uuid.uuid4().hex, "m-" + uuid.uuid4().hex
        bodies = [{"customerReference": reference}, {"metadata": {"m": label}}, {"archived": True}]
        answers = patch_together(two_instances, site["id"], bodies)
        assert [a.status_code for a in answers] == [200] * 3, [a.text for a in answers]

        path = f"/v1/sites/{site['id']}"
        stored = httpx.get(two_instances[1] + path, headers=ALPHA).json()["data"]
        assert stored["customerReference"] == reference
        assert stored["metadata"] == {"m": label}
        assert stored["archivedAt"] is not None
        revisions = httpx.get(two_instances[0] + path + "/revisions", headers=ALPHA).json()
        assert len(revisions["data"]) == 3
        assert replayed_revisions(site, revisions["data"]) == {m: stored[m] for m in MEMBERS}


@pytest.mark.slow
def test_of_concurrent_patches_sent_with_one_if_match_exactly_one_is_applied(two_instances):
    for _ in range(TRIALS // 2):
        site = new_site(two_instances[0])
        etag = httpx.get(f"{two_instances[0]}/v1/sites/{site['id']}", headers=ALPHA).headers["ETag"]
        bodies = [{"customerReference": "ref-" + uuid.uuid4().hex} for _ in range(3)]
        answers = patch_together(two_instances, site["id"], bodies, {"If-Match": etag})
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200, 412, 412], [a.text for a in answers]
        for refused in (a for a in answers if a.status_code == 412):
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert refused.json()["code"] == "precondition_failed"
        (applied,) = (a for a in answers if a.status_code == 200)
        read = httpx.get(f"{two_instances[1]}/v1/sites/{site['id']}", headers=ALPHA)
        assert read.json()["data"] == applied.json()["data"]
        assert read.headers["ETag"] == applied.headers["ETag"] != etag


def test_a_patch_with_a_stale_if_match_is_refused_and_one_with_the_current_is_applied(service):
    site = create_site(service, ALPHA)
    path = f"/v1/sites/{site['id']}"
    read = service.get(path, headers=ALPHA)
    first = service.patch(
        path,
        json={"customerReference": "first"},
        headers={**ALPHA, **key(), "If-Match": read.headers["ETag"]},
    )
    assert first.status_code == 200, first.text
    assert first.headers["ETag"] != read.headers["ETag"]
    assert service.get(path, headers=ALPHA).headers["ETag"] == first.headers["ETag"]

    stale = service.patch(
        path,
        json={"customerReference": "second"},
        headers={**ALPHA, **key(), "If-Match": read.headers["ETag"]},
    )
    assert stale.status_code == 412
    assert stale.headers["content-type"].startswith("application/problem+json")
    assert stale.json()["code"] == "precondition_failed"
    assert "changed" in stale.json()["detail"]
    assert service.get(path, headers=ALPHA).json()["data"] == first.json()["data"]
    assert len(service.get(path + "/revisions", headers=ALPHA).json()["data"]) == 1


def rename_without_waiting(store: Path | str, site_id: str) -> bool:
    """Rename a site as another instance's PATCH would (read, change, write, commit), but
    give up at once if the site is locked; return whether the rename was committed."""
    if isinstance(store, str):
        with psycopg.connect(store) as conn:
            try:
                row = conn.execute(
                    "SELECT body FROM sites WHERE id = %s FOR UPDATE NOWAIT", (site_id,)
                ).fetchone()
            except psycopg.errors.LockNotAvailable:
                return False
            body = {**json.loads(row[0]), "customerReference": OTHER_REFERENCE}
            conn.execute("UPDATE sites SET body = %s WHERE id = %s", (json.dumps(body), site_id))
            return True
    conn = sqlite3.connect(store, timeout=0, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError:  # database is locked
        conn.close()
        return False
    (text,) = conn.execute("SELECT body FROM sites WHERE id = ?", (site_id,)).fetchone()
    body = {**json.loads(text), "customerReference": OTHER_REFERENCE}
    conn.execute("UPDATE sites SET body = ? WHERE id = ?", (json.dumps(body), site_id))
    conn.execute("COMMIT")
    conn.close()
    return True


def test_a_site_stays_locked_from_a_patchs_read_to_its_commit(service, store_copy, monkeypatch):
    """A write landing between a PATCH's read and its write would be overwritten by the
    PATCH's copy: it must wait for the PATCH instead, then apply on top of it."""
    site = create_site(service, ALPHA)
    renamed_meanwhile = []
    apply_patch = site_edits.patched_site

    def patched_site_with_a_rename_meanwhile(*args, **kwargs):
        renamed_meanwhile.append(rename_without_waiting(store_copy, site["id"]))
        return apply_patch(*args, **kwargs)

    monkeypatch.setattr(site_edits, "patched_site", patched_site_with_a_rename_meanwhile)
    answer = service.patch(
        f"/v1/sites/{site['id']}", json={"metadata": {"m": "x"}}, headers={**ALPHA, **key()}
    )
    assert answer.status_code == 200, answer.text
    assert renamed_meanwhile == [False], "the rename was not held back by the PATCH"
    assert rename_without_waiting(store_copy, site["id"])  # the PATCH has committed
    stored = service.get(f"/v1/sites/{site['id']}", headers=ALPHA).json()["data"]
    assert (stored["customerReference"], stored["metadata"]) == (OTHER_REFERENCE, {"m": "x"})
