"""A person learns his login where he needs it: the set-password page names it, the login form
after it shows it typed, in Russian and English, on a phone (390 px) and a desktop (1280 px)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import OutboxMessage, Role, User

pytestmark = pytest.mark.browser

NEW = "a brand new passphrase"
SAYS = {"ru": "Ваш логин: resetter2 — его и этот пароль вводите при входе.",
        "en": "Your login: resetter2 — type it at the login form with this password."}
SET = {"ru": "Пароль задан. Войдите под логином resetter2 с этим паролем.",
       "en": "Your password is set. Log in as resetter2 with it."}


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_set_password_page_names_the_login_and_the_login_form_has_it_typed(
    live_server: str, browser_page: object, make_user: Callable[..., User], database: Database,
    locale: str, width: int,
) -> None:
    from playwright.sync_api import Page, expect

    page = browser_page
    assert isinstance(page, Page)
    page.set_viewport_size({"width": width, "height": 800})
    make_user("resetter2", Role.PLAYER)
    page.goto(f"{live_server}/login")
    page.locator(f"header form.locale button[value={locale}]").click()
    page.goto(f"{live_server}/password/forgot")
    page.fill("input[name=login]", "resetter2")
    page.click("main button[type=submit]")
    with database.session() as session:
        body = session.scalars(select(OutboxMessage.body_text).where(
            OutboxMessage.kind == "password_reset")).one()
    link = re.search(r"(http://\S+/password/reset#\S+)", body)
    assert link, body
    page.goto(link.group(1))
    expect(page.locator("main .login-name")).to_have_text(SAYS[locale])
    expect(page.locator("main .login-name")).to_be_in_viewport()
    page.fill("input[name=password]", NEW)
    page.fill("input[name=again]", NEW)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server}/login")
    expect(page.locator("body")).to_contain_text(SET[locale])
    expect(page.locator("input[name=login]")).to_have_value("resetter2")
    page.fill("input[name=password]", NEW)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    page.goto(f"{live_server}/login")
    expect(page.locator("input[name=login]")).to_have_value(""), "shown once, not kept"
