"""The static tables a page drew (`components.tables.show_static_table`), read back from their
HTML as a reader sees them: each a frame of its header and its cells' text."""

from __future__ import annotations

from html.parser import HTMLParser

import pandas as pd


class _Cells(HTMLParser):
    """The text of each `th` and `td`, by row (character references read as text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.tags: list[str] = []  # every start tag met, data or not
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs) -> None:
        self.tags.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("th", "td"):
            self._cell = []

    def handle_endtag(self, tag) -> None:
        if tag in ("th", "td") and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None

    def handle_data(self, data) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parsed(body: str) -> _Cells:
    cells = _Cells()
    cells.feed(body)
    cells.close()
    return cells


def static_tables(at) -> list[pd.DataFrame]:
    """Return every static table the AppTest run drew, in order."""
    frames = []
    for element in at.get("html"):
        body = element.proto.body
        if 'class="gss-table"' not in body:
            continue
        header, *rows = parsed(body).rows
        frames.append(pd.DataFrame(rows, columns=header))
    return frames


def static_table_tags(at) -> set[str]:
    """Return every HTML tag in the static tables the run drew."""
    return {
        tag
        for element in at.get("html")
        if 'class="gss-table"' in element.proto.body
        for tag in parsed(element.proto.body).tags
    }
