"""The HTTP surface around the operations: no answer is built from the Host header, and an
unknown path, a trailing slash included, is a 404 problem."""

from __future__ import annotations

import pytest
from security_support import ALPHA, create_site


@pytest.mark.parametrize("suffix", ["/", "//", "/assessments/"])
def test_no_redirect_is_built_from_the_host_header(service, suffix):
    site = create_site(service, ALPHA)
    response = service.get(
        f"/v1/sites/{site['id']}{suffix}",
        headers={**ALPHA, "Host": "evil.example"},
        follow_redirects=False,
    )
    assert response.status_code == 404, response.headers
    assert "location" not in response.headers
    assert "evil.example" not in response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("path", ["/v1/sites/", "/v1/health/", "/v1/no-such-thing", "/", "/x/"])
def test_an_unknown_path_is_a_404_problem(service, path):
    response = service.get(path, headers={**ALPHA, "Host": "evil.example"}, follow_redirects=False)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "not_found"
    assert "evil.example" not in response.text
