"""Who may use the app, where a deployment asks for a login: the gate and the user's tenant.

A login is required when `st.secrets` has an `[auth]` section (Streamlit's OpenID Connect
login: provider, client id and secret, cookie secret). Each signed-in user is then given a
tenant by `[users]` (their email, or their `sub`, -> tenant) and the tenant's service token by
`[tenants]` (tenant -> token; the demo tenants' tokens need no entry). A user with no tenant,
or a tenant with no token, is refused: never the configured or the default tenant. Without
`[auth]` the app has no login and behaves as the demo does (docs/DEPLOY.md, "Logging in").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from components.text import escape_markdown


@dataclass(frozen=True)
class Grant:
    """The tenant a signed-in user acts as, and the service token that acts for it."""

    tenant: str
    token: str

    def __repr__(self) -> str:  # never print the token
        return f"Grant(tenant={self.tenant!r})"


def grant_for(
    claims: Mapping[str, Any], users: Mapping[str, Any], tenant_tokens: Mapping[str, Any]
) -> Grant | None:
    """Return the tenant and token of the user the identity claims name, or None (no access).

    The user is looked up by `sub`, then by email (case-insensitive), but an email the
    provider marks unverified (`email_verified` false) names nobody: anyone can type one.
    """
    by_key = {str(key).casefold(): str(tenant) for key, tenant in users.items()}
    names = [str(claims["sub"])] if claims.get("sub") else []
    if claims.get("email") and claims.get("email_verified", True) is not False:
        names.append(str(claims["email"]))
    tenant = next((by_key[n.casefold()] for n in names if n.casefold() in by_key), None)
    if tenant is None or not tenant_tokens.get(tenant):
        return None
    return Grant(tenant, str(tenant_tokens[tenant]))


def secret_table(name: str) -> Mapping[str, Any]:
    """Return a table of `st.secrets` (empty when it or secrets.toml is missing)."""
    try:
        table = st.secrets.get(name)
    except Exception:  # no secrets.toml: the usual case on the demo
        return {}
    return table if isinstance(table, Mapping) else {}


def required() -> bool:
    """Return whether this deployment asks for a login (an `[auth]` section in secrets)."""
    return bool(secret_table("auth"))


def signed_in_grant(known_tokens: Mapping[str, str]) -> Grant | None:
    """Return the signed-in user's grant, or None when nobody is signed in or the user has
    none. `known_tokens` (tenant -> token) are the tokens a tenant needs no `[tenants]` entry
    for (the demo's)."""
    if not st.user.get("is_logged_in"):
        return None
    tokens = {**known_tokens, **secret_table("tenants")}
    return grant_for(st.user.to_dict(), secret_table("users"), tokens)


def gate(known_tokens: Mapping[str, str]) -> None:
    """Stop the run at a login screen, or at "no access", unless the deployment needs no login
    or the signed-in user has a tenant; offer logout in the sidebar to a signed-in user."""
    if not required():
        return
    if not st.user.get("is_logged_in"):
        st.title("Grid Site Screener")
        st.write("Log in to see your organisation's sites and assessments.")
        st.button("Log in", type="primary", on_click=st.login)
        st.stop()
    # the provider's claims are the user's own text: shown literally
    who = escape_markdown(str(st.user.get("email") or st.user.get("sub") or "you"))
    st.sidebar.caption(f"Signed in as {who}")
    st.sidebar.button("Log out", on_click=st.logout)
    if signed_in_grant(known_tokens) is None:
        st.title("No access")
        st.error(
            f"{who} is signed in but has no tenant in this app. "
            "Ask the app's administrator to give you one."
        )
        st.stop()
