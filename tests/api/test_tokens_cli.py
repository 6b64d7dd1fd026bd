"""``corrmail api-token issue|revoke``: the token printed once works until it is revoked."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from corrmail.cli import main
from corrmail.demo.tournament import DEMO_CODE
from corrmail.models import Tournament


@pytest.fixture
def db_url(sqlite_db_url: str) -> str:
    return sqlite_db_url


def test_issue_use_and_revoke(
    db_url: str, client: FlaskClient, demo_tournament: Tournament,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", db_url)
    runner = CliRunner()
    issued = runner.invoke(main, ["api-token", "issue", "director", "--name", "website"])
    assert issued.exit_code == 0, issued.output
    headers = {"Authorization": f"Bearer {issued.output.strip()}"}
    assert client.get(f"/api/v1/tournaments/{DEMO_CODE}/standings", headers=headers).status_code == 200
    revoked = runner.invoke(main, ["api-token", "revoke", "director", "--name", "website"])
    assert revoked.output.strip() == "1 token(s) revoked"
    assert client.get("/api/v1/tournaments", headers=headers).status_code == 401


def test_unknown_login_is_a_clear_error(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", db_url)
    result = CliRunner().invoke(main, ["api-token", "issue", "nobody", "--name", "x"])
    assert result.exit_code == 1 and "no user with the login 'nobody'" in result.output
