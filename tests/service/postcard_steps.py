"""The steward's two steps on the postcard form, for tests that need a card stored."""

from __future__ import annotations

import re
from html import unescape

from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from corrmail.db import Database
from corrmail.models import Game, Role, TournamentOfficial, User

FINGERPRINT = re.compile(r'name="fingerprint" type="hidden" value="([0-9a-f]*)"')


def fingerprint_of(page: str) -> str:
    found = FINGERPRINT.search(page) or re.search(
        r'type="hidden" name="fingerprint" value="([0-9a-f]*)"', page)
    return found[1] if found else ""


def check_card(client: FlaskClient, game_id: int, data: dict[str, str]) -> TestResponse:
    return client.post(f"/games/{game_id}/postcards/new", data={**data, "action": "check"})


def store_card(client: FlaskClient, game_id: int, data: dict[str, str], *,
               confirm: bool = True) -> TestResponse:
    """Check the card, then store exactly the checked card (confirming a stop of play)."""
    checked = check_card(client, game_id, data)
    stamp = fingerprint_of(unescape(checked.get_data(as_text=True)))
    extra = {"fingerprint": stamp, "action": "enter"}
    if confirm:
        extra["confirm_stop"] = "y"
    return client.post(f"/games/{game_id}/postcards/new", data={**data, **extra})


def appoint_steward(client: FlaskClient, database: Database, game_id: int,
                    login: str = "steward1") -> FlaskClient:
    """Make the logged-in user ``login`` a steward of the game's tournament."""
    with database.transaction() as session:
        user = session.scalar(select(User).where(User.login == login))
        game = session.get(Game, game_id)
        assert user is not None and game is not None
        session.add(TournamentOfficial(tournament_id=game.tournament_id, user_id=user.id,
                                       role=Role.STEWARD))
    return client
