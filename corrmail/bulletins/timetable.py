"""The steward's bulletin schedule (002 §4.1.8: "periodically informs the participants"):
every N days, weeks or months from a first date; :func:`run_due` issues and sends what is due.

A scheduled bulletin is built as of its scheduled date, not the day the job ran, so a late run
produces the same bulletin it would have produced on time. Whether a date has come is judged on
the tournament's own calendar (its ``time_zone``): the steward's "1 December" is 1 December where
the tournament is played, which in Auckland begins half a day before it does in Los Angeles.
"""

from __future__ import annotations

import datetime as dt

from dateutil.relativedelta import relativedelta
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail import audit
from corrmail.bulletins.archive import issue
from corrmail.bulletins.sending import send_issue
from corrmail.letters.write import LetterWriter
from corrmail.models import Tournament, User
from corrmail.models.bulletins import BulletinIssue, BulletinSchedule, ScheduleUnit
from timekeeping import local_date

__all__ = ["ScheduleError", "following", "run_due", "set_schedule"]

RULE = "002 §4.1.8"
MAX_EVERY = {ScheduleUnit.DAY: 366, ScheduleUnit.WEEK: 52, ScheduleUnit.MONTH: 12}


class ScheduleError(ValueError):
    """A schedule the steward cannot set; ``field`` names the offending input."""

    def __init__(self, field: str, value: object, message: str) -> None:
        super().__init__(f"{message} ({RULE})")
        self.field = field
        self.value = value


def following(day: dt.date, every: int, unit: ScheduleUnit) -> dt.date:
    """The next scheduled date after ``day`` (month ends stay month ends: 31.01 → 28.02)."""
    step = {
        ScheduleUnit.DAY: relativedelta(days=every),
        ScheduleUnit.WEEK: relativedelta(weeks=every),
        ScheduleUnit.MONTH: relativedelta(months=every),
    }[unit]
    result: dt.date = day + step
    return result


def set_schedule(
    session: Session,
    tournament: Tournament,
    *,
    every: int,
    unit: ScheduleUnit | str,
    next_on: dt.date,
    active: bool = True,
    user: User | None = None,
) -> BulletinSchedule:
    try:
        unit = ScheduleUnit(unit)
    except ValueError:
        raise ScheduleError("unit", unit, _("the interval is counted in days, weeks or months")
                            ) from None
    if not 1 <= every <= MAX_EVERY[unit]:
        raise ScheduleError("every", every, _(
            "every %(every)s: give a number from 1 to %(most)s", every=every,
            most=MAX_EVERY[unit]))
    if next_on > tournament.end_date + relativedelta(months=3):
        raise ScheduleError("next_on", next_on, _(
            "the next bulletin on %(day)s comes after the end of play and the adjudications",
            day=f"{next_on:%d.%m.%Y}"))
    schedule = session.get(BulletinSchedule, tournament.id)
    if schedule is None:
        schedule = BulletinSchedule(tournament_id=tournament.id, next_on=next_on)
        session.add(schedule)
    schedule.every, schedule.unit, schedule.next_on, schedule.active = every, unit, next_on, active
    schedule.set_by_id = user.id if user is not None else None
    session.flush()
    audit.record(
        session, user=user, action="bulletin.scheduled", entity="tournament",
        entity_id=tournament.id, tournament_id=tournament.id, rule=RULE,
        summary=f"every {every} {unit.value}(s) from {next_on.isoformat()}"
                + ("" if active else " (paused)"),
    )
    return schedule


#: No calendar is more than a day ahead of UTC's (UTC+14 is the furthest), so no schedule whose
#: date is later than this can be due anywhere yet.
_AHEAD_OF_UTC = dt.timedelta(days=1)


def run_due(session: Session, writer: LetterWriter,
            now: dt.datetime | dt.date) -> list[BulletinIssue]:
    """Issue and send every scheduled bulletin due on or before the tournament's today; each
    missed date gets its own bulletin, as of that date.

    ``now`` is an instant (timezone-aware), turned into each tournament's own calendar date
    through its ``time_zone``; a plain date (``CORRMAIL_TODAY``, ``--today``) is that date in
    every tournament, as everywhere else in the service.
    """
    issued = []
    if isinstance(now, dt.datetime):
        latest = local_date(now, dt.UTC) + _AHEAD_OF_UTC
    else:
        latest = now
    schedules = session.scalars(
        select(BulletinSchedule)
        .where(BulletinSchedule.active.is_(True), BulletinSchedule.next_on <= latest)
        .order_by(BulletinSchedule.tournament_id)
    ).all()
    for schedule in schedules:
        today = (local_date(now, schedule.tournament.time_zone) if isinstance(now, dt.datetime)
                 else now)
        while schedule.next_on <= today:
            row = issue(session, schedule.tournament, schedule.next_on)
            send_issue(session, writer, row)
            issued.append(row)
            schedule.next_on = following(schedule.next_on, schedule.every, schedule.unit)
    session.flush()
    return issued
