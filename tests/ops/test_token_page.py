"""The API-token page docs/operations.md promises: a user lists, creates (the secret shown once)
and revokes their own tokens, and no one else's."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from zoneinfo import ZoneInfo

from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import ApiToken, Role


def _moscow(moment: dt.datetime) -> dt.datetime:
    return moment.replace(tzinfo=dt.UTC).astimezone(ZoneInfo("Europe/Moscow"))


def _api(client: FlaskClient, token: str) -> int:
    return client.get("/api/v1/tournaments", headers={"Authorization": f"Bearer {token}"}).status_code


def test_a_user_creates_uses_and_revokes_an_own_token(
    login: Callable[..., FlaskClient], database: Database,
) -> None:
    director = login(Role.ORGANIZER, login="director")
    assert director.get("/account/tokens").status_code == 200
    assert director.post("/account/tokens", data={"name": ""}).status_code == 422
    created = director.post("/account/tokens", data={"name": "club scoreboard 42"})
    assert created.status_code == 200
    page = created.get_data(as_text=True)
    token = re.search(r'<pre class="token" id="new-token">([^<]+)</pre>', page)
    assert token, page
    secret = token.group(1)
    assert _api(director.application.test_client(), secret) == 200
    listing = director.get("/account/tokens").get_data(as_text=True)
    assert "club scoreboard 42" in listing and secret not in listing  # shown once
    with database.session() as session:
        row = session.scalars(select(ApiToken)).one()
        assert secret not in row.token_sha256
    # Created and last used as the service writes moments: dd.mm.yyyy on the federation's clock
    # (CORRMAIL_TIME_ZONE, Moscow by default), with the zone named.
    assert f"<td>{_moscow(row.created_at):%d.%m.%Y %H:%M} MSK</td>" in listing
    assert row.last_used_at is not None
    assert f"<td>{_moscow(row.last_used_at):%d.%m.%Y %H:%M} MSK</td>" in listing
    assert not re.search(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}", listing)
    # Another user can neither see nor revoke it.
    other = login(Role.ORGANIZER, login="other")
    assert "club scoreboard 42" not in other.get("/account/tokens").get_data(as_text=True)
    assert other.post(f"/account/tokens/{row.id}/revoke").status_code == 404
    assert _api(director.application.test_client(), secret) == 200
    revoked = director.post(f"/account/tokens/{row.id}/revoke")
    assert revoked.status_code == 302
    assert _api(director.application.test_client(), secret) == 401
    assert director.post(f"/account/tokens/{row.id}/revoke").status_code == 404
    assert "revoked" in director.get("/account/tokens").get_data(as_text=True).lower() or \
        "отозван" in director.get("/account/tokens").get_data(as_text=True)


def test_the_page_needs_a_login(client: FlaskClient) -> None:
    answer = client.get("/account/tokens")
    assert answer.status_code == 302 and "/login" in answer.headers["Location"]
