"""A real browser (Debian's chromium through Playwright): the demo's referee opens the
adjudications at the end-of-play date and decides one case from the queue.

The server, the browser and the SQLite-only database are the fixtures of
``tests/corrmail/test_browser.py``, loaded from that file rather than copied.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib.util
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.models import Case, GameResult, ResultKind, Tournament

_SPEC = importlib.util.spec_from_file_location(
    "corrmail_browser_fixtures", Path(__file__).parents[1] / "corrmail" / "test_browser.py"
)
assert _SPEC is not None and _SPEC.loader is not None
_FIXTURES = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_FIXTURES)
db_url = _FIXTURES.db_url
live_server = _FIXTURES.live_server
browser_page = _FIXTURES.browser_page
chromium = _FIXTURES.chromium  # browser_page's one browser per session

pytestmark = pytest.mark.browser


def test_referee_decides_an_adjudication_case(
    app: Flask, database: Database, live_server: str, browser_page: object
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    with database.session() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == DEMO_CODE))
        assert tournament is not None
        end = tournament.end_date
    app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(
        app.config["CORRMAIL_SETTINGS"], today=end
    )
    page.goto(f"{live_server}/login")
    page.locator("input[name=login]").fill("referee")
    page.locator("input[name=password]").fill(DEMO_PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.goto(f"{live_server}/cases/")
    page.locator("form[action$='/adjudications'] button").click()
    expect(page.locator("table.queue tbody tr").first).to_be_visible()

    # Eleven days on, the analyses window has passed: the referee adjudicates.
    app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(
        app.config["CORRMAIL_SETTINGS"], today=end + dt.timedelta(days=11)
    )
    page.goto(f"{live_server}/cases/?awaiting=referee")
    first = page.locator("table.queue tbody tr").first
    case_id = int(first.get_attribute("data-case") or 0)
    first.locator("a").click()
    expect(page.locator("figure.board svg")).to_be_visible()  # the board from notation
    expect(page.locator("button[name=decide]")).to_be_visible()
    page.locator("select[name=ruling]").select_option("draw")
    page.locator("textarea[name=reasons]").fill("Равная позиция, ничья.")
    page.locator("button[name=decide]").click()
    expect(page.locator("#case-state")).to_have_attribute("data-state", "decided")
    expect(page.locator("#case-ruling")).to_have_attribute("data-ruling", "draw")
    expect(page.locator("#case-ruling")).to_have_text("ничья")  # the Russian UI

    with database.session() as session:
        row = session.get(Case, case_id)
        assert row is not None and row.game is not None
        assert (row.game.result, row.game.result_kind) == (GameResult.DRAW,
                                                           ResultKind.ADJUDICATED)
        assert row.payload["decisions"][0]["reasons"] == "Равная позиция, ничья."
