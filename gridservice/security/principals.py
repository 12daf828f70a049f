"""Who a bearer token speaks for: a tenant, or a reviewer acting on a tenant's review cases.

A reviewer's principal is written `reviewer:<name>@<tenant>`. Tenant ids and reviewer names
are letters, digits, '.', '_' and '-' only (`tokens.check_tenant`), so a reviewer's
principal can never equal a tenant id: everything a tenant owns is keyed by its id, and a
reviewer's principal owns none of it.
"""

from __future__ import annotations

from dataclasses import dataclass

REVIEWER_PREFIX = "reviewer:"


@dataclass(frozen=True)
class Reviewer:
    """A reviewer: their name, and the tenant whose review cases may be assigned to them."""

    name: str
    tenant: str


def reviewer_principal(tenant: str, name: str) -> str:
    """Return the principal of reviewer `name` of `tenant`."""
    return f"{REVIEWER_PREFIX}{name}@{tenant}"


def reviewer_of(principal: str) -> Reviewer | None:
    """Return the reviewer a principal names, or None for a tenant's principal."""
    if not principal.startswith(REVIEWER_PREFIX):
        return None
    name, _, tenant = principal[len(REVIEWER_PREFIX) :].partition("@")
    return Reviewer(name, tenant)
