"""Logging in for real: the app asks a local OpenID Connect provider who the user is, and a
mapped user works in their own tenant while an unmapped one sees no data.

The provider (`oidc_provider_mock`) runs in this process on a loopback port and signs in
whoever is typed into its form; the app gets a secrets file naming it (`--secrets.files`).
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from e2e_browser import main_text, open_page, start_streamlit, wait_for_run

pytestmark = pytest.mark.slow

MAPPED, UNMAPPED = "bob@example.com", "eve@example.com"


@pytest.fixture(scope="module")
def oidc_provider(chromium_path):
    """Serve a local OpenID Connect provider; yield its issuer URL."""
    import oidc_provider_mock

    with oidc_provider_mock.run_server_in_thread() as server:
        yield f"http://localhost:{server.server_port}"


@pytest.fixture(scope="module")
def login_app(reference_service, oidc_provider, tmp_path_factory):
    """Start the app on the session's demo database with a login through the provider."""
    folder = tmp_path_factory.mktemp("e2e-login")
    secrets = folder / "secrets.toml"
    secrets.write_text(
        f"""
[auth]
redirect_uri = "http://127.0.0.1:{{port}}/oauth2callback"
cookie_secret = "a-long-random-cookie-secret-for-the-journey"
client_id = "grid-site-screener"
client_secret = "any-secret-the-mock-accepts"
server_metadata_url = "{oidc_provider}/.well-known/openid-configuration"

[users]
"{MAPPED}" = "demo-beta"
"""
    )
    app = start_streamlit(
        {"GRIDSERVICE_DB": str(reference_service.db_path)},
        folder / "streamlit.log",
        options=["--secrets.files", str(secrets)],
    )
    yield app.url
    app.stop()


@pytest.fixture
def foreign_hosts(oidc_provider) -> frozenset[str]:
    """Return the hosts of the provider's own form, which asks for a favicon it does not have
    and a stylesheet on a CDN (unreachable offline): its page's errors, not the app's."""
    return frozenset({urlparse(oidc_provider).netloc, "cdn.jsdelivr.net"})


def log_in_as(page, app_url: str, user: str) -> None:
    """Open the app, press "Log in" and sign in as `user` on the provider's form."""
    open_page(page, app_url)
    page.get_by_role("button", name="Log in").click()
    page.get_by_placeholder("sub").fill(user)
    page.get_by_role("button", name="Authorize").click()
    page.wait_for_url(f"{app_url}/**")
    page.wait_for_selector('[data-testid="stApp"]')
    wait_for_run(page, settle_ms=500)


def sidebar_text(page) -> str:
    return page.locator('[data-testid="stSidebar"]').inner_text()


def test_a_mapped_user_logs_in_and_works_in_their_tenant(login_app, new_page):
    from playwright.sync_api import expect

    page = new_page()
    # a shared link, opened before logging in, shows the login screen and nothing of the page
    open_page(page, login_app, "assessment?assessment=asm_shared")
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    shown = page.locator('[data-testid="stApp"]').inner_text()
    assert "Data source" not in shown and "asm_shared" not in shown
    log_in_as(page, login_app, MAPPED)
    sidebar = page.locator('[data-testid="stSidebar"]')
    expect(sidebar).to_contain_text("Tenant: demo-beta")
    expect(sidebar).to_contain_text(f"Signed in as {MAPPED}")
    assert "Demo tenant" not in sidebar_text(page)


def test_an_unmapped_user_sees_no_access_and_no_data(login_app, new_page):
    from playwright.sync_api import expect

    page = new_page()
    log_in_as(page, login_app, UNMAPPED)
    expect(page.locator('[data-testid="stMain"]')).to_contain_text("No access")
    assert "Data source" not in sidebar_text(page)
    assert "Tenant:" not in sidebar_text(page) + main_text(page)
