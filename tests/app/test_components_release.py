"""The sidebar's release block says plainly when the release's validity has ended."""

from __future__ import annotations

from datetime import UTC, datetime

from components.release_view import expiry_note
from gridclient import Release

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def valid_until(wire: str | None) -> datetime | None:
    return Release.model_validate({"validUntil": wire}).valid_until


def test_a_release_past_its_valid_until_is_called_expired_with_the_date():
    note = expiry_note(valid_until("2026-10-01T00:00:00Z"), NOW)
    assert note == "Expired — this release's validity ended on 2026-10-01."


def test_a_release_still_valid_gets_no_note():
    assert expiry_note(valid_until("2027-01-01T00:00:00Z"), NOW) is None
    assert expiry_note(valid_until("2026-11-21T12:00:01+00:00"), NOW) is None


def test_a_date_without_a_zone_is_read_as_utc():
    assert expiry_note(valid_until("2026-11-21T11:59:59"), NOW) is not None


def test_missing_validity_gets_no_note():
    assert expiry_note(valid_until(None), NOW) is None
