"""Browser fixtures shared by every Playwright test: Debian's chromium, headless, and the app
with the demo loaded behind a real werkzeug server.

Import the fixtures into a test module or conftest (``from tests.browser.fixtures import …``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from corrmail.models import Tournament

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "browser_page", "chromium", "db_url", "live_server",
           "serving"]

CHROMIUM = Path(os.environ.get("CORRMAIL_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture
def db_url(sqlite_db_url: str) -> str:
    """SQLite only: these tests are about the browser; every page's queries run on both
    backends in the areas' own tests. The demo comes already loaded, as in the shared
    `db_url`."""
    return sqlite_db_url


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """``app`` behind a real werkzeug server on a free loopback port, in a thread: its URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture
def live_server(app: Flask, demo_tournament: Tournament) -> Iterator[str]:
    """The app with the demo behind a real server."""
    with serving(app) as url:
        yield url


_shared: dict[str, Any] = {"users": 0}


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    """One browser per test module: launching chromium costs a second, a page does not.

    Not per session: Playwright's sync driver keeps an asyncio loop running in the main thread
    while it is started, and every later test in the same worker that calls ``asyncio.run``
    (the mailer, the SMTP listener) would fail. Every module that imports this fixture gets a
    fixture definition of its own; they share one driver (a second one in the same thread is
    refused) and the last one closes it.
    """
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing; ./test installs Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    from playwright.sync_api import sync_playwright

    if _shared["users"] == 0:
        _shared["playwright"] = sync_playwright().start()
        _shared["browser"] = _shared["playwright"].chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
    _shared["users"] += 1
    try:
        yield _shared["browser"]
    finally:
        _shared["users"] -= 1
        if _shared["users"] == 0:
            _shared.pop("browser").close()
            _shared.pop("playwright").stop()


@pytest.fixture
def browser_page(chromium: object) -> Iterator[object]:
    """A fresh page in a context of its own (no cookies shared between tests)."""
    from playwright.sync_api import Browser

    assert isinstance(chromium, Browser)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        yield page
    finally:
        context.close()
