"""A long table sends the browser its first rows only, says so, and offers every row as CSV;
the plant map draws the largest plants only, and says so."""

from __future__ import annotations

import csv
import io

import pandas as pd
from streamlit.testing.v1 import AppTest

from components.spreadsheets import csv_bytes
from components.tables import MISSING_CELL, ROWS_SENT, rows_in_order, shown_table


def draw_generators(count: int) -> None:
    """The app under test: `count` generators, largest first, through `show_rows`."""
    import pandas as pd

    from components.tables import show_rows, shown_table

    frame = pd.DataFrame(
        {
            "id": [f"gen-{n}" for n in range(count)],
            "nameplateCapacityMw": [float(n % 500) for n in range(count)],
        }
    )
    largest_first = frame["nameplateCapacityMw"].sort_values(ascending=False, kind="stable")
    show_rows(
        shown_table(frame),
        largest_first.index,
        noun="generators",
        file_name="generators.csv",
        hide_index=True,
    )


def run(count: int) -> AppTest:
    at = AppTest.from_function(draw_generators, args=(count,), default_timeout=30).run()
    assert not at.exception
    return at


def test_a_table_longer_than_the_limit_draws_its_first_rows_and_says_so():
    count = ROWS_SENT + 500
    at = run(count)
    drawn = at.dataframe[0].value
    assert len(drawn) == ROWS_SENT
    # the first rows in the order asked for: the largest, not the first loaded
    capacities = [float(n % 500) for n in range(count)]
    assert list(drawn.iloc[:, 1]) == sorted(capacities, reverse=True)[:ROWS_SENT]
    caption = at.caption[0].value
    assert f"The first {ROWS_SENT:,} of {count:,} generators" in caption
    assert "sorting a column sorts these only" in caption
    button = at.get("download_button")[0]
    assert button.proto.label == f"Download all {count:,} generators (CSV)"


def test_the_download_holds_every_row_in_the_order_drawn_and_the_drawn_rows_lead_it():
    # the page puts only the drawn rows in order on each run; the download puts them all
    count = ROWS_SENT + 500
    frame = pd.DataFrame(
        {
            "id": [f"gen-{n}" for n in range(count)],
            "nameplateCapacityMw": [float(n % 500) for n in range(count)],
        }
    )
    data = shown_table(frame).data
    largest_first = frame["nameplateCapacityMw"].sort_values(ascending=False, kind="stable")
    every = rows_in_order(data, largest_first.index)
    assert len(every) == count and list(every.index) == list(range(count))
    assert list(every.iloc[:, 0]) == [f"gen-{n}" for n in largest_first.index]
    drawn = rows_in_order(data, largest_first.index, limit=ROWS_SENT)
    pd.testing.assert_frame_equal(drawn, every.iloc[:ROWS_SENT])
    assert rows_in_order(data, limit=3).equals(data.iloc[:3])  # no order asked: as they are
    filtered = largest_first.index[largest_first.index % 7 == 0]  # a filter keeps some rows
    assert list(rows_in_order(data, filtered).iloc[:, 0]) == [f"gen-{n}" for n in filtered]


def test_a_table_within_the_limit_is_drawn_whole_without_a_note():
    at = run(ROWS_SENT)
    assert len(at.dataframe[0].value) == ROWS_SENT
    assert not at.caption and not at.get("download_button")


def test_the_csv_holds_every_row_as_drawn_formula_safe():
    frame = pd.DataFrame({"plantName": ["=HYPERLINK(1)", "Comal", "Hays"], "id": [1, 2, 3]})
    rows = shown_table(frame).data
    content = csv_bytes(rows)
    assert content.startswith("\ufeff".encode())  # spreadsheets read it as UTF-8
    read = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    assert read[0] == list(rows.columns)
    assert [row[0] for row in read[1:]] == ["'=HYPERLINK(1)", "Comal", "Hays"]


def test_the_plant_map_draws_the_largest_plants_and_says_how_many_are_left_out():
    from components.generation_view import largest_plants, plants_drawn_note

    plants = pd.DataFrame(
        {"agencyPlantId": [5, 4, 3, 2, 1], "capacityMw": [10.0, 300.0, 10.0, 0.0, 50.0]}
    )
    drawn = largest_plants(plants, limit=3)
    # largest first; of two equal plants the lower id
    assert list(drawn["agencyPlantId"]) == [4, 1, 3]
    assert plants_drawn_note(len(drawn), len(plants)) == (
        "The 3 largest of 5 plants are drawn (and offered below); narrow the filters to "
        "reach the others."
    )
    assert largest_plants(plants, limit=5) is plants
    assert plants_drawn_note(5, 5) is None


def draw_with_gaps() -> None:
    """The app under test: a short table through `show_table`, a long one through
    `show_rows`, each with a cell that has no value and one a spreadsheet would run."""
    import pandas as pd

    from components.tables import ROWS_SENT, show_rows, show_table, shown_table

    short = pd.DataFrame({"site": ["=HYPERLINK(1)", "Abilene"], "statusDate": [None, "2025-06"]})
    show_table(short, hide_index=True)
    long = pd.DataFrame({"id": [f"r{n}" for n in range(ROWS_SENT + 1)], "note": None})
    show_rows(shown_table(long), hide_index=True)


def test_a_cell_with_no_value_reads_as_a_dash_not_as_the_word_none():
    at = AppTest.from_function(draw_with_gaps, default_timeout=30).run()
    assert not at.exception
    short, long = at.dataframe
    assert short.proto.placeholder == MISSING_CELL == "—"
    assert long.proto.placeholder == MISSING_CELL
    # the same table otherwise: a formula still shows with its leading quote
    assert list(short.value.iloc[:, 0]) == ["'=HYPERLINK(1)", "Abilene"]
    assert short.value.iloc[0, 1] is None or pd.isna(short.value.iloc[0, 1])
