"""A referee walks one adjudication through the desk in a real browser: in Russian on a phone
(390 px) and in English on a desktop (1280 px). A decision without reasons is refused in the
reader's language (002 §4.5.5) and changes nothing; with reasons it stands, and the page then
lists each player's last day to protest (002 §4.5.6)."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from flask import Flask
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.models import Case, Tournament

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _today(app: Flask, day: dt.date) -> None:
    app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(
        app.config["CORRMAIL_SETTINGS"], today=day)


@pytest.mark.parametrize(("locale", "viewport", "refusal", "decided", "window"), [
    ("ru", PHONE, "присуждение должно быть обосновано", "ничья", "может подать протест до"),
    ("en", DESKTOP, "an adjudication gives the referee's reasons", "draw", "may protest until"),
])
def test_a_referee_decides_one_case_and_is_told_why_first(  # noqa: PLR0913
        app: Flask, database: Database, live_server: str, browser_page: object,
        locale: str, viewport: dict[str, int], refusal: str, decided: str,
        window: str) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    with database.session() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == DEMO_CODE))
        assert tournament is not None
        end = tournament.end_date
    _today(app, end)
    page.set_viewport_size(viewport)
    page.goto(f"{live_server}/login")
    page.fill("input[name=login]", "referee")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    page.locator(f"header form.locale button[value={locale}]").click()
    expect(page.locator("html")).to_have_attribute("lang", locale)
    page.goto(f"{live_server}/cases/")
    page.locator("form[action$='/adjudications'] button").click()
    expect(page.locator("table.queue tbody tr").first).to_be_visible()

    _today(app, end + dt.timedelta(days=11))  # the players' ten days have passed
    page.goto(f"{live_server}/cases/?awaiting=referee")
    first = page.locator("table.queue tbody tr").first
    case_id = int(first.get_attribute("data-case") or 0)
    first.locator("a").click()
    expect(page.locator("button[name=decide]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    # No reasons: refused, in the reader's language, and nothing decided.
    page.locator("select[name=ruling]").select_option("draw")
    page.locator("button[name=decide]").click()
    alert = page.locator("p.flash.error")
    expect(alert).to_contain_text(refusal)
    expect(alert).to_contain_text("002 §4.5.5")
    if locale == "ru":
        expect(alert).not_to_contain_text("reasons")
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    with database.session() as session:
        row = session.get(Case, case_id)
        assert row is not None and row.payload["decisions"] == []

    # With reasons the decision stands and the protest windows are listed.
    page.locator("select[name=ruling]").select_option("draw")
    page.locator("textarea[name=reasons]").fill("Равный материал, прохода нет.")
    page.locator("button[name=decide]").click()
    expect(page.locator("#case-state")).to_have_attribute("data-state", "decided")
    expect(page.locator("#case-ruling")).to_have_text(decided)
    windows = page.locator("#protest-windows li")
    expect(windows.first).to_be_visible()
    with database.session() as session:
        row = session.get(Case, case_id)
        assert row is not None
        assert row.payload["decisions"][0]["reasons"] == "Равный материал, прохода нет."
        submitted = len(row.payload.get("submissions", []))
    if submitted:
        expect(windows.first).to_contain_text(window)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
