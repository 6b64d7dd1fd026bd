"""Web security: headers, cookie flags, login throttling and lockout, anonymous access to every
route, injection attempts in free text shown verbatim and harmless."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import replace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, inspect, select

from adjudication import Side
from corrmail.app import create_app
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.games.ledger import LetterInput, append_letter
from corrmail.mail.settings import MailSettings
from corrmail.models import AuditEntry, Channel, Game, Player, Role, Tournament, User
from corrmail.ops.headers import CONTENT_SECURITY_POLICY
from corrmail.ops.login_throttle import FAILED
from corrmail.ops.security import login_throttle
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import Actor, Desk

PASSWORD = "correct horse battery"
NASTY = "<script>alert('x')</script>'; DROP TABLE players; -- {{ 7*7 }} {% print 1 %} ${7*7}"


def test_every_response_carries_the_security_headers(client: FlaskClient) -> None:
    for path in ("/login", "/healthz", "/tournaments/"):
        response = client.get(path)
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Referrer-Policy"] == "same-origin"
    assert client.get("/login").headers["Cache-Control"] == "no-store"
    assert "Strict-Transport-Security" not in client.get("/login").headers
    assert "max-age=" in client.get("/login", base_url="https://turnir.example").headers["Strict-Transport-Security"]


def _cookie_flags(response: object, name: str) -> set[str]:
    """The attributes of cookie ``name`` that are flags: {"secure", "httponly", "samesite=lax"}."""
    for header in response.headers.getlist("Set-Cookie"):  # type: ignore[attr-defined]
        if header.startswith(f"{name}="):
            parts = (part.strip().lower() for part in header.split(";")[1:])
            return {part for part in parts if not part.startswith(("expires", "max-age", "path", "domain"))}
    raise AssertionError(f"no {name} cookie")


@pytest.mark.parametrize("secure", [True, False])
def test_session_and_remember_cookies_are_httponly_samesite_and_secure_over_https(
    settings: Settings, make_user: Callable[..., User], secure: bool
) -> None:
    app = create_app(replace(settings, cookie_secure=secure))
    make_user("director", Role.ORGANIZER)
    response = app.test_client().post(
        "/login", data={"login": "director", "password": PASSWORD, "remember": "y"},
        base_url="https://turnir.example",
    )
    assert response.status_code == 302
    for cookie in ("session", "remember_token"):
        flags = _cookie_flags(response, cookie)
        assert {"httponly", "samesite=lax"} <= flags, (cookie, flags)
        assert ("secure" in flags) is secure, (cookie, flags)
    assert Settings.from_env({"CORRMAIL_COOKIE_SECURE": "1", "CORRMAIL_SECRET_KEY": "k"}).cookie_secure
    assert not Settings.from_env({"CORRMAIL_SECRET_KEY": "k"}).cookie_secure


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime.now(dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now


def test_five_wrong_passwords_lock_the_login_for_fifteen_minutes(
    app: Flask, client: FlaskClient, make_user: Callable[..., User], database: Database,
    caplog: pytest.LogCaptureFixture,
) -> None:
    make_user("referee", Role.REFEREE)
    make_user("steward", Role.STEWARD)
    clock = Clock()
    with app.app_context():
        login_throttle().clock = clock
    caplog.set_level(logging.DEBUG)
    for attempt in range(5):
        response = client.post("/login", data={"login": "referee", "password": f"guess{attempt}"})
        assert response.status_code == 401
    locked = client.post("/login", data={"login": "Referee ", "password": PASSWORD})
    assert locked.status_code == 429
    assert "Слишком много неудачных попыток входа" in locked.get_data(as_text=True)
    assert client.get("/tournaments/").status_code == 302  # not logged in
    # Another account is not affected, and the refusal does not reveal whether a login exists.
    assert client.post("/login", data={"login": "steward", "password": PASSWORD}).status_code == 302
    with database.session() as session:
        entries = session.scalars(select(AuditEntry).where(AuditEntry.action == FAILED)).all()
    assert [entry.summary for entry in entries] == ["referee"] * 5
    assert all(entry.detail["address"] == "127.0.0.1" for entry in entries)

    clock.now += dt.timedelta(minutes=16)
    fresh = FlaskClient(app)
    assert fresh.post("/login", data={"login": "referee", "password": PASSWORD}).status_code == 302
    assert not any(f"guess{n}" in record.getMessage() or PASSWORD in record.getMessage()
                   for record in caplog.records for n in range(5)), "passwords never logged"


def test_one_address_spraying_many_logins_is_slowed_down(
    app: Flask, make_user: Callable[..., User]
) -> None:
    make_user("ivanov", Role.PLAYER)
    sprayer = app.test_client()
    for number in range(20):
        assert sprayer.post("/login", data={"login": f"user{number}", "password": "x"}).status_code == 401
    refused = sprayer.post("/login", data={"login": "ivanov", "password": PASSWORD})
    assert refused.status_code == 429
    elsewhere = app.test_client()
    answer = elsewhere.post("/login", data={"login": "ivanov", "password": PASSWORD},
                            environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert answer.status_code == 302


PUBLIC = {"static", "health.healthz", "health.readyz", "auth.login", "index",
          "password_reset.forgot", "password_reset.reset", "password_reset.welcome"}


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_anonymous_visitors_reach_nothing_but_the_public_pages(
    app: Flask, client: FlaskClient, demo_tournament: Tournament
) -> None:
    values = {"code": DEMO_CODE, "tournament_code": DEMO_CODE, "filename": "corrmail.css"}
    opened = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()):
            continue
        arguments = {name: values.get(name, 1) for name in rule.arguments}
        path = rule.build(arguments, append_unknown=False)[1]  # type: ignore[index]
        response = client.get(path)
        if rule.endpoint in PUBLIC:
            continue
        if response.status_code == 302:
            assert response.headers["Location"].startswith("/login"), path
        elif response.status_code not in (401, 403, 404):
            opened.append((path, response.status_code))
    assert opened == []


def test_injection_in_names_and_letters_is_stored_and_shown_verbatim_and_harmless(
    demo_tournament: Tournament, database: Database, login: Callable[..., FlaskClient]
) -> None:
    with database.transaction() as session:
        game = session.get(Game, 1)
        assert game is not None
        session.get(Player, game.white.player_id).name = NASTY  # type: ignore[union-attr]
        append_letter(session, game, LetterInput(sender_id=game.white_id, channel=Channel.POST,
                                                 raw_text=f"Письмо: {NASTY}"), None)
    client = login(Role.ORGANIZER)
    escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&#39;; DROP TABLE players; -- {{ 7*7 }} {% print 1 %} ${7*7}"
    for path in ("/games/1", f"/tournaments/{DEMO_CODE}"):
        page = client.get(path).get_data(as_text=True)
        assert escaped in page, path
        assert "<script>alert" not in page and ">49<" not in page
    api = client.get("/api/v1/games/1/letters")
    assert api.status_code in (200, 401)
    with database.session() as session:
        assert session.scalar(select(Player.name).where(Player.name == NASTY)) == NASTY
        assert session.scalar(select(func.count()).select_from(Player)) >= 6
        assert "players" in inspect(session.get_bind()).get_table_names()
    for attempt in ("' OR '1'='1", "admin'--", NASTY):
        refused = client.application.test_client().post("/login", data={"login": attempt, "password": attempt})
        assert refused.status_code in (401, 429)
    assert client.get(f"/tournaments/{NASTY}").status_code == 404


def test_injection_in_a_case_text_is_shown_verbatim_and_harmless(
    demo_tournament: Tournament, database: Database, login: Callable[..., FlaskClient]
) -> None:
    writer = case_letter_writer(MailSettings(domain="turnir.example",
                                             from_address="turnir@turnir.example", secret=b"k" * 16))
    with database.transaction() as session:
        game = session.get(Game, 2)
        assert game is not None
        done = Desk(session, writer, on=dt.date(2026, 11, 2)).open_dispute(
            Actor.system(), game, complainant=Side.WHITE, subject=f"Анализ: {NASTY}")
        case_id = done.stored.row.id
    page = login(Role.ORGANIZER).get(f"/cases/{case_id}").get_data(as_text=True)
    assert "Анализ: &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert "<script>alert" not in page and ">49<" not in page


# Pages every logged-in user may read (a federation publishes its tables); everything else needs
# a role in the tournament. A new route that opens to any logged-in player fails here until it is
# listed on purpose.
OPEN_TO_ANY_USER = PUBLIC | {
    "tournaments.index", "tournaments.show", "tournaments.teams", "cases.queue", "bulletins.index",
    "standings.show", "standings.printable", "standings.csv", "standings.json", "standings.trf",
    "standings.pdn",  # the TRF is the table of the CSV and JSON, in the rating offices' format
    "tokens.index",  # the user's own API tokens, nobody else's
}


# Access checks are Python, the same on both databases: walked on SQLite only, to stay fast.
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("role", list(Role))
def test_a_user_without_a_place_in_the_tournament_reaches_only_its_open_pages(
    app: Flask, demo_tournament: Tournament, login: Callable[..., FlaskClient], role: Role
) -> None:
    client = login(role)  # holds the role, but is neither official nor player of the demo
    values = {"code": DEMO_CODE, "tournament_code": DEMO_CODE, "filename": "corrmail.css"}
    opened = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint in OPEN_TO_ANY_USER:
            continue
        path = rule.build({name: values.get(name, 1) for name in rule.arguments}, append_unknown=False)[1]  # type: ignore[index]
        status = client.get(path).status_code
        if status == 200:
            opened.append(rule.endpoint)
    allowed = {
        Role.ORGANIZER: None,  # the organizer runs every tournament of the federation
        Role.REFEREE: {"admin.outbox", "admin.outbox_message", "dashboard.index"},
        # The outbox lists only the letters of tournaments he serves: none here.
        Role.STEWARD: {"admin.outbox", "admin.outbox_message", "dashboard.index"},
        Role.PLAYER: set(),
    }[role]
    if allowed is not None:
        assert set(opened) <= allowed, sorted(set(opened) - allowed)
    assert ("games.show" in opened) is (role is Role.ORGANIZER)
