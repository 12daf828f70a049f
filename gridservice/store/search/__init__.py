"""Evidence search: FTS5 with bm25 on SQLite, and a precomputed impact index on both stores."""
