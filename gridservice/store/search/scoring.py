"""FTS5's bm25 as a formula, and the impact index's format and settings: what the SQLite
(`search.impacts`) and PostgreSQL (`search.postgres_impacts`) search paths share."""

from __future__ import annotations

import heapq
import math
import struct
from collections import Counter
from collections.abc import Callable
from typing import Any

# FTS5's bm25 constants (fts5_aux.c).
K1 = 1.2
B = 0.75

BLOCK_SIZE = 64
# A term in fewer chunks than this (or than 1/32 of them) is ranked quickly the exact way.
MIN_DF = 64
# Below this many chunks for its rarest term a search is ranked the exact way: scoring a
# few thousand matches costs about as much as the index's own work.
FAST_MIN_MATCHES = 2048
ENABLED = True  # tests turn the fast path off to compare it with the exact one
USES: Counter[str] = Counter()  # "fast" and "exact": how searches were answered

POSTING = struct.Struct("<qIHIB")  # rowid, seq, term frequency, chunk length, current
BOUND = struct.Struct("<id")  # block, largest bm25 term part in it


def term_part(tf: float, length: float, avgdl: float) -> float:
    """bm25's part for one phrase before the IDF, as fts5Bm25Function computes it."""
    return (tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * length / avgdl))


def idf(rows: int, hits: int) -> float:
    """bm25's IDF for a phrase found in `hits` of `rows` chunks (at least 1e-6)."""
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return 1e-6 if value <= 0.0 else value


def block_order(
    blocks: list[dict[int, float]], weights: list[float], phrase_bonus: float
) -> list[tuple[float, int, float]]:
    """The blocks every term is in, best bound first: (sort key, block, bound), where a
    block's bound is the sum of each term's largest part in it times the term's IDF, plus
    the phrase bonus, raised by a margin far above floating-point rounding."""
    order = []
    for block in set(blocks[0]).intersection(*blocks[1:]):
        bm25 = 0.0
        for weight, term_bounds in zip(weights, blocks, strict=True):
            bm25 += weight * term_bounds[block]
        bound = (bm25 + phrase_bonus) * (1 + 1e-9) + 1e-9
        order.append((-round(bound, 6), block, bound))
    order.sort()
    return order


def best_of_blocks(
    order: list[tuple[float, int, float]],
    block_size: int,
    limit: int,
    score: Callable[[list[int], float], list[tuple[Any, ...]]],
    *,
    budget: int,
    max_batch: int,
) -> list[tuple[Any, ...]] | None:
    """The `limit` best entries (rank, -seq, rowid, ...) that `score` gives for the blocks
    in `order`, best first, skipping each block that cannot hold an entry ranked before the
    last one kept; None when more than `budget` blocks would be scored (the exact path is
    then the quicker). `score(blocks, floor)` may leave out entries ranked below `floor`."""
    heap: list[tuple[Any, ...]] = []  # the worst kept first
    visited, batch, pending = 0, 1, []

    def take(blocks: list[int]) -> None:
        floor = heap[0][0] - 0.5e-6 - 1e-9 if len(heap) == limit else -math.inf
        for entry in score(blocks, floor):
            if len(heap) < limit:
                heapq.heappush(heap, entry)
            elif entry > heap[0]:
                heapq.heapreplace(heap, entry)

    for _key, block, bound in order:
        if len(heap) == limit:
            worst_rank, worst_seq = heap[0][0], -heap[0][1]
            if bound < worst_rank - 0.5e-6:
                continue  # every chunk in it ranks after the page's last
            if bound < worst_rank + 0.5e-6 and block * block_size > worst_seq:
                continue  # at best a tie with the last, later in chunk-id order
        pending.append(block)
        # Blocks are scored a few at a time (fewer statements); a block scored that the
        # page turns out not to need costs time, never exactness.
        if len(pending) >= batch:
            take(pending)
            visited += len(pending)
            pending, batch = [], min(batch * 2, max_batch)
            if visited > budget:
                # Filters that leave few chunks, or a page deep in the ranking: the bounds
                # prune little, and ranking every match is the quicker way.
                USES["gave_up"] += 1
                return None
    if pending:
        take(pending)
        visited += len(pending)
    USES["fast"] += 1
    USES["fast_blocks"] += visited
    return sorted(heap, key=lambda e: (-e[0], -e[1]))


def bm25(
    weights: list[float],
    postings: list[dict[int, tuple[int, int, int, int]]],
    rowid: int,
    avgdl: float,
) -> float:
    """A chunk's bm25 from its postings (seq, term frequency, length, current) per term,
    summed term by term as fts5Bm25Function sums."""
    length = float(postings[0][rowid][2])
    score = 0.0
    for weight, posting in zip(weights, postings, strict=True):
        score += weight * term_part(float(posting[rowid][1]), length, avgdl)
    return score
