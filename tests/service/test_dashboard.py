"""The directors' dashboard (issue 6 §5): clocks, filters, sort, and a fixed number of queries
whatever the number of games."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from flask.testing import FlaskClient
from sqlalchemy import event, select

from corrmail.config import Settings
from corrmail.dashboard import DashboardFilter, DashboardSort, dashboard_rows
from corrmail.db import Database
from corrmail.models import Role, Tournament
from corrmail.postal import PostcardCheck

TODAY = dt.date(2026, 10, 20)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, secret_key="test-secret", csrf_enabled=False,
                    testing=True, today=TODAY)


@contextmanager
def counted(database: Database) -> Iterator[list[str]]:
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(database.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(database.engine, "before_cursor_execute", count)


def _play_openings(database: Database, tournament_id: int, card: Callable[..., PostcardCheck]) -> None:
    with database.transaction() as session:
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        ids = [game.id for game in tournament.games]
    for game_id in ids[:3]:
        card(game_id, "white", dt.date(2026, 9, 3), moves_text="1. c3-d4", sent="01.09.26")
    # A reply in the first game; the second waits for Black since 1 September.
    card(ids[0], "black", dt.date(2026, 9, 10), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
         received="04.09", sent="08.09")


def test_rows_show_who_moves_and_flag_overdue_repeats(
        paired: Callable[..., int], database: Database, card: Callable[..., PostcardCheck]) -> None:
    tournament_id = paired(players=6)
    _play_openings(database, tournament_id, card)
    with database.transaction() as session:
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        rows = dashboard_rows(session, tournament, TODAY)
        assert len(rows) == 15
        first = rows[0]
        assert first.to_move is not None and first.to_move.id == first.game.white_id
        assert first.clock is not None and first.clock.black_used == 4
        # Moves unanswered for 30 days are repeated (002 §4.3.4): Black's of 8 September,
        # White's of 1 September.
        overdue = dashboard_rows(session, tournament, TODAY, wanted=DashboardFilter.REPEAT_OVERDUE)
        assert [row.clock.repeat_due for row in overdue if row.clock] == [
            dt.date(2026, 10, 8), dt.date(2026, 10, 1), dt.date(2026, 10, 1)]
        assert dashboard_rows(session, tournament, dt.date(2026, 9, 30),
                              wanted=DashboardFilter.REPEAT_OVERDUE) == []
        by_left = dashboard_rows(session, tournament, TODAY, sort=DashboardSort.DAYS_LEFT)
        lefts = [row.days_left for row in by_left if row.days_left is not None]
        assert lefts == sorted(lefts)
        assert dashboard_rows(session, tournament, TODAY, wanted=DashboardFilter.FINISHED) == []


def test_query_count_does_not_grow_with_games(
        paired: Callable[..., int], database: Database, card: Callable[..., PostcardCheck]) -> None:
    small, large = paired(players=4), paired(players=10)
    _play_openings(database, small, card)
    _play_openings(database, large, card)
    counts = []
    for tournament_id in (small, large):
        with database.transaction() as session:
            tournament = session.get(Tournament, tournament_id)
            assert tournament is not None
            with counted(database) as statements:
                dashboard_rows(session, tournament, TODAY)
            counts.append(len(statements))
    assert counts[0] == counts[1] <= 10


def test_page_filters_and_access(paired: Callable[..., int], database: Database,
                                 login: Callable[..., FlaskClient],
                                 card: Callable[..., PostcardCheck]) -> None:
    tournament_id = paired(players=6)
    _play_openings(database, tournament_id, card)
    with database.transaction() as session:
        code = session.scalar(select(Tournament.code).where(Tournament.id == tournament_id))
    organizer = login(Role.ORGANIZER)
    page = organizer.get(f"/dashboard/{code}").get_data(as_text=True)
    assert page.count('<tr class="') == 15
    overdue = organizer.get(f"/dashboard/{code}?filter=repeat_overdue&sort=days_left")
    assert overdue.get_data(as_text=True).count('<tr class="') == 3
    assert organizer.get(f"/dashboard/{code}?filter=bogus").status_code == 400
    assert organizer.get("/dashboard/NO-SUCH").status_code == 404
    assert code in organizer.get("/dashboard/").get_data(as_text=True)
    assert login(Role.STEWARD).get(f"/dashboard/{code}").status_code == 403
    assert login(Role.PLAYER).get(f"/dashboard/{code}").status_code == 403
