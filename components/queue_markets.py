"""The queue by market: how many requests each market's queue brought, and where the page's
silence is a queue not loaded rather than an empty one.

The service harvests the queues of the seven ISOs (and LBNL's Queued Up, which names a
region for each request), but a store may hold only some of them: a state whose operator's
queue is not loaded would otherwise read as a state without projects.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from components.geography import lower48_state_fips
from components.text import escape_markdown

# the ISOs whose queues the service harvests, as their records name their market
ISO_MARKETS = ("CAISO", "ERCOT", "ISO-NE", "MISO", "NYISO", "PJM", "SPP")
NO_MARKET = "no market"


def records_by_market(frame: pd.DataFrame) -> list[tuple[str, int]]:
    """Return (market, requests) for each market of the frame, the most first, then by name;
    requests without a market counted as `NO_MARKET`."""
    markets = frame["market"].fillna("").astype(str).str.strip().replace("", NO_MARKET)
    counts = markets.value_counts()
    return sorted(((str(m), int(n)) for m, n in counts.items()), key=lambda c: (-c[1], c[0]))


def market_counts_text(frame: pd.DataFrame) -> str:
    """Return the line counting the loaded requests by market, naming the ISOs with none
    ("ERCOT 1,234 · SPP 56 · not loaded: CAISO, …"), as escaped Markdown."""
    counts = records_by_market(frame)
    loaded = {market.casefold() for market, _ in counts}
    parts = [f"{escape_markdown(market)} {n:,}" for market, n in counts]
    missing = [iso for iso in ISO_MARKETS if iso.casefold() not in loaded]
    text = "Requests loaded by market: " + (" · ".join(parts) or "none")
    if missing:
        text += f" · no queue loaded for {', '.join(missing)}"
    return text


def state_choices(loaded_states: Iterable[str]) -> list[str]:
    """Return the states the filter offers: those of the records and every state of the lower
    48, so a state whose queue is not loaded can be chosen and be said to be missing."""
    return sorted(set(loaded_states) | set(lower48_state_fips().values()), key=str.casefold)


def states_without_records(frame: pd.DataFrame, states: Iterable[str]) -> list[str]:
    """Return the chosen states for which no request at all is loaded, in the order chosen."""
    loaded = set(frame["state"].dropna().astype(str).str.casefold())
    return [state for state in states if state.casefold() not in loaded]


def unloaded_states_text(states: list[str], frame: pd.DataFrame) -> str:
    """Return the warning for chosen states with no request loaded: their operator's queue is
    not in this store, so the empty list is not an empty queue (escaped Markdown)."""
    markets = [market for market, _ in records_by_market(frame) if market != NO_MARKET]
    held = ", ".join(markets) if markets else "none"
    return (
        f"**No queue record is loaded for {escape_markdown(', '.join(states))}.** The queues "
        f"this store holds are {escape_markdown(held)}: the queue of the operator serving "
        "that state is not loaded, so an empty list here does not mean no projects."
    )
