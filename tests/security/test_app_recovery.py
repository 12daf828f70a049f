"""The app while the service is down: it says the service is unreachable, and recovers by
itself once the service is back on the same address (component level: the app's own client
builder, fetch cache and problem description, without a browser)."""

from __future__ import annotations

import pytest
from security_support import free_port

from components import connection, data, problems
from gridservice.runtime.server import start_in_thread
from gridservice.settings import Settings


def test_the_app_reports_the_service_unreachable_and_recovers_when_it_returns(store_copy):
    port = free_port()
    settings = Settings.for_store(store_copy, demo=True)
    server = start_in_thread(settings, port=port)
    key = connection.ConnectionKey(server.base_url, "gds_demo_alpha", "demo-alpha")
    assert connection.client_for(key).sites.list(limit=1) is not None
    server.stop()

    with pytest.raises(Exception) as failure:
        data.release(key)
    problem = problems.describe_problem(failure.value)
    assert problem.title == "The service is unreachable"
    assert server.base_url in problem.detail and "Traceback" not in problem.text()

    server = start_in_thread(settings, port=port)
    try:
        # Same client, same cache: nothing to restart, the next fetch simply works.
        release = data.release(key)
        assert "demo" in release.release_id
    finally:
        server.stop()
