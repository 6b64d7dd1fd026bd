"""What the organizer's and the steward's walk from an empty database found in a real browser
(Debian's chromium, headless, via Playwright): pages that must work under the site's
Content-Security-Policy and fit a phone (390 px)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Flask

from corrmail.models import Role, Tournament, TournamentStatus
from tests.browser.fixtures import browser_page, chromium, db_url, serving
from tests.conftest import TEST_PASSWORD

__all__ = ["browser_page", "chromium", "db_url"]

pytestmark = pytest.mark.browser


@pytest.fixture
def server(app: Flask) -> Iterator[str]:
    """The app on an empty (migrated) database behind a real server: no demo."""
    with serving(app) as url:
        yield url


def _log_in(page, server: str, login: str) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page.goto(f"{server}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", TEST_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()


def test_the_printed_start_sheet_prints_and_fits_a_phone(
    server: str, browser_page: object, make_user: Callable[..., object],
    make_tournament: Callable[..., Tournament],
) -> None:
    """The steward opens a postal player's sheet on his phone and presses «Печать»: the print
    dialog opens (an inline onclick was refused by the policy, the button did nothing)."""
    from playwright.sync_api import Page

    assert isinstance(browser_page, Page)
    page = browser_page
    make_user("director", Role.ORGANIZER)
    tournament = make_tournament(players=3, code="ПЧ-1", status=TournamentStatus.RUNNING)
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.add_init_script("window.print = () => { window.__printed = true; };")
    page.set_viewport_size({"width": 390, "height": 844})
    _log_in(page, server, "director")
    page.goto(f"{server}/tournaments/{tournament.code}/start-sheets/mailing")
    page.locator("tr[data-channel=post]").first.get_by_role("link", name="Печать (A4)").click()
    page.get_by_role("button", name="Печать").click()
    assert page.evaluate("window.__printed === true"), refused
    assert not refused
    assert page.evaluate("document.documentElement.scrollWidth") == 390


@pytest.mark.parametrize("path", ["/bulletins/{code}/preview?as_of=2026-09-20&kind=bulletin",
                                  "/tournaments/{code}/crosstable/print",
                                  "/tournaments/{code}/teams"])
def test_printable_pages_fit_a_phone(
    server: str, browser_page: object, make_user: Callable[..., object],
    make_tournament: Callable[..., Tournament], path: str,
) -> None:
    """The steward previews a bulletin (and the crosstable) on his phone: the wide standings
    table scrolls inside itself; the page is not wider than the screen. The teams form's
    60-column text box fits it too."""
    from playwright.sync_api import Page

    assert isinstance(browser_page, Page)
    page = browser_page
    make_user("director", Role.ORGANIZER)
    tournament = make_tournament(players=6, code="ПЧ-2", status=TournamentStatus.RUNNING)
    page.set_viewport_size({"width": 390, "height": 844})
    _log_in(page, server, "director")
    response = page.goto(server + path.format(code=tournament.code))
    assert response is not None and response.ok
    assert page.evaluate("document.documentElement.scrollWidth") == 390
