"""Tables (Markdown) and a growth chart (SVG) from `peers-results.json`."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path
from xml.sax.saxutils import escape

TARGET_SEARCH_P95_MS = 50
TARGET_MEMORY_MB = 500
TARGET_DEEP_RATIO = 1.5
TARGET_FLOOR_SHARE = 0.25  # 500-row page throughput against uvicorn sending the same bytes
PAGE_SCENARIOS = ("generators_first", "generators_last", "generators_filtered")


def _ms(value: float) -> str:
    return f"{value:.1f}" if value >= 1 else f"{value:.2f}"


def load_table(scale: str, data: dict) -> list[str]:
    """One scale's load results: each scenario, both sides, ratio, SQL floor."""
    lines = [
        f"#### Scale {scale}",
        "",
        "| scenario | ours req/s | Datasette req/s | ratio | ours p50 / p95 / p99 ms "
        "| Datasette p50 / p95 / p99 ms | raw SQL ms | KB/response (ours, DS) |",
        "|---|---:|---:|---:|---|---|---:|---|",
    ]
    sql = data["floor"]["sql"]
    matches = data["floor"].get("search_matches", {})
    for name, sides in data["load"].items():
        ours, ds = sides["ours"], sides["datasette"]
        ratio = ours["rps"] / ds["rps"] if ds["rps"] else math.inf
        title = data["titles"][name]
        if name in matches:
            title += f" ({matches[name]:,} matching chunks)"
        lines.append(
            f"| {title} | {ours['rps']:.0f} | {ds['rps']:.0f} | **{ratio:.2f}** "
            f"| {_ms(ours['p50_ms'])} / {_ms(ours['p95_ms'])} / {_ms(ours['p99_ms'])} "
            f"| {_ms(ds['p50_ms'])} / {_ms(ds['p95_ms'])} / {_ms(ds['p99_ms'])} "
            f"| {_ms(sql[name]['median_ms'])} "
            f"| {ours['bytes_per_response'] / 1024:.0f}, {ds['bytes_per_response'] / 1024:.0f} |"
        )
    for side, label in (
        ("ours_full_path", "our service, page cache off (full path)"),
        ("static_floor", "HTTP floor: uvicorn sending the same bytes"),
    ):
        for name in PAGE_SCENARIOS:
            other = data["load"].get(name, {}).get(side)
            if not other:
                continue
            lines.append(
                f"| {label}: {data['titles'][name]} | {other['rps']:.0f} | | | "
                f"{_ms(other['p50_ms'])} / {_ms(other['p95_ms'])} / {_ms(other['p99_ms'])} "
                "| | | |"
            )
    errors = sum(side["errors"] for sides in data["load"].values() for side in sides.values())
    lines += ["", f"Failed or non-2xx responses during load: {errors}.", ""]
    return lines


def floor_table(results: dict) -> list[str]:
    scales = sorted(results["scales"], key=int)
    head = "| layer (one thread, median ms) | " + " | ".join(f"scale {s}" for s in scales) + " |"
    lines = [head, "|---|" + "---:|" * len(scales)]
    rows = [("sql", name) for name in results["scales"][scales[0]]["floor"]["sql"]]
    rows += [("encode", name) for name in results["scales"][scales[0]]["floor"]["encode"]]
    rows += [("asgi", "full_path"), ("asgi", "page_cache_hit")]
    labels = {"sql": "SQL", "encode": "JSON, 500 records", "asgi": "one 500-row page, ASGI app"}
    for group, name in rows:
        label = f"{labels[group]}: {name}"
        cells = [
            _ms(results["scales"][s]["floor"][group][name]["median_ms"])
            if name in results["scales"][s]["floor"].get(group, {})
            else "not run"
            for s in scales
        ]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def first_asking_table(results: dict) -> list[str]:
    """Search asked for the first time, one thread: p50 / p95 ms per scale."""
    scales = [s for s in sorted(results["scales"], key=int)
              if "first_asking" in results["scales"][s].get("floor", {})]  # fmt: skip
    if not scales:
        return ["(not measured)"]
    head = "| search, first asking (one thread, p50 / p95 ms) | "
    lines = [head + " | ".join(f"scale {s}" for s in scales) + " |"]
    lines.append("|---|" + "---:|" * len(scales))
    for name in results["scales"][scales[0]]["floor"]["first_asking"]:
        parts = (("page", "first page"), ("service", "as the service ranks it"),
                 ("next", "its second page"))  # fmt: skip
        for part, label in parts:
            cells = []
            for s in scales:
                m = results["scales"][s]["floor"]["first_asking"][name].get(part)
                if m is None:
                    cells.append("not measured")
                    continue
                cells.append(f"{_ms(m['p50_ms'])} / **{_ms(m['p95_ms'])}**")
            lines.append(f"| {name}: {label} | " + " | ".join(cells) + " |")
    return lines


def growth_table(results: dict) -> list[str]:
    scales = sorted(results["scales"], key=int)
    first = results["scales"][scales[0]]
    head = "| scenario | " + " | ".join(f"scale {s}: ours req/s (ratio), p95 ms" for s in scales)
    lines = [head + " |", "|---|" + "---|" * len(scales)]
    for name in first["load"]:
        cells = []
        for s in scales:
            sides = results["scales"][s]["load"].get(name)
            if not sides:
                cells.append("")
                continue
            ours, ds = sides["ours"], sides["datasette"]
            cells.append(
                f"{ours['rps']:.0f} ({ours['rps'] / ds['rps']:.2f}), {_ms(ours['p95_ms'])}"
            )
        lines.append(f"| {first['titles'][name]} | " + " | ".join(cells) + " |")
    return lines


def _pct(share: float) -> str:
    return f"{share:.1%}" if share < 0.1 else f"{share:.0%}"


def _floor_rps(d: dict, name: str) -> float | None:
    """The HTTP floor for a page's bytes (runs before each page had its own: the first's)."""
    floor = d["load"][name].get("static_floor") or d["load"]["generators_first"].get("static_floor")
    return floor["rps"] if floor else None


def floor_shares(d: dict, side: str = "ours") -> dict[str, float]:
    """Each 500-row page's throughput as a share of the HTTP floor for its bytes."""
    out = {}
    for name in PAGE_SCENARIOS:
        if name in d.get("load", {}) and side in d["load"][name] and _floor_rps(d, name):
            out[name] = d["load"][name][side]["rps"] / _floor_rps(d, name)
    return out


def floor_share_table(results: dict) -> list[str]:
    """How the 500-row pages fare against the HTTP floor, scale by scale."""
    scales = sorted(results["scales"], key=int)
    head = "| 500-row page | " + " | ".join(
        f"scale {s}: ours / floor req/s (share; page cache off)" for s in scales
    )
    lines = [head + " |", "|---|" + "---|" * len(scales)]
    for name in PAGE_SCENARIOS:
        cells = []
        for s in scales:
            d = results["scales"][s]
            share = floor_shares(d).get(name)
            if share is None:
                cells.append("")
                continue
            off = floor_shares(d, "ours_full_path").get(name)
            cells.append(
                f"{d['load'][name]['ours']['rps']:.0f} / {_floor_rps(d, name):.0f} "
                f"({_pct(share)}; {_pct(off) if off is not None else 'not run'})"
            )
        title = results["scales"][scales[0]].get("titles", {}).get(name, name)
        lines.append(f"| {title} | " + " | ".join(cells) + " |")
    return lines


def targets_table(results: dict) -> list[str]:
    lines = [
        "| target | " + " | ".join(f"scale {s}" for s in sorted(results["scales"], key=int)) + " |"
    ]
    scales = sorted(results["scales"], key=int)
    lines.append("|---|" + "---|" * len(scales))

    def row(label, fn):
        lines.append(f"| {label} | " + " | ".join(fn(results["scales"][s]) for s in scales) + " |")

    def min_ratio(d):
        pages = [n for n in d["load"] if n.startswith("generators")]
        worst = min(d["load"][n]["ours"]["rps"] / d["load"][n]["datasette"]["rps"] for n in pages)
        return f"{worst:.2f} {'met' if worst >= 1 else 'MISSED'}"

    def floor_share(d):
        shares = floor_shares(d)
        if not shares:
            return "not run"
        worst = min(shares.values())
        off = floor_shares(d, "ours_full_path")
        was = f" (cache off: {_pct(min(off.values()))})" if off else ""
        return f"{_pct(worst)} {'met' if worst >= TARGET_FLOOR_SHARE else 'MISSED'}{was}"

    def search_p95(d):
        worst = max(d["load"][n]["ours"]["p95_ms"] for n in d["load"] if n.startswith("search"))
        return f"{worst:.1f} ms {'met' if worst < TARGET_SEARCH_P95_MS else 'MISSED'}"

    def deep(d):
        load = d["load"]
        if "generators_last" not in load:
            return "n/a"
        ratio = load["generators_first"]["ours"]["rps"] / load["generators_last"]["ours"]["rps"]
        return f"{ratio:.2f}x {'met' if ratio <= TARGET_DEEP_RATIO else 'MISSED'}"

    def memory(d):
        peak = d["memory_mb"]["ours"]["VmHWM"]
        return f"{peak:.0f} MB {'met' if peak < TARGET_MEMORY_MB else 'MISSED'}"

    def client(d):
        c = d.get("client")
        if not c:
            return "not run"
        return f"{c['ratio']:.2f}x ({c['records']:,} records)"

    row(
        "500-row page throughput, ours / Datasette (lowest of the page scenarios) >= 1.0", min_ratio
    )
    row(
        f"500-row page throughput / HTTP floor for the same bytes (lowest of the page "
        f"scenarios) >= {TARGET_FLOOR_SHARE:.0%}",
        floor_share,
    )
    row(f"evidence search p95 < {TARGET_SEARCH_P95_MS} ms (worst query, under load)", search_p95)
    row(f"last page within {TARGET_DEEP_RATIO}x of the first (time per request)", deep)
    row(f"service peak RSS < {TARGET_MEMORY_MB} MB", memory)
    row("gridclient / bare httpx, one traversal (typed models vs dicts)", client)
    row("app: queue page time to content, p50 (target < 2 s)", lambda d: _page(d, "/queue"))
    row("app: slowest page p50", _slowest_page)
    return lines


def _page(d: dict, path: str) -> str:
    app = d.get("app") or {}
    if "pages" not in app:
        return app.get("skipped", "not run") if app else "not run"
    page = app["pages"].get(path)
    return f"{page['p50_s']:.2f} s" if page else "n/a"


def _slowest_page(d: dict) -> str:
    pages = (d.get("app") or {}).get("pages")
    if not pages:
        return "not run"
    path, page = max(pages.items(), key=lambda kv: kv[1]["p50_s"])
    return f"{path} {page['p50_s']:.2f} s"


def app_table(results: dict) -> list[str]:
    scales = [
        s
        for s in sorted(results["scales"], key=int)
        if "pages" in results["scales"][s].get("app", {})
    ]
    if not scales:
        return ["Not run."]
    paths = list(dict.fromkeys(p for s in scales for p in results["scales"][s]["app"]["pages"]))
    lines = ["| page | " + " | ".join(f"scale {s}: p50 / max s" for s in scales) + " |"]
    lines.append("|---|" + "---|" * len(scales))
    for path in paths:
        cells = []
        for s in scales:
            page = results["scales"][s]["app"]["pages"].get(path)
            cells.append(f"{page['p50_s']:.2f} / {page['max_s']:.2f}" if page else "")
        lines.append(f"| {path} | " + " | ".join(cells) + " |")
    return lines


def write(results: dict, out: Path) -> None:
    lines = ["<!-- generated by `python -m bench.peers`; do not edit -->", ""]
    lines += ["### Targets", ""] + targets_table(results) + [""]
    lines += ["### Load (wrk, loopback)", ""]
    for scale in sorted(results["scales"], key=int):
        lines += load_table(scale, results["scales"][scale])
    lines += ["### Floor", ""] + floor_table(results) + [""]
    lines += ["### Search, first asking", ""] + first_asking_table(results) + [""]
    lines += ["### Growth", ""] + growth_table(results) + [""]
    lines += ["### 500-row pages against the HTTP floor", ""] + floor_share_table(results) + [""]
    lines += ["### App: time to content in headless Chromium", ""] + app_table(results) + [""]
    (out / "peers-table.md").write_text("\n".join(lines))
    svg = out / "peers-growth.svg"
    svg.write_text(growth_svg(results))
    svg_to_png(svg, out / "peers-growth.png", f"{CHART_WIDTH},{CHART_HEIGHT}")


CHART_WIDTH, CHART_HEIGHT = 1480, 470


def svg_to_png(svg: Path, png: Path, size: str = f"{CHART_WIDTH},{CHART_HEIGHT}") -> bool:
    """Render the chart to PNG with headless Chromium when it is installed (else SVG only)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return False
    args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--screenshot={png}", f"--window-size={size}", svg.resolve().as_uri()]  # fmt: skip
    done = subprocess.run(args, capture_output=True, timeout=120)
    return done.returncode == 0 and png.exists()


_SHORT = {
    "generators_first": "500-row page, first",
    "generators_last": "500-row page, last",
    "generators_filtered": "500-row page, state + min capacity",
    "search_selective": "search `wichita` (selective)",
    "search_two_terms": "search `battery storage`",
    "search_common_term": "search `interconnection` (common)",
}
_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def _panel(x0, y0, w, h, title, series, scales, ylabel, log_y=True, y_range=None) -> list[str]:
    """One line panel: x is the scale (log), y per series; solid ours, dashed Datasette."""
    values = [v for s in series for v in s["values"] if v]
    lo, hi = y_range or (min(values), max(values))
    if log_y:
        lo, hi = 10 ** math.floor(math.log10(lo)), 10 ** math.ceil(math.log10(hi))
    xs = {s: x0 + 50 + (w - 70) * (i / max(1, len(scales) - 1)) for i, s in enumerate(scales)}

    def y(v):
        if log_y:
            return (
                y0
                + h
                - 30
                - (h - 50) * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
            )
        return y0 + h - 30 - (h - 50) * (v - lo) / (hi - lo or 1)

    out = [
        f'<text x="{x0 + w / 2}" y="{y0 + 14}" text-anchor="middle" font-weight="bold">{escape(title)}</text>'
    ]
    out.append(
        f'<line x1="{x0 + 50}" y1="{y0 + h - 30}" x2="{x0 + w - 20}" y2="{y0 + h - 30}" stroke="#444"/>'
    )
    out.append(
        f'<line x1="{x0 + 50}" y1="{y0 + 20}" x2="{x0 + 50}" y2="{y0 + h - 30}" stroke="#444"/>'
    )
    for s, x in xs.items():
        out.append(f'<text x="{x}" y="{y0 + h - 14}" text-anchor="middle">scale {s}</text>')
    if log_y:
        tick = lo
        while tick <= hi * 1.0001:
            out.append(f'<text x="{x0 + 45}" y="{y(tick) + 4}" text-anchor="end">{tick:g}</text>')
            out.append(
                f'<line x1="{x0 + 50}" y1="{y(tick)}" x2="{x0 + w - 20}" y2="{y(tick)}" stroke="#ddd"/>'
            )
            tick *= 10
    else:
        step = 0.25 if hi <= 1.5 else 0.5
        for i in range(int(round((hi - lo) / step)) + 1):
            tick = lo + step * i
            out.append(f'<text x="{x0 + 45}" y="{y(tick) + 4}" text-anchor="end">{tick:.0%}</text>')
            out.append(
                f'<line x1="{x0 + 50}" y1="{y(tick)}" x2="{x0 + w - 20}" y2="{y(tick)}" stroke="#ddd"/>'
            )
    out.append(
        f'<text x="{x0 + 12}" y="{y0 + h / 2}" transform="rotate(-90 {x0 + 12} {y0 + h / 2})" text-anchor="middle">{escape(ylabel)}</text>'
    )
    for s in series:
        pts = [(xs[sc], y(v)) for sc, v in zip(scales, s["values"], strict=True) if v]
        dash = ' stroke-dasharray="6 4"' if s["dashed"] else ""
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{s["colour"]}" stroke-width="2"{dash}/>'
        )
        out += [
            f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{s["colour"]}"/>' for px, py in pts
        ]
    return out


def growth_svg(results: dict) -> str:
    """Two panels from scale 1 to the largest: requests/s and p95, ours solid, Datasette dashed."""
    scales = sorted(results["scales"], key=int)
    names = list(results["scales"][scales[0]]["load"])
    titles = results["scales"][scales[0]]["titles"]

    def series(metric):
        out = []
        for i, name in enumerate(names):
            for side, dashed in (("ours", False), ("datasette", True)):
                values = [
                    results["scales"][s]["load"].get(name, {}).get(side, {}).get(metric)
                    for s in scales
                ]
                out.append({"values": values, "dashed": dashed, "colour": _COLOURS[i % 6]})
        return out

    width, height = CHART_WIDTH, CHART_HEIGHT
    body = _panel(0, 0, 480, 360, "Throughput (8 connections)", series("rps"), scales, "requests/s")
    body += _panel(490, 0, 480, 360, "p95 latency under that load", series("p95_ms"), scales, "ms")
    shares = []
    for i, name in enumerate(names):
        if name not in PAGE_SCENARIOS:
            continue
        for side, dashed in (("ours", False), ("ours_full_path", True)):
            values = [floor_shares(results["scales"][s], side).get(name) for s in scales]
            shares.append({"values": values, "dashed": dashed, "colour": _COLOURS[i % 6]})
    shares.append({"values": [TARGET_FLOOR_SHARE] * len(scales), "dashed": True, "colour": "#888"})
    top = math.ceil(4 * max([1.0] + [v for s in shares for v in s["values"] if v])) / 4
    body += _panel(
        980, 0, 480, 360, "500-row pages: share of the HTTP floor", shares, scales,
        "ours / uvicorn sending the same bytes", log_y=False, y_range=(0.0, top),
    )  # fmt: skip
    y = 380
    for i, name in enumerate(names):
        colour = _COLOURS[i % 6]
        x = 20 + (i % 3) * 320
        row_y = y + (i // 3) * 22
        body.append(
            f'<line x1="{x}" y1="{row_y}" x2="{x + 24}" y2="{row_y}" stroke="{colour}" stroke-width="3"/>'
        )
        label = _SHORT.get(name, titles[name])
        body.append(f'<text x="{x + 30}" y="{row_y + 4}">{escape(label)}</text>')
    body.append(
        f'<text x="20" y="{height - 12}">solid: our service; dashed: Datasette on the same file '
        "(right panel: dashed, our service with its page cache off; grey, the 25% target). "
        "Log scales but the right panel's.</text>"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="white"/>'
        + "".join(body)
        + "</svg>\n"
    )
