"""Completion figures worked out here from a store's own `queue_history` rows, in plain
Python, to compare with the service's: each project's final word, its cohort, the months it
took, and lifelines' Kaplan-Meier fit of those months."""

from __future__ import annotations

from collections import Counter

# A tie of months goes to the later step.
RANK = {"active": 0, "inactive": 1, "cancelled": 2, "commissioned": 3}
OUTCOME = {0: "stillQueued", 1: "droppedOut", 2: "droppedOut", 3: "reachedOperation"}


def _month_index(value: str) -> int:
    return int(value[:4]) * 12 + int(value[5:7])


def project_words(conn, fips: set[str]) -> dict[str, dict]:
    """Project (upper-case id) -> its first queued month, final word and the month of it, and
    its COD approval's date, for every project a report queues in `fips`."""
    rows = conn.execute(
        "SELECT upper(h.project_id), h.status, h.milestone, h.county_fips, r.report_month, "
        "h.event_date FROM queue_history h JOIN queue_reports r ON r.report_id = h.report_id"
    ).fetchall()
    newest = max(r[4] for r in rows)
    here = {key for key, status, _, county, *_ in rows if status == "active" and county in fips}
    found: dict[str, dict] = {}
    for key, status, milestone, _, month, event_date in rows:
        if key not in here:
            continue
        if status == "commissioned" and milestone != "commercial_operation":
            continue
        project = found.setdefault(key, {"first": None, "words": [], "cod": None})
        if status == "active":
            project["first"] = min(project["first"] or month, month)
        if status == "commissioned":
            project["cod"] = max(project["cod"] or event_date or "", event_date or "") or None
        project["words"].append((month, RANK[status]))
    for project in found.values():
        month, rank = max(w for w in project["words"] if w[0] >= project["first"])
        outcome = OUTCOME[rank]
        if outcome == "stillQueued" and month < newest:
            outcome = "leftUnstated"
        project.update(outcome=outcome, month=month)
        last_active = max(m for m, r in project["words"] if r == 0)
        project["lastActive"] = last_active
    return found


def outcome_counts(words: dict[str, dict], keys=None) -> Counter:
    """Counter of outcomes over `keys` (default every project)."""
    return Counter(words[k]["outcome"] for k in (words if keys is None else keys))


def entry_durations(words: dict[str, dict], first_month: str, newest: str) -> list[tuple]:
    """(months from entry, reached operation) of the projects whose entry month is known."""
    found = []
    for project in words.values():
        if project["first"] <= first_month:
            continue
        if project["outcome"] == "reachedOperation":
            cod = project["cod"]
            end = _month_index(cod) if cod else _month_index(project["month"])
        elif project["outcome"] == "stillQueued":
            end = _month_index(newest)
        else:
            end = _month_index(project["lastActive"])
        months = end - _month_index(project["first"])
        if months >= 0:
            found.append((months, project["outcome"] == "reachedOperation"))
    return found


def lifelines_median(durations: list[tuple[int, bool]]) -> int | None:
    """lifelines' Kaplan-Meier median of the durations (None when not reached)."""
    from lifelines import KaplanMeierFitter  # deferred: pandas and scipy take seconds

    fitter = KaplanMeierFitter().fit([d for d, _ in durations], [e for _, e in durations])
    median = fitter.median_survival_time_
    return None if median == float("inf") else int(median)
