"""The bulletin pages: who may schedule, preview, issue and read what (002 §4.1.7–4.1.9)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any
from urllib.parse import quote

from corrmail.models import GameResult
from corrmail.models.bulletins import (
    BulletinDelivery,
    BulletinSchedule,
    DeliveryStatus,
    ScheduleUnit,
)


def _play(league: Any) -> None:
    for ply in range(6):
        league.send_move(3, dt.date(2026, 9, 2) + dt.timedelta(days=9 * ply))
    league.finish(3, GameResult.BLACK_WIN, dt.date(2026, 10, 20))
    for ply in range(4):
        league.send_move(0, dt.date(2026, 9, 1) + dt.timedelta(days=9 * ply))


def test_steward_schedules_previews_and_issues(league: Any) -> None:
    _play(league)
    steward = league.client("steward")
    page = steward.get(f"/bulletins/{league.code}")
    assert page.status_code == 200
    assert "schedule-form" in page.get_data(as_text=True)

    response = steward.post(f"/bulletins/{league.code}/schedule",
                            data={"every": 1, "unit": "month", "next_on": "2026-11-01",
                                  "active": "y"})
    assert response.status_code == 302
    with league.database.session() as session:
        schedule = session.get(BulletinSchedule, league.tournament_id)
        assert schedule is not None
        assert (schedule.every, schedule.unit, schedule.next_on) == (
            1, ScheduleUnit.MONTH, dt.date(2026, 11, 1))

    refused = steward.post(f"/bulletins/{league.code}/schedule",
                           data={"every": 500, "unit": "month", "next_on": "2026-11-01"},
                           follow_redirects=True)
    assert "002 §4.1.8" in refused.get_data(as_text=True)

    preview = steward.get(f"/bulletins/{league.code}/preview?as_of=2026-11-01&kind=bulletin")
    html = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "Попова Мария" in html and "<svg" in html
    bad = steward.get(f"/bulletins/{league.code}/preview?as_of=1.11.2026")
    assert bad.status_code == 400

    league.withhold_bulletins(3, dt.date(2026, 10, 25))
    issued = steward.post(f"/bulletins/{league.code}/issue",
                          data={"as_of": "2026-11-01", "kind": "bulletin"})
    assert issued.status_code == 302
    log = steward.get(issued.headers["Location"]).get_data(as_text=True)
    assert "Кузнецов Олег" in log and "skipped" in log and "002 §4.1.9" in log
    with league.database.session() as session:
        statuses = {d.name: d.status for d in session.query(BulletinDelivery).all()}
    assert statuses["Кузнецов Олег"] is DeliveryStatus.SKIPPED
    assert statuses["Иванов Пётр"] is DeliveryStatus.QUEUED

    # The sanctioned player cannot read it on the web either; another player can.
    issue_id = int(issued.headers["Location"].rsplit("/", 1)[1])
    assert league.client("player3").get(f"/bulletins/issues/{issue_id}/print").status_code == 403
    assert league.client("player1").get(f"/bulletins/issues/{issue_id}/print").status_code == 200
    # Players may neither issue nor preview.
    player = league.client("player1")
    assert player.post(f"/bulletins/{league.code}/issue",
                       data={"as_of": "2026-11-01"}).status_code == 403
    assert player.get(f"/bulletins/{league.code}/preview?as_of=2026-11-01").status_code == 403


def test_player_sees_own_sheet(league: Any) -> None:
    _play(league)
    settings = league.app.config["CORRMAIL_SETTINGS"]
    league.app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(settings, today=dt.date(2026, 10, 1))
    sheet = league.client("player1").get(f"/bulletins/{league.code}/sheet")
    html = sheet.get_data(as_text=True)
    assert sheet.status_code == 200
    assert "Иванов Пётр" in html and "Попова Мария" in html
    assert html.count('data-game="') == 3  # a four-player round robin: three games each
    assert league.client("organizer").get(
        f"/bulletins/{league.code}/sheet?participant={league.participants[1]}").status_code == 200
    assert league.client("steward").get(f"/bulletins/{league.code}/sheet").status_code == 403
    player = league.client("player1")
    index = player.get("/bulletins/").get_data(as_text=True)
    code = quote(league.code)
    assert f"/bulletins/{code}" in index
    page = player.get(f"/bulletins/{league.code}").get_data(as_text=True)
    assert f"/bulletins/{code}/sheet" in page and "schedule-form" not in page
    assert league.client("organizer").get("/bulletins/").status_code == 200


def test_no_standings_without_start_numbers(league: Any) -> None:
    from corrmail.models import Participant

    with league.database.transaction() as session:
        entry = session.get(Participant, league.participants[0])
        assert entry is not None
        entry.start_number = None
    steward = league.client("steward")
    preview = steward.get(f"/bulletins/{league.code}/preview?as_of=2026-11-01")
    assert preview.status_code == 400
    assert "start numbers" in preview.get_data(as_text=True)
    issued = steward.post(f"/bulletins/{league.code}/issue", data={"as_of": "2026-11-01"},
                          follow_redirects=True)
    assert "start numbers" in issued.get_data(as_text=True)


def test_a_bulletin_dated_after_today_is_refused_and_nothing_is_issued_or_sent(
        league: Any) -> None:
    """A bulletin reports what has happened (002 §4.1.8): one dated after today is refused,
    nothing archived, nothing sent."""
    from corrmail.models import OutboxMessage
    from corrmail.models.bulletins import BulletinIssue

    _play(league)
    steward = league.client("steward")
    today = dt.date.today()
    later = today + dt.timedelta(days=20)
    refused = steward.post(f"/bulletins/{league.code}/issue",
                           data={"as_of": later.isoformat(), "kind": "bulletin"},
                           follow_redirects=True)
    page = refused.get_data(as_text=True)
    assert f"дата бюллетеня {later:%d.%m.%Y} позже сегодняшней" in page and "002 §4.1.8" in page
    with league.database.session() as session:
        assert session.query(BulletinIssue).count() == 0
        assert session.query(BulletinDelivery).count() == 0
        outbox_before = session.query(OutboxMessage).count()

    past = today - dt.timedelta(days=3)
    kept = steward.post(f"/bulletins/{league.code}/schedule",
                        data={"every": 2, "unit": "week", "next_on": past.isoformat(),
                              "active": "y"}, follow_redirects=True)
    # A first date gone by is kept, and the steward is told what the daily run will do.
    assert (f"Первая дата {past:%d.%m.%Y} уже прошла" in kept.get_data(as_text=True))
    with league.database.session() as session:
        assert session.query(OutboxMessage).count() == outbox_before

    # A schedule set right reads in words, in the plural Russian needs.
    steward.post(f"/bulletins/{league.code}/schedule",
                 data={"every": 2, "unit": "week", "next_on": today.isoformat(), "active": "y"})
    shown = steward.get(f"/bulletins/{league.code}").get_data(as_text=True)
    assert f"Каждые 2 недели, следующий {today:%d.%m.%Y}" in shown and "(week)" not in shown
    steward.post("/locale", data={"locale": "en"})
    shown = steward.get(f"/bulletins/{league.code}").get_data(as_text=True)
    assert f"Every 2 weeks, next on {today:%d.%m.%Y}" in shown
