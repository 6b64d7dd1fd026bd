"""The referee's pages on a phone (390 px), in Russian: the case queue, a case, the form that
opens one. Nothing may push the page sideways — not a select as wide as its longest game, not a
case's long key."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.models import Case

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def _referee_on_a_phone(page, live_server: str) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server}/login")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()


def test_the_referees_pages_fit_a_phone(live_server: str, browser_page: object,
                                       database: Database) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    _referee_on_a_phone(page, live_server)
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    with database.session() as session:
        case_id = session.scalars(select(Case.id).order_by(Case.id)).first()
    assert case_id is not None
    for path in ("/cases/", f"/cases/{case_id}", f"/cases/new/{DEMO_CODE}"):
        page.goto(f"{live_server}{path}")
        expect(page.locator("main h1")).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (path, width)
    # The games are still all there to choose from, whole.
    options = page.locator("#overstep-game option")
    assert options.count() > 1
    assert "—" in options.nth(1).inner_text()


def test_the_printable_papers_fit_a_phone_screen(live_server: str, browser_page: object) -> None:
    """The final report, a bulletin and the printable crosstable are read on a phone before
    they are printed: their wide tables scroll by themselves, the page does not."""
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    _referee_on_a_phone(page, live_server)
    for path in (f"/bulletins/{DEMO_CODE}/preview?as_of=2026-12-01&kind=final_report",
                 f"/bulletins/{DEMO_CODE}/preview?as_of=2026-12-01&kind=bulletin",
                 f"/tournaments/{DEMO_CODE}/crosstable/print"):
        page.goto(f"{live_server}{path}")
        expect(page.locator("h1")).to_be_visible()
        expect(page.locator("table").first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (path, width)
