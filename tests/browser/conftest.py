from tests.browser.fixtures import browser_page, chromium, db_url, live_server

__all__ = ["browser_page", "chromium", "db_url", "live_server"]
