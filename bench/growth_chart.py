"""Chart every figure of the performance targets against its target at scales 1, 10 and 100.

Usage:
    uv run python bench/growth_chart.py [docs/benchmarks/growth.json]

The figures come from different benchmarks (each entry of the JSON file names the command
that measured it and when); this script only draws them. Each figure is shown as the share
of its target it uses: a time divided by its budget, or for a throughput share the target
divided by the share reached. 1 is the target, below 1 is met. Writes `growth.svg` beside the
JSON file, and `growth.png` when Chromium is installed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.sax.saxutils import escape

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.peers.report import _panel, svg_to_png  # noqa: E402

DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "benchmarks" / "growth.json"
COLOURS = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
    "#7f7f7f", "#bcbd22",
]  # fmt: skip
WIDTH, PANEL_HEIGHT, LEGEND_ROW = 980, 420, 22


def used(figure: dict, value: float | None) -> float | None:
    """Return the share of its target a figure uses (1 = the target; below 1 is met)."""
    if value is None:
        return None
    if figure["better"] == "lower":
        return value / figure["target"]
    return figure["target"] / value


def chart_svg(data: dict) -> str:
    """One panel, a line per figure from scale 1 to 100, the target as a black dashed line."""
    scales = [str(s) for s in data["scales"]]
    series = [
        {
            "values": [used(f, f["values"].get(s)) for s in scales],
            "dashed": False,
            "colour": COLOURS[i % len(COLOURS)],
        }
        for i, f in enumerate(data["figures"])
    ]
    series.append({"values": [1.0] * len(scales), "dashed": True, "colour": "#000"})
    body = _panel(
        0, 0, WIDTH - 20, PANEL_HEIGHT, "Each figure against its target, scales 1, 10 and 100",
        series, scales, "share of the target used (log; below 1 is met)",
    )  # fmt: skip
    y = PANEL_HEIGHT + 20
    for i, figure in enumerate(data["figures"]):
        colour = COLOURS[i % len(COLOURS)]
        x, row_y = 20 + (i % 2) * 480, y + (i // 2) * LEGEND_ROW
        body.append(
            f'<line x1="{x}" y1="{row_y}" x2="{x + 24}" y2="{row_y}" stroke="{colour}" '
            'stroke-width="3"/>'
        )
        label = f"{figure['name']} (target {figure['target_text']})"
        body.append(f'<text x="{x + 30}" y="{row_y + 4}">{escape(label)}</text>')
    height = y + ((len(data["figures"]) + 1) // 2) * LEGEND_ROW + 2 * LEGEND_ROW + 8
    body.append(
        f'<text x="20" y="{height - 12 - LEGEND_ROW}">black dashed: the target; a time is '
        "shown divided by its budget, the throughput share as the target divided by the share "
        "reached.</text>"
    )
    body.append(f'<text x="20" y="{height - 12}">{escape(data["note"])}</text>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        'font-family="sans-serif" font-size="12"><rect width="100%" height="100%" '
        'fill="white"/>' + "".join(body) + "</svg>\n"
    )


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    data = json.loads(source.read_text())
    svg = source.with_suffix(".svg")
    text = chart_svg(data)
    svg.write_text(text)
    height = text.split('height="', 1)[1].split('"', 1)[0]
    drawn = svg_to_png(svg, source.with_suffix(".png"), f"{WIDTH},{height}")
    print(f"wrote {svg}" + (f" and {source.with_suffix('.png')}" if drawn else " (no Chromium)"))


if __name__ == "__main__":
    main()
