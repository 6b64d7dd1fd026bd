"""A real browser (Debian's chromium via Playwright) logs in with the demo login and sees the demo."""

from __future__ import annotations

import pytest

from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from tests.browser.fixtures import browser_page, chromium, db_url, live_server

__all__ = ["browser_page", "chromium", "db_url", "live_server"]

pytestmark = pytest.mark.browser


def test_demo_login_shows_the_demo_tournament(live_server: str, browser_page: object) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.goto(f"{live_server}/")
    expect(page.get_by_role("heading", name="Войти")).to_be_visible()
    page.get_by_label("Логин").fill("director")
    page.get_by_label("Пароль").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_role("heading", name="Турниры")).to_be_visible()
    page.get_by_role("link", name=DEMO_CODE).click()
    expect(page.get_by_role("heading", name=f"{DEMO_CODE} — ", exact=False)).to_be_visible()
    expect(page.locator("tr[data-game]")).to_have_count(15)
    expect(page.get_by_role("cell", name="Иванов Пётр Сергеевич").first).to_be_visible()
    page.get_by_role("button", name="EN").click()
    expect(page.get_by_role("heading", name="Players")).to_be_visible()
