"""A real browser (Debian's chromium through Playwright): the demo's steward schedules a monthly
bulletin and previews it; the printable view shows the Cyrillic names and the diagrams of the
finished games. A screenshot and a PDF of the print view are kept under ``test-artifacts/``.

The server, the browser and the SQLite-only database are the fixtures of
``tests/corrmail/test_browser.py``, loaded from that file rather than copied.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.models import Tournament
from corrmail.models.bulletins import BulletinSchedule
from corrmail.paths import CHECKOUT_DIR

_SPEC = importlib.util.spec_from_file_location(
    "corrmail_browser_fixtures_bulletins",
    Path(__file__).parents[1] / "corrmail" / "test_browser.py",
)
assert _SPEC is not None and _SPEC.loader is not None
_FIXTURES = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_FIXTURES)
db_url = _FIXTURES.db_url
live_server = _FIXTURES.live_server
browser_page = _FIXTURES.browser_page
chromium = _FIXTURES.chromium  # browser_page's one browser per session

pytestmark = pytest.mark.browser
ARTIFACTS = CHECKOUT_DIR / "test-artifacts"


def test_steward_schedules_and_previews_a_printable_bulletin(
    database: Database, live_server: str, browser_page: object
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.goto(f"{live_server}/login")
    page.locator("input[name=login]").fill("steward")
    page.locator("input[name=password]").fill(DEMO_PASSWORD)
    page.locator("form button[type=submit]").last.click()

    page.goto(f"{live_server}/")
    page.locator("header nav a[href='/bulletins/']").click()
    page.get_by_role("link", name=DEMO_CODE, exact=False).click()

    form = page.locator("#schedule-form")
    form.locator("input[name=every]").fill("1")
    form.locator("select[name=unit]").select_option("month")
    form.locator("input[name=next_on]").fill("2026-12-01")
    form.locator("button[type=submit]").click()
    expect(page.locator("#schedule-now")).to_contain_text("01.12.2026")
    with database.session() as session:
        tournament = session.query(Tournament).filter_by(code=DEMO_CODE).one()
        schedule = session.get(BulletinSchedule, tournament.id)
        assert schedule is not None and schedule.next_on.isoformat() == "2026-12-01"

    preview = page.locator("#preview-form")
    preview.locator("input[name=as_of]").fill("2026-12-01")
    preview.locator("button[type=submit]").click()
    expect(page.locator("h1")).to_contain_text(DEMO_CODE)
    expect(page.locator("table.standings")).to_contain_text("Смирнова Анна Викторовна")
    diagrams = page.locator("section.game svg")
    expect(diagrams.first).to_be_visible()
    assert diagrams.count() == 2  # the demo's two finished games
    # The diagram is drawn, not an empty box: it has its squares and pieces.
    assert page.locator("section.game svg rect").count() >= 64
    # Cyrillic renders in a real font: the name takes more width than a row of missing glyphs.
    width = page.locator("table.standings td", has_text="Смирнова").first.evaluate(
        "cell => cell.getBoundingClientRect().width")
    assert width > 100

    page.emulate_media(media="print")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "bulletin-print.png"), full_page=True)
    page.pdf(path=str(ARTIFACTS / "bulletin-print.pdf"), format="A4")
    assert (ARTIFACTS / "bulletin-print.pdf").stat().st_size > 10_000


def test_steward_issues_his_report_to_the_referee_in_russian(
    database: Database, live_server: str, browser_page: object
) -> None:
    """002 §4.1.8: the steward reports to the referee; the page, the printable report and the
    sending log read in Russian, and the report goes to the referee alone."""
    from playwright.sync_api import Page, expect

    from corrmail.models.bulletins import BulletinDelivery, BulletinIssue, BulletinKind

    assert isinstance(browser_page, Page)
    page = browser_page
    page.goto(f"{live_server}/login")
    page.locator("input[name=login]").fill("steward")
    page.locator("input[name=password]").fill(DEMO_PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.goto(f"{live_server}/bulletins/{DEMO_CODE}")
    assert page.locator("html").get_attribute("lang") == "ru"

    section = page.locator("#steward-report")
    expect(section.locator("h2")).to_contain_text("Отчёт старосты судье (002 §4.1.8)")
    form = page.locator("#steward-report-form")
    form.locator("input[name=as_of]").fill("2026-12-01")
    form.locator("button[type=submit]").click()
    expect(page.locator("h1")).to_contain_text("Отчёт старосты судье 1")
    with database.session() as session:
        tournament = session.query(Tournament).filter_by(code=DEMO_CODE).one()
        referees = [o.user.display_name for o in tournament.officials if o.role.value == "referee"]
        row = session.query(BulletinIssue).filter_by(
            tournament_id=tournament.id, kind=BulletinKind.STEWARD_REPORT).one()
        deliveries = session.query(BulletinDelivery).filter_by(issue_id=row.id).all()
        # The referee alone, by e-mail or (without an address) by the steward's post.
        assert [d.name for d in deliveries] == referees and referees
        assert all(d.participant_id is None for d in deliveries)
    expect(page.locator("table.deliveries")).to_contain_text(referees[0])
    expect(page.get_by_role("link", name="Скачать")).to_be_visible()

    page.get_by_role("link", name="Для печати").click()
    expect(page.locator("h1")).to_contain_text("Отчёт старосты судье")
    course = page.locator("table.course")
    expect(course).to_contain_text("Смирнова Анна Викторовна")
    expect(page.locator("h2", has_text="Ход партий")).to_be_visible()
    expect(page.locator("h2", has_text="Задержки (002 §4.3.4)")).to_be_visible()
    body = page.locator("body").inner_text()
    for english in ("Course of the games", "Delays", "in_play", "steward_report", "Steward:"):
        assert english not in body, english
    page.emulate_media(media="print")
    ARTIFACTS.mkdir(exist_ok=True)
    page.pdf(path=str(ARTIFACTS / "steward-report-print.pdf"), format="A4")
    assert (ARTIFACTS / "steward-report-print.pdf").stat().st_size > 10_000
