"""PATCH /v1/sites/{siteId} (extension): rename, archive, idempotency, tenant isolation."""

from __future__ import annotations

import uuid

from service_support import ALPHA, BETA
from test_service_sites import create_site


def key() -> dict[str, str]:
    return {"Idempotency-Key": "patch-" + uuid.uuid4().hex}


def patch(client, site_id: str, body: dict, headers=ALPHA, idempotency=None):
    return client.patch(
        f"/v1/sites/{site_id}", json=body, headers={**headers, **(idempotency or key())}
    )


def listed_ids(client, headers=ALPHA, **params) -> set[str]:
    response = client.get("/v1/sites", params={"limit": 500, **params}, headers=headers)
    assert response.status_code == 200, response.text
    return {s["id"] for s in response.json()["data"]}


def test_rename_changes_only_what_was_sent_and_is_recorded(client):
    site = create_site(client, body=None)
    renamed = patch(client, site["id"], {"customerReference": "North yard", "metadata": {"a": "1"}})
    assert renamed.status_code == 200, renamed.text
    data = renamed.json()["data"]
    assert data["customerReference"] == "North yard" and data["metadata"] == {"a": "1"}
    assert data["requestedPeakLoadMw"] == site["requestedPeakLoadMw"]
    assert client.get(f"/v1/sites/{site['id']}", headers=ALPHA).json()["data"] == data
    revisions = client.get(f"/v1/sites/{site['id']}/revisions", headers=ALPHA).json()["data"]
    assert len(revisions) == 1
    assert revisions[0]["changedBy"].startswith("tenant:tenant-alpha token:sha256:")
    assert {c["field"]: (c["from"], c["to"]) for c in revisions[0]["changes"]} == {
        "customerReference": (None, "North yard"),
        "metadata": (None, {"a": "1"}),
    }


def test_archived_sites_leave_the_default_list_and_stay_readable(client):
    site = create_site(client)
    archived = patch(client, site["id"], {"archived": True}).json()["data"]
    assert archived["archivedAt"]
    assert site["id"] not in listed_ids(client)
    assert site["id"] in listed_ids(client, archived="include")
    active = create_site(client)
    only = listed_ids(client, archived="only")
    assert site["id"] in only and active["id"] not in only
    assert client.get(f"/v1/sites/{site['id']}", headers=ALPHA).status_code == 200
    restored = patch(client, site["id"], {"archived": False}).json()["data"]
    assert restored["archivedAt"] is None and site["id"] in listed_ids(client)


def test_a_replayed_patch_changes_nothing_more(client):
    site = create_site(client)
    same = key()
    first = patch(client, site["id"], {"archived": True}, idempotency=same)
    patch(client, site["id"], {"archived": False})
    again = patch(client, site["id"], {"archived": True}, idempotency=same)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    # The replay returned the stored answer; the site stays as the later request left it.
    assert client.get(f"/v1/sites/{site['id']}", headers=ALPHA).json()["data"]["archivedAt"] is None
    revisions = client.get(f"/v1/sites/{site['id']}/revisions", headers=ALPHA).json()["data"]
    assert len(revisions) == 2


def test_same_key_with_another_patch_is_refused(client):
    site = create_site(client)
    same = key()
    patch(client, site["id"], {"customerReference": "A"}, idempotency=same)
    other = patch(client, site["id"], {"customerReference": "B"}, idempotency=same)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert (
        client.get(f"/v1/sites/{site['id']}", headers=ALPHA).json()["data"]["customerReference"]
        == "A"
    )


def test_another_tenants_site_is_not_found_and_untouched(client):
    site = create_site(client)
    refused = patch(client, site["id"], {"customerReference": "mine now"}, headers=BETA)
    assert refused.status_code == 404
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert "for this tenant" in refused.json()["detail"]
    assert "tenant-alpha" not in refused.text
    revisions = client.get(f"/v1/sites/{site['id']}/revisions", headers=BETA)
    assert revisions.status_code == 404
    assert (
        client.get(f"/v1/sites/{site['id']}", headers=ALPHA).json()["data"]["customerReference"]
        is None
    )
    assert site["id"] not in listed_ids(client, headers=BETA, archived="include")


def test_bad_patches_are_refused_with_the_member_named(client):
    site = create_site(client)
    for body in ({}, {"archived": None}, {"id": "x"}, {"customerReference": "x" * 201}):
        refused = patch(client, site["id"], body)
        assert refused.status_code == 422, body
    assert client.get(f"/v1/sites/{site['id']}/revisions", headers=ALPHA).json()["data"] == []
    no_key = client.patch(f"/v1/sites/{site['id']}", json={"archived": True}, headers=ALPHA)
    assert no_key.status_code in (400, 422)
