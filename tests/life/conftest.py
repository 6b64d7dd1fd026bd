"""A tournament's life from an empty database: the CLI and the web on the same service."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from click.testing import CliRunner, Result

from corrmail.cli import main

MAIL_SECRET = "life-secret"
MAIL_DOMAIN = "turnir.example"


@pytest.fixture
def cli_env(db_url: str) -> dict[str, str]:
    """The environment of a `corrmail` command on this test's database (the app's secret key,
    so a link made by the command opens in the test app)."""
    return {
        "CORRMAIL_DATABASE_URL": db_url,
        "CORRMAIL_SECRET_KEY": "test-secret",
        "CORRMAIL_MAIL_SECRET": MAIL_SECRET,
        "CORRMAIL_MAIL_DOMAIN": MAIL_DOMAIN,
        "CORRMAIL_SMTP_HOST": "",
        "CORRMAIL_BASE_URL": "http://localhost",
    }


@pytest.fixture
def corrmail(cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Result]:
    """corrmail("user", "add", ..., input=None) -> the command's result."""
    for name, value in cli_env.items():
        monkeypatch.setenv(name, value)

    def run(*args: str, input: str | bytes | None = None) -> Result:
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return run
