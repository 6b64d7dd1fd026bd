"""The break preview in a real browser (Debian's chromium, headless, via Playwright), on a fresh
database holding only the tournament of two players: a backdated break (002 §4.4.2) is shown
counted from the day it is announced, in Russian and in English, and the confirmed break is
stored as the preview said."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from flask import Flask
from sqlalchemy import select

from corrmail.models import Break
from tests.browser.fixtures import browser_page, chromium, db_url, serving
from tests.play.conftest import PASSWORD, START, WebGame

__all__ = ["browser_page", "chromium", "db_url"]

pytestmark = pytest.mark.browser

TODAY = START + dt.timedelta(days=2)  # 03.09.2026


@pytest.fixture
def server(app: Flask, web_game: WebGame) -> Iterator[str]:
    with serving(app) as url:
        yield url


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_a_backdated_break_is_previewed_counted_from_today_and_stored_so(
        server: str, browser_page: object, web_game: WebGame, locale: str) -> None:
    from playwright.sync_api import Page, expect

    page = browser_page
    assert isinstance(page, Page)
    page.goto(f"{server}/login")
    page.fill("input[name=login]", "black")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    if locale != "ru":
        page.locator(f"header form.locale button[value={locale}]").click()
    page.goto(f"{server}/games/{web_game.game_id}")
    page.locator("#play details.notices summary").click()
    page.fill("#play input[name=break_first]", "2026-08-25")
    page.fill("#play input[name=break_last]", "2026-09-10")
    page.click("#preview-button")
    counted = page.locator("#preview-break-counted")
    uncounted = page.locator("#preview-break-uncounted")
    if locale == "ru":
        expect(counted).to_contain_text("Засчитывается: 8 дн., с 03.09.2026 по 10.09.2026")
        expect(uncounted).to_contain_text("дни с 25.08.2026 по 02.09.2026, до объявления, — "
                                          "обычные дни игры")
        expect(page.locator("#preview-break")).to_contain_text(
            "он засчитывается только с сегодняшнего дня, 03.09.2026")
    else:
        expect(counted).to_contain_text("Counted: 8 days, from 03.09.2026 to 10.09.2026")
        expect(uncounted).to_contain_text("the days from 25.08.2026 to 02.09.2026, before the "
                                          "announcement, are ordinary days of play")
        expect(page.locator("#preview-break")).to_contain_text(
            "it counts only from today, 03.09.2026")
    expect(page.locator("pre.letter-text")).to_contain_text(
        "Беру перерыв с 25.08.2026 по 10.09.2026.")
    with web_game.database.session() as session:
        assert session.scalars(select(Break)).all() == []  # the preview stored nothing
    page.click("#confirm-button")
    expect(page.locator("#preview-break")).to_have_count(0)
    with web_game.database.session() as session:
        assert [(row.start_date, row.end_date, row.announced_on)
                for row in session.scalars(select(Break))] == [
            (dt.date(2026, 8, 25), dt.date(2026, 9, 10), TODAY)]
