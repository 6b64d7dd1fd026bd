"""A real browser (Debian's chromium via Playwright) logs in with the demo login and sees the demo."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from corrmail.demo import DEMO_CODE, DEMO_PASSWORD
from corrmail.models import Tournament

CHROMIUM = Path(os.environ.get("CORRMAIL_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]

pytestmark = pytest.mark.browser


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """SQLite only: this test is about the browser; every page's queries run on both backends
    in test_pages.py."""
    path = tmp_path / "browser.sqlite"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def live_server(app: Flask, demo_tournament: Tournament) -> Iterator[str]:
    """The app behind a real werkzeug server on a free loopback port, in a thread."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture
def browser_page() -> Iterator[object]:
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing; ./test installs Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser.new_page()
        finally:
            browser.close()


def test_demo_login_shows_the_demo_tournament(live_server: str, browser_page: object) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    page.goto(f"{live_server}/")
    expect(page.get_by_role("heading", name="Войти")).to_be_visible()
    page.get_by_label("Логин").fill("director")
    page.get_by_label("Пароль").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Войти").click()
    expect(page.get_by_role("heading", name="Турниры")).to_be_visible()
    page.get_by_role("link", name=DEMO_CODE).click()
    expect(page.get_by_role("heading", name=f"{DEMO_CODE} — ", exact=False)).to_be_visible()
    expect(page.locator("tr[data-game]")).to_have_count(15)
    expect(page.get_by_role("cell", name="Иванов Пётр Сергеевич").first).to_be_visible()
    page.get_by_role("button", name="EN").click()
    expect(page.get_by_role("heading", name="Players")).to_be_visible()
