"""The reset link in a real browser: its token rides in the fragment, which the server never
sees; the page's script hands it to the claim and the address bar ends token-less."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import OutboxMessage, Role, User

pytestmark = pytest.mark.browser

NEW = "a brand new passphrase"


def test_the_link_from_the_letter_sets_a_new_password(
    live_server: str, browser_page: object, make_user: Callable[..., User], database: Database,
) -> None:
    from playwright.sync_api import Page, expect

    page = browser_page
    assert isinstance(page, Page)
    make_user("resetter", Role.REFEREE)
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    page.goto(f"{live_server}/password/forgot")
    page.fill("input[name=login]", "resetter")
    page.click("main button[type=submit]")
    with database.session() as session:
        body = session.scalars(select(OutboxMessage.body_text).where(
            OutboxMessage.kind == "password_reset")).one()
    link = re.search(r"(http://\S+/password/reset#(\S+))", body)
    assert link, body
    page.goto(link.group(1))
    expect(page.locator("input[name=again]")).to_be_visible()
    assert page.url == f"{live_server}/password/reset"  # the token left the address bar
    assert all(link.group(2) not in url for url in seen)  # and never went to the server in a URL
    page.fill("input[name=password]", NEW)
    page.fill("input[name=again]", NEW)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server}/login")
    page.fill("input[name=login]", "resetter")
    page.fill("input[name=password]", NEW)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
