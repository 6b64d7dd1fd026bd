"""The steward's two steps on the postcard form, for tests that need a card stored."""

from __future__ import annotations

import re
from html import unescape

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

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
