"""Health endpoints and the token-authenticated JSON API."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from corrmail.app import create_app
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.migrate import head_revision
from corrmail.models import ApiToken, Role, Tournament, User
from corrmail.people import api_tokens
from corrmail.people.api_tokens import issue_token


def test_liveness(client: FlaskClient) -> None:
    assert client.get("/healthz").json == {"status": "ok"}


def test_readiness_reports_the_migrated_database(client: FlaskClient) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json is not None and response.json["revision"] == head_revision()


def test_readiness_fails_on_an_unmigrated_database(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'blank.sqlite'}", secret_key="x")
    response = create_app(settings).test_client().get("/readyz")
    assert response.status_code == 503
    assert response.json == {"status": "unmigrated", "revision": None, "expected": head_revision()}


def test_readiness_fails_when_the_database_is_unreachable(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path}/missing/dir/x.sqlite", secret_key="x")
    response = create_app(settings).test_client().get("/readyz")
    assert response.status_code == 503
    assert response.json is not None and response.json["status"] == "unavailable"


def _token(database: Database) -> str:
    with database.transaction() as session:
        user = User(login="website", display_name="Federation website")
        user.set_password("unused")
        user.grant(Role.ORGANIZER)
        session.add(user)
        session.flush()
        return issue_token(session, user, "website")


def test_api_needs_a_valid_bearer_token(client: FlaskClient, database: Database) -> None:
    token = _token(database)
    assert client.get("/api/v1/tournaments").status_code == 401
    response = client.get("/api/v1/tournaments", headers={"Authorization": "Bearer wrong"})
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    ok = client.get("/api/v1/tournaments", headers={"Authorization": f"Bearer {token}"})
    assert ok.status_code == 200 and ok.json == {"tournaments": []}
    with database.session() as session:
        stored = session.query(ApiToken).one()
        assert stored.token_sha256 != token and stored.last_used_at is not None


def test_a_tokens_last_use_is_kept_to_the_minute(
    client: FlaskClient, database: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tokens page shows the minute; the row is written when the minute changes."""
    token = _token(database)
    headers = {"Authorization": f"Bearer {token}"}

    def used_at(moment: dt.datetime) -> dt.datetime | None:
        monkeypatch.setattr(api_tokens, "utcnow", lambda: moment)
        assert client.get("/api/v1/tournaments", headers=headers).status_code == 200
        with database.session() as session:
            return session.query(ApiToken).one().last_used_at

    assert used_at(dt.datetime(2026, 12, 1, 12, 0, 10, tzinfo=dt.UTC)) == dt.datetime(2026, 12, 1, 12, 0, 10, tzinfo=dt.UTC)
    assert used_at(dt.datetime(2026, 12, 1, 12, 0, 50, tzinfo=dt.UTC)) == dt.datetime(2026, 12, 1, 12, 0, 10, tzinfo=dt.UTC)
    assert used_at(dt.datetime(2026, 12, 1, 12, 1, 5, tzinfo=dt.UTC)) == dt.datetime(2026, 12, 1, 12, 1, 5, tzinfo=dt.UTC)


def test_api_describes_the_demo_tournament(
    client: FlaskClient, database: Database, demo_tournament: Tournament
) -> None:
    headers = {"Authorization": f"Bearer {_token(database)}"}
    body = client.get(f"/api/v1/tournaments/{DEMO_CODE}", headers=headers).json
    assert body is not None
    assert body["tournament"]["time_control"] == {"days": 50, "moves": 10}
    assert body["tournament"]["points"] == ["1.0", "0.5", "0.0"]
    assert [p["start_number"] for p in body["participants"]] == [1, 2, 3, 4, 5, 6]
    states = sorted((g["state"], g["result_kind"]) for g in body["games"])
    assert states.count(("finished", "overstep")) == 1
    assert states.count(("finished", "played")) == 1
    assert states.count(("in_play", None)) == 13
    assert all(
        g["to_move"] in (g["white"], g["black"]) for g in body["games"] if g["state"] == "in_play"
    )
    assert client.get("/api/v1/tournaments/NONE", headers=headers).status_code == 404


def test_revoked_token_is_refused(client: FlaskClient, database: Database) -> None:
    from corrmail.models import utcnow

    token = _token(database)
    with database.transaction() as session:
        session.query(ApiToken).one().revoked_at = utcnow()
    assert (
        client.get("/api/v1/tournaments", headers={"Authorization": f"Bearer {token}"}).status_code
        == 401
    )
