"""The states of a review case and the moves between them (the table in docs/SERVICE.md)."""

from __future__ import annotations

from gridservice.runtime.errors import ApiError

STATES = ("unreviewed", "in_review", "reviewed", "adjudicated", "withdrawn")
# state -> {state it may move to: who or what moves it}
MOVES: dict[str, dict[str, str]] = {
    "unreviewed": {"in_review": "sending the assessment for review (POST /v1/review-cases)"},
    "in_review": {
        "reviewed": "the last assigned reviewer's submission",
        "withdrawn": "the analyst",
    },
    "reviewed": {
        "adjudicated": "the analyst, deciding every disagreement",
        "withdrawn": "the analyst",
    },
    "adjudicated": {},
    "withdrawn": {},
}
# Moves the service makes itself, never asked for through a transition.
AUTOMATIC = {("unreviewed", "in_review"), ("in_review", "reviewed")}
# The states in which a reviewer may still submit or amend a review.
OPEN_FOR_REVIEWS = ("in_review", "reviewed")


def allowed_moves(state: str) -> list[str]:
    """Return the states an analyst may move a case in `state` to, in the table's order."""
    return [target for target in MOVES[state] if (state, target) not in AUTOMATIC]


def require_move(state: str, target: str, *, requested: bool = True) -> None:
    """Return if the table allows `state` -> `target` (`requested`: as an analyst's
    transition, not one the service makes itself); else raise 409 naming the allowed moves."""
    allowed = allowed_moves(state) if requested else list(MOVES[state])
    if target in allowed:
        return
    raise ApiError(
        409,
        "review_move_not_allowed",
        f"A review case that is {state} cannot move to {target}; allowed moves: "
        + (", ".join(allowed) if allowed else "none (final state)")
        + ".",
        members={"state": state, "allowedMoves": allowed},
    )


def require_open(state: str) -> None:
    """Return if reviews may still be submitted in `state`; else raise 409 saying why."""
    if state in OPEN_FOR_REVIEWS:
        return
    raise ApiError(
        409,
        "review_case_closed",
        f"The review case is {state}: reviews can no longer be submitted or amended.",
        members={"state": state, "allowedMoves": allowed_moves(state)},
    )
