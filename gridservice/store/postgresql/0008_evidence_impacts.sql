-- The impact index of evidence search (store/evidence_impacts.py, store/evidence_pg_impacts.py),
-- as SQLite's schema.sql holds it: per stemmed term its chunk count and the largest bm25 part
-- in each block of chunks; per (term, block) the block's postings. Rebuilt after a harvest,
-- when the demo store is built and when the service opens a store; used only while
-- meta.evidence_impacts_generation is the evidence generation. Terms sort as bytes ("C"), so
-- a prefix's expansions are the rows from the prefix on.
CREATE TABLE evidence_term_stats (
    term   TEXT COLLATE "C" PRIMARY KEY,
    df     INTEGER NOT NULL,
    bounds BYTEA  -- (block, largest bm25 part) per block the term is in; NULL: a rare term
);
CREATE TABLE evidence_term_blocks (
    term     TEXT COLLATE "C" NOT NULL,
    block    INTEGER NOT NULL,
    postings BYTEA NOT NULL,
    PRIMARY KEY (term, block)
);
