"""The Rounds page (directors pair, preview and publish; officials read; players are refused)
and the Teams page (the organizer enters teams; everyone reads them and the team standings)."""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import (
    Game,
    PairedRound,
    Role,
    Team,
    Tournament,
    TournamentOfficial,
    TournamentSystem,
    User,
)


def _english(client: FlaskClient) -> FlaskClient:
    assert client.post("/locale", data={"locale": "en"}).status_code == 302
    return client


def _serve(database: Database, tournament: Tournament, login: str, role: Role) -> None:
    with database.transaction() as session:
        user = session.scalars(select(User).where(User.login == login)).one()
        session.add(TournamentOfficial(tournament_id=tournament.id, user_id=user.id, role=role))


def test_rounds_page_roles(
    database: Database, make_tournament: Callable[..., Tournament],
    login: Callable[..., FlaskClient], organizer_client: FlaskClient, player_client: FlaskClient,
) -> None:
    tournament = make_tournament(players=5, system=TournamentSystem.SWISS,
                                 pairing_system="coefficients")
    page = f"/tournaments/{tournament.code}/rounds"
    assert player_client.get(page).status_code == 403
    assert player_client.post(f"{page}/pair", data={"seed": "1"}).status_code == 403
    assert "/rounds" not in player_client.get(f"/tournaments/{tournament.code}").get_data(
        as_text=True)
    outsider = login(Role.REFEREE, login="elsewhere")
    assert outsider.get(page).status_code == 403
    assert outsider.post(f"{page}/pair", data={"seed": "1"}).status_code == 403
    steward = login(Role.STEWARD, login="steward")
    _serve(database, tournament, "steward", Role.STEWARD)
    reading = _english(steward).get(page)
    assert reading.status_code == 200 and "Pair (preview)" not in reading.get_data(as_text=True)
    assert steward.post(f"{page}/publish").status_code == 403
    with database.session() as session:
        assert session.scalars(select(PairedRound)).all() == []

    russian = organizer_client.get(page).get_data(as_text=True)
    assert "Жеребьёвка следующего тура" in russian
    _english(organizer_client)
    shown = organizer_client.get(f"/tournaments/{tournament.code}").get_data(as_text=True)
    assert f"/tournaments/{tournament.code}/rounds" in shown
    answer = organizer_client.post(f"{page}/pair", data={"seed": "8", "absent": ""})
    assert answer.status_code == 302
    preview = organizer_client.get(page).get_data(as_text=True)
    assert "preview, not published" in preview and "Bye (+):" in preview
    assert "Publish round 1" in preview and "lot seed 8" in preview
    referee = login(Role.REFEREE, login="referee")
    _serve(database, tournament, "referee", Role.REFEREE)
    assert referee.post(f"{page}/publish").status_code == 302
    with database.session() as session:
        assert len(session.scalars(select(Game)).all()) == 2
    published = organizer_client.get(page).get_data(as_text=True)
    assert "published" in published and "Publish round 1" not in published
    refused = organizer_client.post(f"{page}/pair", data={"seed": "2"}, follow_redirects=True)
    assert "unfinished game(s)" in refused.get_data(as_text=True)
    bad = organizer_client.post(f"{page}/pair", data={"absent": "3,x"}, follow_redirects=True)
    assert "start numbers separated by commas" in bad.get_data(as_text=True)


def test_a_previewed_round_reads_in_russian(
    make_tournament: Callable[..., Tournament], organizer_client: FlaskClient,
) -> None:
    """The program and the engine's notes on a Russian page are Russian, with their rules, not
    the code (``buchholz``) and the engine's English."""
    tournament = make_tournament(players=5, system=TournamentSystem.SWISS,
                                 pairing_system="buchholz")
    page = f"/tournaments/{tournament.code}/rounds"
    assert organizer_client.post(f"{page}/pair", data={"seed": "8", "absent": ""}).status_code == 302
    russian = organizer_client.get(page).get_data(as_text=True)
    assert "Программа: по текущему коэффициенту Бухгольца (000 §3.18.7)" in russian
    assert "жребий: у старшего по номеру игрока первой пары — " in russian
    assert "получает свободный тур (+)" in russian
    assert "receives the bye" not in russian and "lot: the first pair" not in russian
    assert "Программа: buchholz" not in russian


def test_rules_form_allows_pairing_before_the_round_ends(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient,
) -> None:
    tournament = make_tournament(players=4, system=TournamentSystem.SWISS, pairing_system="random")
    page = f"/tournaments/{tournament.code}/rounds"
    organizer_client.post(f"{page}/pair", data={"seed": "1"})
    organizer_client.post(f"{page}/publish")
    organizer_client.post(f"{page}/rules", data={"pair_before_finished": "y",
                                                 "team_pairing": "round_robin",
                                                 "team_pairing_system": "",
                                                 "team_schedule": "boards"})
    organizer_client.post(f"{page}/pair", data={"seed": "1"})
    with database.session() as session:
        assert [r.number for r in session.scalars(select(PairedRound).order_by(PairedRound.number))] == [1, 2]


def test_teams_page(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient, player_client: FlaskClient,
) -> None:
    tournament = make_tournament(players=4, system=TournamentSystem.TEAM)
    page = f"/tournaments/{tournament.code}/teams"
    _english(organizer_client)
    _english(player_client)
    bad = organizer_client.post(page, data={"teams": "Odessa: 1, 2\nKyiv 3 4"})
    assert bad.status_code == 422 and "line 2: write the team as" in bad.get_data(as_text=True)
    unknown = organizer_client.post(page, data={"teams": "Odessa: 1, 2\nKyiv: 3, 9"})
    assert unknown.status_code == 422 and "Kyiv: no player no. 9" in unknown.get_data(as_text=True)
    assert player_client.post(page, data={"teams": "A: 1, 2\nB: 3, 4"}).status_code == 403
    with database.session() as session:
        assert session.scalars(select(Team)).all() == []
    assert organizer_client.post(page, data={"teams": "Odessa: 1, 2\nKyiv: 3, 4"}).status_code == 302
    assert player_client.post(f"{page}/pair").status_code == 403
    assert organizer_client.post(f"{page}/pair").status_code == 302
    with database.session() as session:
        games = session.scalars(select(Game)).all()
        assert sorted((g.board, g.white.start_number, g.black.start_number) for g in games) == [
            (1, 1, 3), (2, 4, 2)]
    reading = player_client.get(page).get_data(as_text=True)
    assert "Odessa" in reading and "Team standings" in reading and "Save the teams" not in reading
    # Tiebreak columns are headed by the rulebook's names, the rule in the tooltip (003 §14.2).
    head = reading[reading.index('<table class="team-standings">'):reading.index("</thead>")]
    assert '(000 §3.17.6, 003 §10.3)">Direct encounter</th>' in head
    assert "direct_encounter" not in head and "team_sb" not in head


def test_team_swiss_preview_on_the_rounds_page(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient,
) -> None:
    tournament = make_tournament(players=6, system=TournamentSystem.TEAM)
    _english(organizer_client)
    base = f"/tournaments/{tournament.code}"
    organizer_client.post(f"{base}/teams", data={"teams": "Odessa: 1, 2\nKyiv: 3, 4\nLviv: 5, 6"})
    refused = organizer_client.post(f"{base}/rounds/rules", follow_redirects=True, data={
        "team_pairing": "swiss", "team_pairing_system": "", "team_schedule": "boards"})
    assert "000 §3.18.3" in refused.get_data(as_text=True)
    organizer_client.post(f"{base}/rounds/rules", data={
        "team_pairing": "swiss", "team_pairing_system": "coefficients",
        "team_schedule": "boards"})
    organizer_client.post(f"{base}/rounds/pair", data={"seed": "5"})
    page = organizer_client.get(f"{base}/rounds").get_data(as_text=True)
    assert page.count('class="board-game"') == 2 and "Bye (+):" in page
    assert "Publish round 1" in page
