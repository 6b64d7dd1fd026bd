"""A player on a phone (390 px) and a desktop (1280 px), in Russian and English: his games are
cards he reads without scrolling sideways, wide tables scroll inside their own box and say so,
every button and link of a form is a 44 px tap target, and a refused move keeps the board."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import quote

import pytest
from flask import Flask

from tests.browser.fixtures import browser_page, chromium, db_url, serving
from tests.play.conftest import PASSWORD, WebGame

__all__ = ["browser_page", "chromium", "db_url"]

pytestmark = pytest.mark.browser

PHONE, DESKTOP = 390, 1280
TAP = 44
HINT = {"ru": "Таблица шире экрана: листайте её вбок",
        "en": "Wider than the screen: swipe the table sideways"}
LABELS = {"ru": ("Партнёр", "Цвет"), "en": ("Partner", "Colour")}


@pytest.fixture
def server(app: Flask, web_game: WebGame) -> Iterator[str]:
    with serving(app) as url:
        yield url


def _open(browser_page: object, server: str, width: int, locale: str) -> object:
    from playwright.sync_api import Page, expect

    page = browser_page
    assert isinstance(page, Page)
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(f"{server}/login")
    page.fill("input[name=login]", "white")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    page.locator(f"header form.locale button[value={locale}]").click()
    return page


def _page_width(page: object) -> int:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    return int(page.evaluate("document.documentElement.scrollWidth"))


def _short_targets(page: object, selector: str) -> list[str]:
    """The visible buttons and links under ``selector`` less than 44 px tall, by their text."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    return list(page.evaluate(
        """([selector, least]) => Array.from(document.querySelectorAll(selector))
             .filter(node => node.offsetParent !== null)
             .filter(node => node.getBoundingClientRect().height < least)
             .map(node => (node.textContent || node.value || node.outerHTML).trim())""",
        [selector, TAP]))


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_his_games_are_cards_on_a_phone_and_a_table_on_a_desktop(
    server: str, browser_page: object, web_game: WebGame, width: int, locale: str,
) -> None:
    from playwright.sync_api import Page, expect

    page = _open(browser_page, server, width, locale)
    assert isinstance(page, Page)
    page.goto(f"{server}/me")
    card = page.locator(f"tr[data-game='{web_game.game_id}']")
    expect(card).to_be_visible()
    assert _page_width(page) <= width, "nothing to scroll sideways"
    head = page.locator("table.my-games thead")
    partner, colour = LABELS[locale]
    if width == PHONE:
        expect(head).to_be_hidden()
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        label = card.locator(f"td[data-label='{partner}']").evaluate(
            "node => getComputedStyle(node, '::before').content")
        assert label == f'"{partner}: "'
        assert card.locator(f"td[data-label='{colour}']").is_visible()
        assert _short_targets(page, "main form button, main form a, td.open a") == []
    else:
        expect(head).to_be_visible()
        expect(head).to_contain_text(partner)


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_wide_tables_scroll_in_their_own_box_with_a_hint(
    server: str, browser_page: object, web_game: WebGame, width: int, locale: str,
) -> None:
    from playwright.sync_api import Page, expect

    page = _open(browser_page, server, width, locale)
    assert isinstance(page, Page)
    for path in (f"/games/{web_game.game_id}",
                 f"/tournaments/{quote(web_game.tournament_code)}/standings",
                 f"/tournaments/{quote(web_game.tournament_code)}"):
        page.goto(f"{server}{path}")
        box = page.locator("main .wide-table").first
        expect(box).to_be_visible()
        hint = box.locator(".scroll-hint")
        assert _page_width(page) <= width, path
        if width == PHONE:
            expect(hint).to_be_visible()
            expect(hint).to_contain_text(HINT[locale])
            fits = box.evaluate("node => node.scrollWidth <= node.clientWidth + 1")
            scrolls = box.evaluate("node => getComputedStyle(node).overflowX")
            assert scrolls == "auto" and (fits or box.evaluate("node => node.scrollWidth") > width)
        else:
            expect(hint).to_be_hidden()
    if width == PHONE:
        page.goto(f"{server}/games/{web_game.game_id}")
        assert _short_targets(page, "main form button, main form a") == []


@pytest.mark.parametrize("locale", ["ru", "en"])
@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_a_refused_move_keeps_the_board_beside_the_error(
    server: str, browser_page: object, web_game: WebGame, width: int, locale: str,
) -> None:
    from playwright.sync_api import Page, expect

    page = _open(browser_page, server, width, locale)
    assert isinstance(page, Page)
    page.goto(f"{server}/games/{web_game.game_id}")
    expect(page.locator("#play-board[data-ready='1']")).to_have_count(1)
    page.fill("#move-input", "c3-e5")
    page.click("#preview-button")
    expect(page.locator("#preview-problem")).to_contain_text("002 §4.2.10")
    expect(page.locator("#play-board svg")).to_be_visible()
    expect(page.locator("#play-board[data-ready='1']")).to_have_count(1)
    expect(page.locator("#move-input")).to_have_value("c3-e5")
    assert web_game.letters() == []
    svg = page.locator("#play-board svg").bounding_box()
    assert svg is not None and svg["x"] + svg["width"] <= width
    assert _page_width(page) <= width
    if width == PHONE:
        assert _short_targets(page, "main form button, main form a") == []
