"""The pages the walk's small defects changed, in Russian at 390 px in Debian's chromium: the
tournament list and page (published before its start), a player's edit page (every error at
once, then saved with the audit's note), the tournament form's errors at once, the outbox's
dates with their zone, and the dashboard's refusal of an unknown filter in Russian. Nothing
scrolls sideways."""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.models import AuditEntry, Participant, Tournament, TournamentChannel

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("CORRMAIL_SHOTS")  # a directory: keep a screenshot of each page


def _fits(page: object, name: str) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, (name, width)


def test_the_changed_pages_in_russian_on_a_phone(
    live_server: str, browser_page: object, database: Database,
    make_tournament: Callable[..., Tournament],
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    later = dt.date.today() + dt.timedelta(days=30)
    soon = make_tournament(players=3, code="СКОРО-1", channel=TournamentChannel.MIXED,
                           start_date=later, end_date=later + dt.timedelta(days=365))
    page.goto(f"{live_server}/login")
    page.fill("input[name=login]", "director")
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("html")).to_have_attribute("lang", "ru")

    page.goto(f"{live_server}/tournaments/")
    starts = f"опубликован, начинается {later:%d.%m.%Y}"
    expect(page.get_by_role("row", name="СКОРО-1")).to_contain_text(starts)
    _fits(page, "list")
    page.goto(f"{live_server}/tournaments/СКОРО-1")
    expect(page.locator("dl")).to_contain_text(starts)
    _fits(page, "tournament")

    # A player's details: every error at once, then saved.
    page.get_by_role("link", name="изменить", exact=True).nth(1).click()
    expect(page.get_by_text("Стартовый номер 2.")).to_be_visible()
    expect(page.get_by_role("heading", name="Данные игрока")).to_be_visible()
    page.fill("input[name=name]", "")
    page.fill("input[name=email]", "kuz@")
    page.fill("textarea[name=postal_address]", "")
    page.select_option("select[name=channel]", "post")
    page.get_by_role("button", name="Сохранить").click()
    errors = page.locator("small.error")
    expect(errors).to_have_count(3)
    expect(errors.nth(1)).to_have_text("kuz@ — не адрес эл. почты")
    expect(errors.nth(2)).to_have_text("игроку по почте нужен почтовый адрес (002 §4.3.2)")
    _fits(page, "player-errors")
    page.fill("input[name=name]", "Кузнецов Олег")
    page.fill("input[name=email]", "kuz@example.org")
    page.fill("textarea[name=postal_address]", "Тула, ул. Мира 1")
    page.get_by_role("button", name="Сохранить").click()
    expect(page.get_by_text("Данные игрока Кузнецов Олег сохранены.")).to_be_visible()
    with database.session() as session:
        entry = session.scalars(select(AuditEntry).where(
            AuditEntry.action == "participant.update")).one()
        assert entry.tournament_id == soon.id
        changed = session.get(Participant, entry.entity_id)
        assert changed is not None and changed.player.postal_address == "Тула, ул. Мира 1"

    # The tournament form: the code taken and the dates' order with the empty title.
    page.goto(f"{live_server}/tournaments/new")
    page.fill("input[name=code]", DEMO_CODE)
    page.fill("input[name=start_date]", "2027-01-10")
    page.fill("input[name=end_date]", "2026-01-10")
    page.get_by_role("button", name="Сохранить").click()
    errors = page.locator("small.error")
    expect(errors.filter(has_text="уже занят")).to_have_count(1)
    expect(errors.filter(has_text="Обязательное поле.")).to_have_count(1)
    expect(errors.filter(has_text="окончание игры должно быть позже начала")).to_have_count(1)
    _fits(page, "tournament-errors")

    page.goto(f"{live_server}/admin/outbox")
    first = page.locator("table tbody tr").first.locator("td").nth(1)
    # Every moment on the federation's clock, the zone named once, in the column's header.
    expect(first).to_have_text(re.compile(r"^\d\d\.\d\d\.\d{4} \d\d:\d\d$"))
    expect(page.locator("#created-zone")).to_have_text("Создано (Europe/Moscow)")
    _fits(page, "outbox")

    page.goto(f"{live_server}/dashboard/{DEMO_CODE}?filter=bogus")
    expect(page.get_by_text("На панели нет фильтра «bogus»")).to_be_visible()
    _fits(page, "dashboard-error")
