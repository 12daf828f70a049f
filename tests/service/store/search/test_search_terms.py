"""How user search text becomes an FTS5 query: quoted terms, a bounded prefix match."""

from gridservice.store import collections


def test_every_term_is_quoted_so_fts_syntax_in_a_query_is_inert():
    assert collections.fts_query('solar OR "wind" NEAR(xyz)') == '"solar" "OR" "wind" "NEAR" "xyz"*'


def test_a_short_last_term_is_a_whole_word_not_a_prefix():
    short = "q" * (collections.MIN_PREFIX_CHARS - 1)
    assert collections.fts_query("solar " + short) == f'"solar" "{short}"'
    assert collections.fts_query("solar " + "q" * collections.MIN_PREFIX_CHARS).endswith("*")


def test_text_without_words_is_no_query():
    assert collections.fts_query("  --- !! ") is None
