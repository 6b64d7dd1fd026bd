"""/api/v1: tournaments, games, letters and standings, scoped by the token's user."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.models import Game, Letter, Role, Tournament, TournamentOfficial, User
from corrmail.paths import CHECKOUT_DIR
from corrmail.people.api_tokens import issue_token
from corrmail.standings.results import load_tournament, tournament_table

SPEC = CHECKOUT_DIR / "docs" / "openapi.yaml"


@pytest.fixture
def db_url(sqlite_db_url: str) -> str:
    """SQLite only: the scoping is Python; the loading queries run on both backends in
    tests/standings."""
    return sqlite_db_url


@pytest.fixture
def token_for(database: Database) -> Callable[..., dict[str, str]]:
    """token_for(Role.STEWARD, serves=tournament) -> request headers."""
    counter = iter(range(1, 1000))

    def make(role: Role, serves: Tournament | None = None) -> dict[str, str]:
        with database.transaction() as session:
            user = User(login=f"api{next(counter)}", display_name="API")
            user.set_password("unused")
            user.grant(role)
            session.add(user)
            session.flush()
            if serves is not None:
                session.add(TournamentOfficial(tournament_id=serves.id, user_id=user.id, role=role))
            token = issue_token(session, user, "test")
        return {"Authorization": f"Bearer {token}"}

    return make


def _get(client: FlaskClient, path: str, headers: dict[str, str]) -> Any:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, (path, response.status_code, response.json)
    return response.json


def test_every_route_needs_a_token(app: Flask, client: FlaskClient) -> None:
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("api."):
            path = rule.rule.replace("<code>", "X").replace("<int:game_id>", "1")
            method = "POST" if "POST" in (rule.methods or ()) else "GET"
            response = client.open(path, method=method, headers={"Authorization": "Bearer nope"})
            assert response.status_code == 401, path
            assert response.json == {"error": "a valid bearer token is required"}


def test_organizer_reads_tournament_games_letters_and_standings(
    client: FlaskClient, database: Database, demo_tournament: Tournament,
    make_tournament: Callable[..., Tournament], token_for: Callable[..., dict[str, str]],
) -> None:
    make_tournament(players=2, code="OTHER")
    headers = token_for(Role.ORGANIZER)
    codes = [t["code"] for t in _get(client, "/api/v1/tournaments", headers)["tournaments"]]
    assert sorted(codes) == sorted([DEMO_CODE, "OTHER"])
    games = _get(client, f"/api/v1/tournaments/{DEMO_CODE}/games", headers)["games"]
    assert len(games) == 15 and all(g["tournament"] == DEMO_CODE for g in games)
    table = _get(client, f"/api/v1/tournaments/{DEMO_CODE}/standings", headers)
    with database.session() as session:
        expected = tournament_table(load_tournament(session, DEMO_CODE)).as_dict()
    assert table["standings"] == expected["standings"]
    assert table["tiebreaks"] == expected["tiebreaks"] and len(table["standings"]) == 6
    with database.session() as session:
        game = session.scalars(select(Game).where(Game.letters.any())).first()
        assert game is not None
        letter_count = len(game.letters)
        moves = [ply for letter in game.letters for ply in letter.moves_text.split()]
    detail = _get(client, f"/api/v1/games/{game.id}", headers)
    assert detail["moves"] == moves and detail["game"]["id"] == game.id
    letters = _get(client, f"/api/v1/games/{game.id}/letters", headers)["letters"]
    assert len(letters) == letter_count
    assert [entry["sequence"] for entry in letters] == sorted(e["sequence"] for e in letters)
    assert {"raw_text", "partner_sent", "received", "sent", "postmark_date", "corrects"} <= set(
        letters[0]
    )


def test_a_correction_is_listed_next_to_the_letter_it_corrects(
    client: FlaskClient, database: Database, demo_tournament: Tournament,
    token_for: Callable[..., dict[str, str]],
) -> None:
    """002 §4.2.5: both stay in the archive; the moves are read as corrected."""
    with database.transaction() as session:
        original = session.scalars(select(Letter).where(Letter.moves_text != "")).first()
        assert original is not None
        game = original.game
        session.add(Letter(
            game_id=game.id, sequence=max(x.sequence for x in game.letters) + 1,
            sender_id=original.sender_id, channel=original.channel, raw_text="correction",
            moves_text=original.moves_text, sent=original.sent, corrects_letter_id=original.id,
        ))
        game_id, original_id = game.id, original.id
    letters = _get(client, f"/api/v1/games/{game_id}/letters", token_for(Role.ORGANIZER))["letters"]
    assert [entry["corrects"] for entry in letters].count(original_id) == 1
    assert any(entry["id"] == original_id for entry in letters)


def test_officials_see_only_the_tournaments_they_serve(
    client: FlaskClient, demo_tournament: Tournament,
    make_tournament: Callable[..., Tournament], token_for: Callable[..., dict[str, str]],
) -> None:
    other = make_tournament(players=2, code="OTHER")
    headers = token_for(Role.STEWARD, serves=other)
    codes = [t["code"] for t in _get(client, "/api/v1/tournaments", headers)["tournaments"]]
    assert codes == ["OTHER"]
    assert client.get(f"/api/v1/tournaments/{DEMO_CODE}", headers=headers).status_code == 403
    assert client.get(f"/api/v1/tournaments/{DEMO_CODE}/standings",
                      headers=headers).status_code == 403
    assert client.get("/api/v1/games/1/letters", headers=headers).status_code == 403
    assert client.get("/api/v1/tournaments/NONE", headers=headers).status_code == 404
    assert client.get("/api/v1/games/99999", headers=headers).status_code == 404


def test_players_see_their_tournament_but_only_their_own_letters(
    client: FlaskClient, database: Database, demo_tournament: Tournament,
    token_for: Callable[..., dict[str, str]],
) -> None:
    with database.session() as session:
        tournament = load_tournament(session, DEMO_CODE)
        me = tournament.participants[0]
        mine = next(g for g in tournament.games if me.id in (g.white_id, g.black_id))
        theirs = next(g for g in tournament.games if me.id not in (g.white_id, g.black_id))
    with database.transaction() as session:  # the demo's own login of player 1
        user = session.scalar(select(User).where(User.player_id == me.player_id))
        assert user is not None
        headers = {"Authorization": f"Bearer {issue_token(session, user, 'phone')}"}
    codes = [t["code"] for t in _get(client, "/api/v1/tournaments", headers)["tournaments"]]
    assert codes == [DEMO_CODE]
    assert len(_get(client, f"/api/v1/tournaments/{DEMO_CODE}/standings", headers)["standings"]) == 6
    assert _get(client, f"/api/v1/games/{mine.id}/letters", headers)["letters"] is not None
    assert client.get(f"/api/v1/games/{theirs.id}", headers=headers).status_code == 403
    forbidden = client.get(f"/api/v1/games/{theirs.id}/letters", headers=headers)
    assert forbidden.status_code == 403 and forbidden.json == {
        "error": "this token's user may not see it"
    }


def test_standings_that_cannot_be_computed_answer_409(
    client: FlaskClient, database: Database, demo_tournament: Tournament,
    token_for: Callable[..., dict[str, str]],
) -> None:
    with database.transaction() as session:
        tournament = session.scalar(select(Tournament).where(Tournament.code == DEMO_CODE))
        assert tournament is not None
        tournament.tiebreak_order = ["no_such_tiebreak"]
    response = client.get(f"/api/v1/tournaments/{DEMO_CODE}/standings",
                          headers=token_for(Role.ORGANIZER))
    assert response.status_code == 409
    assert "no_such_tiebreak" in response.json["error"]


def _spec_paths() -> set[str]:
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    assert spec["openapi"].startswith("3.") and spec["servers"] == [{"url": "/api/v1"}]
    return {path for path, item in spec["paths"].items() for method in item
            if method in ("get", "post")}


def test_openapi_file_lists_exactly_the_api_routes(app: Flask) -> None:
    routes = {
        re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule.removeprefix("/api/v1"))
        for rule in app.url_map.iter_rules()
        if rule.endpoint.startswith("api.")
    }
    assert routes == _spec_paths()


def test_every_spec_reference_resolves() -> None:
    text = SPEC.read_text(encoding="utf-8")
    spec = yaml.safe_load(text)
    for ref in set(re.findall(r'\$ref: "#/([^"]+)"', text)):
        node = spec
        for part in ref.split("/"):
            node = node[part]


def test_a_tournament_is_read_in_a_fixed_number_of_queries(
    client: FlaskClient, database: Database, demo_tournament: Tournament,
    token_for: Callable[..., dict[str, str]],
) -> None:
    """Who is to move reads every game's letters: loaded at once, never a query per game."""
    from sqlalchemy import event

    headers = token_for(Role.ORGANIZER)
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    event.listen(database.engine, "before_cursor_execute", count)
    try:
        for path in (f"/api/v1/tournaments/{DEMO_CODE}", f"/api/v1/tournaments/{DEMO_CODE}/games",
                     f"/api/v1/tournaments/{DEMO_CODE}/standings"):
            statements.clear()
            _get(client, path, headers)
            assert len(statements) <= 12, (path, len(statements))
    finally:
        event.remove(database.engine, "before_cursor_execute", count)


def test_the_demo_overstep_is_listed_with_its_mark(
    client: FlaskClient, demo_tournament: Tournament, token_for: Callable[..., dict[str, str]],
) -> None:
    """The demo's game lost on time (002 §4.3.7) reaches the website marked †."""
    table = _get(client, f"/api/v1/tournaments/{DEMO_CODE}/standings", token_for(Role.ORGANIZER))
    assert [mark["mark"] for mark in table["marks"]] == ["†"]
    assert set(table["marks"][0]) == {"round", "white", "black", "mark"}
