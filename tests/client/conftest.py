"""Fixtures for the client's unit tests."""

from __future__ import annotations

import pytest
from client_fakes import ScriptedService


@pytest.fixture
def service() -> ScriptedService:
    return ScriptedService()
