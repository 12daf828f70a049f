"""The site report: the assessment as a printable PDF (A4 or Letter), and its blinded variant.

The report is HTML laid out by WeasyPrint (no browser): the summary band (the site's name,
coordinates, county and market, requested MW and voltage, readiness), the band's figures,
the findings, abstentions and limitations, the site's inputs, a vector map of the site
among the county outlines (`components.report_map`), the sources with their as-of dates,
and the disclaimer. Every page carries its number and the site's name.

The blinded variant is built from the service's expert-review packet and nothing else: the
packet is the service's one statement of what a reviewer may see (no customer reference,
ids or address; coordinates rounded; scrubbed free-form values), so the report cannot show
more than it.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections.abc import Iterable
from typing import Any

from components import assessment_view as view
from components import glossary
from components.assessment_summary import headlines, site_facts, site_title
from components.assessment_table import input_text
from components.assessment_workbook import site_inputs
from components.report_map import NEARBY_FILL, SITE_FILL, site_map_svg
from components.tables import record_source_title
from gridclient import Assessment, ExpertReviewPacket, Site

PDF_MIME = "application/pdf"
FOOTER_CHARACTERS = 70
PAGE_SIZES = ("A4", "Letter")
HEURISTIC_NOTE = (
    "Readiness and every confidence in this report are heuristics of how complete and "
    "consistent the public evidence is, not measured accuracies and not available capacity."
)
# The band figures a blinded packet leaves out (measured from the exact point).
BLINDED_LEFT_OUT = {"Nearest power plant"}

STYLE = """
@page { size: %(size)s; margin: 16mm 15mm 18mm 15mm; font-family: "DejaVu Sans", sans-serif;
  @bottom-left { content: "%(footer)s"; font-size: 8pt; color: #555; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages); font-size: 8pt;
    color: #555; } }
body { font-family: "DejaVu Sans", sans-serif; font-size: 9.5pt; line-height: 1.35; }
h1 { font-size: 17pt; margin: 0 0 4pt 0; } h2 { font-size: 12.5pt; margin: 14pt 0 4pt 0;
  border-bottom: 1px solid #bbb; break-after: avoid; }
.disclaimer { border: 1px solid #d4a017; background: #fff8e1; padding: 6pt; }
table { border-collapse: collapse; width: 100%%; } td, th { border: 1px solid #ccc;
  padding: 3pt 4pt; vertical-align: top; text-align: left; overflow-wrap: anywhere; }
th { background: #f0f0f0; } tr { break-inside: avoid; }
.band th { width: 32%%; } .finding { border: 1px solid #ccc; padding: 5pt; margin: 4pt 0;
  break-inside: avoid; } .muted { color: #555; font-size: 8.5pt; }
.map { break-inside: avoid; } .map svg { width: 100%%; height: auto; }
.swatch { display: inline-block; width: 9pt; height: 9pt; border: 1px solid #666; }
"""


def css_string(text: str) -> str:
    """Return text for inside a CSS string: every character but letters, digits and spaces
    as a CSS escape, so a name cannot end the string, the rule or the style element."""
    return "".join(c if c.isalnum() or c == " " else f"\\{ord(c):06x}" for c in text)


def _refuse_fetch(url: str, *args: Any, **kwargs: Any) -> dict:
    # the report is built from the assessment alone: a URL in a name must not be fetched
    raise ValueError(f"The site report loads nothing from outside: {url[:60]}")


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _table(rows: Iterable[tuple[str, str]], css_class: str = "band") -> str:
    body = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows if v != "")
    return f'<table class="{css_class}">{body}</table>'


def _bullets(lines: Iterable[str], empty: str) -> str:
    items = [f"<li>{_e(glossary.plain(line))}</li>" for line in lines]
    return f"<ul>{''.join(items)}</ul>" if items else f'<p class="muted">{_e(empty)}</p>'


def _site_inputs(site: Site | None) -> list[tuple[str, str]]:
    return [(row.Input, input_text(row.Value)) for row in site_inputs(site).itertuples()]


def _as_of(value: Any) -> str:
    """A record's date as a day: the source's edition is what matters, not the minute."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value or "")[:10]


def sources(assessment: Assessment) -> list[tuple[str, str, int]]:
    """Return each source the assessment's records come from: (name as its publisher gives
    it, the newest as-of date of its records, how many records), by name."""
    dated: list[tuple[Any, Any]] = [
        *((f, f.known_from or f.valid_from) for f in assessment.market_signals or []),
        *((r, r.observed_at) for r in assessment.relevant_queue_records or []),
        *((p, p.observed_at) for p in assessment.relevant_transmission_projects or []),
    ]
    found: dict[str, tuple[str, int]] = {}
    for record, when in dated:
        name = record_source_title(record)
        newest, count = found.get(name, ("", 0))
        found[name] = (max(newest, _as_of(when)), count + 1)
    return [(name, newest, count) for name, (newest, count) in sorted(found.items())]


def _findings(assessment: Assessment) -> str:
    readiness = assessment.readiness or {}
    boxes = [
        f'<div class="finding"><b>{_e(line["factor"])}</b> · {_e(line["severity"])}'
        f"<br/>{_e(line['finding'])}<br/>"
        f'<span class="muted">Cites: {_e(line["cites"])}</span></div>'
        for line in view.finding_lines(readiness)
    ]
    abstentions = [
        f"{glossary.label('factor', a.get('factor'))}: {a.get('reason') or 'no reason given'}"
        for a in readiness.get("abstentions") or []
    ]
    return (
        "<h2>Findings</h2>"
        + ("".join(boxes) or '<p class="muted">No friction findings.</p>')
        + "<h2>Abstentions</h2>"
        + _bullets(abstentions, "The assessment judged every factor.")
        + "<h2>Limitations</h2>"
        + _bullets(readiness.get("limitations") or [], "None stated.")
        + "<h2>Risks and next actions</h2>"
        + _bullets([*(assessment.risks or []), *(assessment.next_actions or [])], "None given.")
    )


def _map(assessment: Assessment, site: Site | None, blinded: bool) -> str:
    location = site.location if site is not None else None
    if location is None or location.latitude is None or location.longitude is None:
        return '<h2>Map</h2><p class="muted">The site has no coordinates to draw.</p>'
    names = [r.county for r in assessment.relevant_queue_records or [] if r.county]
    for project in assessment.relevant_transmission_projects or []:
        names.extend(project.counties or [])
    county = assessment.county or {}
    svg = site_map_svg(
        location.latitude, location.longitude, county.get("fips"), county.get("state"), names
    )
    pin = "the rounded point the blinded packet gives" if blinded else "the site"
    return (
        f'<h2>Map</h2><div class="map">{svg}<p class="muted">Red pin: {pin}. '
        f'<span class="swatch" style="background:{SITE_FILL}"></span> the site\'s county; '
        f'<span class="swatch" style="background:{NEARBY_FILL}"></span> counties named by the '
        "nearby queue records and transmission projects. County outlines: US Census "
        "cartographic boundaries.</p></div>"
    )


def _sources(assessment: Assessment) -> str:
    rows = "".join(
        f"<tr><td>{_e(name)}</td><td>{_e(as_of)}</td><td>{count:,}</td></tr>"
        for name, as_of, count in sources(assessment)
    )
    attribution = (
        f'<p class="muted">{_e(assessment.attribution)}</p>' if assessment.attribution else ""
    )
    return (
        "<h2>Sources</h2><table><tr><th>Source</th><th>As of (newest record)</th>"
        f"<th>Records</th></tr>{rows}</table>{attribution}"
    )


def _band(assessment: Assessment, site: Site | None, blinded: bool) -> list[tuple[str, str]]:
    facts = site_facts(assessment, site)
    location = site.location if site is not None else None
    if blinded:
        facts["Site"] = "Withheld for blinded review"
        if location is not None and location.latitude is not None:
            facts["Coordinates"] = (
                f"{location.latitude:.1f}, {location.longitude:.1f} (rounded to about 10 km)"
            )
    confidence = assessment.confidence or {}
    score = confidence.get("score")
    rows = [
        *facts.items(),
        ("Readiness", view.readiness_label(assessment.readiness)),
        (
            "Heuristic confidence (of the evidence, not accuracy)",
            f"{str(confidence.get('label') or 'not given').capitalize()}"
            + (f" (score {score})" if score is not None else ""),
        ),
    ]
    if not blinded:
        rows += [
            ("Screened", glossary.when(assessment.created_at)),
            ("Assessment", assessment.id or ""),
        ]
    return rows


def report_html(
    assessment: Assessment,
    site: Site | None,
    *,
    case_id: str | None = None,
    page_size: str = "A4",
) -> str:
    """Return the report's HTML; `case_id` given: the blinded variant, named by that case."""
    blinded = case_id is not None
    title = f"Blinded site report, case {case_id}" if blinded else site_title(assessment, site)
    figures = [h for h in headlines(assessment) if not (blinded and h.label in BLINDED_LEFT_OUT)]
    summary = glossary.plain((assessment.readiness or {}).get("summary") or "No summary given.")
    # the foot of a page holds one line: a long name is shortened there (the title has it whole)
    footer = title if len(title) <= FOOTER_CHARACTERS else title[: FOOTER_CHARACTERS - 1] + "…"
    style = STYLE % {"size": page_size, "footer": css_string(footer)}
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{_e(title)}</title>"
        f"<style>{style}</style></head><body>"
        f"<h1>{_e('Site report: ' + title if not blinded else title)}</h1>"
        f'<p class="disclaimer">{_e(assessment.disclaimer or "No disclaimer was given.")}'
        f"<br/><b>{_e(HEURISTIC_NOTE)}</b></p>"
        f"<h2>Summary</h2>{_table(_band(assessment, site, blinded))}<p>{_e(summary)}</p>"
        + _table((f.label, f"{f.value}: {f.detail}") for f in figures)
        + _findings(assessment)
        + "<h2>Site inputs</h2>"
        + _table(_site_inputs(site))
        + _map(assessment, site, blinded)
        + _sources(assessment)
        + f"<h2>Disclaimer</h2><p>{_e(assessment.disclaimer or '')}</p><p>{_e(HEURISTIC_NOTE)}"
        "</p></body></html>"
    )


def _pdf(page: str) -> bytes:
    # WeasyPrint loads Pango and its fonts on import (about a second): only when a report is
    # asked for, never on a page's every run
    import weasyprint

    return weasyprint.HTML(string=page, url_fetcher=_refuse_fetch).write_pdf()


def report_pdf(assessment: Assessment, site: Site | None, *, page_size: str = "A4") -> bytes:
    """Return the site report of an assessment as PDF bytes."""
    return _pdf(report_html(assessment, site, page_size=page_size))


def blinded_packet(raw_body: bytes) -> ExpertReviewPacket:
    """Return the expert-review packet of a response body as the service sent it."""
    body = json.loads(raw_body)
    return ExpertReviewPacket.model_validate(body.get("data", body))


def blinded_report_pdf(raw_packet: bytes, *, page_size: str = "A4") -> bytes:
    """Return the blinded site report as PDF bytes, built from the expert-review packet's
    body alone (its blinded site and assessment, named by its case id)."""
    packet = blinded_packet(raw_packet)
    assessment = packet.service_assessment or Assessment()
    page = report_html(
        assessment, packet.site, case_id=packet.case_id or "not given", page_size=page_size
    )
    return _pdf(page)
