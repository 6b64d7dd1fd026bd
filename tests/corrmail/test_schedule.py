"""Pairing a round robin from scoring's Berger table; start sheets (002 §4.3.2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import Game, Role, Tournament, TournamentSystem
from corrmail.tournaments.start_sheets import PairingRefused, pair_round_robin, start_sheets
from scoring.roundrobin import berger_table


def test_single_round_robin_follows_the_berger_table(
    database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    tournament_id = make_tournament(players=6).id
    with database.transaction() as session:
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        games = pair_round_robin(session, tournament, None)
        numbers = {p.id: p.start_number for p in tournament.participants}
        paired = [(g.round, numbers[g.white_id], numbers[g.black_id]) for g in games]
    expected = [(r.number, p.white, p.black) for r in berger_table(6) for p in r.pairings]
    assert paired == expected
    assert len(paired) == 15


def test_double_round_robin_plays_everyone_twice_with_both_colours(
    database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    tournament_id = make_tournament(players=5, system=TournamentSystem.ROUND_ROBIN_DOUBLE).id
    with database.transaction() as session:
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        games = pair_round_robin(session, tournament, None)
    assert len(games) == 20
    assert len({(g.white_id, g.black_id) for g in games}) == 20


@pytest.mark.parametrize(
    ("players", "overrides", "reason"),
    [
        (6, {"system": TournamentSystem.SWISS, "pairing_system": "buchholz"}, "only a round robin"),
        (1, {}, "at least two players"),
    ],
)
def test_pairing_is_refused_with_the_reason(
    database: Database,
    make_tournament: Callable[..., Tournament],
    players: int,
    overrides: dict[str, object],
    reason: str,
) -> None:
    tournament_id = make_tournament(players=players, **overrides).id
    with database.session() as session:
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        with pytest.raises(PairingRefused, match=reason):
            pair_round_robin(session, tournament, None)


def test_pairing_twice_is_refused(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    make_tournament(players=4, code="T-1")
    assert organizer_client.post("/tournaments/T-1/pair").status_code == 302
    page = organizer_client.get("/tournaments/T-1").get_data(as_text=True)
    assert "Составлено партий: 6." in page
    organizer_client.post("/tournaments/T-1/pair")
    page = organizer_client.get("/tournaments/T-1").get_data(as_text=True)
    assert "пары уже составлены (партий: 6)" in page
    with database.session() as session:
        assert len(session.scalars(select(Game)).all()) == 6


def test_start_sheets_list_partners_colours_and_addresses(
    organizer_client: FlaskClient, demo_tournament: Tournament, database: Database
) -> None:
    with database.session() as session:
        tournament = session.get(Tournament, demo_tournament.id)
        assert tournament is not None
        sheets = start_sheets(session, tournament)
        assert [len(sheet.games) for sheet in sheets] == [5] * 6
        first = sheets[0]
        assert {g.colour for g in first.games} == {"white", "black"}
        partner_numbers = sorted(g.partner.start_number or 0 for g in first.games)
        assert partner_numbers == [2, 3, 4, 5, 6]
    page = organizer_client.get(f"/tournaments/{demo_tournament.code}/start-sheets").get_data(
        as_text=True
    )
    assert "Начало игры: 01.09.2026." in page
    assert "Санкт-Петербург, Невский пр., 30, кв. 4" in page
    assert page.count('class="start-sheet"') == 6


def test_start_sheets_are_for_officials(
    login: Callable[..., FlaskClient], demo_tournament: Tournament
) -> None:
    path = f"/tournaments/{demo_tournament.code}/start-sheets"
    assert login(Role.PLAYER).get(path).status_code == 403
    assert login(Role.STEWARD).get(path).status_code == 403  # not this tournament's steward
    assert login(Role.ORGANIZER).get(path).status_code == 200
