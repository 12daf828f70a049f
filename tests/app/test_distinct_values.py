"""Column work done once per distinct value gives what cell-by-cell work gives."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd

from components.distinct_values import distinct, map_distinct, map_distinct_pairs
from components.tables import formula_safe, records_frame


def shout(value):
    return None if value is None or value != value else str(value).upper()


def test_map_distinct_gives_what_map_gives_and_calls_once_per_value():
    column = pd.Series(["a", "b", None, "a", "c", "b", None] * 3, index=range(10, 31))
    calls: list = []

    def counted(value):
        calls.append(value)
        return shout(value)

    mapped = map_distinct(column, counted)
    pd.testing.assert_series_equal(mapped, column.map(shout))
    assert len(calls) == 4  # a, b, c and one missing cell


def test_map_distinct_keeps_mixed_values_and_maps_unhashable_cell_by_cell():
    instant = dt.datetime(2026, 11, 27, 9, 30, tzinfo=dt.UTC)
    mixed = pd.Series([instant, "x", 3, instant, np.nan], dtype=object)
    assert map_distinct(mixed, repr).tolist() == mixed.map(repr).tolist()

    lists = pd.Series([["a"], ["b"], ["a"]])
    assert map_distinct(lists, len).tolist() == [1, 1, 1]
    assert distinct(lists) is None
    assert distinct(pd.Series(["b", None, "a", "b"])) == ["b", "a"]


def test_formula_safe_finds_a_formula_among_repeated_text_of_either_kind():
    for dtype in ("str", object):
        frame = pd.DataFrame(
            {"name": pd.Series(["ok", "=SUM(A1)", "ok", None], dtype=dtype), "mw": [1, 2, 3, 4]}
        )
        safe = formula_safe(frame)
        assert safe["name"].tolist()[:3] == ["ok", "'=SUM(A1)", "ok"]
        assert pd.isna(safe["name"].iloc[3])
        assert safe["mw"].tolist() == [1, 2, 3, 4]


def test_formula_safe_finds_every_hostile_text_wherever_it_stands_in_the_column():
    """The column is checked as one text (its cells joined by line feeds): a formula's
    character after another cell's line feed, or a character a workbook cannot hold, is
    found in any row, among texts, numbers and missing cells, and made safe as the cell
    rule says; a column of plain texts is passed through untouched."""
    from components.spreadsheets import FORMULA_STARTS, ILLEGAL_CHARACTERS_RE, safe_cell

    hostile = [f"{start}1+1" for start in FORMULA_STARTS]
    hostile += [f"a{chr(code)}b" for code in range(32) if ILLEGAL_CHARACTERS_RE.match(chr(code))]
    for dtype in ("str", object):
        for row in (0, 7, 19):
            for text in hostile:
                cells = [f"plain {n}\nline two" for n in range(20)]
                cells[row] = text
                frame = pd.DataFrame({"name": pd.Series(cells, dtype=dtype)})
                if dtype is object:
                    frame["name"] = frame["name"].where(frame.index != 3, 4.5)
                safe = formula_safe(frame)["name"].tolist()
                assert safe[row] == safe_cell(text) != text, (dtype, row, text)
    plain = pd.DataFrame({"name": ["a\n-b", "c"], "kind": ["x", "y"]})
    assert formula_safe(plain)["name"].tolist() == ["a\n-b", "c"]


def test_records_frame_gives_none_where_a_member_is_missing_anywhere_in_the_column():
    class Evidence:
        def __init__(self, source_id):
            self.source_id = source_id

    class Record:
        def __init__(self, evidence):
            self.evidence = evidence

    records = [Record(Evidence("eia860")), Record(None), Record(Evidence(None))]
    frame = records_frame(records, {"source": "evidence.source_id", "gone": "no_such_member"})
    assert frame["source"].tolist()[0] == "eia860"
    assert frame["source"].isna().tolist() == [False, True, True]
    assert frame["gone"].isna().all()


def test_records_frame_reads_every_member_as_one_getter_per_cell_would():
    """Columns read in one pass over the records, and a `FirstOf` column, give what a getter
    called on each record gives, whether every record has every member or not."""
    from components.tables import FirstOf, attribute

    class Evidence:
        def __init__(self, source_id):
            self.source_id = source_id

    class Record:
        def __init__(self, name, mw, evidence, source_id=None):
            self.name, self.mw, self.evidence = name, mw, evidence
            if source_id is not None:
                self.source_id = source_id  # some records carry their own source id

    whole = [Record(f"r{i}", float(i), Evidence(f"ev{i % 3}" if i % 4 else "")) for i in range(9)]
    mixed = [*whole, Record("own", 1.0, None, source_id="own-id"), Record("none", None, None)]
    columns = {
        "name": "name",
        "mw": "mw",
        "also name": "name",
        "source": FirstOf(("evidence.source_id", "source_id")),
        "evidence source": "evidence.source_id",
        "upper": lambda r: r.name.upper(),
    }
    for records in (whole, mixed):
        frame = records_frame(records, columns)
        assert list(frame.columns) == list(columns)
        evidence = attribute("evidence.source_id")
        expected = {
            "name": [r.name for r in records],
            "mw": [r.mw for r in records],
            "also name": [r.name for r in records],
            "source": [evidence(r) or getattr(r, "source_id", None) for r in records],
            "evidence source": [evidence(r) for r in records],
            "upper": [r.name.upper() for r in records],
        }
        for name, cells in expected.items():
            got = [None if value is None or value != value else value for value in frame[name]]
            assert got == cells, name
    assert records_frame([], columns).columns.tolist() == list(columns)


def test_map_distinct_pairs_gives_each_rows_pair_and_calls_once_per_distinct_pair():
    for dtype in ("str", object):
        first = pd.Series(["a", "b", None, "a", "a", "b", None], dtype=dtype, index=range(5, 12))
        second = pd.Series(["x", "x", "y", "x", None, None, None], dtype=dtype, index=first.index)
        calls: list = []

        def joined(a, b, calls=calls):
            calls.append((a, b))
            return f"{a}/{b}"

        def plain(value):
            return None if value is None or value != value else value

        mapped = map_distinct_pairs(first, second, joined)
        expected = [f"{plain(a)}/{plain(b)}" for a, b in zip(first, second, strict=True)]
        assert mapped.tolist() == expected
        assert list(mapped.index) == list(first.index)
        assert sorted(calls, key=str) == sorted(set(calls), key=str)  # each pair once
        assert len(calls) == 6  # a/x, b/x, None/y, a/None, b/None, None/None
