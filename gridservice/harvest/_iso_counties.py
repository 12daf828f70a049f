"""Counties of the ISOs' queues, resolved against the Census counties of the store.

The ISOs spell a county 'Loudoun', 'Loudoun County', 'LOUDOUN, VA' or 'Kern/Tulare'; SPP
gives a 'Nearest Town or County'. A county is resolved to its Census name and FIPS code by
`eia861.county_key` (case, 'County'/'Parish' suffixes, 'St.'/'Saint', spacing alike;
Virginia's 'City of Chesapeake' is the independent city); a trailing ', VA' gives the state
when the row has none; of several counties ('Oneida-Dutchess') the first is taken; 'N/A',
'Unknown' and 'TBD' are no county. What names no Census county of the state is kept as published, without a FIPS code
(the record is flagged `unresolvedCounty` by `gridservice.catalogue.quality`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gridservice.catalogue.quality import US_STATE_CODES
from gridservice.harvest.eia861 import CensusCounties

_STATE_SUFFIX = re.compile(r"^(.*?)[,\s]+\(?([A-Za-z]{2})\)?$")
_SEVERAL = re.compile(r"\s*(?:/|&|;|,|-|\band\b)\s*")
_CITY_OF = re.compile(r"^city of\s+", re.IGNORECASE)
# What the ISOs write for a county they do not know: no county, not an unresolved one.
_NO_COUNTY = frozenset({"n/a", "na", "unknown", "tbd", "none", "-"})
_NAMES_COUNTY = re.compile(r"\b(county|parish|co\.?)$", re.IGNORECASE)


@dataclass(frozen=True)
class County:
    """A queue row's county: Census name and FIPS when resolved, else the text as published."""

    name: str | None
    fips: str | None
    state: str | None


class CountyResolver:
    """Resolves (county text, state) to a Census county of the store."""

    def __init__(self, rows: list[tuple[str, str, str]]) -> None:
        self.census = CensusCounties({(s.upper(), n.lower()): f for s, n, f in rows})
        self.names = {fips: name for _, name, fips in rows}

    def resolve(self, text: str | None, state: str | None) -> County:
        """Return the county of a row: Census name and FIPS, or the text as published."""
        state = state.strip().upper() if state and state.strip() else None
        if not text or text.strip().lower() in _NO_COUNTY:
            return County(None, None, state)
        body, suffix_state = _split_state(_CITY_OF.sub("", text))
        state = state or suffix_state
        if state:
            for candidate in (body, *_SEVERAL.split(body)[:1]):
                fips = self.census.fips(state, _NAMES_COUNTY.sub("", candidate).strip())
                if fips:
                    return County(self.names[fips], fips, state)
        return County(text, None, state)


def _split_state(text: str) -> tuple[str, str | None]:
    """Return ('LOUDOUN', 'VA') for 'LOUDOUN, VA'; the text and None without a state."""
    match = _STATE_SUFFIX.match(text.strip())
    if match and match[2].upper() in US_STATE_CODES and match[1].strip():
        return match[1].strip(), match[2].upper()
    return text.strip(), None
