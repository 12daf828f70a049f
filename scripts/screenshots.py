"""Regenerate the screenshots of every page on a fresh demo database, at two widths:
docs/screenshots/<page>.png at 1280x900 (a laptop) and docs/screenshots/1920/<page>.png at
1920x1080 (a desktop monitor).

    uv run python scripts/screenshots.py                  # all pages, both widths
    uv run python scripts/screenshots.py queue            # only the named pages
    uv run python scripts/screenshots.py --width 1920     # one width only
    uv run python scripts/screenshots.py report           # page 1 of the site report only

Needs Chromium at /usr/bin/chromium (`apt-get install -y chromium`). Builds the demo database
in a temporary folder, screens one site through the service so the assessment page has
something to show, starts `streamlit run app.py` on it and photographs each page as a user
first sees it; renders page 1 of that site's report (PDF) to docs/screenshots/report-page1.png.
Look at the pictures after regenerating them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT / "tests" / "e2e"), str(REPO_ROOT)]

import pypdfium2  # noqa: E402
from e2e_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    INSTALL_HINT,
    NO_SAVE_PICKER,
    open_page,
    screenshot,
    start_streamlit,
    wait_for_run,
)
from playwright.sync_api import sync_playwright  # noqa: E402

from bench.bare_tabs import PLACEHOLDER  # noqa: E402
from components.report import report_pdf  # noqa: E402
from gridclient import GridDataClient, NotFoundError  # noqa: E402
from gridservice.demo import DEMO_POINTS  # noqa: E402
from gridservice.runtime.server import start_in_thread  # noqa: E402
from gridservice.settings import Settings  # noqa: E402

OUT = REPO_ROOT / "docs" / "screenshots"
# width -> (window, folder): the 1280 pictures stay where the README links them
WINDOWS = {
    1280: ({"width": 1280, "height": 900}, OUT),
    1920: ({"width": 1920, "height": 1080}, OUT / "1920"),
}


def type_point(page, latitude: float, longitude: float) -> None:
    for label, value in (("Latitude", latitude), ("Longitude", longitude)):
        field = page.get_by_role("spinbutton", name=label, exact=True)
        field.fill(f"{value:.5f}")
        field.press("Enter")
        wait_for_run(page)


def scroll_to(page, heading: str) -> None:
    """Scroll the page so the section under `heading` (its text) starts at the top of the
    window, once every element is drawn (drawn sooner, what loads after it moves it down)."""
    page.wait_for_selector(PLACEHOLDER, state="detached", timeout=60_000)
    page.wait_for_timeout(2500)
    page.get_by_text(heading, exact=True).first.evaluate(
        "element => element.scrollIntoView({block: 'start'})"
    )


def pages(
    assessment_id: str, record_id: str, history_record_id: str
) -> dict[str, tuple[str, object]]:
    """Return name -> (URL path, what to do on the page before the picture)."""
    point = DEMO_POINTS["dual_certified"]
    # the demo's territory polygons are in Loudoun County: the page draws them there
    overlap = DEMO_POINTS["polygon_overlap"]
    return {
        "first_screen": ("", None),
        "screen_site": ("", lambda page: type_point(page, *point)),
        # the sites table under the form: the screened site and the demo's seeded one
        "screen_site_sites": ("", lambda page: scroll_to(page, "Your sites and their assessments")),
        "service_territory": ("service_territory", lambda page: type_point(page, *overlap)),
        "assessment": (f"assessment?assessment={assessment_id}", None),
        "assessment_queue_history": (
            f"assessment?assessment={assessment_id}",
            lambda page: scroll_to(page, "How the queue here has ended"),
        ),
        "queue": ("queue", None),
        "queue_record": (f"queue?county=Hays&record={record_id}", None),
        "queue_record_timeline": (
            f"queue?county=Hays&record={history_record_id}",
            lambda page: scroll_to(page, "Across the monthly reports"),
        ),
        "transmission": ("transmission", None),
        "generation": ("generation", None),
        "grid_operations": ("grid_operations", None),
        "market_facts": ("market_facts", None),
        "evidence_search": ("evidence_search?q=transmission", None),
        "dockets": ("dockets", None),
        "data_quality": ("data_quality", None),
        "portfolio": ("portfolio", None),
        "reviews": ("reviews", None),
    }


def changed_in_reports(client: GridDataClient, project_id: str) -> bool:
    """Whether the monthly reports list the project and something of it changed in them."""
    try:
        return bool(client.queue_history.project_timeline(project_id).changes)
    except NotFoundError:
        return False


# the report's page at the resolution a reader zooms a PDF to on screen (about 100 dpi)
REPORT_SCALE = 1.4


def save_report_page(client: GridDataClient, assessment_id: str, site_id: str) -> Path:
    """Render page 1 of the site's report to docs/screenshots/report-page1.png."""
    pdf = report_pdf(client.assessments.get(assessment_id), client.sites.get(site_id))
    first = pypdfium2.PdfDocument(pdf)[0]
    path = OUT / "report-page1.png"
    first.render(scale=REPORT_SCALE).to_pil().save(path)
    return path


def main(wanted: list[str], widths: list[int]) -> int:
    if not CHROMIUM.exists():
        print(INSTALL_HINT, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        db_path = Path(folder) / "demo.db"
        service = start_in_thread(Settings(db_path=db_path, demo=True))
        with GridDataClient(base_url=service.base_url, token="gds_demo_alpha") as client:
            latitude, longitude = DEMO_POINTS["dual_certified"]
            site = client.sites.create(
                {
                    "location": {"latitude": latitude, "longitude": longitude},
                    "requestedPeakLoadMw": 250.0,
                    "customerReference": "Demo campus, San Marcos",
                },
                idempotency_key="screenshots-site",
            )
            assessment_id = client.assessments.create(site.id, idempotency_key="screenshots").id
            hays = [r for r in client.queue_records.list(limit=500) if r.county == "Hays"]
            record_id = hays[0].id if hays else ""
            history_record_id = next(
                (r.id for r in hays if r.record_key and changed_in_reports(client, r.record_key)),
                record_id,
            )
            if not wanted or "report" in wanted:
                print(save_report_page(client, assessment_id, site.id))
        app = start_streamlit({"GRIDSERVICE_DB": str(db_path)}, Path(folder) / "streamlit.log")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                for width in widths:
                    window, folder = WINDOWS[width]
                    for name, (path, prepare) in pages(
                        assessment_id, record_id, history_record_id
                    ).items():
                        if wanted and name not in wanted:
                            continue
                        context = browser.new_context(viewport=window)
                        context.add_init_script(NO_SAVE_PICKER)
                        page = context.new_page()
                        open_page(page, app.url, path)
                        if prepare:
                            prepare(page)
                        # every element drawn (none left in a placeholder while its code
                        # loads), then maps and charts finish drawing
                        page.wait_for_selector(PLACEHOLDER, state="detached", timeout=60_000)
                        page.wait_for_timeout(2500)
                        print(screenshot(page, name, whole_page=False, folder=folder))
                        context.close()
                browser.close()
        finally:
            app.stop()
            service.stop()
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="page names (default: every page)")
    parser.add_argument(
        "--width", type=int, action="append", choices=sorted(WINDOWS), dest="widths",
        help="window width; repeat for several (default: 1280 and 1920)",
    )  # fmt: skip
    arguments = parser.parse_args()
    sys.exit(main(arguments.pages, arguments.widths or sorted(WINDOWS)))
