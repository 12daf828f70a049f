"""Where a deployment asks for a login: who gets which tenant, the gate, and the binding.

The provider's redirects cannot run in AppTest: `AppTest.user` stands for the identity
cookie Streamlit reads after them. tests/e2e/test_login_journey.py logs in for real, through
a local OpenID Connect provider.
"""

from __future__ import annotations

import tomllib

import pytest
from conftest import REPO_ROOT, app_path, page_path, unescape
from streamlit.testing.v1 import AppTest

from components.login import grant_for

TENANT_TOKENS = {"acme": "gds_acme_token", "globex": "gds_globex_token"}
USERS = {
    "Alice@Example.com": "acme",
    "google-oauth2|4242": "globex",
    "carol@example.com": "initech",
}

# What AppTest's secrets hold on a deployment that asks for a login (the provider's settings
# are never reached: nobody presses "Log in" here).
LOGIN_SECRETS = {
    "auth": {
        "redirect_uri": "http://127.0.0.1:8501/oauth2callback",
        "cookie_secret": "a-long-random-cookie-secret-for-tests",
        "client_id": "screener",
        "client_secret": "client-secret",
        "server_metadata_url": "http://127.0.0.1:1/.well-known/openid-configuration",
    },
    "users": {"alice@example.com": "demo-alpha", "bob@example.com": "demo-beta"},
}


def test_a_user_is_found_by_email_in_any_case_and_gets_the_tenants_token():
    grant = grant_for({"sub": "u-1", "email": "alice@example.COM"}, USERS, TENANT_TOKENS)
    assert (grant.tenant, grant.token) == ("acme", TENANT_TOKENS["acme"])
    assert TENANT_TOKENS["acme"] not in repr(grant)


def test_a_user_is_found_by_sub():
    grant = grant_for({"sub": "google-oauth2|4242"}, USERS, TENANT_TOKENS)
    assert (grant.tenant, grant.token) == ("globex", TENANT_TOKENS["globex"])


@pytest.mark.parametrize(
    "claims",
    [
        {"sub": "u-9", "email": "mallory@example.com"},  # nobody gave them a tenant
        {"sub": "u-9", "email": "alice@example.com", "email_verified": False},  # typed, unproven
        {"sub": "u-3", "email": "carol@example.com"},  # a tenant without a token
        {},
    ],
)
def test_a_user_without_a_tenant_and_token_is_refused(claims):
    assert grant_for(claims, USERS, TENANT_TOKENS) is None


def run(script: str, user: dict, query: dict | None = None) -> AppTest:
    at = AppTest.from_file(script, default_timeout=120)
    at.secrets = LOGIN_SECRETS
    at.user = user
    at.query_params.update(query or {})
    at.run()
    assert not at.exception
    return at


def texts(elements) -> list[str]:
    return [unescape(e.value) for e in elements]


def test_nothing_but_the_login_screen_shows_before_logging_in(service_env):
    at = run(app_path(), {})
    assert [b.label for b in at.button] == ["Log in"]
    assert "Data source" not in texts(at.sidebar.markdown)
    assert not at.radio and not at.error


def test_a_signed_in_user_works_in_their_own_tenant_without_a_switcher(service_env):
    at = run(app_path(), {"is_logged_in": True, "email": "bob@example.com", "sub": "b"})
    captions = texts(at.sidebar.caption)
    assert "Signed in as bob@example.com" in captions
    assert "Tenant: demo-beta" in captions
    assert "Log out" in [b.label for b in at.sidebar.button]
    assert not [r for r in at.sidebar.radio if r.label == "Demo tenant"]


def test_a_signed_in_user_without_a_tenant_sees_no_access_and_no_data(service_env):
    at = run(app_path(), {"is_logged_in": True, "email": "eve@example.com", "sub": "e"})
    assert [e.value for e in at.title] == ["No access"]
    assert "has no tenant in this app" in texts(at.error)[0]
    assert "Data source" not in texts(at.sidebar.markdown)
    assert "Log out" in [b.label for b in at.sidebar.button]


def test_a_shared_link_to_another_tenants_assessment_is_not_found(service_env, alpha_client):
    from gridservice.demo import DEMO_POINTS

    latitude, longitude = DEMO_POINTS["dual_certified"]
    definition = {
        "requestedPeakLoadMw": 50.0,
        "location": {"latitude": latitude, "longitude": longitude},
        "customerReference": "login test",
    }
    site = alpha_client.sites.create(definition, idempotency_key="login-test-site")
    shared = alpha_client.assessments.create(site.id, idempotency_key="login-test-assessment")
    # the deployment's configured token is alpha's (service_env): bob must still be beta
    bob = {"is_logged_in": True, "email": "bob@example.com", "sub": "b"}
    at = run(page_path("assessment"), bob, {"assessment": shared.id})
    assert texts(at.error) == [f"Assessment '{shared.id}' was not found for this tenant."]


def test_the_app_listens_on_loopback_unless_told_otherwise():
    config = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["address"] == "127.0.0.1"
