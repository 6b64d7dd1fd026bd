"""Redrawing a published Swiss round from the Rounds page (002: touch as few players as possible;
004: a published round is immutable unless it breaks an absolute criterion).

Five players: round 1 is two games and a bye. A player withdraws before his game begins, so his
partner is paired with nobody who plays: the redraw cancels that game and pairs the partner with
the player who had the bye — the other game stands.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.app import create_app
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.models import (
    AuditEntry,
    Game,
    GameState,
    OutboxMessage,
    PairedRound,
    Participant,
    Role,
    Tournament,
    TournamentOfficial,
    TournamentSystem,
    UnpairedEntry,
    UnpairedKind,
    User,
)


@dataclass(frozen=True)
class Round1:
    tournament: Tournament
    page: str  # the redraw page of round 1
    withdrawn: int  # start numbers
    partner: int
    bye: int
    standing: tuple[int, int]


def _english(client: FlaskClient) -> FlaskClient:
    assert client.post("/locale", data={"locale": "en"}).status_code == 302
    return client


def _serve(database: Database, tournament: Tournament, login: str, role: Role) -> None:
    with database.transaction() as session:
        user = session.scalars(select(User).where(User.login == login)).one()
        session.add(TournamentOfficial(tournament_id=tournament.id, user_id=user.id, role=role))


def _published_round(database: Database, make_tournament: Callable[..., Tournament],
                     organizer: FlaskClient) -> tuple[Tournament, list[tuple[int, int]], int]:
    tournament = make_tournament(players=5, system=TournamentSystem.SWISS,
                                 pairing_system="coefficients")
    rounds = f"/tournaments/{tournament.code}/rounds"
    assert organizer.post(f"{rounds}/pair", data={"seed": "8", "absent": ""}).status_code == 302
    assert organizer.post(f"{rounds}/publish").status_code == 302
    with database.session() as session:
        games = session.scalars(select(Game).where(Game.tournament_id == tournament.id)
                                .order_by(Game.id)).all()
        pairs = [(int(g.white.start_number or 0), int(g.black.start_number or 0)) for g in games]
        bye = session.scalars(select(Participant.start_number).join(
            UnpairedEntry, UnpairedEntry.participant_id == Participant.id)).one()
    assert bye is not None
    return tournament, pairs, bye


def _withdraw(database: Database, tournament: Tournament, start_number: int) -> None:
    with database.transaction() as session:
        participant = session.scalars(select(Participant).where(
            Participant.tournament_id == tournament.id,
            Participant.start_number == start_number)).one()
        participant.withdrawn_on = dt.date(2026, 9, 5)
        participant.withdrawal_reason = "illness"


@pytest.fixture
def broken(database: Database, make_tournament: Callable[..., Tournament],
           organizer_client: FlaskClient) -> Round1:
    tournament, pairs, bye = _published_round(database, make_tournament, organizer_client)
    (white, black), standing = pairs[0], pairs[1]
    _withdraw(database, tournament, black)
    return Round1(tournament, f"/tournaments/{tournament.code}/rounds/1/redraw", black, white,
                  bye, standing)


def _counts(database: Database) -> dict[str, int]:
    with database.session() as session:
        return {model.__name__: session.scalar(select(func.count()).select_from(model)) or 0
                for model in (Game, UnpairedEntry, OutboxMessage, AuditEntry)}


def _fingerprint(page: str) -> str:
    found = re.search(r'name="fingerprint" type="hidden" value="([0-9a-f]+)"', page)
    assert found, page
    return found.group(1)


def test_every_role_on_the_redraw_route(
    database: Database, broken: Round1, app: Flask, login: Callable[..., FlaskClient],
    organizer_client: FlaskClient,
) -> None:
    """Anonymous: to the login page; a player, a steward (serving or not), a referee not serving
    this tournament: refused, GET and POST, nothing changes; the organizer and the tournament's
    referee: shown the plan."""
    before = _counts(database)
    anonymous = app.test_client()
    for method in ("GET", "POST"):
        answer = anonymous.open(broken.page, method=method, data={"fingerprint": "x"})
        assert answer.status_code == 302 and "/login" in answer.headers["Location"]
    serving_steward = login(Role.STEWARD, login="steward")
    _serve(database, broken.tournament, "steward", Role.STEWARD)
    refused = {
        "player": login(Role.PLAYER),
        "steward": login(Role.STEWARD),
        "serving steward": serving_steward,
        "referee elsewhere": login(Role.REFEREE),
    }
    for who, client in refused.items():
        assert client.get(broken.page).status_code == 403, who
        assert client.post(broken.page, data={"fingerprint": "x"}).status_code == 403, who
    assert _counts(database) == before
    referee = login(Role.REFEREE, login="referee")
    _serve(database, broken.tournament, "referee", Role.REFEREE)
    for client in (organizer_client, referee):
        page = _english(client).get(broken.page)
        assert page.status_code == 200 and "Apply the redraw" in page.get_data(as_text=True)
    assert _counts(database) == before
    rounds = organizer_client.get(f"/tournaments/{broken.tournament.code}/rounds")
    assert broken.page in rounds.get_data(as_text=True)
    assert broken.page not in _english(serving_steward).get(
        f"/tournaments/{broken.tournament.code}/rounds").get_data(as_text=True)


def test_the_director_sees_what_changes_then_applies_it(
    database: Database, broken: Round1, organizer_client: FlaskClient,
) -> None:
    page = _english(organizer_client).get(broken.page).get_data(as_text=True)
    cancelled = re.search(r'<tr class="cancelled">(.*?)</tr>', page, flags=re.S)
    added = re.search(r'<tr class="added">(.*?)</tr>', page, flags=re.S)
    assert cancelled and f"№{broken.partner} " in cancelled.group(1)
    assert f"№{broken.withdrawn} " in cancelled.group(1)
    assert added and f"№{broken.partner} " in added.group(1) and f"№{broken.bye} " in added.group(1)
    assert "1 game(s) of the round stand unchanged" in page
    assert "Bye (+):" in page and f"№{broken.bye} " in page
    with database.session() as session:
        old_game = session.scalars(select(Game).join(Participant, Game.black_id == Participant.id)
                                   .where(Participant.start_number == broken.withdrawn)).one().id
    applied = organizer_client.post(broken.page, data={"fingerprint": _fingerprint(page)})
    assert applied.status_code == 302 and "/rounds#round-1" in applied.headers["Location"]
    shown = organizer_client.get(applied.headers["Location"]).get_data(as_text=True)
    assert "Round 1 redrawn: 1 game(s) cancelled, 1 paired instead, 2 letter(s) queued." in shown

    with database.session() as session:
        games = session.scalars(select(Game).where(Game.round == 1)).all()
        pairs = {frozenset((g.white.start_number, g.black.start_number)) for g in games}
        assert pairs == {frozenset(broken.standing), frozenset((broken.partner, broken.bye))}
        assert all(g.state is GameState.NOT_STARTED for g in games)
        assert session.get(Game, old_game) is None
        assert session.scalars(select(UnpairedEntry).where(
            UnpairedEntry.kind == UnpairedKind.BYE)).all() == []
        paired = session.scalars(select(PairedRound)).one()
        assert paired.draw["bye"] is None and len(paired.draw["pairs"]) == 2
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "round.redraw")).one()
        assert entry.rule == "002; 004"
        assert entry.detail["cancelled"][0]["game"] == old_game
        assert entry.detail["touched"] == sorted((broken.partner, broken.bye))
        assert entry.detail["letters"] == 2
        sheets = session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind == "round_sheet").order_by(OutboxMessage.id)).all()
        # The five first round sheets (four players and the bye) stay; the old game's lose
        # their link to it; two new sheets go to the partner and the former bye.
        assert len(sheets) == 7
        assert [s.game_id for s in sheets[:5]].count(None) == 3  # bye + the two of the old game
        new_sheets = sheets[5:]
        assert {s.game_id for s in new_sheets} == {g.id for g in games} - {
            g.id for g in games if {g.white.start_number, g.black.start_number} == set(
                broken.standing)}
        emails = {
            p.player.email for p in session.scalars(select(Participant).where(
                Participant.start_number.in_((broken.partner, broken.bye))))}
        assert {s.recipient for s in new_sheets} == emails
        assert all("тур 1 — новая жеребьёвка" in s.subject for s in new_sheets)
        assert all("заменяет прежний лист тура" in s.body_text for s in new_sheets)
    # Redrawn once, the round now breaks nothing: a second redraw is refused citing 004.
    again = organizer_client.get(broken.page)
    assert again.status_code == 409
    assert "breaks no absolute criterion, so its published draw stands (004)" in again.get_data(
        as_text=True)


def test_a_round_that_breaks_nothing_is_not_redrawn(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient,
) -> None:
    tournament, _pairs, _bye = _published_round(database, make_tournament, organizer_client)
    page = f"/tournaments/{tournament.code}/rounds/1/redraw"
    before = _counts(database)
    shown = _english(organizer_client).get(page)
    assert shown.status_code == 409
    text = shown.get_data(as_text=True)
    assert "round 1 breaks no absolute criterion, so its published draw stands (004)" in text
    assert "Apply the redraw" not in text
    forced = organizer_client.post(page, data={"fingerprint": "0" * 32}, follow_redirects=True)
    assert "breaks no absolute criterion" in forced.get_data(as_text=True)
    assert _counts(database) == before
    unpublished = organizer_client.get(f"/tournaments/{tournament.code}/rounds/2/redraw")
    assert unpublished.status_code == 409
    assert "round 2 is not published: a preview is paired again, not redrawn (004)" in (
        unpublished.get_data(as_text=True))


def test_a_round_whose_game_has_begun_is_not_redrawn(
    database: Database, broken: Round1, organizer_client: FlaskClient,
) -> None:
    with database.transaction() as session:
        game = session.scalars(select(Game).join(Participant, Game.black_id == Participant.id)
                               .where(Participant.start_number == broken.withdrawn)).one()
        game.state = GameState.IN_PLAY
    before = _counts(database)
    shown = _english(organizer_client).get(broken.page)
    assert shown.status_code == 409
    assert (f"game(s) {broken.partner}-{broken.withdrawn} have begun and their moves stand; a "
            "player who left a game in play is a withdrawal (000 §3.14), not a redraw (004)"
            in shown.get_data(as_text=True))
    assert _counts(database) == before


def test_a_plan_that_changed_since_it_was_shown_is_not_applied(
    database: Database, broken: Round1, organizer_client: FlaskClient,
) -> None:
    page = _english(organizer_client).get(broken.page).get_data(as_text=True)
    shown = _fingerprint(page)
    _withdraw(database, broken.tournament, broken.standing[0])  # the other game breaks too
    before = _counts(database)
    answer = organizer_client.post(broken.page, data={"fingerprint": shown}, follow_redirects=True)
    assert "round 1 changed since the redraw was shown; look at it again" in answer.get_data(
        as_text=True)
    assert _counts(database) == before
    assert organizer_client.post(broken.page, data={}).status_code == 400  # no plan named


def test_the_redraw_form_needs_its_csrf_token(
    settings: Settings, database: Database, broken: Round1, make_user: Callable[..., User],
) -> None:
    app = create_app(replace(settings, csrf_enabled=True))
    make_user("director", Role.ORGANIZER)
    client = app.test_client()
    login_page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login_page)
    assert token
    client.post("/login", data={"login": "director", "password": "correct horse battery",
                                "csrf_token": token.group(1)})
    page = client.get(broken.page).get_data(as_text=True)
    before = _counts(database)
    assert client.post(broken.page, data={"fingerprint": _fingerprint(page)}).status_code == 400
    assert _counts(database) == before


def test_the_cli_shows_then_applies_the_same_redraw(
    db_url: str, database: Database, broken: Round1,
) -> None:
    from click.testing import CliRunner

    from corrmail.cli import main

    env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "x",
           "CORRMAIL_TODAY": "2026-09-06"}
    runner = CliRunner()
    code = broken.tournament.code
    shown = runner.invoke(main, ["round", "redraw", code, "1"], env=env)
    assert shown.exit_code == 0, shown.output
    assert f"cancel: {broken.partner} - {broken.withdrawn}" in shown.output
    assert "1 game(s) stand" in shown.output
    found = re.search(r"fingerprint: ([0-9a-f]+)", shown.output)
    assert found
    wrong = runner.invoke(main, ["round", "redraw", code, "1", "--apply", "0" * 32], env=env)
    assert wrong.exit_code == 1 and "changed since the redraw was shown" in wrong.output
    applied = runner.invoke(main, ["round", "redraw", code, "1", "--apply", found.group(1)],
                            env=env)
    assert applied.exit_code == 0, applied.output
    assert "round 1 redrawn — 1 cancelled, 1 paired, 2 letters queued" in applied.output
    again = runner.invoke(main, ["round", "redraw", code, "1"], env=env)
    assert again.exit_code == 1 and "its published draw stands (004)" in again.output
