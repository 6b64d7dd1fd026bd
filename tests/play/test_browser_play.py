"""Players on the web, in a real browser (Debian's chromium, headless, via Playwright): a player
logs in to his games, moves on the board by clicks, picks a capture's route, builds a
conditional variant the server later applies, offers a draw his partner accepts; the partner
by e-mail gets the relay letter; the time chart shows web letters like the others; a phone's
390 px are enough."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from flask import Flask

from corrmail.play.web_moves import square_centres
from notation.game_position import initial_position
from notation.rules import GameType
from tests.browser.fixtures import browser_page, chromium, db_url, serving
from tests.play.conftest import PASSWORD, START, WebGame

__all__ = ["browser_page", "chromium", "db_url"]

pytestmark = pytest.mark.browser

D = START + dt.timedelta(days=2)
CENTRES = square_centres(initial_position(GameType.RUSSIAN))
#: Ten plies after which White's capture from h4 to f6 has two routes.
ROUTES_OPENING = ["a3-b4", "b6-c5", "b2-a3", "f6-g5", "g3-h4", "e7-f6", "h2-g3", "d8-e7",
                  "c1-b2", "f6-e5"]


@pytest.fixture
def server(app: Flask, web_game: WebGame) -> Iterator[str]:
    with serving(app) as url:
        yield url


def _page(browser_page: object) -> object:
    from playwright.sync_api import Page

    assert isinstance(browser_page, Page)
    return browser_page


def _log_in(page: object, server: str, login: str, locale: str = "ru") -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    page.goto(f"{server}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    if locale != "ru":
        page.locator(f"header form.locale button[value={locale}]").click()


def _click_square(page: object, name: str) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    x, y = CENTRES[name]
    board = page.locator("#play-board svg")
    box = board.bounding_box()
    assert box is not None
    scale = box["width"] / 360  # the diagram's user units: 8 squares of 40 and two margins
    board.click(position={"x": x * scale, "y": y * scale})


def _board_ready(page: object, after: str = "") -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    expect(page.locator("#play-board[data-ready='1']")).to_have_count(1)
    expect(page.locator("#play-board")).to_have_attribute("data-after", after)


def test_a_player_logs_in_sees_his_games_and_moves_by_clicks(
        server: str, browser_page: object, web_game: WebGame) -> None:
    from playwright.sync_api import Page, expect

    page = _page(browser_page)
    assert isinstance(page, Page)
    _log_in(page, server, "white")
    assert page.url.endswith("/me")
    row = page.locator(f"tr[data-game='{web_game.game_id}']")
    expect(row).to_contain_text("ваш ход")
    row.locator("a.open-game").click()
    _board_ready(page)
    _click_square(page, "c3")
    expect(page.locator("#play-board .mark.dest")).to_have_count(2)  # b4 and d4
    _click_square(page, "d4")
    expect(page.locator("#move-input")).to_have_value("c3-d4")
    page.click("#preview-button")
    expect(page.locator("#preview-move")).to_have_text("c3-d4")
    expect(page.locator("dl.letter-preview")).to_contain_text("03.09.2026")
    assert web_game.letters() == []
    page.click("#confirm-button")
    expect(page.locator(".flash.info")).to_be_visible()
    assert web_game.letters() == [("white", "web", "c3-d4")]
    relay = web_game.outbox(to=web_game.black_email, kind="move")
    assert len(relay) == 1  # the partner plays by e-mail: the move goes to him at once


def test_a_capture_with_two_routes_asks_which(server: str, browser_page: object,
                                              web_game: WebGame) -> None:
    from playwright.sync_api import Page, expect

    day = D
    for index, move in enumerate(ROUTES_OPENING):
        assert web_game.play("white" if index % 2 == 0 else "black", move, day) == "move_relayed"
        day += dt.timedelta(days=1)
    web_game.on(day)
    page = _page(browser_page)
    assert isinstance(page, Page)
    _log_in(page, server, "white", locale="en")
    page.goto(f"{server}/games/{web_game.game_id}")
    _board_ready(page)
    _click_square(page, "h4")
    _click_square(page, "f6")
    routes = page.locator("#route-choice button.route")
    expect(routes).to_have_count(2)
    chosen = routes.nth(1).inner_text()
    assert chosen.startswith("h4:f6:") and chosen.endswith(":f6")
    routes.nth(1).click()
    expect(page.locator("#move-input")).to_have_value(chosen)
    page.click("#preview-button")
    expect(page.locator("#preview-move")).to_have_text(chosen)
    page.click("#confirm-button")
    expect(page.locator(".flash.info")).to_be_visible()
    assert web_game.plies()[-1] == chosen


def test_a_variant_built_on_the_board_is_applied_when_the_email_partner_plays_it(
        server: str, browser_page: object, web_game: WebGame) -> None:
    from playwright.sync_api import Page, expect

    page = _page(browser_page)
    assert isinstance(page, Page)
    _log_in(page, server, "white", locale="en")
    page.goto(f"{server}/games/{web_game.game_id}")
    _board_ready(page)
    _click_square(page, "c3")
    _click_square(page, "d4")
    page.click("#variant-start")
    _board_ready(page, "c3-d4")  # the position after his move, the partner to move
    _click_square(page, "f6")
    _click_square(page, "g5")
    _board_ready(page, "c3-d4 f6-g5")
    _click_square(page, "g3")
    _click_square(page, "h4")
    _board_ready(page, "c3-d4 f6-g5 g3-h4")
    page.click("#variant-add")
    expect(page.locator("#variants-input")).to_have_value("вариант А: если f6-g5, то g3-h4")
    page.click("#preview-button")
    expect(page.locator(".variant")).to_have_text("«А: если 1... f6-g5, то 2. g3-h4»")
    page.click("#confirm-button")
    expect(page.locator(".flash.info")).to_be_visible()
    # Black plays by e-mail; his move matches the variant: White's reply follows (002 §4.2.13).
    receipt = web_game.email("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=3))
    assert receipt.outcome == "move_relayed"
    assert web_game.plies() == ["c3-d4", "f6-g5", "g3-h4"]
    # The time chart and the archive show the web letters beside the e-mail one.
    page.goto(f"{server}/games/{web_game.game_id}")
    expect(page.locator("table.time-chart tbody tr")).to_have_count(3)
    channels = page.locator("table.letters tbody tr:not(.raw) td:nth-child(3)").all_inner_texts()
    assert channels == ["web", "e-mail", "web"]


def test_a_draw_offered_on_the_web_is_accepted_by_the_partner(
        server: str, browser_page: object, web_game: WebGame) -> None:
    from playwright.sync_api import Page, expect

    page = _page(browser_page)
    assert isinstance(page, Page)
    _log_in(page, server, "white")
    page.goto(f"{server}/games/{web_game.game_id}")
    page.fill("#move-input", "c3-d4")
    page.check("input[name=draw_offer]")
    page.click("#preview-button")
    expect(page.locator("pre.letter-text")).to_contain_text("Предлагаю ничью.")
    page.click("#confirm-button")
    expect(page.locator(".flash.info")).to_be_visible()
    page.context.clear_cookies()
    _log_in(page, server, "black")
    page.goto(f"{server}/games/{web_game.game_id}")
    page.check("input[name=draw_accept]")
    page.click("#preview-button")
    expect(page.locator("pre.letter-text")).to_contain_text("Принимаю ничью.")
    page.click("#confirm-button")
    expect(page.locator(".flash.info")).to_be_visible()
    assert web_game.state() == ("finished", "draw")
    assert web_game.outbox(to=web_game.white_email, kind="game_over")


def test_a_phone_is_wide_enough_and_a_forbidden_page_leads_back(
        server: str, browser_page: object, web_game: WebGame, other_game_id: int) -> None:
    from playwright.sync_api import Page, expect

    page = _page(browser_page)
    assert isinstance(page, Page)
    page.set_viewport_size({"width": 390, "height": 844})
    _log_in(page, server, "white")
    for path in ("/me", f"/games/{web_game.game_id}"):
        page.goto(f"{server}{path}")
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= 390, (path, overflow)
    _board_ready(page)
    _click_square(page, "c3")
    _click_square(page, "d4")
    expect(page.locator("#move-input")).to_have_value("c3-d4")
    response = page.goto(f"{server}/games/{other_game_id}")
    assert response is not None and response.status == 403
    expect(page.locator("h1")).to_have_text("Эта страница вам недоступна")
    page.click("#way-back")
    assert page.url.endswith("/me")
