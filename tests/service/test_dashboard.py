"""The directors' dashboard: clocks, filters, sort, and a fixed number of queries
whatever the number of games."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from corrmail.config import Settings
from corrmail.db import Database
from corrmail.models import Role, Tournament
from corrmail.play.postcards import PostcardCheck
from corrmail.tournaments.dashboard import DashboardFilter, DashboardSort, dashboard_rows

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


def test_clocks_are_the_game_pages_clocks(database: Database) -> None:
    """The dashboard reads stored game states; every figure it shows must still be the one
    the game's own page computes from its ORM letters: corrections, penalties and breaks too."""
    from corrmail.demo.federation import FederationSpec, generate_federation
    from corrmail.games.page import game_clock
    from corrmail.games.state import StoredGameState
    from corrmail.games.view import GameView
    from corrmail.models import Break, Game, Letter, Penalty

    generate_federation(database, FederationSpec(players=6, tournaments=1, players_per_tournament=6,
                                                 start=dt.date(2026, 3, 2)))
    with database.transaction() as session:
        tournament = session.scalars(select(Tournament).order_by(Tournament.id.desc())).first()
        assert tournament is not None
        games = sorted(tournament.games, key=lambda game: game.id)
        corrected, penalised = games[0].letters[1], games[1].letters[2]
        # 002 §4.2.5: a correction re-enters the letter with another dispatch date.
        assert corrected.sent is not None and corrected.sender_id is not None
        session.add(Letter(game_id=corrected.game_id, sequence=len(games[0].letters) + 1,
                           sender_id=corrected.sender_id, channel=corrected.channel,
                           partner_sent=corrected.partner_sent, received=corrected.received,
                           sent=corrected.sent + dt.timedelta(days=3),
                           moves_text=corrected.moves_text, corrects_letter_id=corrected.id))
        assert penalised.sender_id is not None
        session.add(Penalty(game_id=penalised.game_id, participant_id=penalised.sender_id, days=5,
                            rule="002 §4.2.11", charged_on=dt.date(2026, 5, 1),
                            letter_id=penalised.id))
        session.add(Break(participant_id=games[2].white_id, start_date=dt.date(2026, 4, 1),
                          end_date=dt.date(2026, 4, 20), announced_on=dt.date(2026, 3, 20)))
    with database.transaction() as session:
        tournament = session.get(Tournament, tournament.id)
        assert tournament is not None
        rows = dashboard_rows(session, tournament, TODAY)
        assert len(rows) == 30 and all(row.clock is not None for row in rows)
        # The dashboard reads the stored state (no chart): every figure it shows must be the
        # figure of the game page's clock, replayed from the whole ledger.
        figures = ("to_move", "white_used", "black_used", "days_left", "last_safe_date",
                   "repeat_due", "today", "near_overstep", "repeat_overdue", "overstepped")
        pages = {}
        for row in rows:
            game = session.get(Game, row.game.id)
            assert game is not None
            page = pages[game.id] = game_clock(GameView(game), TODAY)
            assert ({name: getattr(row.clock, name) for name in figures}
                    == {name: getattr(page, name) for name in figures}), f"game {game.id}"
            # The break days the dashboard counts over are the chart's.
            state = session.get(StoredGameState, game.id)
            assert state is not None
            assert state.break_days == ";".join(
                f"{first.isoformat()}/{last.isoformat()}"
                for first, last in page.chart.break_calendar.intervals())
        # The three changes above reach the replay and, through the stored state, the dashboard.
        first, second, third = (pages[game.id] for game in games[:3])
        assert first.chart.rows[1].declared_sent == corrected.sent + dt.timedelta(days=3)
        assert [(charge.days, charge.rule) for charge in second.chart.charges
                if charge.rule == "002 §4.2.11"] == [(5, "002 §4.2.11")]
        assert third.chart.break_calendar.intervals() == [
            (dt.date(2026, 4, 1), dt.date(2026, 4, 20))]
        by_game = {row.game.id: row.clock for row in rows}
        assert by_game[games[1].id] is not None
        assert (by_game[games[1].id].white_used, by_game[games[1].id].black_used) == (
            second.white_used, second.black_used)
        stored_third = session.get(StoredGameState, games[2].id)
        assert stored_third is not None and stored_third.break_days == "2026-04-01/2026-04-20"


def test_pages_hold_every_game_once(paired: Callable[..., int], database: Database,
                                    login: Callable[..., FlaskClient],
                                    card: Callable[..., PostcardCheck]) -> None:
    """A 506-game dashboard is paged; the pages together show every game once, the
    links keep the filter and sort, and ``per_page=all`` shows every game on one page."""
    import re

    tournament_id = paired(players=12)  # 66 games
    _play_openings(database, tournament_id, card)
    with database.transaction() as session:
        code = session.scalar(select(Tournament.code).where(Tournament.id == tournament_id))
    organizer = login(Role.ORGANIZER)
    game_link = re.compile(r'<td><a href="/games/(\d+)"')

    def shown(query: str) -> tuple[list[int], str]:
        response = organizer.get(f"/dashboard/{code}?{query}")
        assert response.status_code == 200, query
        page = response.get_data(as_text=True)
        return [int(game_id) for game_id in game_link.findall(page)], page

    whole, page = shown("per_page=all&sort=days_left")
    assert len(whole) == 66 and len(set(whole)) == 66
    assert 'class="pager' not in page
    first, page = shown("per_page=50&sort=days_left")
    assert len(first) == 50 and first == whole[:50]
    assert "страница 1 из 2, партии 1–50" in page  # page 1 of 2, games 1–50
    assert 'rel="next"' in page and 'rel="prev"' not in page
    following = f"/dashboard/{code}?filter=all&amp;sort=days_left&amp;per_page=50&amp;page=2"
    assert following in page
    second, page = shown("filter=all&sort=days_left&per_page=50&page=2")
    assert second == whole[50:] and "страница 2 из 2, партии 51–66" in page
    assert 'rel="prev"' in page and 'rel="next"' not in page
    # The default page holds 100 rows: this tournament fits on it, unpaged.
    default, page = shown("")
    assert len(default) == 66 and 'class="pager' not in page
    # A filter pages what it keeps; the form keeps the chosen page size.
    overdue, page = shown("filter=repeat_overdue&per_page=50")
    assert len(overdue) == 3 and '<option value="50" selected>' in page


def test_attention_counts_cover_every_page(paired: Callable[..., int], database: Database,
                                           login: Callable[..., FlaskClient],
                                           card: Callable[..., PostcardCheck]) -> None:
    tournament_id = paired(players=12)
    _play_openings(database, tournament_id, card)
    with database.transaction() as session:
        code = session.scalar(select(Tournament.code).where(Tournament.id == tournament_id))
    organizer = login(Role.ORGANIZER)
    # Sorted by round, the three overdue games are all on page 1 of 50-row pages; the count
    # on page 2 (and under another filter) still says 3, and links to them.
    page = organizer.get(f"/dashboard/{code}?filter=all&per_page=50&page=2").get_data(as_text=True)
    assert "пора повторить ход: 3" in page  # repeat overdue: 3
    assert f'href="/dashboard/{code}?filter=repeat_overdue&amp;sort=round&amp;per_page=50"' in page
    finished = organizer.get(f"/dashboard/{code}?filter=finished").get_data(as_text=True)
    assert finished.count('<tr class="') == 0 and "пора повторить ход: 3" in finished


@pytest.mark.parametrize(("query", "status", "message"), [
    ("page=0", 400, "«0» — не номер страницы (1, 2, …)."),
    ("page=two", 400, "«two» — не номер страницы (1, 2, …)."),
    ("page=-1", 400, "«-1» — не номер страницы (1, 2, …)."),
    ("per_page=7", 400, "per_page — одно из: 100, 50, 200, all"),
    ("per_page=", 200, ""),
    ("page=3&per_page=50", 404, "Страницы 3 нет: этих партий на панели страниц — 1."),
    ("filter=bogus", 400, "На панели нет фильтра «bogus»; фильтры: all, open, overstepped, "
                          "near_overstep, repeat_overdue, record_missing, cases, to_forward, "
                          "finished."),
    ("sort=colour", 400, "На панели нет сортировки «colour»; сортировки: round, days_left, "
                         "days_used, player."),
])
def test_bad_paging_filter_or_sort_is_refused_in_the_readers_language(paired: Callable[..., int], login: Callable[..., FlaskClient],
                               database: Database, query: str, status: int, message: str) -> None:
    tournament_id = paired(players=6)
    with database.transaction() as session:
        code = session.scalar(select(Tournament.code).where(Tournament.id == tournament_id))
    response = login(Role.ORGANIZER).get(f"/dashboard/{code}?{query}")
    assert response.status_code == status
    page = response.get_data(as_text=True)
    assert message in page
    if status != 200:  # the reader's language on the page and in its reason alike
        assert "unknown" not in page and "must be" not in page and "no page" not in page


def test_page_of_rows() -> None:
    from corrmail.tournaments.dashboard import DashboardPage, PageOutOfRange

    rows: list[object] = list(range(7))
    page = DashboardPage.of(rows, 3, 3)  # type: ignore[arg-type]
    assert (list(page.rows), page.pages, page.first, page.total) == ([6], 3, 7, 7)
    assert DashboardPage.of([], 1, 100).pages == 1
    assert list(DashboardPage.of(rows, 1, None).rows) == rows  # type: ignore[arg-type]
    with pytest.raises(PageOutOfRange, match="no page 4: the dashboard has 3 page"):
        DashboardPage.of(rows, 4, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least one row"):
        DashboardPage.of(rows, 1, 0)  # type: ignore[arg-type]


def test_an_overstep_reads_as_an_overstep_on_every_page(
        paired: Callable[..., int], database: Database, login: Callable[..., FlaskClient],
        card: Callable[..., PostcardCheck], app: Flask) -> None:
    """Negative days left are an overstep (002 §4.3.5), not "near" one: the dashboard counts
    and words them as such («просрочка N дн.»), and the game's page says the same figure."""
    tournament_id = paired(players=6)
    _play_openings(database, tournament_id, card)
    late = dt.date(2027, 1, 20)
    with database.session() as session:
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        code = tournament.code
        rows = dashboard_rows(session, tournament, late)
        over = [row for row in rows if row.days_left is not None and row.days_left < 0]
        assert over
        assert all(row.clock is not None and row.clock.overstepped
                   and not row.clock.near_overstep for row in over)
        listed = dashboard_rows(session, tournament, late, wanted=DashboardFilter.OVERSTEPPED)
        assert {row.game.id for row in listed} == {row.game.id for row in over}
        near = dashboard_rows(session, tournament, late, wanted=DashboardFilter.NEAR_OVERSTEP)
        assert not {row.game.id for row in near} & {row.game.id for row in over}
        first = over[0]
    app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(app.config["CORRMAIL_SETTINGS"],
                                                          today=late)
    organizer = login(Role.ORGANIZER)
    page = organizer.get(f"/dashboard/{code}").get_data(as_text=True)
    assert f"просрочка {-first.days_left} дн." in page
    assert re.search(r"-\d+\s*⚠", page) is None
    game_page = organizer.get(f"/games/{first.game.id}").get_data(as_text=True)
    assert f"просрочка {-first.days_left} дн." in game_page
