"""Every GET route answers every role without a server error."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.routing import Rule

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE, DEMO_PASSWORD
from corrmail.models import (
    AuditEntry,
    Case,
    Game,
    Letter,
    OutboxMessage,
    Participant,
    Penalty,
    Player,
    Role,
    Tournament,
    TournamentOfficial,
    TournamentSystem,
    User,
)
from corrmail.rounds.swiss import pair_next_round, publish_round

ROLES: list[Role | None] = [None, *Role]


@pytest.fixture
def db_url(sqlite_db_url: str) -> str:
    """SQLite only: access checks are Python; every query also runs on PostgreSQL elsewhere."""
    return sqlite_db_url


def _path(rule: Rule, code: str) -> str | None:
    """The rule with demo values in its arguments; None when it needs one we cannot guess."""
    values: dict[str, object] = {}
    for argument in rule.arguments:
        converter = rule._converters[argument]  # noqa: SLF001 - werkzeug exposes no public mapping
        if type(converter).__name__ == "IntegerConverter":
            values[argument] = 1
        elif argument in ("code", "tournament_code"):
            values[argument] = code
        elif argument == "filename":
            values[argument] = "corrmail.css"
        else:
            return None
    try:
        return rule.build(values, append_unknown=False)[1]  # type: ignore[index]
    except Exception:  # a converter that refuses our value: skip the rule
        return None


def test_every_get_route_answers_every_role(
    app: Flask,
    database: Database,
    demo_tournament: Tournament,
    make_tournament: Callable[..., Tournament],
    login: Callable[..., FlaskClient],
) -> None:
    unpaired = make_tournament(players=3)  # no games yet: pages show their "pair" forms
    swiss = _swiss_round_to_redraw(database, make_tournament)
    app.config["PROPAGATE_EXCEPTIONS"] = False  # collect every 500 instead of stopping at one
    clients = {role: (login(role) if role else app.test_client()) for role in ROLES}
    crashes = []
    answers: dict[tuple[str, str], int] = {}
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static":
            continue
        paths = {_path(rule, code) for code in (DEMO_CODE, unpaired.code, swiss.code)} - {None}
        for path in sorted(p for p in paths if p):
            for role, client in clients.items():
                status = client.get(path).status_code
                answers[path, role.value if role else "anonymous"] = status
                if status >= 500:
                    crashes.append((path, role.value if role else "anonymous", status))
    assert crashes == []
    # The redraw of a published Swiss round: its plan for the organizer only (a
    # referee or steward serving elsewhere and a player are refused), login for the anonymous.
    redraw = f"/tournaments/{swiss.code}/rounds/1/redraw"
    assert {who: answers[redraw, who] for who in ("anonymous", *(r.value for r in Role))} == {
        "anonymous": 302, "organizer": 200, "referee": 403, "steward": 403, "player": 403}


def _swiss_round_to_redraw(
    database: Database, make_tournament: Callable[..., Tournament]
) -> Tournament:
    """A Swiss whose published round 1 a withdrawal has broken: its redraw page has a plan."""
    swiss = make_tournament(players=5, system=TournamentSystem.SWISS,
                            pairing_system="coefficients")
    with database.transaction() as session:
        tournament = session.get(Tournament, swiss.id)
        assert tournament is not None
        pair_next_round(session, tournament, None, seed=8)
        publish_round(session, tournament, None, writer=None, today=dt.date(2026, 9, 1))
        session.flush()
        first = min(tournament.games, key=lambda game: game.id)
        first.black.withdrawn_on = dt.date(2026, 9, 3)
    return swiss


@pytest.mark.parametrize("role", [Role.PLAYER, Role.STEWARD])
def test_organizer_routes_refuse_other_roles(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, role: Role
) -> None:
    client = login(role)
    for path in ("/tournaments/new", f"/tournaments/{DEMO_CODE}/edit"):
        assert client.get(path).status_code == 403, path
    # The outbox is the officials': a steward reads his tournaments' letters there (the tests of
    # corrmail.web.admin check which), a player nothing.
    assert client.get("/admin/outbox").status_code == (200 if role is Role.STEWARD else 403)


# --- server-side checks on every route -------------------------------------------

#: Routes anyone may call: probes, the login form, the language switch, static files, the root,
#: and the forgotten-password pages (their own tests check what they change).
PUBLIC = {"health.healthz", "health.readyz", "auth.login", "i18n.choose_locale", "static", "index",
          "password_reset.forgot", "password_reset.reset", "password_reset.claim",
          "password_reset.welcome", "password_reset.welcome_claim"}
#: POST routes that change only the caller's own session.
OWN_SESSION = {"auth.logout", "i18n.choose_locale", "auth.login"}


def _tables(database: Database) -> dict[str, int]:
    """Row counts of every table a state change touches."""
    with database.transaction() as session:
        return {
            model.__name__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in (AuditEntry, Case, Game, Letter, OutboxMessage, Participant, Penalty,
                          Tournament)
        }


def _all_paths(app: Flask, codes: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(endpoint, method, path) for every rule and method, with demo arguments."""
    out = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            for path in sorted({_path(rule, code) for code in codes} - {None}):
                assert path is not None
                out.append((rule.endpoint, method, path))
    return out


def test_anonymous_is_sent_to_login_everywhere(
    app: Flask, database: Database, demo_tournament: Tournament
) -> None:
    client = app.test_client()
    before = _tables(database)
    for endpoint, method, path in _all_paths(app, (DEMO_CODE,)):
        if endpoint in PUBLIC:
            continue
        response = client.open(path, method=method, data={})
        if endpoint.startswith("api."):
            assert response.status_code == 401, (method, path)
        else:
            assert response.status_code == 302, (method, path, response.status_code)
            assert "/login" in response.headers["Location"], (method, path)
    assert _tables(database) == before


@pytest.mark.parametrize("role", [Role.PLAYER, Role.STEWARD, Role.REFEREE])
def test_outsiders_change_nothing_by_any_post(
    app: Flask, database: Database, demo_tournament: Tournament,
    login: Callable[..., FlaskClient], role: Role,
) -> None:
    """A steward or referee not serving the demo tournament, or a player not in it, is refused
    every state change there (the organizer's routes included), and no row changes."""
    app.config["PROPAGATE_EXCEPTIONS"] = False
    client = login(role)
    before = _tables(database)
    accepted = []
    for endpoint, method, path in _all_paths(app, (DEMO_CODE,)):
        if (method != "POST" or endpoint in OWN_SESSION | PUBLIC
                or endpoint.startswith("api.")):
            continue
        status = client.post(path, data={}).status_code
        if status not in (400, 403, 404, 405, 422):
            accepted.append((path, status))
    assert accepted == []
    assert _tables(database) == before


def test_game_pages_of_the_service(
    app: Flask, database: Database, demo_tournament: Tournament,
    login: Callable[..., FlaskClient],
) -> None:
    """Players see their own games only; postcards, the dashboard: officials of the tournament."""
    with database.transaction() as session:
        games = session.scalars(select(Game).where(Game.tournament_id == demo_tournament.id)
                                .order_by(Game.id)).all()
        player = session.scalars(select(Player).join(Participant)
                                 .where(Participant.id == games[0].white_id)).one()
        own = [g.id for g in games if player.id in (g.white.player_id, g.black.player_id)]
        other = next(g.id for g in games if g.id not in own)
        player_login = session.scalars(select(User.login).where(User.player_id == player.id)).one()
    player_client = app.test_client()
    signed_in = player_client.post("/login", data={"login": player_login, "password": DEMO_PASSWORD})
    assert signed_in.status_code == 302
    assert player_client.get(f"/games/{own[0]}").status_code == 200
    assert player_client.get(f"/games/{own[0]}/game.pdn").status_code == 200
    assert player_client.get(f"/games/{other}").status_code == 403
    assert player_client.get(f"/games/{own[0]}/postcards/new").status_code == 403
    assert player_client.get(f"/dashboard/{DEMO_CODE}").status_code == 403
    steward = login(Role.STEWARD, login="serving")
    with database.transaction() as session:
        user = session.scalars(select(User).where(User.login == "serving")).one()
        session.add(TournamentOfficial(tournament_id=demo_tournament.id, user_id=user.id,
                                       role=Role.STEWARD))
    assert steward.get(f"/games/{other}/postcards/new").status_code == 200
    assert steward.get(f"/dashboard/{DEMO_CODE}").status_code == 200
    assert login(Role.STEWARD).get(f"/games/{other}/postcards/new").status_code == 403
