"""The steward's schedule (002 §4.1.8) and the versioned archive."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from corrmail.bulletins import (
    ScheduleError,
    issue,
    load_tournament,
    rebuild,
    reissue,
    run_due,
    set_schedule,
)
from corrmail.bulletins.timetable import following
from corrmail.cli import main
from corrmail.models import GameResult, OutboxMessage, Tournament
from corrmail.models.bulletins import BulletinIssue, BulletinSchedule, ScheduleUnit
from timekeeping import NaiveDatetimeError


@pytest.mark.parametrize(("day", "every", "unit", "expected"), [
    (dt.date(2027, 1, 31), 1, ScheduleUnit.MONTH, dt.date(2027, 2, 28)),
    (dt.date(2028, 1, 31), 1, ScheduleUnit.MONTH, dt.date(2028, 2, 29)),
    (dt.date(2026, 12, 1), 2, ScheduleUnit.WEEK, dt.date(2026, 12, 15)),
    (dt.date(2026, 12, 31), 1, ScheduleUnit.DAY, dt.date(2027, 1, 1)),
])
def test_following_dates(day: dt.date, every: int, unit: ScheduleUnit, expected: dt.date) -> None:
    assert following(day, every, unit) == expected


@pytest.mark.parametrize(("every", "unit", "next_on", "field"), [
    (0, "month", dt.date(2026, 10, 1), "every"),
    (13, "month", dt.date(2026, 10, 1), "every"),
    (1, "fortnight", dt.date(2026, 10, 1), "unit"),
    (1, "month", dt.date(2030, 1, 1), "next_on"),
])
def test_bad_schedules_are_refused_with_the_rule(league: Any, every: int, unit: str,
                                                 next_on: dt.date, field: str) -> None:
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        with pytest.raises(ScheduleError, match="002 §4.1.8") as error:
            set_schedule(session, tournament, every=every, unit=unit, next_on=next_on)
        assert error.value.field == field


def test_due_bulletins_are_issued_as_of_their_dates(league: Any) -> None:
    for ply in range(6):
        league.send_move(3, dt.date(2026, 9, 2) + dt.timedelta(days=9 * ply))
    league.finish(3, GameResult.BLACK_WIN, dt.date(2026, 10, 20))
    with league.database.transaction() as session:
        set_schedule(session, load_tournament(session, league.code), every=1, unit="month",
                     next_on=dt.date(2026, 10, 1))
    # The job did not run for two months: each missed date gets its own bulletin.
    with league.database.transaction() as session:
        issued = run_due(session, league.writer(), dt.date(2026, 11, 15))
        assert [(row.number, row.as_of) for row in issued] == [
            (1, dt.date(2026, 10, 1)), (2, dt.date(2026, 11, 1))]
        assert [len(row.content["finished"]) for row in issued] == [0, 1]
        schedule = session.get(BulletinSchedule, league.tournament_id)
        assert schedule is not None and schedule.next_on == dt.date(2026, 12, 1)
    with league.database.transaction() as session:
        assert run_due(session, league.writer(), dt.date(2026, 11, 30)) == []
        letters = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "bulletin"))
        assert len(letters.all()) == 2 * (4 + 2)  # four players, the steward and the referee


def _twin_in(session: Any, code: str, time_zone: str) -> Tournament:
    """A second tournament with no entries yet: its bulletin is a heading and empty tables."""
    twin = Tournament(code=code, title="Кубок заочников", game_type="russian",
                      system="round_robin_single", channel="post",
                      start_date=dt.date(2026, 9, 1), end_date=dt.date(2027, 8, 31),
                      status="running", time_zone=time_zone)
    session.add(twin)
    session.flush()
    return twin


def test_due_is_judged_on_each_tournaments_own_date(league: Any) -> None:
    """"1 December" is 1 December where the tournament is played (002 §4.1.8): at 12:30 UTC on
    30 November it is already 1 December in Auckland (UTC+13) but still 30 November in
    Los Angeles (UTC−8), whose bulletin waits until its own midnight."""
    with league.database.transaction() as session:
        auckland = load_tournament(session, league.code)
        auckland.time_zone = "Pacific/Auckland"
        los_angeles = _twin_in(session, "ЗКБ-2", "America/Los_Angeles")
        for tournament in (auckland, los_angeles):
            set_schedule(session, tournament, every=1, unit="month", next_on=dt.date(2026, 12, 1))
    just_past_auckland_midnight = dt.datetime(2026, 11, 30, 12, 30, tzinfo=dt.UTC)
    with league.database.transaction() as session:
        issued = run_due(session, league.writer(), just_past_auckland_midnight)
        assert [(row.tournament.code, row.as_of) for row in issued] == [
            (league.code, dt.date(2026, 12, 1))]
    before_los_angeles_midnight = dt.datetime(2026, 12, 1, 7, 59, tzinfo=dt.UTC)
    with league.database.transaction() as session:
        assert run_due(session, league.writer(), before_los_angeles_midnight) == []
    just_past_los_angeles_midnight = dt.datetime(2026, 12, 1, 8, 1, tzinfo=dt.UTC)
    with league.database.transaction() as session:
        issued = run_due(session, league.writer(), just_past_los_angeles_midnight)
        assert [(row.tournament.code, row.as_of) for row in issued] == [
            ("ЗКБ-2", dt.date(2026, 12, 1))]
        schedules = session.scalars(select(BulletinSchedule)).all()
        assert {s.next_on for s in schedules} == {dt.date(2027, 1, 1)}


def test_a_replayed_date_is_the_same_date_in_every_tournament(league: Any) -> None:
    """``CORRMAIL_TODAY`` / ``--today`` name a date, not an instant: no time zone applies."""
    with league.database.transaction() as session:
        auckland = load_tournament(session, league.code)
        auckland.time_zone = "Pacific/Auckland"
        los_angeles = _twin_in(session, "ЗКБ-2", "America/Los_Angeles")
        for tournament in (auckland, los_angeles):
            set_schedule(session, tournament, every=1, unit="month", next_on=dt.date(2026, 12, 1))
    with league.database.transaction() as session:
        assert run_due(session, league.writer(), dt.date(2026, 11, 30)) == []
        issued = run_due(session, league.writer(), dt.date(2026, 12, 1))
        assert sorted(row.tournament.code for row in issued) == [league.code, "ЗКБ-2"]


def test_an_instant_without_a_time_zone_is_refused(league: Any) -> None:
    with league.database.transaction() as session:
        set_schedule(session, load_tournament(session, league.code), every=1, unit="month",
                     next_on=dt.date(2026, 12, 1))
        with pytest.raises(NaiveDatetimeError, match="no time zone"):
            run_due(session, league.writer(), dt.datetime(2026, 12, 1, 12, 0))


def test_cli_runs_due_bulletins(league: Any, db_url: str, monkeypatch: Any) -> None:
    with league.database.transaction() as session:
        set_schedule(session, load_tournament(session, league.code), every=2, unit="week",
                     next_on=dt.date(2026, 10, 1))
    monkeypatch.setenv("CORRMAIL_DATABASE_URL", db_url)
    result = CliRunner().invoke(main, ["bulletins-due", "--today", "2026-10-20"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["ЗКБ-1: bulletin 1 as of 2026-10-01",
                                          "ЗКБ-1: bulletin 2 as of 2026-10-15"]
    again = CliRunner().invoke(main, ["bulletins-due", "--today", "2026-10-20"])
    assert again.output.strip() == "no bulletin is due"


def test_a_correction_is_a_new_version_and_the_old_one_stays(league: Any) -> None:
    for ply in range(6):
        league.send_move(3, dt.date(2026, 9, 2) + dt.timedelta(days=9 * ply))
    with league.database.transaction() as session:
        first = issue(session, load_tournament(session, league.code), dt.date(2026, 11, 1))
        first_id, first_content = first.id, first.content
    # The result, reached on 20.10, is entered late: the issued bulletin did not know it.
    league.finish(3, GameResult.BLACK_WIN, dt.date(2026, 10, 20))
    with league.database.transaction() as session:
        stored = session.get(BulletinIssue, first_id)
        assert stored is not None
        assert rebuild(session, stored) != first_content
        corrected = reissue(session, first_id)
        assert (corrected.number, corrected.version, corrected.as_of) == (
            1, 2, dt.date(2026, 11, 1))
        assert len(corrected.content["finished"]) == 1
        assert stored.content == first_content and stored.version == 1
