"""A demo store built by other code is set aside and built again; a harvested store never is."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from demo_store import demo_store_copy
from fastapi.testclient import TestClient

from gridservice.app import create_app
from gridservice.demo.edition import demo_edition
from gridservice.settings import Settings


def stored_meta(path: Path, key: str) -> str | None:
    conn = sqlite3.connect(path)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    finally:
        conn.close()
    return row[0] if row else None


def set_meta(path: Path, key: str, value: str) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    conn.close()


def sites_of_alpha(path: Path, demo: bool) -> list[str]:
    with TestClient(create_app(Settings(db_path=path, demo=demo))) as client:
        answer = client.get("/v1/sites", headers={"Authorization": "Bearer gds_demo_alpha"})
        return [site["id"] for site in answer.json()["data"]]


def test_a_demo_store_of_this_code_is_served_as_it_is(tmp_path):
    store = demo_store_copy(tmp_path / "demo.db")
    assert stored_meta(store, "demo_edition") == demo_edition()
    sites_of_alpha(store, demo=True)
    assert list(tmp_path.glob("*.bak")) == []


def test_a_demo_store_built_by_other_code_is_kept_aside_and_built_again(tmp_path):
    store = demo_store_copy(tmp_path / "demo.db")
    set_meta(store, "demo_edition", "an-older-build")
    sites_of_alpha(store, demo=True)
    [aside] = tmp_path.glob("demo.db.an-older-build.bak")
    assert stored_meta(aside, "demo_edition") == "an-older-build"  # kept, untouched
    assert stored_meta(store, "demo_edition") == demo_edition()  # a new one in its place


def test_a_harvested_store_is_never_set_aside(tmp_path):
    store = demo_store_copy(tmp_path / "harvest.db")
    set_meta(store, "data_kind", "harvested")
    set_meta(store, "demo_edition", "an-older-build")
    sites_of_alpha(store, demo=True)
    assert list(tmp_path.glob("*.bak")) == []
    assert stored_meta(store, "demo_edition") == "an-older-build"
