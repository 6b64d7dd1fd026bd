"""The directors' dashboard of a large tournament in a real browser: the director
pages through every game, changes the page size with the form, and follows an attention count.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.federation import FederationSpec, generate_federation
from corrmail.demo.tournament import DEMO_PASSWORD
from corrmail.models import Tournament

pytestmark = pytest.mark.browser


def test_director_pages_through_every_game(
    live_server: str, browser_page: object, database: Database
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    # A double round robin of 12: 132 games, more than the 100 of a page. Started long ago, so
    # every letter is in the past and the unfinished games' repeats are overdue (002 §4.3.4).
    generate_federation(database, FederationSpec(
        players=12, tournaments=1, players_per_tournament=12, start=dt.date(2024, 1, 8)))
    with database.session() as session:
        code = session.scalars(
            select(Tournament.code).where(Tournament.code.like("FED-%"))).one()
    page.goto(f"{live_server}/login")
    page.fill("input[name=login]", "director")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    page.locator("header form.locale button[value=en]").click()
    # the switch is a form post: the next goto must not cut it short
    expect(page.locator("html")).to_have_attribute("lang", "en")

    page.goto(f"{live_server}/dashboard/{code}")
    rows = page.locator("table.dashboard tbody tr")
    expect(rows).to_have_count(100)
    expect(page.locator("main")).to_contain_text("page 1 of 2, games 1–100")
    first = set(rows.locator("td:first-child a").evaluate_all("links => links.map(a => a.href)"))
    page.locator("nav.pager").first.get_by_role("link", name="2", exact=True).click()
    expect(rows).to_have_count(32)
    expect(page.locator("main")).to_contain_text("page 2 of 2, games 101–132")
    second = set(rows.locator("td:first-child a").evaluate_all("links => links.map(a => a.href)"))
    assert len(first | second) == 132 and not first & second

    page.select_option("select[name=per_page]", "all")
    page.get_by_role("button", name="Show").click()
    expect(rows).to_have_count(132)
    expect(page.locator("nav.pager")).to_have_count(0)

    overdue = page.locator("p.attention a", has_text="repeat overdue")
    count = int(re.findall(r"\d+", overdue.inner_text())[-1])
    assert 0 < count < 132
    overdue.click()
    expect(page.locator("select[name=filter]")).to_have_value("repeat_overdue")
    expect(rows).to_have_count(count)
