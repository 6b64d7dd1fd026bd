"""Three officials' workflows in a real browser (Debian's chromium, headless, via Playwright).

The director sets a tournament up and imports its players from a Windows-1251 CSV; the steward
checks a postcard written in short notation and sees the rule it breaks; the referee reads the
time-chart plot of a game. The demo tournament and its logins are loaded (`corrmail demo`).
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.games.ledger import to_move
from corrmail.models import Game, GameState, Tournament

pytestmark = pytest.mark.browser


def _log_in(page: object, server: str, login: str) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    page.goto(f"{server}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    page.locator("header form.locale button[value=en]").click()  # English labels from here
    # the switch is a form post: the next goto must not cut it short
    expect(page.locator("html")).to_have_attribute("lang", "en")


def _game_in_play(database: Database) -> tuple[int, int, str]:
    """A demo game in play: its id, the participant to move and the partner's last move."""
    with database.session() as session:
        game = session.scalars(
            select(Game).join(Tournament).where(
                Tournament.code == DEMO_CODE, Game.state == GameState.IN_PLAY
            ).order_by(Game.id)
        ).first()
        assert game is not None
        mover = to_move(game)
        assert mover is not None
        return game.id, mover.id, game.letters[-1].moves_text


def test_director_creates_a_tournament_and_imports_players(
    live_server: str, browser_page: object
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    _log_in(page, live_server, "director")
    page.goto(f"{live_server}/tournaments/new")
    page.fill("input[name=code]", "КР-27")
    page.fill("input[name=title]", "Кубок федерации 2027")
    page.fill("input[name=start_date]", "2027-01-10")
    page.fill("input[name=end_date]", "2028-01-10")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="КР-27 — Кубок федерации 2027")).to_be_visible()

    page.get_by_role("link", name="Import players").click()
    broken = "ФИО;Рейтинг\nПетров Иван;много\n".encode("cp1251")
    page.set_input_files("input[name=file]", {"name": "bad.csv", "mimeType": "text/csv",
                                              "buffer": broken})
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("alert").filter(has_text="много")).to_be_visible()

    good = ("ФИО;Эл почта;Почтовый адрес;Рейтинг;Клуб\n"
            "Петров Иван;petrov@example.org;Казань, ул. Баумана, 1;2210;Казань\n"
            "Сидорова Анна;anna@example.org;Уфа, ул. Ленина, 2;2150;Уфа\n").encode("cp1251")
    page.set_input_files("input[name=file]", {"name": "players.csv", "mimeType": "text/csv",
                                              "buffer": good})
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("heading", name="КР-27 — Кубок федерации 2027")).to_be_visible()
    expect(page.get_by_role("cell", name="Петров Иван")).to_be_visible()
    expect(page.get_by_role("cell", name="Сидорова Анна")).to_be_visible()


def test_steward_checks_a_postcard_in_short_notation_and_sees_the_rule(
    live_server: str, browser_page: object, database: Database
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    game_id, mover, partner_move = _game_in_play(database)
    _log_in(page, live_server, "steward")
    page.goto(f"{live_server}/games/{game_id}/postcards/new")
    page.select_option("select[name=sender]", str(mover))
    page.fill("input[name=moves_text]", f"{partner_move} cd4")  # the reply in short notation
    page.fill("input[name=sent]", "01.11.26")
    page.get_by_role("button", name="Check").click()
    finding = page.locator("section.postcard-check")
    expect(finding).to_contain_text("002 §4.2.2")
    expect(finding).to_contain_text("short notation")


def test_referee_reads_the_time_chart_plot(
    live_server: str, browser_page: object, database: Database
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    game_id, _, _ = _game_in_play(database)
    _log_in(page, live_server, "referee")
    page.goto(f"{live_server}/games/{game_id}")
    plot = page.locator("svg.chart-plot")
    expect(plot).to_be_visible()
    expect(plot.locator("title").first).to_have_text("Days used against the limit")
    for line in ("limit", "white", "black"):
        points = plot.locator(f"polyline.{line}").get_attribute("points") or ""
        assert len(points.split()) >= 2, line
    box = plot.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 50
    white_points = plot.locator("circle").count()
    assert white_points >= 1
    expect(page.locator("table.time-chart tbody tr").first).to_be_visible()
